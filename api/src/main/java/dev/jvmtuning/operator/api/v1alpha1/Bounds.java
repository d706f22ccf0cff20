package dev.jvmtuning.operator.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.ValidationRule;
import lombok.AllArgsConstructor;
import lombok.Data;
import lombok.NoArgsConstructor;

/** How far Auto mode may move one knob; an omitted end is open. */
@Data
@NoArgsConstructor
@AllArgsConstructor
@ValidationRule(value = "!has(self.min) || !has(self.max) || self.min <= self.max", message = "auto bounds: min must not exceed max")
public class Bounds {
    @Min(1)
    @Max(100_000)
    @JsonPropertyDescription("The smallest value the loop may set.")
    private Integer min;

    @Min(1)
    @Max(100_000)
    @JsonPropertyDescription("The largest value the loop may set.")
    private Integer max;

    /** The value moved inside these bounds. */
    public int clamp(int value) {
        int low = min == null ? value : Math.max(value, min);
        return max == null ? low : Math.min(low, max);
    }
}
