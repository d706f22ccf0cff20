package dev.jvmtuning.operator.pressure;

import static dev.jvmtuning.operator.model.ConditionType.HEAP_OVER_LIMIT;
import static dev.jvmtuning.operator.model.Units.mebibytes;

import dev.jvmtuning.operator.model.ConditionStatus;
import dev.jvmtuning.operator.model.Reason;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Whether each pod's JVM runs a maximum heap its own memory limit holds beside what the JVM needs besides the heap (the plan's
 * non-heap budget). A heap sized for another limit (a pod resized in place since its JVM started, an -Xmx set outside the
 * operator, a pod admitted otherwise than its template says) is an OOM kill waiting for the heap to fill: said before the
 * kernel says it. Pure.
 */
public final class HeapFit {

    private HeapFit() {
    }

    /** The JVM rounds a heap up to its alignment (a -Xmx121m runs 122Mi): an overrun within this share of the limit is that. */
    static final double ALIGNMENT_SHARE = 0.02;

    /** One pod: the maximum heap its JVM reports, and the memory limit it runs under. */
    public record Pod(String name, long maxHeapBytes, long limitBytes) {
        long room(long nonHeapBytes) {
            return limitBytes - maxHeapBytes - nonHeapBytes;
        }

        boolean over(long nonHeapBytes) {
            return room(nonHeapBytes) < -(long) (ALIGNMENT_SHARE * limitBytes);
        }
    }

    /**
     * @param pods         the Ready pods whose JVMs report their maximum heap and that have a memory limit
     * @param nonHeapBytes what the plan budgets beside the heap: metaspace, code cache, thread stacks, direct and other native memory
     */
    public static Finding judge(List<Pod> pods, long nonHeapBytes) {
        if (pods.isEmpty()) {
            return new Finding(HEAP_OVER_LIMIT, ConditionStatus.UNKNOWN, Reason.NO_DATA,
                    "no Ready pod reports its maximum heap under a memory limit");
        }
        // The tightest pod shows: over its limit, the furthest over; else the one nearest to it.
        Pod tightest = pods.stream().min(Comparator.comparingLong((Pod p) -> p.room(nonHeapBytes)).thenComparing(Pod::name)).orElseThrow();
        long over = pods.stream().filter(p -> p.over(nonHeapBytes)).count();
        String figures = "pod " + tightest.name() + " runs a " + mebibytes(tightest.maxHeapBytes()) + " heap in a " + mebibytes(tightest.limitBytes())
                + " limit, beside the " + mebibytes(nonHeapBytes) + " its JVM needs besides the heap (the plan's non-heap budget)";
        if (over > 0) {
            return new Finding(HEAP_OVER_LIMIT, ConditionStatus.TRUE, Reason.HEAP_BEYOND_LIMIT, figures + ": the kernel kills it once the "
                    + "heap fills; " + over + " of " + pods.size() + " pods so; a pod started since runs the plan for its own limit");
        }
        return new Finding(HEAP_OVER_LIMIT, ConditionStatus.FALSE, Reason.HEAP_FITS_LIMIT, "every pod's heap fits its limit; the tightest: "
                + figures);
    }

    /** The pods to judge, by name: those with both a reported maximum heap and a memory limit. */
    public static List<Pod> pods(Map<String, Long> maxHeapByPod, Map<String, Long> limitByPod) {
        return new TreeMap<>(maxHeapByPod).entrySet().stream().filter(e -> e.getValue() != null && limitByPod.get(e.getKey()) != null)
                .map(e -> new Pod(e.getKey(), e.getValue(), Objects.requireNonNull(limitByPod.get(e.getKey())))).toList();
    }
}
