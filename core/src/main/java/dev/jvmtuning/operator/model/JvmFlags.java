package dev.jvmtuning.operator.model;

import dev.jvmtuning.operator.api.v1alpha1.Collector;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the HotSpot flags the planner cares about out of a list of JVM options; the last occurrence wins, as in HotSpot.
 * Each flag remembers where it was set (jvmOptions, the container's JAVA_TOOL_OPTIONS, its command/args), so a
 * plan can say whose value it kept.
 */
public final class JvmFlags {
    private static final Pattern COLLECTOR = Pattern.compile("-XX:\\+Use(Serial|Parallel|G1|Z|Shenandoah)GC");
    private static final Pattern INT_FLAG = Pattern.compile("-XX:([A-Za-z]+)=([0-9]+)");
    private static final Pattern DOUBLE_FLAG = Pattern.compile("-XX:([A-Za-z]+)=([0-9]+(?:\\.[0-9]*)?)");
    /** HotSpot's MaxRAMPercentage when nothing sets it. */
    private static final double DEFAULT_MAX_RAM_PERCENTAGE = 25;
    private static final List<String> HEAP_SIZING_PREFIXES = List.of("-Xmx", "-Xms", "-XX:MaxHeapSize=", "-XX:InitialHeapSize=",
            "-XX:MaxRAMPercentage=", "-XX:InitialRAMPercentage=", "-XX:MinRAMPercentage=", "-XX:MaxRAM=");

    private final List<String> flags;
    /** Where each flag was set, index for index. */
    private final List<String> sources;

    private JvmFlags(List<String> flags, List<String> sources) {
        this.flags = List.copyOf(flags);
        this.sources = List.copyOf(sources);
    }

    /** Flags that were all set in one place, named as a message would: "jvmOptions", "the container's command/args". */
    public static JvmFlags of(String source, List<String> flags) {
        return new JvmFlags(flags, flags.stream().map(f -> source).toList());
    }

    /** Splits a JVM options string the way the JVM does for JAVA_TOOL_OPTIONS: on whitespace. */
    public static JvmFlags parse(String source, String options) {
        return of(source, options == null || options.isBlank() ? List.of() : List.of(options.trim().split("\\s+")));
    }

    /** These flags followed by {@code later}, which the JVM reads after them. */
    public JvmFlags then(JvmFlags later) {
        List<String> allFlags = new ArrayList<>(flags);
        allFlags.addAll(later.flags);
        List<String> allSources = new ArrayList<>(sources);
        allSources.addAll(later.sources);
        return new JvmFlags(allFlags, allSources);
    }

    public List<String> all() {
        return flags;
    }

    /** Where the last flag setting the same option as {@code flag} was set (for a collector flag: the last collector chosen). */
    public Optional<String> sourceOf(String flag) {
        String key = optionKey(flag);
        for (int i = flags.size() - 1; i >= 0; i--) {
            if (optionKey(flags.get(i)).equals(key)) {
                return Optional.of(sources.get(i));
            }
        }
        return Optional.empty();
    }

    /** Each collector these flags select with where it was selected, e.g. "ZGC in the container's JAVA_TOOL_OPTIONS". */
    public List<String> describeCollectors() {
        List<String> found = new ArrayList<>();
        for (int i = 0; i < flags.size(); i++) {
            if (COLLECTOR.matcher(flags.get(i)).matches()) {
                found.add(collector(flags.get(i)) + " in " + sources.get(i));
            }
        }
        return found;
    }

    /** Every collector these flags select, in order; more than one is a conflict. */
    public List<Collector> collectors() {
        List<Collector> found = new ArrayList<>();
        for (String flag : flags) {
            if (COLLECTOR.matcher(flag).matches()) {
                found.add(collector(flag));
            }
        }
        return found;
    }

    private static Collector collector(String flag) {
        Matcher m = COLLECTOR.matcher(flag);
        if (!m.matches()) {
            throw new IllegalArgumentException(flag + " selects no collector");
        }
        return m.group(1).equals("Z") ? Collector.ZGC : Collector.valueOf(m.group(1));
    }

    /** The first flag that sizes the heap, if any (-Xmx, -Xms, MaxRAMPercentage, ...). */
    public Optional<String> heapSizingFlag() {
        return flags.stream().filter(f -> HEAP_SIZING_PREFIXES.stream().anyMatch(f::startsWith)).findFirst();
    }

    /**
     * The flag that points the JVM at an archive of classes (and on JDK 24+ objects) made in a training run:
     * -XX:AOTCache (JDK 24+) or -XX:SharedArchiveFile (CDS). The JVM rejects the archive when options it was made
     * under differ, so the plan must not change those.
     */
    public Optional<String> aotCacheFlag() {
        return flags.stream().filter(f -> f.startsWith("-XX:AOTCache=") || f.startsWith("-XX:SharedArchiveFile=")).findFirst();
    }

    /** The maximum heap these flags set with -Xmx or -XX:MaxHeapSize. */
    public OptionalLong maxHeapBytes() {
        return lastSize("-Xmx", "-XX:MaxHeapSize=", 1);
    }

    /**
     * The maximum heap the JVM will take in a container of {@code memoryLimit} bytes under these flags, as HotSpot
     * sizes it: -Xmx, else MaxRAMPercentage (25 unless set) of MaxRAM or the limit, never below -Xms.
     */
    public OptionalLong effectiveMaxHeapBytes(Long memoryLimit) {
        OptionalLong max = maxHeapBytes();
        if (max.isPresent()) {
            return max;
        }
        OptionalLong ram = sizeFlag("-XX:MaxRAM=");
        if (ram.isEmpty() && memoryLimit == null) {
            return OptionalLong.empty();
        }
        long fromPercentage = (long) (ram.orElse(memoryLimit) * doubleFlag("MaxRAMPercentage").orElse(DEFAULT_MAX_RAM_PERCENTAGE) / 100);
        return OptionalLong.of(Math.max(fromPercentage, lastSize("-Xms", "-XX:InitialHeapSize=", 1).orElse(0)));
    }

    /** The thread stack size set with -Xss or -XX:ThreadStackSize (which counts KiB). */
    public OptionalLong threadStackBytes() {
        return lastSize("-Xss", "-XX:ThreadStackSize=", Units.KI);
    }

    /** The last size set by a flag of the form {@code prefix<size>}, e.g. -XX:MaxDirectMemorySize=64m. */
    public OptionalLong sizeFlag(String prefix) {
        OptionalLong result = OptionalLong.empty();
        for (String flag : flags) {
            if (flag.startsWith(prefix)) {
                result = orElse(size(flag.substring(prefix.length()), 1), result);
            }
        }
        return result;
    }

    /** The last size set by the short form (-Xmx512m) or the -XX form, whose bare numbers count {@code xxUnit} bytes. */
    private OptionalLong lastSize(String shortForm, String xxForm, long xxUnit) {
        OptionalLong result = OptionalLong.empty();
        for (String flag : flags) {
            if (flag.startsWith(shortForm)) {
                result = orElse(size(flag.substring(shortForm.length()), 1), result);
            } else if (flag.startsWith(xxForm)) {
                result = orElse(size(flag.substring(xxForm.length()), xxUnit), result);
            }
        }
        return result;
    }

    /**
     * A size as the JVM reads it, or empty where it reads none: the container's own flags are not checked like
     * jvmOptions, and a command line may hold a shell variable (-Xmx$HEAP) the plan cannot read.
     */
    private static OptionalLong size(String value, long unit) {
        try {
            return OptionalLong.of(Units.jvmBytes(value) * unit);
        } catch (IllegalArgumentException e) {
            return OptionalLong.empty();
        }
    }

    private static OptionalLong orElse(OptionalLong value, OptionalLong previous) {
        return value.isPresent() ? value : previous;
    }

    /** The value of an integer flag -XX:Name=N. */
    public OptionalInt intFlag(String name) {
        OptionalInt result = OptionalInt.empty();
        for (String flag : flags) {
            Matcher m = INT_FLAG.matcher(flag);
            // Nine digits at most: a larger count is no count the JVM takes, and would not fit an int.
            if (m.matches() && m.group(1).equals(name) && m.group(2).length() <= 9) {
                result = OptionalInt.of(Integer.parseInt(m.group(2)));
            }
        }
        return result;
    }

    /** The value of a flag -XX:Name=N that takes a fraction, such as MaxRAMPercentage=75.0. */
    private OptionalDouble doubleFlag(String name) {
        OptionalDouble result = OptionalDouble.empty();
        for (String flag : flags) {
            Matcher m = DOUBLE_FLAG.matcher(flag);
            if (m.matches() && m.group(1).equals(name)) {
                result = OptionalDouble.of(Double.parseDouble(m.group(2)));
            }
        }
        return result;
    }

    /** The flags among these that set the same option as {@code rendered} (e.g. -Xmx512m for -Xmx1g). */
    public List<String> overriding(String rendered) {
        String key = optionKey(rendered);
        return flags.stream().filter(f -> optionKey(f).equals(key)).toList();
    }

    /** The option a flag sets, without its value: -Xmx, -XX:MaxGCPauseMillis, -XX:UseG1GC (collector flags share "collector"). */
    static String optionKey(String flag) {
        if (COLLECTOR.matcher(flag).matches()) {
            return "collector";
        }
        for (String prefix : List.of("-Xmx", "-Xms", "-Xmn", "-Xss")) {
            if (flag.startsWith(prefix)) {
                return prefix;
            }
        }
        Optional<String> vmOption = vmOptionName(flag);
        if (vmOption.isPresent()) {
            return "-XX:" + vmOption.get();
        }
        int eq = flag.indexOf('=');
        return eq >= 0 ? flag.substring(0, eq) : flag;
    }

    /** The VM option a -XX flag sets, as the JVM names it: MaxGCPauseMillis for -XX:MaxGCPauseMillis=200, UseZGC for -XX:+UseZGC. */
    public static Optional<String> vmOptionName(String flag) {
        if (!flag.startsWith("-XX:")) {
            return Optional.empty();
        }
        String body = flag.substring(4);
        int eq = body.indexOf('=');
        return Optional.of(eq >= 0 ? body.substring(0, eq) : body.replaceFirst("^[+-]", ""));
    }
}
