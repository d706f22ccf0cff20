package dev.jvmtuning.operator.render;

import dev.jvmtuning.operator.api.v1alpha1.Collector;
import dev.jvmtuning.operator.api.v1alpha1.JvmOptionsVariable;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfileSpec;
import dev.jvmtuning.operator.planner.ContainerFacts;
import dev.jvmtuning.operator.planner.JvmFlags;
import dev.jvmtuning.operator.planner.TuningValues;
import dev.jvmtuning.operator.planner.Units;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.TreeMap;
import java.util.stream.Stream;

/** Maps planned values to a runtime's JVM flags and server properties, and finds what in the container overrides them. Pure. */
public final class Renderer {

    private Renderer() {
    }

    public static Rendering render(TuningValues values, TuningProfileSpec spec, ContainerFacts facts) {
        List<String> userOptions = Objects.requireNonNullElse(spec.getJvmOptions(), List.of());
        JvmFlags userFlags = new JvmFlags(userOptions);
        Map<String, String> renderedAs = new LinkedHashMap<>();
        List<String> warnings = new ArrayList<>();

        List<String> flags = new ArrayList<>();
        addFlag(flags, renderedAs, "jvm.activeProcessorCount", values.activeProcessorCount(), n -> "-XX:ActiveProcessorCount=" + n);
        addFlag(flags, renderedAs, "heap.initial", values.heapBytes(), b -> "-Xms" + Units.jvmMebibytes(b));
        addFlag(flags, renderedAs, "heap.size", values.heapBytes(), b -> "-Xmx" + Units.jvmMebibytes(b));
        addFlag(flags, renderedAs, "heap.young", values.youngGenerationBytes(), b -> "-Xmn" + Units.jvmMebibytes(b));
        addFlag(flags, renderedAs, "gc.collector", values.collector(), Renderer::collectorFlag);
        if (values.zGenerational()) {
            flags.add("-XX:+ZGenerational");
        }
        addFlag(flags, renderedAs, "gc.maxPauseMillis", values.maxPauseMillis(), ms -> "-XX:MaxGCPauseMillis=" + ms);
        addFlag(flags, renderedAs, "gc.parallelThreads", values.parallelGcThreads(), n -> "-XX:ParallelGCThreads=" + n);
        addFlag(flags, renderedAs, "gc.concurrentThreads", values.concGcThreads(), n -> "-XX:ConcGCThreads=" + n);
        addFlag(flags, renderedAs, "metrics.agent", values.agentPort(), AgentInjection::flag);
        // The budget counted these two; pin them so it holds, unless the user pinned them already.
        if (values.reservedCodeCacheBytes() != null) {
            addUnlessUserSet(flags, userFlags, "-XX:ReservedCodeCacheSize=" + Units.jvmMebibytes(values.reservedCodeCacheBytes()));
            addUnlessUserSet(flags, userFlags, "-XX:MaxDirectMemorySize=" + Units.jvmMebibytes(values.maxDirectMemoryBytes()));
        }

        ServerVocabulary vocabulary = ServerVocabulary.of(spec.getRuntime());
        TreeMap<String, String> serverEnvironment = new TreeMap<>();
        Map<Knob, Integer> knobs = new LinkedHashMap<>();
        knobs.put(Knob.MAX_THREADS, values.maxThreads());
        knobs.put(Knob.MIN_SPARE_THREADS, values.minSpareThreads());
        knobs.put(Knob.ACCEPT_COUNT, values.acceptCount());
        knobs.put(Knob.MAX_CONNECTIONS, values.maxConnections());
        knobs.put(Knob.MAX_QUEUE_SIZE, values.maxQueueSize());
        knobs.put(Knob.POOL_MAX_SIZE, values.poolMaxSize());
        knobs.put(Knob.POOL_MIN_IDLE, values.poolMinIdle());
        Map<String, String> properties = new LinkedHashMap<>();
        knobs.forEach((knob, value) -> {
            if (value == null) {
                return;
            }
            String property = vocabulary.properties().get(knob);
            if (property == null) {
                warnings.add("runtime " + spec.getRuntime() + " has no property for " + knob.decision() + ": " + value
                        + " is planned but not rendered");
                return;
            }
            properties.put(property, value.toString());
            renderedAs.put(knob.decision(), vocabulary.environmentVariable(property));
        });
        if (!properties.isEmpty()) {
            properties.putAll(vocabulary.alwaysSet());
        }
        properties.forEach((property, value) -> serverEnvironment.put(vocabulary.environmentVariable(property), value));

        JvmOptionsVariable variable = spec.getJvmOptionsVariable();
        String existing = facts.env().get(variable.name());
        String value = String.join(" ", Stream.of(Stream.ofNullable(existing).filter(s -> !s.isBlank()).map(String::trim),
                flags.stream(), userOptions.stream()).flatMap(s -> s).toList());

        warnings.addAll(overriddenFlags(flags, variable, facts));
        warnings.addAll(overriddenProperties(properties, serverEnvironment, facts));
        return new Rendering(variable.name(), value, List.copyOf(flags), serverEnvironment, renderedAs, List.copyOf(warnings));
    }

    private static <T> void addFlag(List<String> flags, Map<String, String> renderedAs, String decision, T value,
            Function<T, String> flag) {
        if (value != null) {
            String rendered = flag.apply(value);
            flags.add(rendered);
            renderedAs.put(decision, rendered);
        }
    }

    private static void addUnlessUserSet(List<String> flags, JvmFlags userFlags, String flag) {
        if (userFlags.overriding(flag).isEmpty()) {
            flags.add(flag);
        }
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
        laterSources.put("the container's command/args", new JvmFlags(tokens(facts)));
        for (JvmOptionsVariable other : JvmOptionsVariable.values()) {
            boolean readLater = variable == JvmOptionsVariable.JAVA_TOOL_OPTIONS
                    || (variable == JvmOptionsVariable.JDK_JAVA_OPTIONS && other != JvmOptionsVariable.JAVA_TOOL_OPTIONS);
            if (other != variable && readLater && facts.env().containsKey(other.name())) {
                laterSources.put("the container's " + other.name(), JvmFlags.parse(facts.env().get(other.name())));
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
        List<String> tokens = tokens(facts);
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

    private static List<String> tokens(ContainerFacts facts) {
        return Stream.concat(facts.command().stream(), facts.args().stream())
                .flatMap(part -> Arrays.stream(part.trim().split("\\s+")))
                .filter(t -> !t.isEmpty())
                .toList();
    }
}
