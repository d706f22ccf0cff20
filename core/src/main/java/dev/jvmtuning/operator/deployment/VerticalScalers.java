package dev.jvmtuning.operator.deployment;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The VerticalPodAutoscaler (autoscaling.k8s.io/v1) of a Deployment's container, as far as it changes the limits a JVM is sized
 * against. Read from the generic resource, so that the operator needs no VPA model and runs where the CRD is not installed.
 * Pure.
 */
public final class VerticalScalers {
    public static final String GROUP_VERSION = "autoscaling.k8s.io/v1";
    public static final String KIND = "VerticalPodAutoscaler";
    private static final List<String> DEFAULT_RESOURCES = List.of("cpu", "memory");

    private VerticalScalers() {
    }

    /**
     * A VPA of the target and what it moves of the container's limits.
     *
     * @param updateMode  spec.updatePolicy.updateMode (Auto when unset)
     * @param memoryLimit whether it sets the container's memory limit on the pods it admits or resizes
     * @param cpuLimit    whether it sets the container's CPU limit
     * @param minAllowedMemoryBytes the least memory its container policy allows (minAllowed.memory), or null
     * @param sizes       the resources whose requests it moves (memory, cpu), none where it is off
     */
    public record VerticalScaler(String name, String updateMode, boolean memoryLimit, boolean cpuLimit, Long minAllowedMemoryBytes,
            Set<String> sizes) {
        public List<String> controls() {
            List<String> controls = new ArrayList<>();
            if (memoryLimit) {
                controls.add("memory");
            }
            if (cpuLimit) {
                controls.add("cpu");
            }
            return controls;
        }
    }

    /** The first VPA whose targetRef names this Deployment, with what it moves of this container's limits. */
    public static Optional<VerticalScaler> of(List<GenericKubernetesResource> autoscalers, Deployment deployment, String container) {
        return autoscalers.stream().filter(v -> targets(v, deployment)).findFirst().map(v -> {
            String mode = Objects.requireNonNullElse(string(at(v, "spec", "updatePolicy"), "updateMode"), "Auto");
            Map<String, Object> policy = containerPolicy(v, container);
            boolean acting = !"Off".equals(mode) && !"Off".equals(string(policy, "mode"));
            boolean limits = !"RequestsOnly".equals(string(policy, "controlledValues"));
            List<?> resources = policy.get("controlledResources") instanceof List<?> list ? list : DEFAULT_RESOURCES;
            Object minAllowed = policy.get("minAllowed") instanceof Map<?, ?> m ? m.get("memory") : null;
            return new VerticalScaler(v.getMetadata().getName(), mode, acting && limits && resources.contains("memory"),
                    acting && limits && resources.contains("cpu"),
                    minAllowed == null ? null : Quantity.getAmountInBytes(new Quantity(String.valueOf(minAllowed))).longValue(),
                    acting ? resources.stream().map(String::valueOf).collect(Collectors.toUnmodifiableSet()) : Set.of());
        });
    }

    /** The Deployment a VPA's targetRef names, if it names one. */
    public static Optional<String> targetDeployment(GenericKubernetesResource autoscaler) {
        Map<String, Object> target = at(autoscaler, "spec", "targetRef");
        return "Deployment".equals(string(target, "kind")) ? Optional.ofNullable(string(target, "name")) : Optional.empty();
    }

    private static boolean targets(GenericKubernetesResource autoscaler, Deployment deployment) {
        return targetDeployment(autoscaler).filter(deployment.getMetadata().getName()::equals).isPresent();
    }

    /** The policy for this container, else the one for every container ("*"), else none. */
    private static Map<String, Object> containerPolicy(GenericKubernetesResource autoscaler, String container) {
        Object policies = at(autoscaler, "spec", "resourcePolicy").get("containerPolicies");
        List<Map<String, Object>> all = new ArrayList<>();
        if (policies instanceof List<?> list) {
            list.stream().filter(Map.class::isInstance).forEach(p -> all.add(map(p)));
        }
        return all.stream().filter(p -> container.equals(p.get("containerName"))).findFirst()
                .or(() -> all.stream().filter(p -> "*".equals(p.get("containerName"))).findFirst()).orElse(Map.of());
    }

    private static Map<String, Object> at(GenericKubernetesResource resource, String... path) {
        Object node = resource.getAdditionalProperties();
        for (String step : path) {
            node = node instanceof Map<?, ?> m ? m.get(step) : null;
        }
        return node instanceof Map<?, ?> ? map(node) : Map.of();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object node) {
        return (Map<String, Object>) node;
    }

    private static String string(Map<String, Object> node, String key) {
        return node.get(key) instanceof String s ? s : null;
    }
}
