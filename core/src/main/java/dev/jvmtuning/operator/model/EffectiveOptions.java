package dev.jvmtuning.operator.model;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The HotSpot options one pod's JVM reports it runs with (the agent's jvmtuning_vm_option series): for each
 * option its value, booleans as 1 or 0, sizes in bytes except ThreadStackSize in KiB, an archive's path 1 when set
 * (ARCHIVES), and where the value came from. Empty when the pod reports none: no agent, or one older than the series.
 *
 * <p>Without the agent, the few options the runtime's own metrics show (RuntimeMetricsOptions), and the server
 * settings they show, by setting name (threads.max): then an option missing is one they cannot show, not one the
 * JVM lacks.
 *
 * @param fromRuntimeMetrics whether the options are the runtime's metrics' few rather than the agent's report
 */
public record EffectiveOptions(Map<String, Option> options, boolean fromRuntimeMetrics) {
    public static final EffectiveOptions NONE = new EffectiveOptions(Map.of());

    /**
     * The agent's list of the options it reports (agent/src/main/resources/dev/jvmtuning/agent/vm-options.txt, which the
     * core's build packs too), one a line, split in words.
     */
    private static final List<String[]> LISTED = listed();

    /** The options the agent reports, those of them the JDK has. */
    public static final List<String> READ = LISTED.stream().map(words -> words[0]).toList();

    /** The options naming an AOT cache (JDK 24+) or CDS archive the JVM was given, marked "path"; the agent reports 1 when set, 0 when not. */
    public static final List<String> ARCHIVES = LISTED.stream().filter(words -> words.length > 1 && words[1].equals("path"))
            .map(words -> words[0]).toList();

    /**
     * Where HotSpot says a value came from: com.sun.management.VMOption.Origin, by name; or RUNTIME_METRICS, a value
     * read off the runtime's own metrics, which say nothing of where it came from.
     */
    public enum Origin {
        DEFAULT, VM_CREATION, ENVIRON_VAR, CONFIG_FILE, MANAGEMENT, ERGONOMIC, ATTACH_ON_DEMAND, OTHER,
        RUNTIME_METRICS {
            @Override
            public String toString() {
                return "runtime metrics";
            }
        };

        /** An origin a later JDK adds is OTHER here. */
        public static Origin of(String name) {
            return EnumTexts.find(Origin.class, Origin::name, name).orElse(OTHER);
        }
    }

    private static List<String[]> listed() {
        String resource = "dev/jvmtuning/agent/vm-options.txt";
        try (InputStream in = EffectiveOptions.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException(resource + " is missing from the class path");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().filter(line -> !line.isBlank() && !line.startsWith("#"))
                    .map(line -> line.strip().split(" ")).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public record Option(double value, Origin origin) {
    }

    public EffectiveOptions {
        options = Map.copyOf(options);
    }

    /** The agent's report. */
    public EffectiveOptions(Map<String, Option> options) {
        this(options, false);
    }

    static EffectiveOptions fromRuntimeMetrics(Map<String, Option> options) {
        return new EffectiveOptions(options, true);
    }

    public boolean reported() {
        return !options.isEmpty();
    }

    /**
     * Whether this reading says what the JVM runs of the option: the agent's says it of every option it reads (one
     * missing is one the JDK lacks); the runtime's metrics only of those they show.
     */
    public boolean shows(String option) {
        return fromRuntimeMetrics ? options.containsKey(option) : READ.contains(option) || options.containsKey(option);
    }

    public Optional<Option> option(String name) {
        return Optional.ofNullable(options.get(name));
    }

    /** The archive option this JVM reports set, if any. */
    public Optional<String> archive() {
        return ARCHIVES.stream().filter(name -> option(name).filter(set -> set.value() != 0).isPresent()).findFirst();
    }

    /**
     * The archive the pods' JVMs report being given, as status shows it: "-XX:AOTCache on 2 of 2 pods", counted among the
     * pods that report the agent's options (the runtime's metrics show no archive); empty when none of them reports one, or
     * none reports the agent's options.
     */
    public static Optional<String> archiveReported(Collection<EffectiveOptions> pods) {
        List<EffectiveOptions> reporting = pods.stream().filter(jvm -> jvm.reported() && !jvm.fromRuntimeMetrics()).toList();
        Map<String, Long> given = reporting.stream().flatMap(jvm -> jvm.archive().stream())
                .collect(Collectors.groupingBy(name -> name, Collectors.counting()));
        return given.entrySet().stream().max(Map.Entry.<String, Long>comparingByValue().thenComparing(Map.Entry.comparingByKey()))
                .map(most -> "-XX:" + most.getKey() + " on " + most.getValue() + " of " + reporting.size() + " pods");
    }

    /** Whether any of the pods reports the agent's options, which say whether an archive was given. */
    public static boolean showArchives(Collection<EffectiveOptions> pods) {
        return pods.stream().anyMatch(jvm -> jvm.reported() && !jvm.fromRuntimeMetrics());
    }
}
