package dev.jvmtuning.operator.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import lombok.AllArgsConstructor;
import lombok.Data;
import lombok.NoArgsConstructor;

/** The knobs Auto mode moves, as it set them; null leaves the profile's own value (or the plan's). */
@Data
@NoArgsConstructor
@AllArgsConstructor
public class AutoSettings {
    @JsonPropertyDescription("threads.max")
    private Integer threads;

    @JsonPropertyDescription("connectionPool.maxSize")
    private Integer connectionPool;

    @JsonPropertyDescription("heap.percentOfLimit")
    private Integer heapPercentOfLimit;

    @JsonPropertyDescription("workload.liveHeap, in MiB: the live heap the container's memory is sized for (spec.sizing.memory Plan)")
    private Integer liveHeapMib;

    /** The knobs of mode Auto before it sized the memory. */
    public AutoSettings(Integer threads, Integer connectionPool, Integer heapPercentOfLimit) {
        this(threads, connectionPool, heapPercentOfLimit, null);
    }

    /** These settings without a thread count: where no worker pool runs the requests, there is none to step. */
    public AutoSettings withoutThreads() {
        return new AutoSettings(null, connectionPool, heapPercentOfLimit, liveHeapMib);
    }

    /** Whether no knob is set: the profile's own values (or the plan's) stand. */
    @JsonIgnore
    public boolean isNone() {
        return threads == null && connectionPool == null && heapPercentOfLimit == null && liveHeapMib == null;
    }

    @Override
    public String toString() {
        return "threads " + text(threads) + ", pool " + text(connectionPool) + ", heap " + (heapPercentOfLimit == null ? "as planned" : heapPercentOfLimit + "%")
                + (liveHeapMib == null ? "" : ", sized for a live heap of " + liveHeapMib + "Mi");
    }

    private static String text(Integer value) {
        return value == null ? "default" : value.toString();
    }

    /**
     * A @JsonInclude value filter that leaves settings setting no knob out of the JSON. Server-side apply
     * turns an object whose fields it removes all of into null (structured-merge-diff's RemoveItems), which
     * the schema of an object refuses: applying {} where the last apply set threads would make every status
     * write fail. Left out, the field is removed whole.
     */
    public static final class LeftOutWhenNone {
        @Override
        public boolean equals(Object value) {
            return value == null || value instanceof AutoSettings settings && settings.isNone();
        }

        @Override
        public int hashCode() {
            return 0;
        }
    }
}
