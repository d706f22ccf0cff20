package dev.jvmtuning.operator.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import lombok.Data;

/** Java heap; initial and maximum size are always equal. Omit both fields to fill the limit after non-heap memory. */
@Data
@ValidationRule(value = "!(has(self.size) && has(self.percentOfLimit))", message = "set heap.size or heap.percentOfLimit, not both")
public class Heap {
    @Size(max = Patterns.MEMORY_MAX_LENGTH)
    @Pattern(Patterns.MEMORY)
    @ValidationRule(value = "quantity(self).compareTo(quantity('32Mi')) >= 0", message = "heap.size must be at least 32Mi")
    @ValidationRule(value = "quantity(self).compareTo(quantity('" + Patterns.MEMORY_MAX + "')) <= 0",
            message = "heap.size must be at most " + Patterns.MEMORY_MAX)
    @JsonPropertyDescription("Absolute heap size as a Kubernetes quantity, e.g. 1536Mi.")
    private String size;

    @Min(10)
    @Max(90)
    @JsonPropertyDescription("Heap as a percentage of the container's memory limit.")
    private Integer percentOfLimit;
}
