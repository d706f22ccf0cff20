package dev.jvmtuning.operator.deployment;

import dev.jvmtuning.operator.model.ContainerFacts;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/** Finds the container a profile tunes and reads what the planner needs from it, as plain numbers. */
public final class TargetContainer {

    private TargetContainer() {
    }

    /** The named container, or the only one when no name is given; otherwise a message saying what to set. */
    public static Lookup find(Deployment deployment, String containerName) {
        List<Container> containers = Optional.ofNullable(deployment.getSpec())
                .map(s -> s.getTemplate()).map(t -> t.getSpec()).map(p -> p.getContainers()).orElse(List.of());
        if (containerName != null) {
            return containers.stream().filter(c -> containerName.equals(c.getName())).findFirst()
                    .map(Lookup::found)
                    .orElseGet(() -> Lookup.missing("Deployment " + deployment.getMetadata().getName() + " has no container named "
                            + containerName + "; its containers are " + names(containers)));
        }
        if (containers.size() == 1) {
            return Lookup.found(containers.get(0));
        }
        return Lookup.missing("Deployment " + deployment.getMetadata().getName() + " has " + containers.size()
                + " containers " + names(containers) + "; set spec.container to the one to tune");
    }

    /**
     * The planner's view of the container: CPU and memory as its newest pod was admitted (the template's before there is a
     * pod), literal env values, references, command, args, the most replicas the Deployment may run (its autoscaler's maximum,
     * else its replicas), and what its pods' JVMs report of themselves (null when unknown).
     */
    public static ContainerFacts facts(Deployment deployment, Container container, Optional<AdmittedContainer> admitted,
            List<HorizontalPodAutoscaler> autoscalers, Integer javaMajorVersion, String reportedAotCache) {
        ResourceRequirements resources = admitted.map(AdmittedContainer::resources)
                .orElseGet(() -> Objects.requireNonNullElseGet(container.getResources(), ResourceRequirements::new));
        Map<String, String> env = new LinkedHashMap<>();
        Set<String> references = new java.util.LinkedHashSet<>();
        for (EnvVar var : Objects.requireNonNullElse(container.getEnv(), List.<EnvVar>of())) {
            if (var.getValueFrom() != null) {
                references.add(var.getName());
            } else {
                env.put(var.getName(), Objects.requireNonNullElse(var.getValue(), ""));
            }
        }
        // The most replicas the Deployment may run: what every pod's pool adds up to at its peak.
        int replicas = TargetPods.autoscalersOf(autoscalers, deployment).stream().map(h -> h.getSpec().getMaxReplicas()).filter(Objects::nonNull)
                .max(Integer::compare).orElse(Objects.requireNonNullElse(deployment.getSpec().getReplicas(), 1));
        return new ContainerFacts(
                cores(resources.getLimits()), cores(resources.getRequests()),
                bytes(resources.getLimits()), bytes(resources.getRequests()),
                env, references,
                Objects.requireNonNullElse(container.getCommand(), List.of()),
                Objects.requireNonNullElse(container.getArgs(), List.of()),
                javaMajorVersion, replicas, reportedAotCache);
    }

    /**
     * The CPU limit of the named container (or the only one) in the template, in cores; null when there is no such container or
     * it has no limit. The CPUs the metrics window counts per for a pod that does not report its own.
     */
    public static Double cpuLimitCores(Deployment deployment, String containerName) {
        Lookup lookup = find(deployment, containerName);
        return lookup.isFound() ? facts(deployment, lookup.container(), Optional.empty(), List.of(), null, null).cpuLimitCores() : null;
    }

    private static Double cores(Map<String, Quantity> resources) {
        Quantity cpu = resources == null ? null : resources.get("cpu");
        return cpu == null ? null : Quantity.getAmountInBytes(cpu).doubleValue();
    }

    private static Long bytes(Map<String, Quantity> resources) {
        Quantity memory = resources == null ? null : resources.get("memory");
        return memory == null ? null : Quantity.getAmountInBytes(memory).longValue();
    }

    private static String names(List<Container> containers) {
        return containers.stream().map(Container::getName).collect(Collectors.joining(", ", "[", "]"));
    }

    /** A container, or why there is none. */
    public record Lookup(Container container, String problem) {
        static Lookup found(Container container) {
            return new Lookup(container, null);
        }

        static Lookup missing(String problem) {
            return new Lookup(null, problem);
        }

        public boolean isFound() {
            return container != null;
        }
    }
}
