package dev.jvmtuning.operator.api.v1alpha1;

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

    @Override
    public String toString() {
        return "threads " + text(threads) + ", pool " + text(connectionPool) + ", heap " + (heapPercentOfLimit == null ? "as planned" : heapPercentOfLimit + "%");
    }

    private static String text(Integer value) {
        return value == null ? "default" : value.toString();
    }
}
