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
    /**
     * HotSpot names its compiler threads "C1 CompilerThread0", "C2 CompilerThread1", and Graal's
     * "JVMCI CompilerThread0" or "JVMCI-native CompilerThread0"; the kernel keeps the first 15 bytes.
     */
    private static final byte[][] JIT_COMPILER_NAMES = {
        "C1 CompilerThre".getBytes(StandardCharsets.US_ASCII),
        "C2 CompilerThre".getBytes(StandardCharsets.US_ASCII),
        "JVMCI".getBytes(StandardCharsets.US_ASCII)};

    /** Whether a task's status file (its first {@code length} bytes) names one of the JVM's JIT compiler threads. */
    static boolean isJitCompiler(byte[] status, int length) {
        if (!startsWith(status, 0, length, NAME)) {
            return false;
        }
        int name = skipBlanks(status, NAME.length, length);
        for (byte[] compiler : JIT_COMPILER_NAMES) {
            if (startsWith(status, name, length, compiler)) {
                return true;
            }
        }
        return false;
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
