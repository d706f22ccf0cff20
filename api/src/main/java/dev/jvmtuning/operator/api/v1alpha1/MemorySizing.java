package dev.jvmtuning.operator.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import lombok.Data;
import lombok.experimental.Accessors;

/** The container's memory request and limit, sized around the heap the service needs and the JVM's memory beside it. */
@Data
@Accessors(chain = true)
@ValidationRule(value = "!has(self.min) || !has(self.max) || quantity(self.min).compareTo(quantity(self.max)) <= 0",
        message = "sizing.memory.min must not exceed sizing.memory.max")
public class MemorySizing {
    /** Room above the planned need, so a native figure the budget underestimates does not meet the limit first. */
    public static final int DEFAULT_HEADROOM_PERCENT = 10;

    @JsonPropertyDescription("Keep the container's memory as it is (the default), or Plan it: the limit holds the heap (heap.size, "
            + "else three times workload.liveHeap) beside the JVM's native memory and the headroom, and the request equals the limit (R9c).")
    @Default("Keep")
    private SizingPolicy policy = SizingPolicy.Keep;

    @Size(max = Patterns.MEMORY_MAX_LENGTH)
    @Pattern(Patterns.MEMORY)
    @ValidationRule(value = "quantity(self).compareTo(quantity('64Mi')) >= 0", message = "sizing.memory.min must be at least 64Mi")
    @ValidationRule(value = "quantity(self).compareTo(quantity('" + Patterns.MEMORY_MAX + "')) <= 0",
            message = "sizing.memory.min must be at most " + Patterns.MEMORY_MAX)
    @JsonPropertyDescription("The least memory limit the operator plans, e.g. 256Mi.")
    private String min;

    @Size(max = Patterns.MEMORY_MAX_LENGTH)
    @Pattern(Patterns.MEMORY)
    @ValidationRule(value = "quantity(self).compareTo(quantity('64Mi')) >= 0", message = "sizing.memory.max must be at least 64Mi")
    @ValidationRule(value = "quantity(self).compareTo(quantity('" + Patterns.MEMORY_MAX + "')) <= 0",
            message = "sizing.memory.max must be at most " + Patterns.MEMORY_MAX)
    @JsonPropertyDescription("The most memory limit the operator plans, e.g. 4Gi: above it the heap is what the limit leaves.")
    private String max;

    @Min(0)
    @Max(90)
    @JsonPropertyDescription("Percent of the limit left above the planned heap and native memory. Default 10.")
    private Integer headroomPercent;
}
