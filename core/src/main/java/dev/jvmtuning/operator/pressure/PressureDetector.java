package dev.jvmtuning.operator.pressure;

import static dev.jvmtuning.operator.model.ConditionStatus.FALSE;
import static dev.jvmtuning.operator.model.ConditionStatus.TRUE;
import static dev.jvmtuning.operator.model.ConditionStatus.UNKNOWN;
import static dev.jvmtuning.operator.model.ConditionType.CONNECTION_POOL_STARVED;
import static dev.jvmtuning.operator.model.ConditionType.CONTEXT_SWITCH_PRESSURE;
import static dev.jvmtuning.operator.model.ConditionType.CPU_THROTTLED;
import static dev.jvmtuning.operator.model.ConditionType.GC_PRESSURE;
import static dev.jvmtuning.operator.model.ConditionType.THREAD_POOL_SATURATED;
import static dev.jvmtuning.operator.model.Units.mebibytes;
import static dev.jvmtuning.operator.model.Units.number;

import dev.jvmtuning.operator.api.v1alpha1.Observed;
import dev.jvmtuning.operator.api.v1alpha1.Pressure;
import dev.jvmtuning.operator.api.v1alpha1.Recommendation;
import dev.jvmtuning.operator.model.CurrentSettings;
import dev.jvmtuning.operator.model.Reason;
import dev.jvmtuning.operator.model.Setting;
import dev.jvmtuning.operator.model.Units;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Judges one window of observed figures against the profile's thresholds (rules R4, R8,
 * R15-R17 of docs/explanation/tuning-rules.md) and says what to change from the plan in force. Pure: figures in, conditions and recommendations out.
 */
public final class PressureDetector {
    /** R15: after-GC occupancy this high means the heap is too small for the live data. */
    static final double HEAP_NEARLY_FULL_PERCENT = 90;
    /** R4: a pool this busy has no headroom left. */
    public static final double SATURATED_RATIO = 0.9;
    /** R4, R7: a request waiting for a worker on average over the window means every worker was busy. */
    static final double QUEUED_FOR_SATURATION = 1;
    /** R4: CPU below this share of the container's cores means the threads wait, they do not compute. */
    static final double LOW_CPU_SHARE = 0.5;
    static final double HIGH_CPU_SHARE = 0.8;
    /** R15: a rise in after-GC occupancy counts as a possible leak only from this level on; below it the heap has room. */
    static final double LEAK_SUSPECT_PERCENT = 70;
    /** R4, R15, R16: one step of a recommendation that grows a resource: half as much again. */
    static final double GROWTH_STEP = 1.5;
    /** R2, R17: under context-switch pressure, halve the threads but keep two per CPU. */
    static final int THREADS_PER_CPU_FLOOR = 2;
    /** R8: a starved pool is doubled; the database's connection limit is the owner's to check. */
    static final int POOL_GROWTH_FACTOR = 2;

    /** The target container's CPU limit: advice outside the profile, for the Deployment's owner. */
    static final String CPU_LIMIT = "resources.limits.cpu";

    private PressureDetector() {
    }

    /**
     * @param now       the last window's figures
     * @param previous  the window before it, for trends (may be null)
     * @param pressure  the profile's thresholds
     * @param current   the plan in force: recommendations start from its threads, heap and pool, and CPU shares are of its processors
     */
    public static Verdict judge(Observed now, Observed previous, Pressure pressure, CurrentSettings current) {
        Double cores = current.processors();
        String heap = current.heapBytes() == null ? null : mebibytes(current.heapBytes());
        Pressure limits = Objects.requireNonNullElseGet(pressure, Pressure::new);
        List<Finding> findings = new ArrayList<>();
        List<Recommendation> recommendations = new ArrayList<>();
        String window = " over " + now.getWindow();

        Double gc = now.getGcTimePercent();
        Double afterGc = now.getHeapAfterGcPercent();
        if (gc == null) {
            findings.add(new Finding(GC_PRESSURE, UNKNOWN, Reason.NO_DATA, "no GC time series in the pods' metrics"));
        } else if (gc >= limits.getGcTimePercent() || (afterGc != null && afterGc >= HEAP_NEARLY_FULL_PERCENT)) {
            boolean timeHigh = gc >= limits.getGcTimePercent();
            findings.add(new Finding(GC_PRESSURE, TRUE, timeHigh ? Reason.GC_TIME_HIGH : Reason.HEAP_NEARLY_FULL,
                    "GC took " + number(gc) + "% of wall time" + window + " (threshold " + limits.getGcTimePercent() + "%)"
                            + (afterGc == null ? "" : ", heap " + number(afterGc) + "% full after GC")));
            Double before = previous == null ? null : previous.getHeapAfterGcPercent();
            if (afterGc != null && before != null && afterGc > before && afterGc >= LEAK_SUSPECT_PERCENT) {
                recommendations.add(Recommendation.investigate(Setting.HEAP_SIZE.key(), heap,
                        "heap after GC rose from " + number(before) + "% to " + number(afterGc)
                                + "%: if it keeps rising, more heap only delays the OutOfMemoryError (R15)"));
            } else {
                String why = "GC took " + number(gc) + "% of wall time: give it 50% more heap, within the memory limit (R15)";
                recommendations.add(current.heapBytes() == null ? Recommendation.scale(Setting.HEAP_SIZE.key(), null, GROWTH_STEP, why)
                        : Recommendation.set(Setting.HEAP_SIZE.key(), heap, scaledMemory(current.heapBytes(), GROWTH_STEP), why));
            }
        } else {
            findings.add(new Finding(GC_PRESSURE, FALSE, Reason.GC_TIME_NORMAL,
                    "GC took " + number(gc) + "% of wall time" + window + " (threshold " + limits.getGcTimePercent() + "%)"));
        }

        Double switches = now.getInvoluntarySwitchesPerCorePerSecond();
        Double cpu = now.getCpuCores();
        boolean cpuSaturated = cpu != null && cores != null && cpu >= HIGH_CPU_SHARE * cores;
        if (switches == null) {
            findings.add(new Finding(CONTEXT_SWITCH_PRESSURE, UNKNOWN, Reason.NO_DATA,
                    "no context-switch series: add the jvm-tuning agent to the pods"));
        } else if (switches >= limits.getInvoluntarySwitchesPerCorePerSecond()) {
            findings.add(new Finding(CONTEXT_SWITCH_PRESSURE, TRUE, Reason.INVOLUNTARY_SWITCHES_HIGH,
                    number(switches) + " involuntary context switches per CPU per second" + window
                            + " (threshold " + limits.getInvoluntarySwitchesPerCorePerSecond() + ")"));
            Integer threads = current.maxThreads();
            if (threads != null && (cpuSaturated || cpu == null)) {
                int lower = Math.max(cores == null ? THREADS_PER_CPU_FLOOR : (int) Math.ceil(THREADS_PER_CPU_FLOOR * cores), threads / 2);
                recommendations.add(Recommendation.set(Setting.THREADS_MAX.key(), threads.toString(), Integer.toString(lower),
                        "the CPUs are busy and threads preempt each other: fewer threads do the same work with less switching (R2, R4, R17)"));
            }
        } else {
            findings.add(new Finding(CONTEXT_SWITCH_PRESSURE, FALSE, Reason.INVOLUNTARY_SWITCHES_NORMAL, number(switches)
                    + " involuntary context switches per CPU per second" + window
                    + " (threshold " + limits.getInvoluntarySwitchesPerCorePerSecond() + ")"));
        }

        Double throttle = now.getCpuThrottlePercent();
        if (throttle == null) {
            findings.add(new Finding(CPU_THROTTLED, UNKNOWN, Reason.NO_DATA, "no CFS throttling series (agent or cAdvisor)"));
        } else if (throttle >= limits.getCpuThrottlePercent()) {
            findings.add(new Finding(CPU_THROTTLED, TRUE, Reason.THROTTLED, number(throttle) + "% of CFS periods throttled" + window
                    + " (threshold " + limits.getCpuThrottlePercent() + "%)"));
            String why = "throttling starves request and GC threads alike: raise the CPU limit, or lower threads.max (R16)";
            recommendations.add(cores == null ? Recommendation.scale(CPU_LIMIT, null, GROWTH_STEP, why)
                    : Recommendation.set(CPU_LIMIT, number(cores), number(Math.ceil(cores * GROWTH_STEP)), why));
        } else {
            findings.add(new Finding(CPU_THROTTLED, FALSE, Reason.NOT_THROTTLED, number(throttle) + "% of CFS periods throttled" + window
                    + " (threshold " + limits.getCpuThrottlePercent() + "%)"));
        }

        Double busy = now.getBusyThreads();
        Double max = now.getMaxThreads();
        // Busy threads are read once per scrape where the agent does not sum them; requests queued for a worker over the window
        // say the pool was full.
        boolean queueing = now.getQueuedRequests() != null && now.getQueuedRequests() >= QUEUED_FOR_SATURATION;
        String queue = !queueing ? "" : number(now.getQueuedRequests()) + " requests queued for a worker"
                + (now.getQueueWaitMillisPerRequest() == null ? "" : " (" + number(now.getQueueWaitMillisPerRequest()) + " ms each)");
        if (current.virtualThreads()) {
            // The server's platform pool (acceptors, pollers, or Jetty's pool that hands requests over) is busy or idle
            // whatever the requests do, so its series would raise a saturation no thread count relieves.
            findings.add(new Finding(THREAD_POOL_SATURATED, FALSE, Reason.VIRTUAL_THREADS, "requests run on virtual threads ("
                    + current.threading().source() + "): no worker pool bounds them, so the platform pool's series are not judged; "
                    + "the connection limit (R18) and ConnectionPoolStarved bound them instead"));
        } else if ((busy == null || max == null || max <= 0) && queueing) {
            findings.add(new Finding(THREAD_POOL_SATURATED, TRUE, Reason.POOL_SATURATED, queue));
        } else if (busy == null || max == null || max <= 0) {
            findings.add(new Finding(THREAD_POOL_SATURATED, UNKNOWN, Reason.NO_DATA, "no busy/max thread series of the web server"));
        } else if (busy >= SATURATED_RATIO * max || queueing) {
            findings.add(new Finding(THREAD_POOL_SATURATED, TRUE, Reason.POOL_SATURATED, number(busy) + " of " + number(max)
                    + " request threads busy" + (queueing ? ", " + queue : "")
                    + (cpu == null ? "" : ", CPU " + number(cpu) + (cores == null ? " cores" : " of " + number(cores) + " cores"))));
            if (cpu != null && cores != null && cpu < LOW_CPU_SHARE * cores) {
                recommendations.add(Recommendation.set(Setting.THREADS_MAX.key(), number(max), Integer.toString((int) Math.ceil(max * GROWTH_STEP)),
                        "every thread is busy while the CPUs idle: the threads wait on I/O, so more of them raise throughput (R1, R4)"));
            } else if (cpuSaturated) {
                recommendations.add(Recommendation.keep(Setting.THREADS_MAX.key(), number(max),
                        "the pool and the CPUs are both saturated: more threads would only add context switches; add replicas or CPU (R2, R4)"));
            }
        } else {
            findings.add(new Finding(THREAD_POOL_SATURATED, FALSE, Reason.POOL_HAS_HEADROOM, number(busy) + " of " + number(max) + " request threads busy"));
        }

        Double pending = now.getPendingConnections();
        if (pending == null) {
            findings.add(new Finding(CONNECTION_POOL_STARVED, UNKNOWN, Reason.NO_DATA, "no connection-pool series (HikariCP or Agroal)"));
        } else if (pending > 0) {
            findings.add(new Finding(CONNECTION_POOL_STARVED, TRUE, Reason.THREADS_WAIT_FOR_CONNECTIONS, number(pending)
                    + " requests waiting for a database connection on average"));
            Integer pool = current.poolMaxSize();
            if (pool != null) {
                recommendations.add(Recommendation.set(Setting.POOL_MAX_SIZE.key(), pool.toString(), Integer.toString(pool * POOL_GROWTH_FACTOR),
                        "workers queue on the pool: it must admit the concurrency that reaches the database (R8); "
                                + "check the database's connection limit across replicas"));
            }
        } else {
            findings.add(new Finding(CONNECTION_POOL_STARVED, FALSE, Reason.NO_WAITERS, "no request waits for a database connection"));
        }
        return new Verdict(findings, recommendations);
    }

    /** A heap grown by a factor, in whole MiB as status writes sizes. */
    private static String scaledMemory(long bytes, double factor) {
        return (long) Math.ceil(bytes / Units.MI * factor) + "Mi";
    }
}
