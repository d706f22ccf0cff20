package dev.jvmtuning.agent;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/** Pure parsers for the cgroup cpu controller files and for PSI cpu pressure. */
final class CgroupParsers {

    record CfsStats(long periods, long throttledPeriods, double throttledSeconds) {}

    /** PSI totals; "full" is missing on kernels before 5.13 and then stays empty. */
    record CpuPressure(double someSeconds, OptionalDouble fullSeconds) {}

    private CgroupParsers() {}

    /**
     * cpu.stat in v2 reports throttled_usec, in v1 throttled_time (ns). A v2 cgroup without the cpu
     * controller enabled (as in the hybrid layout) has a cpu.stat with usage only: no CFS stats then.
     */
    static Optional<CfsStats> parseCpuStat(String cpuStat) {
        Map<String, Long> values = keyValues(cpuStat);
        Long periods = values.get("nr_periods");
        Long throttledPeriods = values.get("nr_throttled");
        if (periods == null || throttledPeriods == null) {
            return Optional.empty();
        }
        if (values.containsKey("throttled_usec")) {
            return Optional.of(new CfsStats(periods, throttledPeriods, values.get("throttled_usec") / 1e6));
        }
        if (values.containsKey("throttled_time")) {
            return Optional.of(new CfsStats(periods, throttledPeriods, values.get("throttled_time") / 1e9));
        }
        return Optional.empty();
    }

    /** cgroup v2 cpu.max is "QUOTA PERIOD" in microseconds, QUOTA "max" meaning no limit. */
    static OptionalDouble parseCpuMax(String cpuMax) {
        String[] fields = cpuMax.trim().split("\\s+");
        if (fields.length != 2) {
            return OptionalDouble.empty();
        }
        return cores(ProcParsers.parseLong(fields[0]), ProcParsers.parseLong(fields[1]));
    }

    /** cgroup v1 cpu.cfs_quota_us is -1 when there is no limit. */
    static OptionalDouble parseCfsQuota(String quotaUs, String periodUs) {
        return cores(ProcParsers.parseLong(quotaUs), ProcParsers.parseLong(periodUs));
    }

    /** Lines like "some avg10=0.00 avg60=0.00 avg300=0.00 total=12345", total in microseconds. */
    static Optional<CpuPressure> parsePressure(String pressure) {
        OptionalLong some = OptionalLong.empty();
        OptionalLong full = OptionalLong.empty();
        for (String line : pressure.split("\n")) {
            String[] fields = line.trim().split("\\s+");
            OptionalLong total = OptionalLong.empty();
            for (String field : fields) {
                if (field.startsWith("total=")) {
                    total = ProcParsers.parseLong(field.substring("total=".length()));
                }
            }
            if (fields[0].equals("some")) {
                some = total;
            } else if (fields[0].equals("full")) {
                full = total;
            }
        }
        if (some.isEmpty()) {
            return Optional.empty();
        }
        OptionalDouble fullSeconds = full.isPresent() ? OptionalDouble.of(full.getAsLong() / 1e6) : OptionalDouble.empty();
        return Optional.of(new CpuPressure(some.getAsLong() / 1e6, fullSeconds));
    }

    private static OptionalDouble cores(OptionalLong quota, OptionalLong period) {
        if (quota.isEmpty() || period.isEmpty() || quota.getAsLong() <= 0 || period.getAsLong() <= 0) {
            return OptionalDouble.empty();
        }
        return OptionalDouble.of((double) quota.getAsLong() / period.getAsLong());
    }

    private static Map<String, Long> keyValues(String text) {
        Map<String, Long> values = new HashMap<>();
        for (String line : text.split("\n")) {
            String[] fields = line.trim().split("\\s+");
            if (fields.length == 2) {
                ProcParsers.parseLong(fields[1]).ifPresent(value -> values.put(fields[0], value));
            }
        }
        return values;
    }
}
