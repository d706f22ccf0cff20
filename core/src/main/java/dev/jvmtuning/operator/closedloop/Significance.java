package dev.jvmtuning.operator.closedloop;

import dev.jvmtuning.operator.model.Units;

/**
 * Which moves of a knob are worth acting on, for mode Auto's steps and the recommendations alike:
 * below them, the windows' noise would make the loop roll out and the advice flap. Pure.
 *
 * <p>Compared in whole numbers (the threshold as an integer percent), so a move of exactly the
 * threshold counts whatever the value it moves from.
 *
 * @param thresholdPercent the least move worth acting on, in percent of the value moved from
 */
public record Significance(int thresholdPercent) {
    /** A thread or connection count that moves by less is never worth it, whatever the threshold. */
    static final long SMALLEST_COUNT_MOVE = 2;
    /** A heap that moves by less is the rounding of a plan around its threads, not a new heap. */
    static final long SMALLEST_HEAP_MOVE_MIB = 8;

    /** A count that moves by the threshold and by at least 2; any value set where there was none. */
    public boolean count(Integer from, Integer to) {
        return to != null && (from == null || moves(from, to, SMALLEST_COUNT_MOVE));
    }

    /** A heap that moves by the threshold and by at least 8 MiB, compared in whole MiB as -Xmx renders it. */
    public boolean heap(long fromBytes, long toBytes) {
        return moves(fromBytes / Units.MI, toBytes / Units.MI, SMALLEST_HEAP_MOVE_MIB);
    }

    /** A live heap, in MiB, that moves by the threshold and by at least 8 MiB: the heap it sizes moves three times as much. */
    public boolean liveHeap(Integer fromMib, Integer toMib) {
        return toMib != null && (fromMib == null || moves(fromMib, toMib, SMALLEST_HEAP_MOVE_MIB));
    }

    private boolean moves(long from, long to, long smallest) {
        long by = Math.abs(to - from);
        return by >= smallest && by * 100 >= Math.abs(from) * thresholdPercent;
    }
}
