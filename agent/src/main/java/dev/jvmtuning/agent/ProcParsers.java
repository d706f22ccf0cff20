package dev.jvmtuning.agent;

import java.util.Arrays;
import java.util.Optional;
import java.util.OptionalLong;

/** Pure parsers for the per-thread files under /proc/self/task and for /proc/self/cgroup. */
final class ProcParsers {

    record ContextSwitches(long voluntary, long involuntary) {}

    /** Where this process sits in the cgroup v2 (unified) hierarchy and in the cgroup v1 cpu hierarchy. */
    record CgroupPaths(Optional<String> unified, Optional<String> v1Cpu) {}

    private ProcParsers() {}

    /** Reads voluntary_ctxt_switches and nonvoluntary_ctxt_switches from a task's status file. */
    static Optional<ContextSwitches> parseContextSwitches(String status) {
        OptionalLong voluntary = OptionalLong.empty();
        OptionalLong involuntary = OptionalLong.empty();
        for (String line : status.split("\n")) {
            if (line.startsWith("voluntary_ctxt_switches:")) {
                voluntary = parseLong(valueAfterColon(line));
            } else if (line.startsWith("nonvoluntary_ctxt_switches:")) {
                involuntary = parseLong(valueAfterColon(line));
            }
        }
        if (voluntary.isEmpty() || involuntary.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new ContextSwitches(voluntary.getAsLong(), involuntary.getAsLong()));
    }

    /** schedstat is "time on cpu (ns), time waiting on a run queue (ns), timeslices run"; returns the wait. */
    static OptionalLong parseRunQueueWaitNanos(String schedstat) {
        String[] fields = schedstat.trim().split("\\s+");
        return fields.length >= 2 ? parseLong(fields[1]) : OptionalLong.empty();
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

    private static String valueAfterColon(String line) {
        return line.substring(line.indexOf(':') + 1).trim();
    }

    static OptionalLong parseLong(String text) {
        try {
            return OptionalLong.of(Long.parseLong(text.trim()));
        } catch (NumberFormatException e) {
            return OptionalLong.empty();
        }
    }
}
