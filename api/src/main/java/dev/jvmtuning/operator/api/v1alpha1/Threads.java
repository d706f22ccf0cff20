package dev.jvmtuning.operator.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.ValidationRule;
import lombok.Data;

/** The request worker pool. An omitted value is derived from the workload. */
@Data
@ValidationRule(value = "!has(self.max) || !has(self.minSpare) || self.minSpare <= self.max",
        message = "threads.minSpare must not exceed threads.max")
public class Threads {
    @Min(1)
    @Max(100_000)
    @JsonPropertyDescription("Maximum request worker threads. Omit to derive it from the workload (Little's law, capped where the CPUs saturate).")
    private Integer max;

    @Min(0)
    @Max(100_000)
    @JsonPropertyDescription("Threads kept alive when idle. Omit to derive it from the workload's steady concurrency.")
    private Integer minSpare;
}
