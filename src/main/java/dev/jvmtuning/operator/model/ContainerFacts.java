package dev.jvmtuning.operator.model;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the planner needs to know of the target container, in plain numbers.
 *
 * @param cpuLimitCores    CPU limit in cores, or null when none is set
 * @param cpuRequestCores  CPU request in cores, or null
 * @param memoryLimitBytes memory limit, or null when none is set
 * @param memoryRequestBytes memory request, or null
 * @param env              the container's environment variables with literal values
 * @param envFromReferences names of variables whose value comes from a ConfigMap, Secret or field reference
 * @param command          the container's command (entrypoint override), possibly empty
 * @param args             the container's args, possibly empty
 * @param javaMajorVersion the JVM's feature version when known (17, 21, ...), or null
 * @param replicas         the Deployment's replicas, for totals such as database connections
 */
public record ContainerFacts(
        Double cpuLimitCores,
        Double cpuRequestCores,
        Long memoryLimitBytes,
        Long memoryRequestBytes,
        Map<String, String> env,
        Set<String> envFromReferences,
        List<String> command,
        List<String> args,
        Integer javaMajorVersion,
        int replicas) {

    public ContainerFacts {
        env = Map.copyOf(env);
        envFromReferences = Set.copyOf(envFromReferences);
        command = List.copyOf(command);
        args = List.copyOf(args);
    }

    /** A container with only resources set: no environment, no command, JVM version unknown, one replica. */
    public static ContainerFacts ofResources(Double cpuLimitCores, Double cpuRequestCores, Long memoryLimitBytes, Long memoryRequestBytes) {
        return new ContainerFacts(cpuLimitCores, cpuRequestCores, memoryLimitBytes, memoryRequestBytes,
                Map.of(), Set.of(), List.of(), List.of(), null, 1);
    }

    /** The CPUs the JVM should see: the limit, else the request (R14). */
    public Double cores() {
        return cpuLimitCores != null ? cpuLimitCores : cpuRequestCores;
    }

    /** The memory the JVM must fit into: the limit, else the request. */
    public Long memoryBudgetBytes() {
        return memoryLimitBytes != null ? memoryLimitBytes : memoryRequestBytes;
    }
}
