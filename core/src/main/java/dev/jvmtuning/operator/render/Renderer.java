package dev.jvmtuning.operator.render;

import dev.jvmtuning.operator.api.v1alpha1.Collector;
import dev.jvmtuning.operator.api.v1alpha1.JvmOptionsVariable;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfileSpec;
import dev.jvmtuning.operator.model.ContainerFacts;
import dev.jvmtuning.operator.model.JvmFlags;
import dev.jvmtuning.operator.model.PlannedResources;
import dev.jvmtuning.operator.model.ServerVocabulary;
import dev.jvmtuning.operator.model.Setting;
import dev.jvmtuning.operator.model.TuningValues;
import dev.jvmtuning.operator.model.Units;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.TreeMap;
import java.util.stream.Stream;

/** Maps planned values to a runtime's JVM flags and server properties, and finds what in the container overrides them. Pure. */
public final class Renderer {

    static final String MALLOC_ARENA_MAX = "MALLOC_ARENA_MAX";
    private static final Map<String, Setting> RESOURCE_SETTINGS = Map.of(PlannedResources.LIMITS_MEMORY, Setting.MEMORY_LIMIT,
            PlannedResources.REQUESTS_MEMORY, Setting.MEMORY_REQUEST, PlannedResources.REQUESTS_CPU, Setting.CPU_REQUEST);

    private Renderer() {
    }

    /**
     * The limits another controller sets on the pods it admits or resizes (a VerticalPodAutoscaler): values the JVM must read
     * from its container at start rather than from flags fixed for today's limit.
     */
    public record Owned(boolean memoryLimit, boolean cpuLimit) {
        public static final Owned NONE = new Owned(false, false);
    }

    public static Rendering render(TuningValues values, TuningProfileSpec spec, ContainerFacts facts) {
        return render(values, spec, facts, Owned.NONE, Set.of());
    }

    /**
     * Where another controller owns the memory limit, the heap goes as its share of the limit (-XX:MaxRAMPercentage): the JVM
     * sizes it against whatever limit its pod was given, and the young generation and soft maximum, fixed sizes, are left to
     * it. Where it owns the CPU limit, the counts derived from today's CPUs (ActiveProcessorCount, GC threads, the virtual
     * thread scheduler's parallelism) are left to the JVM, which reads its CPU quota at start. A VM option the target's JVM
     * refused ({@code refusedVmOptions}) is left out, whatever the plan says: that JVM would not start with it.
     */
    public static Rendering render(TuningValues values, TuningProfileSpec spec, ContainerFacts facts, Owned byOthers,
            Set<String> refusedVmOptions) {
        List<String> userOptions = Objects.requireNonNullElse(spec.getJvmOptions(), List.of());
        JvmFlags userFlags = facts.jvmFlags(spec.getJvmOptionsVariable(), userOptions);
        Map<Setting, String> renderedAs = new EnumMap<>(Setting.class);
        List<String> warnings = new ArrayList<>();

        List<String> flags = new ArrayList<>();
        if (!byOthers.cpuLimit()) {
            addFlag(flags, renderedAs, Setting.ACTIVE_PROCESSOR_COUNT, values.activeProcessorCount(), n -> "-XX:ActiveProcessorCount=" + n);
            addFlag(flags, renderedAs, Setting.VIRTUAL_THREAD_PARALLELISM, values.virtualThreadParallelism(),
                    n -> "-Djdk.virtualThreadScheduler.parallelism=" + n);
        }
        Long limit = facts.memoryLimitBytes();
        if (byOthers.memoryLimit() && limit != null) {
            addFlag(flags, renderedAs, Setting.HEAP_INITIAL, values.initialHeapBytes(), b -> "-XX:InitialRAMPercentage=" + share(b, limit));
            addFlag(flags, renderedAs, Setting.HEAP_SIZE, values.heapBytes(), b -> "-XX:MaxRAMPercentage=" + share(b, limit));
        } else {
            addFlag(flags, renderedAs, Setting.HEAP_INITIAL, values.initialHeapBytes(), b -> "-Xms" + Units.jvmMebibytes(b));
            addFlag(flags, renderedAs, Setting.HEAP_SIZE, values.heapBytes(), b -> "-Xmx" + Units.jvmMebibytes(b));
            addFlag(flags, renderedAs, Setting.HEAP_SOFT_MAX, values.softMaxHeapBytes(), b -> "-XX:SoftMaxHeapSize=" + Units.jvmMebibytes(b));
            addFlag(flags, renderedAs, Setting.HEAP_YOUNG, values.youngGenerationBytes(), b -> "-Xmn" + Units.jvmMebibytes(b));
        }
        addFlag(flags, renderedAs, Setting.GC_COLLECTOR, values.collector(), Renderer::collectorFlag);
        if (values.zGenerational()) {
            flags.add("-XX:+ZGenerational");
        }
        if (values.compactObjectHeaders()) {
            flags.add("-XX:+UseCompactObjectHeaders");
            renderedAs.put(Setting.COMPACT_OBJECT_HEADERS, "-XX:+UseCompactObjectHeaders");
        }
        addFlag(flags, renderedAs, Setting.GC_MAX_PAUSE_MILLIS, values.maxPauseMillis(), ms -> "-XX:MaxGCPauseMillis=" + ms);
        if (!byOthers.cpuLimit()) {
            addFlag(flags, renderedAs, Setting.GC_PARALLEL_THREADS, values.parallelGcThreads(), n -> "-XX:ParallelGCThreads=" + n);
            addFlag(flags, renderedAs, Setting.GC_CONCURRENT_THREADS, values.concGcThreads(), n -> "-XX:ConcGCThreads=" + n);
        }
        addFlag(flags, renderedAs, Setting.METRICS_AGENT, values.agentPort(), port -> AgentInjection.flag(port, values.agentPinnedThresholdMillis()));
        ServerVocabulary vocabulary = ServerVocabulary.of(spec.getRuntime());
        if (values.agentPort() != null) {
            vocabulary.agentJvmOptions().forEach(option -> addUnlessUserSet(flags, userFlags, option));
        }
        // The budget counted these two; pin them so it holds, unless the user pinned them already.
        if (values.reservedCodeCacheBytes() != null) {
            addUnlessUserSet(flags, userFlags, "-XX:ReservedCodeCacheSize=" + Units.jvmMebibytes(values.reservedCodeCacheBytes()));
            String directMemory = "-XX:MaxDirectMemorySize=" + Units.jvmMebibytes(values.maxDirectMemoryBytes());
            if (addUnlessUserSet(flags, userFlags, directMemory)) {
                renderedAs.put(Setting.MAX_DIRECT_MEMORY, directMemory);
            }
        }

        Predicate<String> refused = flag -> JvmFlags.vmOptionName(flag).filter(refusedVmOptions::contains).isPresent();
        flags.removeIf(refused);
        renderedAs.values().removeIf(refused);

        TreeMap<String, String> serverEnvironment = new TreeMap<>();
        Map<Setting, Integer> serverSettings = new EnumMap<>(Setting.class);
        serverSettings.put(Setting.THREADS_MAX, values.maxThreads());
        serverSettings.put(Setting.THREADS_MIN_SPARE, values.minSpareThreads());
        serverSettings.put(Setting.QUEUE_ACCEPT_COUNT, values.acceptCount());
        serverSettings.put(Setting.QUEUE_MAX_CONNECTIONS, values.maxConnections());
        serverSettings.put(Setting.QUEUE_MAX_QUEUE_SIZE, values.maxQueueSize());
        serverSettings.put(Setting.POOL_MAX_SIZE, values.poolMaxSize());
        serverSettings.put(Setting.POOL_MIN_IDLE, values.poolMinIdle());
        serverSettings.put(Setting.POOL_ACQUISITION_TIMEOUT, values.poolAcquisitionTimeoutMillis());
        Map<String, String> properties = new LinkedHashMap<>();
        serverSettings.forEach((setting, value) -> {
            if (value == null) {
                return;
            }
            String property = vocabulary.properties().get(setting);
            if (property == null) {
                warnings.add("runtime " + spec.getRuntime() + " has no property for " + setting.key() + ": " + value
                        + " is planned but not rendered");
                return;
            }
            properties.put(property, vocabulary.value(setting, value));
            renderedAs.put(setting, vocabulary.environmentVariable(property));
        });
        if (!properties.isEmpty()) {
            properties.putAll(vocabulary.alwaysSet());
        }
        properties.forEach((property, value) -> serverEnvironment.put(vocabulary.environmentVariable(property), value));
        // glibc reads it at the process's start from the environment: it goes with the server's variables, and out with them.
        if (values.mallocArenaMax() != null) {
            serverEnvironment.put(MALLOC_ARENA_MAX, values.mallocArenaMax().toString());
            renderedAs.put(Setting.MALLOC_ARENA_MAX, MALLOC_ARENA_MAX);
        }

        JvmOptionsVariable variable = spec.getJvmOptionsVariable();
        String existing = facts.env().get(variable.name());
        String value = String.join(" ", Stream.of(Stream.ofNullable(existing).filter(s -> !s.isBlank()).map(String::trim),
                flags.stream(), userOptions.stream()).flatMap(s -> s).toList());

        warnings.addAll(overriddenFlags(flags, variable, facts));
        warnings.addAll(overriddenProperties(properties, serverEnvironment, facts));
        SortedMap<String, String> resources = values.resources().fields();
        resources.keySet().forEach(field -> renderedAs.put(RESOURCE_SETTINGS.get(field), "resources." + field));
        return new Rendering(variable.name(), value, List.copyOf(flags), serverEnvironment, renderedAs, List.copyOf(warnings), resources);
    }

    /** A heap's share of the limit in percent, one decimal, rounded down so that the JVM's heap is never above the plan's. */
    static String share(long heapBytes, long limitBytes) {
        return java.math.BigDecimal.valueOf(heapBytes * 100).divide(java.math.BigDecimal.valueOf(limitBytes), 1, java.math.RoundingMode.DOWN)
                .toPlainString();
    }

    private static <T> void addFlag(List<String> flags, Map<Setting, String> renderedAs, Setting setting, T value,
            Function<T, String> flag) {
        if (value != null) {
            String rendered = flag.apply(value);
            flags.add(rendered);
            renderedAs.put(setting, rendered);
        }
    }

    /** Whether the flag was added. */
    private static boolean addUnlessUserSet(List<String> flags, JvmFlags userFlags, String flag) {
        boolean theirs = !userFlags.overriding(flag).isEmpty();
        if (!theirs) {
            flags.add(flag);
        }
        return !theirs;
    }

    private static String collectorFlag(Collector collector) {
        return switch (collector) {
            case ZGC -> "-XX:+UseZGC";
            case Auto -> throw new IllegalArgumentException("Auto is resolved by the planner");
            default -> "-XX:+Use" + collector.name() + "GC";
        };
    }

    /**
     * A flag on the command line beats one from an environment variable, and so do variables that
     * end up on the command line later (JDK_JAVA_OPTIONS, or JAVA_OPTS/CATALINA_OPTS in entrypoint scripts).
     */
    private static List<String> overriddenFlags(List<String> rendered, JvmOptionsVariable variable, ContainerFacts facts) {
        Map<String, JvmFlags> laterSources = new LinkedHashMap<>();
        laterSources.put(ContainerFacts.COMMAND_LINE, JvmFlags.of(ContainerFacts.COMMAND_LINE, facts.commandLine()));
        for (JvmOptionsVariable other : JvmOptionsVariable.values()) {
            boolean readLater = variable == JvmOptionsVariable.JAVA_TOOL_OPTIONS
                    || (variable == JvmOptionsVariable.JDK_JAVA_OPTIONS && other != JvmOptionsVariable.JAVA_TOOL_OPTIONS);
            if (other != variable && readLater && facts.env().containsKey(other.name())) {
                String source = ContainerFacts.source(other);
                laterSources.put(source, JvmFlags.parse(source, facts.env().get(other.name())));
            }
        }
        List<String> warnings = new ArrayList<>();
        for (String flag : rendered) {
            laterSources.forEach((source, flags) -> flags.overriding(flag).forEach(found ->
                    warnings.add(source + " set " + found + ", which overrides the rendered " + flag)));
        }
        return warnings;
    }

    /** Spring Boot and Quarkus rank command-line arguments, system properties and the container's own env above envFrom. */
    private static List<String> overriddenProperties(Map<String, String> properties, Map<String, String> environment, ContainerFacts facts) {
        List<String> warnings = new ArrayList<>();
        List<String> tokens = facts.commandLine();
        properties.keySet().forEach(property -> tokens.stream()
                .filter(t -> t.startsWith("--" + property + "=") || t.startsWith("-D" + property + "="))
                .forEach(t -> warnings.add("the container's command/args set " + t + ", which overrides the rendered " + property)));
        environment.forEach((name, value) -> {
            if (facts.env().containsKey(name) || facts.envFromReferences().contains(name)) {
                warnings.add("the container's env sets " + name + " itself, which overrides the rendered " + name + "=" + value);
            }
        });
        return warnings;
    }
}
