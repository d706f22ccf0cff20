package dev.jvmtuning.operator.planner;

import static dev.jvmtuning.operator.model.Units.mebibytes;

import dev.jvmtuning.operator.api.v1alpha1.Collector;
import dev.jvmtuning.operator.model.JvmFlags;
import dev.jvmtuning.operator.model.Rule;
import dev.jvmtuning.operator.model.Setting;
import dev.jvmtuning.operator.model.Units;
import java.util.List;
import java.util.OptionalLong;

/**
 * R10 and R10a: where the rendered heap starts and what it aims at, once the collector is known. A collector
 * that sizes its heap itself (ZGC) gets the ceiling the budget allows as -Xmx and a soft target below it,
 * and no -Xms: pinning the initial heap to the maximum would commit what it means to keep uncommitted. The
 * others start at the ceiling (G1 acts on SoftMaxHeapSize only after JDK 25, so its heap stays pinned).
 *
 * @param initialBytes -Xms, or null
 * @param softMaxBytes -XX:SoftMaxHeapSize, or null
 */
record HeapTarget(Long initialBytes, Long softMaxBytes, List<Decision> decisions) {
    /** R10a: ZGC's own soft maximum when it sizes the heap itself (JDK-8316319), taken of the planned ceiling. */
    static final int SOFT_MAX_PERCENT_OF_HEAP = 90;
    private static final String SOFT_MAX_FLAG = "-XX:SoftMaxHeapSize=";

    static HeapTarget of(MemoryPlan memory, GcPlan gc, JvmFlags userFlags) {
        Long heap = memory.renderedHeap();
        if (heap == null) {
            return new HeapTarget(null, null, List.of());
        }
        if (gc.effective() != Collector.ZGC) {
            return new HeapTarget(heap, null, List.of(new Decision(Setting.HEAP_INITIAL, mebibytes(heap), Rule.R10,
                    "initial heap = maximum heap: no resizing pauses, and the memory is claimed at start")));
        }
        OptionalLong theirs = userFlags.sizeFlag(SOFT_MAX_FLAG);
        if (theirs.isPresent()) {
            return new HeapTarget(null, null, List.of(new Decision(Setting.HEAP_SOFT_MAX, mebibytes(theirs.getAsLong()), Rule.SPEC, "kept as set in " + userFlags.sourceOf(SOFT_MAX_FLAG + "1m").orElseThrow()
                            + "; -Xms is not pinned to -Xmx: ZGC sizes its heap itself")));
        }
        long softMax = heap * SOFT_MAX_PERCENT_OF_HEAP / 100 / Units.MI * Units.MI;
        return new HeapTarget(null, softMax, List.of(new Decision(Setting.HEAP_SOFT_MAX, mebibytes(softMax), Rule.R10A,
                "ZGC sizes its heap itself: heap.size " + mebibytes(heap) + " is the ceiling the memory budget allows (-Xmx) and "
                        + SOFT_MAX_PERCENT_OF_HEAP + "% of it the soft target ZGC collects to stay under, exceeded only rather than "
                        + "stall allocation; -Xms is not pinned to -Xmx, so ZGC commits the heap as it needs it")));
    }
}
