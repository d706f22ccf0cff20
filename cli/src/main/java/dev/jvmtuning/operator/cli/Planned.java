package dev.jvmtuning.operator.cli;

import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import dev.jvmtuning.operator.decision.Conditions;
import dev.jvmtuning.operator.decision.Decide;
import dev.jvmtuning.operator.decision.Observation;
import dev.jvmtuning.operator.deployment.TargetPods;
import dev.jvmtuning.operator.deployment.VerticalScalers;
import dev.jvmtuning.operator.model.ConditionStatus;
import dev.jvmtuning.operator.model.ConditionType;
import dev.jvmtuning.operator.model.LabelsAndAnnotations;
import dev.jvmtuning.operator.preview.Preview;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A profile, its live Deployment, what the operator renders for it and what it decides: the operator's own decision on what
 * the cluster shows now (the profile with its status, the Deployment, its pods, the profiles that target it and the profile's
 * ConfigMaps). No metrics are polled: the Java version and AOT cache the pods reported are the ones status recorded.
 */
record Planned(TuningProfile profile, Deployment live, Preview.Rendered preview, Decide.Decision decision) {

    static Planned of(TuningProfile profile, KubernetesClient client, String namespace, Decide.Installation installation) {
        String targetName = profile.getSpec().getTargetRef().getName();
        Deployment live = client.apps().deployments().inNamespace(namespace).withName(targetName).get();
        if (live == null) {
            throw new Refusal("no Deployment " + targetName + " in namespace " + namespace);
        }
        // A profile the planner refuses is an error to fix, said as such, rather than the Deployment the operator leaves it.
        Preview.Live cluster = new Preview.Live(pods(live, client, namespace), null, List.of(), autoscalers(client, namespace),
                verticalScalers(client, namespace), null);
        Preview preview = Preview.of(profile, live, cluster, null, installation.preview());
        if (preview instanceof Preview.NoContainer missing) {
            throw new Refusal(missing.problem());
        }
        if (preview instanceof Preview.Rejected rejected) {
            throw new Refusal(rejected.reason() + ": " + String.join("; ", rejected.messages()));
        }
        Observation seen = new Observation(profile, Optional.of(live), targeting(profile, live, client, namespace),
                cluster.pods(), configMaps(profile, client, namespace), Optional.empty(), cluster.autoscalers(), cluster.verticalScalers(),
                Instant.now());
        return new Planned(profile, live, (Preview.Rendered) preview, Decide.of(seen, installation));
    }

    /** Why the operator does not apply the planned settings, as its decision's Applied condition says; empty when it does. */
    Optional<String> notApplied() {
        return Conditions.find(decision.status().getConditions(), ConditionType.APPLIED).filter(c -> !ConditionStatus.TRUE.is(c.getStatus()))
                .map(c -> c.getReason() + ": " + c.getMessage());
    }

    /** The profiles that name the Deployment: this one as given (from a file, perhaps not created yet), and the cluster's others. */
    private static List<TuningProfile> targeting(TuningProfile profile, Deployment live, KubernetesClient client, String namespace) {
        String name = profile.getMetadata().getName();
        Stream<TuningProfile> others = client.resources(TuningProfile.class).inNamespace(namespace).list().getItems().stream()
                .filter(p -> !p.getMetadata().getName().equals(name) && Observation.targetName(p).equals(live.getMetadata().getName()));
        return Stream.concat(others, Stream.of(profile)).toList();
    }

    /** The namespace's HorizontalPodAutoscalers; none where the user may not read them. */
    private static List<HorizontalPodAutoscaler> autoscalers(KubernetesClient client, String namespace) {
        try {
            return client.autoscaling().v2().horizontalPodAutoscalers().inNamespace(namespace).list().getItems();
        } catch (KubernetesClientException e) {
            return List.of();
        }
    }

    /** The namespace's VerticalPodAutoscalers; none where their CRD is not installed, or the user may not read them. */
    private static List<GenericKubernetesResource> verticalScalers(KubernetesClient client, String namespace) {
        try {
            return client.genericKubernetesResources(VerticalScalers.GROUP_VERSION, VerticalScalers.KIND).inNamespace(namespace).list().getItems();
        } catch (KubernetesClientException e) {
            return List.of();
        }
    }

    /** The Deployment's pods: a rollout of the settings whose pods fail is taken back, and that is a write too. */
    private static List<Pod> pods(Deployment live, KubernetesClient client, String namespace) {
        Map<String, String> selector = Objects.requireNonNullElse(live.getSpec().getSelector().getMatchLabels(), Map.of());
        return client.pods().inNamespace(namespace).withLabels(selector).list().getItems().stream()
                .filter(pod -> TargetPods.belongsTo(pod, live)).toList();
    }

    /**
     * The profile's ConfigMaps as the operator's informer holds them: labelled as the operator's, with the profile as owner.
     * A profile not created yet owns none.
     */
    private static List<ConfigMap> configMaps(TuningProfile profile, KubernetesClient client, String namespace) {
        if (profile.getMetadata().getUid() == null) {
            return List.of();
        }
        String kind = HasMetadata.getKind(TuningProfile.class);
        return client.configMaps().inNamespace(namespace).withLabel(LabelsAndAnnotations.MANAGED_BY_LABEL, LabelsAndAnnotations.OPERATOR)
                .list().getItems().stream()
                .filter(c -> c.getMetadata().getOwnerReferences().stream()
                        .anyMatch(o -> kind.equals(o.getKind()) && profile.getMetadata().getName().equals(o.getName())))
                .toList();
    }
}
