package dev.jvmtuning.operator.deployment;

import dev.jvmtuning.operator.model.LabelsAndAnnotations;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Which pods are a Deployment's: its full selector matches them (expressions included) and one of
 * its ReplicaSets owns them, so a canary or another workload that shares the labels is never read. Pure.
 */
public final class TargetPods {

    private TargetPods() {
    }

    /** Ready, and not on its way out: a pod whose figures speak for the Deployment. */
    public static boolean ready(Pod pod) {
        return pod.getMetadata().getDeletionTimestamp() == null && pod.getStatus() != null
                && Objects.requireNonNullElse(pod.getStatus().getConditions(), List.<PodCondition>of()).stream()
                        .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
    }

    /** The settings hash a pod was created with (its template's annotation), or null for a pod of an untuned template. */
    public static String settingsHash(Pod pod) {
        return Objects.requireNonNullElse(pod.getMetadata().getAnnotations(), Map.<String, String>of()).get(LabelsAndAnnotations.SETTINGS_HASH_ANNOTATION);
    }

    /**
     * The memory limit a pod's container runs under: as the kubelet applied it (after an in-place resize), else as its spec
     * says; empty without one.
     */
    public static Optional<Long> memoryLimitBytes(Pod pod, String container) {
        Optional<Quantity> applied = pod.getStatus() == null || pod.getStatus().getContainerStatuses() == null ? Optional.empty()
                : pod.getStatus().getContainerStatuses().stream().filter(c -> container.equals(c.getName()) && c.getResources() != null
                        && c.getResources().getLimits() != null).map(c -> c.getResources().getLimits().get("memory")).filter(Objects::nonNull).findFirst();
        Optional<Quantity> declared = pod.getSpec() == null ? Optional.empty() : pod.getSpec().getContainers().stream()
                .filter(c -> container.equals(c.getName()) && c.getResources() != null && c.getResources().getLimits() != null)
                .map(c -> c.getResources().getLimits().get("memory")).filter(Objects::nonNull).findFirst();
        return applied.or(() -> declared).map(q -> Quantity.getAmountInBytes(q).longValue());
    }

    /** Those of the autoscalers that scale this Deployment. */
    public static List<HorizontalPodAutoscaler> autoscalersOf(List<HorizontalPodAutoscaler> autoscalers, Deployment deployment) {
        return autoscalers.stream().filter(h -> h.getSpec() != null && h.getSpec().getScaleTargetRef() != null
                && "Deployment".equals(h.getSpec().getScaleTargetRef().getKind())
                && deployment.getMetadata().getName().equals(h.getSpec().getScaleTargetRef().getName())).toList();
    }

    /** The images of a Deployment's template's containers, in order: what its pods run once rolled out. */
    public static String images(Deployment deployment) {
        return images(deployment.getSpec().getTemplate().getSpec());
    }

    /** The images of a pod's containers, in order. */
    public static String images(Pod pod) {
        return pod.getSpec() == null ? "" : images(pod.getSpec());
    }

    private static String images(PodSpec spec) {
        return spec.getContainers().stream().map(Container::getImage).collect(Collectors.joining(" "));
    }

    /** When the youngest running container of the pods (last) started: a JVM younger than a warm-up is still cold. Empty: none runs. */
    public static Optional<Instant> youngestStart(List<Pod> pods) {
        return pods.stream().filter(p -> p.getStatus() != null && p.getStatus().getContainerStatuses() != null)
                .flatMap(p -> p.getStatus().getContainerStatuses().stream())
                .map(c -> c.getState() == null || c.getState().getRunning() == null ? null : c.getState().getRunning().getStartedAt())
                .filter(Objects::nonNull).map(Instant::parse).max(Instant::compareTo);
    }

    public static boolean belongsTo(Pod pod, Deployment deployment) {
        return Objects.equals(pod.getMetadata().getNamespace(), deployment.getMetadata().getNamespace())
                && deploymentName(pod).filter(deployment.getMetadata().getName()::equals).isPresent()
                && matches(deployment.getSpec().getSelector(), labels(pod));
    }

    /** The Deployment whose ReplicaSet owns the pod: the ReplicaSet is named after it and the template hash. */
    public static Optional<String> deploymentName(Pod pod) {
        String hash = labels(pod).get(LabelsAndAnnotations.POD_TEMPLATE_HASH_LABEL);
        return hash == null ? Optional.empty() : replicaSetName(pod).filter(name -> name.endsWith("-" + hash))
                .map(name -> name.substring(0, name.length() - hash.length() - 1));
    }

    /** Whether the Deployment controls an object (its ReplicaSet): the Deployment, not one of the same name before it. */
    public static boolean controlledBy(HasMetadata object, Deployment deployment) {
        return Objects.requireNonNullElse(object.getMetadata().getOwnerReferences(), List.<OwnerReference>of()).stream()
                .anyMatch(o -> Boolean.TRUE.equals(o.getController()) && Objects.equals(deployment.getMetadata().getUid(), o.getUid()));
    }

    /** The ReplicaSet that controls the pod. */
    public static Optional<String> replicaSetName(Pod pod) {
        return Objects.requireNonNullElse(pod.getMetadata().getOwnerReferences(), List.<OwnerReference>of()).stream()
                .filter(o -> "ReplicaSet".equals(o.getKind()) && Boolean.TRUE.equals(o.getController())).map(OwnerReference::getName)
                .findFirst();
    }

    /** A label selector as the API server reads it: every label and every expression must hold; an empty selector matches nothing. */
    public static boolean matches(LabelSelector selector, Map<String, String> labels) {
        if (selector == null) {
            return false;
        }
        Map<String, String> required = Objects.requireNonNullElse(selector.getMatchLabels(), Map.of());
        List<LabelSelectorRequirement> expressions = Objects.requireNonNullElse(selector.getMatchExpressions(), List.of());
        if (required.isEmpty() && expressions.isEmpty()) {
            return false;
        }
        return required.entrySet().stream().allMatch(e -> e.getValue().equals(labels.get(e.getKey())))
                && expressions.stream().allMatch(e -> holds(e, labels));
    }

    private static boolean holds(LabelSelectorRequirement requirement, Map<String, String> labels) {
        String value = labels.get(requirement.getKey());
        List<String> values = Objects.requireNonNullElse(requirement.getValues(), List.of());
        return switch (requirement.getOperator()) {
            case "In" -> value != null && values.contains(value);
            case "NotIn" -> value == null || !values.contains(value);
            case "Exists" -> value != null;
            case "DoesNotExist" -> value == null;
            default -> false;
        };
    }

    private static Map<String, String> labels(Pod pod) {
        return Objects.requireNonNullElse(pod.getMetadata().getLabels(), Map.of());
    }
}
