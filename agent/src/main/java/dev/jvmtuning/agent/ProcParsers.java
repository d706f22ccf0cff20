package dev.jvmtuning.agent;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;
import java.util.OptionalLong;

/** Pure parsers for the per-thread files under /proc/self/task and for /proc/self/cgroup. */
final class ProcParsers {

    record ContextSwitches(long voluntary, long involuntary) {}

    /** Where this process sits in the cgroup v2 (unified) hierarchy and in the cgroup v1 cpu hierarchy. */
    record CgroupPaths(Optional<String> unified, Optional<String> v1Cpu) {}

    private ProcParsers() {}

    /** The three fields of a task's schedstat file. */
    record Schedstat(long runNanos, long runQueueWaitNanos, long timeslices) {}

    private static final byte[] VOLUNTARY = "voluntary_ctxt_switches:".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] INVOLUNTARY = "nonvoluntary_ctxt_switches:".getBytes(StandardCharsets.US_ASCII);

    /**
     * Reads voluntary_ctxt_switches and nonvoluntary_ctxt_switches from the first {@code length} bytes
     * of a task's status file. Bytes, not a String: the agent parses thousands of these per scrape.
     */
    static Optional<ContextSwitches> parseContextSwitches(byte[] status, int length) {
        long voluntary = -1;
        long involuntary = -1;
        for (int line = 0; line < length; line = endOfLine(status, line, length) + 1) {
            if (startsWith(status, line, length, VOLUNTARY)) {
                voluntary = parseField(status, line + VOLUNTARY.length, length);
            } else if (startsWith(status, line, length, INVOLUNTARY)) {
                involuntary = parseField(status, line + INVOLUNTARY.length, length);
            }
        }
        if (voluntary < 0 || involuntary < 0) {
            return Optional.empty();
        }
        return Optional.of(new ContextSwitches(voluntary, involuntary));
    }

    private static final byte[] NAME = "Name:".getBytes(StandardCharsets.US_ASCII);

    /** What a JVM thread does, as far as the agent's figures care. */
    enum ThreadRole { JIT_COMPILER, GARBAGE_COLLECTOR, OTHER }

    /**
     * HotSpot names its compiler threads "C1 CompilerThread0", "C2 CompilerThread1", and Graal's
     * "JVMCI CompilerThread0" or "JVMCI-native CompilerThread0"; the kernel keeps the first 15 bytes.
     */
    private static final byte[][] JIT_COMPILER_NAMES = ascii("C1 CompilerThre", "C2 CompilerThre", "JVMCI");
    /**
     * The collectors' threads as JDK 17 to 25 name them: G1's and Parallel's workers ("GC Thread#0"), G1's concurrent and
     * refinement threads, ZGC's (generational or not) and Shenandoah's. Serial collects on the VM thread, which otherwise only
     * brings the other threads to safepoints, so its time counts as the collector's.
     */
    private static final byte[][] GARBAGE_COLLECTOR_NAMES = ascii("GC Thread#", "G1 ", "VM Thread", "ZDirector", "ZDriver",
            "ZStat", "ZUncommitter", "ZUnmapper", "ZWorker", "Shenandoah ");

    /** The role of a task by the name on the first line of its status file (its first {@code length} bytes). */
    static ThreadRole threadRole(byte[] status, int length) {
        if (!startsWith(status, 0, length, NAME)) {
            return ThreadRole.OTHER;
        }
        int name = skipBlanks(status, NAME.length, length);
        if (startsWithAny(status, name, length, JIT_COMPILER_NAMES)) {
            return ThreadRole.JIT_COMPILER;
        }
        return startsWithAny(status, name, length, GARBAGE_COLLECTOR_NAMES) ? ThreadRole.GARBAGE_COLLECTOR : ThreadRole.OTHER;
    }

    private static boolean startsWithAny(byte[] bytes, int offset, int length, byte[][] prefixes) {
        for (byte[] prefix : prefixes) {
            if (startsWith(bytes, offset, length, prefix)) {
                return true;
            }
        }
        return false;
    }

    private static byte[][] ascii(String... names) {
        return Arrays.stream(names).map(name -> name.getBytes(StandardCharsets.US_ASCII)).toArray(byte[][]::new);
    }

    /** schedstat is "time on cpu (ns), time waiting on a run queue (ns), timeslices run". */
    static Optional<Schedstat> parseSchedstat(byte[] schedstat, int length) {
        long[] fields = new long[3];
        int position = 0;
        for (int field = 0; field < fields.length; field++) {
            position = skipBlanks(schedstat, position, length);
            int end = position;
            while (end < length && isDigit(schedstat[end])) {
                end++;
            }
            fields[field] = parseDigits(schedstat, position, end);
            if (fields[field] < 0 || (end < length && !isBlank(schedstat[end]))) {
                return Optional.empty();
            }
            position = end;
        }
        return Optional.of(new Schedstat(fields[0], fields[1], fields[2]));
    }

    /**
     * Lines are "hierarchy-id:controllers:path": "0::/path" is the unified hierarchy, and the v1 cpu
     * controller may share a hierarchy with others ("4:cpu,cpuacct:/path").
     */
    static CgroupPaths parseCgroupPaths(String procSelfCgroup) {
        Optional<String> unified = Optional.empty();
        Optional<String> v1Cpu = Optional.empty();
        for (String line : procSelfCgroup.split("\n")) {
            String[] parts = line.trim().split(":", 3);
            if (parts.length < 3) {
                continue;
            }
            if (parts[0].equals("0") && parts[1].isEmpty()) {
                unified = Optional.of(parts[2]);
            } else if (Arrays.asList(parts[1].split(",")).contains("cpu")) {
                v1Cpu = Optional.of(parts[2]);
            }
        }
        return new CgroupPaths(unified, v1Cpu);
    }

    /** The number after a "key:" and its blanks, -1 unless the line holds just that number. */
    private static long parseField(byte[] text, int position, int length) {
        int start = skipBlanks(text, position, length);
        int end = start;
        while (end < length && isDigit(text[end])) {
            end++;
        }
        return skipBlanks(text, end, length) == endOfLine(text, end, length) ? parseDigits(text, start, end) : -1;
    }

    /** Non-negative decimal digits; -1 for none or for more than a long holds. */
    private static long parseDigits(byte[] text, int start, int end) {
        if (start == end || end - start > 18) {
            return -1;
        }
        long value = 0;
        for (int i = start; i < end; i++) {
            value = value * 10 + (text[i] - '0');
        }
        return value;
    }

    private static boolean startsWith(byte[] text, int position, int length, byte[] prefix) {
        if (length - position < prefix.length) {
            return false;
        }
        for (int i = 0; i < prefix.length; i++) {
            if (text[position + i] != prefix[i]) {
                return false;
            }
        }
        return true;
    }

    private static int endOfLine(byte[] text, int position, int length) {
        int end = position;
        while (end < length && text[end] != '\n') {
            end++;
        }
        return end;
    }

    /** Spaces and tabs; a newline ends a field too, but skipBlanks stops there. */
    private static int skipBlanks(byte[] text, int position, int length) {
        int end = position;
        while (end < length && (text[end] == ' ' || text[end] == '\t')) {
            end++;
        }
        return end;
    }

    private static boolean isBlank(byte b) {
        return b == ' ' || b == '\t' || b == '\n';
    }

    private static boolean isDigit(byte b) {
        return b >= '0' && b <= '9';
    }

    static OptionalLong parseLong(String text) {
        try {
            return OptionalLong.of(Long.parseLong(text.trim()));
        } catch (NumberFormatException e) {
            return OptionalLong.empty();
        }
    }
}
