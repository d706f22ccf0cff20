package dev.jvmtuning.agent;

import java.util.Map;

/**
 * Sums a per-thread kernel counter into a process total that never decreases. The kernel drops an
 * exited thread's counts from /proc/self/task (and /proc/self/status shows the main thread only), so
 * the last value seen of each thread that is gone is kept; only what it did after the previous scrape
 * is lost. A total that fell when threads exit would read as a counter reset and make rate() spike.
 */
final class PerThreadCounterSum {

    private Map<String, Long> lastSeenByThread = Map.of();
    private long exitedThreadsTotal;

    /** Takes the current value of every live thread, keyed by thread id, and returns the total. */
    synchronized long update(Map<String, Long> currentByThread) {
        lastSeenByThread.forEach((threadId, lastSeen) -> {
            Long current = currentByThread.get(threadId);
            // Lower than before: the id was reused by a new thread, so the old one has exited too.
            if (current == null || current < lastSeen) {
                exitedThreadsTotal += lastSeen;
            }
        });
        lastSeenByThread = Map.copyOf(currentByThread);
        long liveThreadsTotal = currentByThread.values().stream().mapToLong(Long::longValue).sum();
        return exitedThreadsTotal + liveThreadsTotal;
    }
}
