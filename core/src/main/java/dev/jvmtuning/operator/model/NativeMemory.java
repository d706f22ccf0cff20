package dev.jvmtuning.operator.model;

import java.util.Map;

/**
 * What one pod's JVM says it has committed, by category, when it runs with native memory tracking (the agent's
 * jvmtuning_native_memory_bytes series): category names as the JDK prints them ("Java Heap", "Class", "Thread", "Code",
 * "GC", "Other", ...), bytes, and the total of every category. Empty when the pod reports none: no tracking, no agent,
 * or one older than the series.
 */
public record NativeMemory(Map<String, Long> committedBytes, long totalCommittedBytes) {
    public static final NativeMemory NONE = new NativeMemory(Map.of(), 0);

    public NativeMemory {
        committedBytes = Map.copyOf(committedBytes);
    }

    public boolean reported() {
        return !committedBytes.isEmpty();
    }

    /** The committed bytes of these categories together; a category this JDK does not print counts nothing. */
    public long committed(String... categories) {
        long sum = 0;
        for (String category : categories) {
            sum += committedBytes.getOrDefault(category, 0L);
        }
        return sum;
    }
}
