package dev.jvmtuning.operator.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import lombok.Data;

/** Thresholds above which a pressure condition turns True. */
@Data
public class Pressure {
    @Default("10")
    @Min(1)
    @Max(100)
    @JsonPropertyDescription("Percent of wall time spent in GC pauses.")
    private Integer gcTimePercent = 10;

    @Default("25")
    @Min(1)
    @Max(100)
    @JsonPropertyDescription("Percent of CFS periods in which the container was throttled.")
    private Integer cpuThrottlePercent = 25;

    @Default("2000")
    @Min(1)
    @Max(10_000_000)
    @JsonPropertyDescription("Involuntary context switches per CPU per second.")
    private Integer involuntarySwitchesPerCorePerSecond = 2000;
}
