package dev.jvmtuning.operator.model;

import dev.jvmtuning.operator.api.v1alpha1.Collector;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads the HotSpot flags the planner cares about out of a list of JVM options; the last occurrence wins, as in HotSpot. */
public final class JvmFlags {
    private static final Pattern COLLECTOR = Pattern.compile("-XX:\\+Use(Serial|Parallel|G1|Z|Shenandoah)GC");
    private static final Pattern INT_FLAG = Pattern.compile("-XX:([A-Za-z]+)=([0-9]+)");
    private static final List<String> HEAP_SIZING_PREFIXES = List.of("-Xmx", "-Xms", "-XX:MaxHeapSize=", "-XX:InitialHeapSize=",
            "-XX:MaxRAMPercentage=", "-XX:InitialRAMPercentage=", "-XX:MinRAMPercentage=", "-XX:MaxRAM=");

    private final List<String> flags;

    public JvmFlags(List<String> flags) {
        this.flags = List.copyOf(flags);
    }

    /** Splits a JVM options string the way the JVM does for JAVA_TOOL_OPTIONS: on whitespace. */
    public static JvmFlags parse(String options) {
        return new JvmFlags(options == null || options.isBlank() ? List.of() : List.of(options.trim().split("\\s+")));
    }

    public List<String> all() {
        return flags;
    }

    /** Every collector these flags select, in order; more than one is a conflict. */
    public List<Collector> collectors() {
        List<Collector> found = new ArrayList<>();
        for (String flag : flags) {
            Matcher m = COLLECTOR.matcher(flag);
            if (m.matches()) {
                found.add(m.group(1).equals("Z") ? Collector.ZGC : Collector.valueOf(m.group(1)));
            }
        }
        return found;
    }

    /** The first flag that sizes the heap, if any (-Xmx, -Xms, MaxRAMPercentage, ...). */
    public Optional<String> heapSizingFlag() {
        return flags.stream().filter(f -> HEAP_SIZING_PREFIXES.stream().anyMatch(f::startsWith)).findFirst();
    }

    /** The maximum heap these flags set with -Xmx or -XX:MaxHeapSize. */
    public OptionalLong maxHeapBytes() {
        return lastSize("-Xmx", "-XX:MaxHeapSize=", 1);
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
                result = OptionalLong.of(Units.jvmBytes(flag.substring(prefix.length())));
            }
        }
        return result;
    }

    /** The last size set by the short form (-Xmx512m) or the -XX form, whose bare numbers count {@code xxUnit} bytes. */
    private OptionalLong lastSize(String shortForm, String xxForm, long xxUnit) {
        OptionalLong result = OptionalLong.empty();
        for (String flag : flags) {
            if (flag.startsWith(shortForm)) {
                result = OptionalLong.of(Units.jvmBytes(flag.substring(shortForm.length())));
            } else if (flag.startsWith(xxForm)) {
                result = OptionalLong.of(Units.jvmBytes(flag.substring(xxForm.length())) * xxUnit);
            }
        }
        return result;
    }

    /** The value of an integer flag -XX:Name=N. */
    public OptionalInt intFlag(String name) {
        OptionalInt result = OptionalInt.empty();
        for (String flag : flags) {
            Matcher m = INT_FLAG.matcher(flag);
            if (m.matches() && m.group(1).equals(name)) {
                result = OptionalInt.of(Integer.parseInt(m.group(2)));
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
        if (flag.startsWith("-XX:")) {
            String body = flag.substring(4);
            int eq = body.indexOf('=');
            String name = eq >= 0 ? body.substring(0, eq) : body.replaceFirst("^[+-]", "");
            return "-XX:" + name;
        }
        int eq = flag.indexOf('=');
        return eq >= 0 ? flag.substring(0, eq) : flag;
    }
}
