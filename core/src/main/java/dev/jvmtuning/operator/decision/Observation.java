package dev.jvmtuning.operator.decision;

import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfileStatus;
import dev.jvmtuning.operator.model.MetricsReport;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Everything one reconcile of a profile read, read once, before anything is decided.
 *
 * @param profile     the profile, with the status the last reconcile left
 * @param target      the Deployment it names, if it exists
 * @param targeting   the live profiles that name the same Deployment, this one included
 * @param pods        the target's pods
 * @param replicaSets the target's ReplicaSets while it rolls out; none once its rollout is complete
 * @param configMaps  the profile's own ConfigMaps
 * @param metrics     the latest metrics poll of the profile, if any
 * @param autoscalers the HorizontalPodAutoscalers of the target's namespace, those that scale it among them
 * @param verticalScalers the VerticalPodAutoscalers of the target's namespace; none where their CRD is not installed
 * @param now         the reconcile's one moment: status, a rollback and the Auto loop's decision all say the same time
 */
public record Observation(TuningProfile profile, Optional<Deployment> target, List<TuningProfile> targeting, List<Pod> pods,
        List<ReplicaSet> replicaSets, List<ConfigMap> configMaps, Optional<MetricsReport> metrics, List<HorizontalPodAutoscaler> autoscalers,
        List<GenericKubernetesResource> verticalScalers, Instant now) {

    public Observation {
        targeting = List.copyOf(targeting);
        pods = List.copyOf(pods);
        replicaSets = List.copyOf(replicaSets);
        configMaps = List.copyOf(configMaps);
        autoscalers = List.copyOf(autoscalers);
        verticalScalers = List.copyOf(verticalScalers);
    }

    /** The status the last reconcile left; empty for a new profile. */
    public TuningProfileStatus previousStatus() {
        return previousStatus(profile);
    }

    public static TuningProfileStatus previousStatus(TuningProfile profile) {
        return Objects.requireNonNullElseGet(profile.getStatus(), TuningProfileStatus::new);
    }

    /** The name of the Deployment a profile targets; "" when it names none. */
    public static String targetName(TuningProfile profile) {
        return profile.getSpec() == null || profile.getSpec().getTargetRef() == null ? "" : profile.getSpec().getTargetRef().getName();
    }
}
