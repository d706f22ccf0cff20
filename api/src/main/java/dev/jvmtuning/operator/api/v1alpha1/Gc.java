package dev.jvmtuning.operator.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.ValidationRule;
import lombok.Data;

@Data
@ValidationRule(value = "!has(self.maxPauseMillis) || self.collector != 'Serial'",
        message = "gc.maxPauseMillis has no effect with the Serial collector: choose G1, Parallel or Auto, or drop the pause goal")
public class Gc {
    @Default("Auto")
    @JsonPropertyDescription("Garbage collector. Auto picks from the CPUs, the heap size, the pause goal and the JVM version.")
    private Collector collector = Collector.Auto;

    @Min(1)
    @Max(10_000)
    @JsonPropertyDescription("Pause-time goal in milliseconds (MaxGCPauseMillis). With Auto, a goal favours G1.")
    private Integer maxPauseMillis;
}
