package dev.jvmtuning.operator.model;

import dev.jvmtuning.operator.api.v1alpha1.JvmOptionsVariable;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

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
 * @param reportedAotCache the AOT cache or CDS archive the pods' JVMs report being given, as status shows it
 *                         ("-XX:AOTCache on 2 of 2 pods"), or null: one set in the image is in none of the flags above
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
        int replicas,
        String reportedAotCache) {
    /** How messages name the profile's jvmOptions. */
    public static final String JVM_OPTIONS = "jvmOptions";
    /** How messages name the container's command and args. */
    public static final String COMMAND_LINE = "the container's command/args";

    public ContainerFacts {
        env = Map.copyOf(env);
        envFromReferences = Set.copyOf(envFromReferences);
        command = List.copyOf(command);
        args = List.copyOf(args);
    }

    /** A container whose pods report no AOT cache, or none yet. */
    public ContainerFacts(Double cpuLimitCores, Double cpuRequestCores, Long memoryLimitBytes, Long memoryRequestBytes,
            Map<String, String> env, Set<String> envFromReferences, List<String> command, List<String> args, Integer javaMajorVersion,
            int replicas) {
        this(cpuLimitCores, cpuRequestCores, memoryLimitBytes, memoryRequestBytes, env, envFromReferences, command, args,
                javaMajorVersion, replicas, null);
    }

    /** A container with only resources set: no environment, no command, JVM version unknown, one replica. */
    public static ContainerFacts ofResources(Double cpuLimitCores, Double cpuRequestCores, Long memoryLimitBytes, Long memoryRequestBytes) {
        return new ContainerFacts(cpuLimitCores, cpuRequestCores, memoryLimitBytes, memoryRequestBytes,
                Map.of(), Set.of(), List.of(), List.of(), null, 1);
    }

    /**
     * Every JVM flag the JVM will read, in the order it reads them: the JVM options variables the container sets
     * (JAVA_TOOL_OPTIONS first, then the launcher's and the scripts'), the profile's {@code jvmOptions} at the end of
     * the variable the operator writes, then the command line. The user's own flags are inputs to the plan: a value
     * they set is theirs, and a collector beside theirs stops the JVM.
     */
    public JvmFlags jvmFlags(JvmOptionsVariable variable, List<String> jvmOptions) {
        JvmFlags flags = JvmFlags.of("", List.of());
        for (JvmOptionsVariable each : JvmOptionsVariable.values()) {
            flags = flags.then(JvmFlags.parse(source(each), env.get(each.name())));
            if (each == variable) {
                flags = flags.then(JvmFlags.of(JVM_OPTIONS, jvmOptions));
            }
        }
        return flags.then(JvmFlags.of(COMMAND_LINE, commandLine()));
    }

    /** How messages name one of the container's JVM options variables. */
    public static String source(JvmOptionsVariable variable) {
        return "the container's " + variable.name();
    }

    /** The command and args split into words, as a shell would hand them to the JVM. */
    public List<String> commandLine() {
        return Stream.concat(command.stream(), args.stream())
                .flatMap(part -> Arrays.stream(part.trim().split("\\s+")))
                .filter(t -> !t.isEmpty())
                .toList();
    }

    /** The CPUs the JVM should see: the limit, else the request (R14). */
    public Double cores() {
        return cpuLimitCores != null ? cpuLimitCores : cpuRequestCores;
    }

    /** The memory the JVM must fit into: the limit, else the request. */
    /** This container with another memory limit and request. */
    public ContainerFacts withMemory(long limitBytes, long requestBytes) {
        return new ContainerFacts(cpuLimitCores, cpuRequestCores, limitBytes, requestBytes, env, envFromReferences, command, args,
                javaMajorVersion, replicas, reportedAotCache);
    }

    /** This container with another CPU request. */
    public ContainerFacts withCpuRequest(double cores) {
        return new ContainerFacts(cpuLimitCores, cores, memoryLimitBytes, memoryRequestBytes, env, envFromReferences, command, args,
                javaMajorVersion, replicas, reportedAotCache);
    }

    public Long memoryBudgetBytes() {
        return memoryLimitBytes != null ? memoryLimitBytes : memoryRequestBytes;
    }
}
