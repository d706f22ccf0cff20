package dev.jvmtuning.operator.pressure;

import static dev.jvmtuning.operator.planner.Units.number;
import static dev.jvmtuning.operator.pressure.Finding.FALSE;
import static dev.jvmtuning.operator.pressure.Finding.TRUE;
import static dev.jvmtuning.operator.pressure.Finding.UNKNOWN;

import dev.jvmtuning.operator.api.v1alpha1.Observed;
import dev.jvmtuning.operator.api.v1alpha1.Pressure;
import dev.jvmtuning.operator.api.v1alpha1.Recommendation;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Judges one window of observed figures against the profile's thresholds (TUNING.md R4, R8,
 * R15-R17) and says what to change. Pure: figures in, conditions and recommendations out.
 */
public final class PressureDetector {
    public static final String GC_PRESSURE = "GCPressure";
    public static final String CONTEXT_SWITCH_PRESSURE = "ContextSwitchPressure";
    public static final String CPU_THROTTLED = "CPUThrottled";
    public static final String THREAD_POOL_SATURATED = "ThreadPoolSaturated";
    public static final String CONNECTION_POOL_STARVED = "ConnectionPoolStarved";
    public static final List<String> CONDITION_TYPES = List.of(GC_PRESSURE, CONTEXT_SWITCH_PRESSURE, CPU_THROTTLED,
            THREAD_POOL_SATURATED, CONNECTION_POOL_STARVED);

    /** R15: after-GC occupancy this high means the heap is too small for the live data. */
    static final double HEAP_NEARLY_FULL_PERCENT = 90;
    /** R4: a pool this busy has no headroom left. */
    static final double SATURATED_RATIO = 0.9;
    /** R4: CPU below this share of the container's cores means the threads wait, they do not compute. */
    static final double LOW_CPU_SHARE = 0.5;
    static final double HIGH_CPU_SHARE = 0.8;

    private PressureDetector() {
    }

    /**
     * @param now       the last window's figures
     * @param previous  the window before it, for trends (may be null)
     * @param pressure  the profile's thresholds
     * @param settings  the rendered settings by name (threads.max, heap.size, connectionPool.maxSize), for recommendations
     * @param cores     the container's CPUs, or null when unknown
     */
    public static Verdict judge(Observed now, Observed previous, Pressure pressure, Map<String, String> settings, Double cores) {
        Pressure limits = Objects.requireNonNullElseGet(pressure, Pressure::new);
        List<Finding> findings = new ArrayList<>();
        List<Recommendation> recommendations = new ArrayList<>();
        String window = " over " + now.getWindow();

        Double gc = now.getGcTimePercent();
        Double afterGc = now.getHeapAfterGcPercent();
        if (gc == null) {
            findings.add(new Finding(GC_PRESSURE, UNKNOWN, "NoData", "no GC time series in the pods' metrics"));
        } else if (gc >= limits.getGcTimePercent() || (afterGc != null && afterGc >= HEAP_NEARLY_FULL_PERCENT)) {
            boolean timeHigh = gc >= limits.getGcTimePercent();
            findings.add(new Finding(GC_PRESSURE, TRUE, timeHigh ? "GCTimeHigh" : "HeapNearlyFull",
                    "GC took " + number(gc) + "% of wall time" + window + " (threshold " + limits.getGcTimePercent() + "%)"
                            + (afterGc == null ? "" : ", heap " + number(afterGc) + "% full after GC")));
            Double before = previous == null ? null : previous.getHeapAfterGcPercent();
            if (afterGc != null && before != null && afterGc > before && afterGc >= 70) {
                recommendations.add(new Recommendation("heap.size", settings.get("heap.size"), "investigate a leak",
                        "heap after GC rose from " + number(before) + "% to " + number(afterGc)
                                + "%: if it keeps rising, more heap only delays the OutOfMemoryError (R15)"));
            } else {
                recommendations.add(new Recommendation("heap.size", settings.get("heap.size"), scaledMemory(settings.get("heap.size"), 1.5),
                        "GC took " + number(gc) + "% of wall time: give it 50% more heap, within the memory limit (R15)"));
            }
        } else {
            findings.add(new Finding(GC_PRESSURE, FALSE, "GCTimeNormal",
                    "GC took " + number(gc) + "% of wall time" + window + " (threshold " + limits.getGcTimePercent() + "%)"));
        }

        Double switches = now.getInvoluntarySwitchesPerCorePerSecond();
        Double cpu = now.getCpuCores();
        boolean cpuSaturated = cpu != null && cores != null && cpu >= HIGH_CPU_SHARE * cores;
        if (switches == null) {
            findings.add(new Finding(CONTEXT_SWITCH_PRESSURE, UNKNOWN, "NoData",
                    "no context-switch series: add the jvm-tuning agent to the pods"));
        } else if (switches >= limits.getInvoluntarySwitchesPerCorePerSecond()) {
            findings.add(new Finding(CONTEXT_SWITCH_PRESSURE, TRUE, "InvoluntarySwitchesHigh",
                    number(switches) + " involuntary context switches per CPU per second" + window
                            + " (threshold " + limits.getInvoluntarySwitchesPerCorePerSecond() + ")"));
            Integer threads = integer(settings.get("threads.max"));
            if (threads != null && (cpuSaturated || cpu == null)) {
                int lower = Math.max(cores == null ? 2 : (int) Math.ceil(2 * cores), threads / 2);
                recommendations.add(new Recommendation("threads.max", threads.toString(), Integer.toString(lower),
                        "the CPUs are busy and threads preempt each other: fewer threads do the same work with less switching (R2, R4, R17)"));
            }
        } else {
            findings.add(new Finding(CONTEXT_SWITCH_PRESSURE, FALSE, "InvoluntarySwitchesNormal", number(switches)
                    + " involuntary context switches per CPU per second" + window
                    + " (threshold " + limits.getInvoluntarySwitchesPerCorePerSecond() + ")"));
        }

        Double throttle = now.getCpuThrottlePercent();
        if (throttle == null) {
            findings.add(new Finding(CPU_THROTTLED, UNKNOWN, "NoData", "no CFS throttling series (agent or cAdvisor)"));
        } else if (throttle >= limits.getCpuThrottlePercent()) {
            findings.add(new Finding(CPU_THROTTLED, TRUE, "Throttled", number(throttle) + "% of CFS periods throttled" + window
                    + " (threshold " + limits.getCpuThrottlePercent() + "%)"));
            recommendations.add(new Recommendation("resources.limits.cpu", cores == null ? null : number(cores),
                    cores == null ? "raise" : number(Math.ceil(cores * 1.5)),
                    "throttling starves request and GC threads alike: raise the CPU limit, or lower threads.max (R16)"));
        } else {
            findings.add(new Finding(CPU_THROTTLED, FALSE, "NotThrottled", number(throttle) + "% of CFS periods throttled" + window
                    + " (threshold " + limits.getCpuThrottlePercent() + "%)"));
        }

        Double busy = now.getBusyThreads();
        Double max = now.getMaxThreads();
        if (busy == null || max == null || max <= 0) {
            findings.add(new Finding(THREAD_POOL_SATURATED, UNKNOWN, "NoData", "no busy/max thread series of the web server"));
        } else if (busy >= SATURATED_RATIO * max) {
            findings.add(new Finding(THREAD_POOL_SATURATED, TRUE, "PoolSaturated", number(busy) + " of " + number(max)
                    + " request threads busy" + (cpu == null ? "" : ", CPU " + number(cpu) + (cores == null ? " cores" : " of " + number(cores) + " cores"))));
            if (cpu != null && cores != null && cpu < LOW_CPU_SHARE * cores) {
                recommendations.add(new Recommendation("threads.max", number(max), Integer.toString((int) Math.ceil(max * 1.5)),
                        "every thread is busy while the CPUs idle: the threads wait on I/O, so more of them raise throughput (R1, R4)"));
            } else if (cpuSaturated) {
                recommendations.add(new Recommendation("threads.max", number(max), number(max),
                        "the pool and the CPUs are both saturated: more threads would only add context switches; add replicas or CPU (R2, R4)"));
            }
        } else {
            findings.add(new Finding(THREAD_POOL_SATURATED, FALSE, "PoolHasHeadroom", number(busy) + " of " + number(max) + " request threads busy"));
        }

        Double pending = now.getPendingConnections();
        if (pending == null) {
            findings.add(new Finding(CONNECTION_POOL_STARVED, UNKNOWN, "NoData", "no connection-pool series (HikariCP or Agroal)"));
        } else if (pending > 0) {
            findings.add(new Finding(CONNECTION_POOL_STARVED, TRUE, "ThreadsWaitForConnections", number(pending)
                    + " requests waiting for a database connection on average"));
            Integer pool = integer(settings.get("connectionPool.maxSize"));
            if (pool != null) {
                recommendations.add(new Recommendation("connectionPool.maxSize", pool.toString(), Integer.toString(pool * 2),
                        "workers queue on the pool: it must admit the concurrency that reaches the database (R8); "
                                + "check the database's connection limit across replicas"));
            }
        } else {
            findings.add(new Finding(CONNECTION_POOL_STARVED, FALSE, "NoWaiters", "no request waits for a database connection"));
        }
        return new Verdict(findings, recommendations);
    }

    private static Integer integer(String value) {
        try {
            return value == null ? null : Integer.valueOf(value);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static String scaledMemory(String quantity, double factor) {
        if (quantity == null || !quantity.endsWith("Mi")) {
            return "+50%";
        }
        return (long) Math.ceil(Long.parseLong(quantity.substring(0, quantity.length() - 2)) * factor) + "Mi";
    }
}
