package dev.jvmtuning.operator.planner;

import static dev.jvmtuning.operator.model.Units.mebibytes;

import dev.jvmtuning.operator.api.v1alpha1.Heap;
import dev.jvmtuning.operator.api.v1alpha1.MemorySizing;
import dev.jvmtuning.operator.model.JvmFlags;
import dev.jvmtuning.operator.model.Rule;
import dev.jvmtuning.operator.model.Setting;
import dev.jvmtuning.operator.model.Units;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.LongFunction;

/**
 * R9c: the memory limit sized around the JVM (spec.sizing.memory Plan). The heap the service needs (heap.size, the user's own
 * -Xmx, else three times the heap it keeps live after a collection) beside the JVM's memory outside the heap at that limit
 * (R9, with any OOM kill's answer, R9b), plus a headroom the budget leaves unclaimed, within the bounds. The request equals
 * the limit: a JVM does not give its memory back, so a request below the limit is a promise the node cannot keep.
 *
 * @param limitBytes the limit, and the request
 * @param heapBytes  the heap to render, null where the heap is the user's own or what the limit leaves (held at max)
 * @param heapSource where the heap comes from, for its decision
 */
record MemorySize(long limitBytes, Long heapBytes, String heapSource, List<Decision> decisions) {
    /**
     * A heap three times its live set: the old generation keeps room for what the requests promote between collections, the
     * young generation for what they allocate. Java Performance (Hunt, John) advises three to four times.
     */
    static final int LIVE_HEAP_MULTIPLE = 3;
    /** The fixed point is reached in two or three rounds; the bound only guards against a budget that is not monotone. */
    private static final int MOST_ROUNDS = 16;

    /**
     * The memory to plan, or empty where nothing says what heap the service needs (the container's own memory stands).
     *
     * @param nonHeapAt the budget beside the heap at a limit, the heap not yet sized
     */
    static Optional<MemorySize> of(MemorySizing sizing, Heap heapSpec, JvmFlags userFlags, Demand demand, LongFunction<MemoryBudget> nonHeapAt,
            PlanNotes notes) {
        Long heap;
        String source;
        boolean rendered = false;
        if (heapSpec != null && heapSpec.getPercentOfLimit() != null) {
            notes.invalid.add("heap.percentOfLimit sizes the heap from the memory limit, and sizing.memory Plan sizes the limit from the "
                    + "heap: set heap.size or workload.liveHeap instead");
            return Optional.empty();
        } else if (heapSpec != null && heapSpec.getSize() != null) {
            heap = Units.bytes(heapSpec.getSize()) / Units.MI * Units.MI;
            source = "heap.size " + mebibytes(heap);
        } else if (userFlags.heapSizingFlag().isPresent()) {
            String flag = userFlags.heapSizingFlag().get();
            OptionalLong theirs = userFlags.effectiveMaxHeapBytes(null);
            if (theirs.isEmpty()) {
                notes.invalid.add("sizing.memory is Plan but the heap is sized by " + flag + " in " + userFlags.sourceOf(flag).orElseThrow()
                        + ", a share of the limit the operator is to size: set -Xmx, heap.size or workload.liveHeap instead");
                return Optional.empty();
            }
            heap = theirs.getAsLong();
            source = "the heap " + mebibytes(heap) + " of " + flag + " in " + userFlags.sourceOf(flag).orElseThrow();
        } else if (demand.liveHeap() != null) {
            long virtualStacks = nonHeapAt.apply(demand.liveHeap()).virtualStackBytes();
            heap = Math.max(MemoryPlan.MIN_HEAP, roundUpToMi(LIVE_HEAP_MULTIPLE * demand.liveHeap())) + roundUpToMi(virtualStacks);
            source = LIVE_HEAP_MULTIPLE + " x the live heap " + mebibytes(demand.liveHeap()) + " (workload.liveHeap)"
                    + (virtualStacks == 0 ? "" : " + the virtual threads' stacks " + mebibytes(virtualStacks));
            rendered = true;
        } else {
            notes.warnings.add("sizing.memory is Plan but nothing says what heap the service needs: set workload.liveHeap (measured in "
                    + "status.observed.liveHeapMib) or heap.size; the container's memory is kept");
            return Optional.empty();
        }
        int headroom = Objects.requireNonNullElse(sizing.getHeadroomPercent(), MemorySizing.DEFAULT_HEADROOM_PERCENT);
        long limit = heap;
        for (int round = 0; round < MOST_ROUNDS; round++) {
            long next = roundUpToMi((long) Math.ceil((heap + nonHeapAt.apply(limit).nonHeap()) * 100.0 / (100 - headroom)));
            if (next <= limit) {
                break;
            }
            limit = next;
        }
        String why = source + " + the JVM's memory beside it " + mebibytes(nonHeapAt.apply(limit).nonHeap()) + " (R9) + " + headroom
                + "% headroom = " + mebibytes(limit);
        Long min = sizing.getMin() == null ? null : Units.bytes(sizing.getMin());
        Long max = sizing.getMax() == null ? null : Units.bytes(sizing.getMax());
        if (min != null && limit < min) {
            limit = roundUpToMi(min);
            why += ", raised to sizing.memory.min " + sizing.getMin();
        }
        if (max != null && limit > max) {
            notes.warnings.add("the heap needs a memory limit of " + mebibytes(limit) + " (" + source + "), above sizing.memory.max "
                    + sizing.getMax() + ": the limit is held there" + (rendered ? " and the heap is what it leaves" : ""));
            limit = max / Units.MI * Units.MI;
            why += ", held at sizing.memory.max " + sizing.getMax();
            rendered = false;
        }
        String limitText = mebibytes(limit);
        return Optional.of(new MemorySize(limit, rendered ? heap : null, source, List.of(
                new Decision(Setting.MEMORY_LIMIT, limitText, Rule.R9C, why),
                new Decision(Setting.MEMORY_REQUEST, limitText, Rule.R9C, "the limit: a JVM does not give its memory back, so a request "
                        + "below the limit is a promise the node cannot keep under pressure"))));
    }

    private static long roundUpToMi(long bytes) {
        return (bytes + Units.MI - 1) / Units.MI * Units.MI;
    }
}
