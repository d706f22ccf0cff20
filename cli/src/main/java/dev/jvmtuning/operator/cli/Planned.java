package dev.jvmtuning.operator.cli;

import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import dev.jvmtuning.operator.decision.Conditions;
import dev.jvmtuning.operator.decision.Decide;
import dev.jvmtuning.operator.decision.Observation;
import dev.jvmtuning.operator.decision.Write;
import dev.jvmtuning.operator.deployment.TargetPods;
import dev.jvmtuning.operator.deployment.VerticalScalers;
import dev.jvmtuning.operator.model.ConditionStatus;
import dev.jvmtuning.operator.model.ConditionType;
import dev.jvmtuning.operator.model.LabelsAndAnnotations;
import dev.jvmtuning.operator.model.Reason;
import dev.jvmtuning.operator.rollout.Rollout;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The operator's own decision on what the cluster shows now: the profile with its status, the Deployment, its pods, the profiles
 * that target it and the profile's ConfigMaps. No metrics are polled: the Java version and AOT cache the pods reported are the
 * ones status recorded.
 */
record Planned(Observation seen, Decide.Decision decision) {
    /** The Applied reasons of a profile the operator refuses as written: an error to fix rather than a state to wait out. */
    private static final Set<Reason> REFUSED = EnumSet.of(Reason.INVALID, Reason.INFEASIBLE);

    static Planned of(TuningProfile profile, KubernetesClient client, String namespace, Decide.Installation installation) {
        String targetName = profile.getSpec().getTargetRef().getName();
        Deployment live = client.apps().deployments().inNamespace(namespace).withName(targetName).get();
        if (live == null) {
            throw new Refusal("no Deployment " + targetName + " in namespace " + namespace);
        }
        Observation seen = new Observation(profile, Optional.of(live), targeting(profile, live, client, namespace), pods(live, client, namespace),
                replicaSets(live, client, namespace), configMaps(profile, client, namespace), Optional.empty(), autoscalers(client, namespace), verticalScalers(client, namespace),
                Instant.now());
        Planned planned = new Planned(seen, Decide.of(seen, installation));
        // A profile the operator refuses is an error to fix, said as such, rather than the Deployment the operator leaves it.
        planned.applied().filter(c -> !ConditionStatus.TRUE.is(c.getStatus()) && REFUSED.stream().anyMatch(r -> r.text().equals(c.getReason())))
                .ifPresent(c -> {
                    throw new Refusal(c.getReason() + ": " + c.getMessage());
                });
        return planned;
    }

    TuningProfile profile() {
        return seen.profile();
    }

    Deployment live() {
        return seen.target().orElseThrow();
    }

    /** Why the operator does not apply the planned settings, as its decision's Applied condition says; empty when it does. */
    Optional<String> notApplied() {
        return applied().filter(c -> !ConditionStatus.TRUE.is(c.getStatus())).map(c -> c.getReason() + ": " + c.getMessage());
    }

    private Optional<Condition> applied() {
        return Conditions.find(decision.status().getConditions(), ConditionType.APPLIED);
    }

    /** The Deployment as the decision leaves it: the template it applies, else the live one, which already holds what it keeps. */
    Deployment tuned() {
        return decision.writes().stream().filter(Write.ApplyDeployment.class::isInstance).map(w -> ((Write.ApplyDeployment) w).desired())
                .findFirst().orElse(live());
    }

    /** One of the profile's ConfigMaps by name: the one the decision creates, else the one the cluster holds. */
    Optional<ConfigMap> configMap(String name) {
        Stream<ConfigMap> created = decision.writes().stream().filter(Write.CreateConfigMap.class::isInstance)
                .map(w -> ((Write.CreateConfigMap) w).configMap());
        return Stream.concat(created, seen.configMaps().stream()).filter(c -> name.equals(c.getMetadata().getName())).findFirst();
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

    /** The Deployment's ReplicaSets while it rolls out, as the operator reads them. */
    private static List<ReplicaSet> replicaSets(Deployment live, KubernetesClient client, String namespace) {
        return Rollout.of(live).complete() ? List.of() : client.apps().replicaSets().inNamespace(namespace)
                .withLabels(live.getSpec().getSelector().getMatchLabels()).list().getItems().stream()
                .filter(r -> TargetPods.controlledBy(r, live)).toList();
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
