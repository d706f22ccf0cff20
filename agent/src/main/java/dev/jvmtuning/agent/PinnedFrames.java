package dev.jvmtuning.agent;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Pinnings of virtual threads counted by the frame that pinned, in a bounded label set: at most {@link #MAX_FRAMES}
 * frames are named, the rest count under {@link #OTHER}. The frames named are the ones that pin most often: an unnamed
 * frame that has pinned more often than the least frequent named one takes its place.
 *
 * <p>The tallies are Prometheus counters, so a change of names must never make the family's sum go down: a frame
 * that loses its name hands its counts to OTHER, and a frame that gets one starts from zero, its earlier pinnings
 * staying in OTHER. Only pinnings are kept, never anything per request. Thread-safe: the recording adds, the
 * collector reads.
 */
final class PinnedFrames {

    /** Five frames say where pinning comes from; more would only grow every scrape. */
    static final int MAX_FRAMES = 5;
    static final String OTHER = "other";
    /**
     * Unnamed frames whose pinnings are counted toward a name. Beyond this many the least frequent is forgotten, so
     * that code that pins from ever new frames (generated classes) cannot grow the tally.
     */
    static final int MAX_CANDIDATES = 64;

    /** One label's counters: pinnings and the time they held their carrier. */
    record Tally(String frame, long count, long nanos) {}

    /** A named frame: its exposed counters, and every pinning it made, which ranks it against the candidates. */
    private static final class Named {
        long rank;
        long count;
        long nanos;
    }

    private final Map<String, Named> named = new LinkedHashMap<>();
    private final Map<String, Long> candidates = new HashMap<>();
    private long otherCount;
    private long otherNanos;

    synchronized void record(String frame, long nanos) {
        Named slot = named.get(frame);
        if (slot == null && named.size() < MAX_FRAMES) {
            slot = new Named();
            named.put(frame, slot);
        }
        if (slot != null) {
            slot.rank++;
            slot.count++;
            slot.nanos += nanos;
            return;
        }
        otherCount++;
        otherNanos += nanos;
        long pinnings = candidates.merge(frame, 1L, Long::sum);
        if (candidates.size() > MAX_CANDIDATES) {
            candidates.entrySet().stream().filter(e -> !e.getKey().equals(frame)).min(Map.Entry.comparingByValue())
                    .ifPresent(least -> candidates.remove(least.getKey()));
        }
        Map.Entry<String, Named> least = named.entrySet().stream().min(Comparator.comparingLong(e -> e.getValue().rank)).orElseThrow();
        if (pinnings > least.getValue().rank) {
            named.remove(least.getKey());
            otherCount += least.getValue().count;
            otherNanos += least.getValue().nanos;
            candidates.remove(frame);
            Named promoted = new Named();
            promoted.rank = pinnings;
            named.put(frame, promoted);
        }
    }

    /** The named frames' tallies, then OTHER's, which is there even before any pinning: the recording runs. */
    synchronized List<Tally> tallies() {
        List<Tally> tallies = new ArrayList<>();
        named.forEach((frame, slot) -> tallies.add(new Tally(frame, slot.count, slot.nanos)));
        tallies.add(new Tally(OTHER, otherCount, otherNanos));
        return tallies;
    }
}
