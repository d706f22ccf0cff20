package dev.jvmtuning.operator.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import lombok.Data;

/**
 * The closed loop of mode Auto: how far and how fast it may move the threads, the connection pool and
 * the heap, how long it watches before and after a change, and what counts as worse.
 */
@Data
@ValidationRule(value = "!has(self.heapPercentOfLimit) || ((!has(self.heapPercentOfLimit.min) || (self.heapPercentOfLimit.min >= 10 "
        + "&& self.heapPercentOfLimit.min <= 90)) && (!has(self.heapPercentOfLimit.max) || (self.heapPercentOfLimit.max >= 10 "
        + "&& self.heapPercentOfLimit.max <= 90)))", message = "auto.heapPercentOfLimit bounds must lie between 10 and 90")
public class Auto {
    @JsonPropertyDescription("Bounds of threads.max. Without them the loop moves it wherever the measured workload says.")
    private Bounds threads;

    @JsonPropertyDescription("Bounds of connectionPool.maxSize.")
    private Bounds connectionPool;

    @JsonPropertyDescription("Bounds of the heap as a percentage of the memory limit (10 to 90). Without them the heap is the plan's.")
    private Bounds heapPercentOfLimit;

    @Default("100")
    @Min(1)
    @Max(1000)
    @JsonPropertyDescription("Largest change of one knob in one step, in percent of its current value: 100 at most doubles or halves it. "
            + "Each kept step just before that moved the knob the same way doubles the limit, and so does, limit after limit, a "
            + "period whose every window asks to move it past the limit that way (not right after a revert), up to 3 times in all "
            + "(100: x2, x3, x5, x9); a revert, a rest or a turn starts the count of kept steps again.")
    private Integer maxStepPercent = 100;

    @Default("10m")
    @Size(max = Patterns.DURATION_MAX_LENGTH)
    @Pattern(Patterns.DURATION)
    @JsonPropertyDescription("Least time between two changes, e.g. 10m.")
    private String minInterval = "10m";

    @Default("1m")
    @Size(max = Patterns.DURATION_MAX_LENGTH)
    @Pattern(Patterns.DURATION)
    @JsonPropertyDescription("Time after a rollout completes before its windows count: JIT, caches and pools warm up.")
    private String warmUp = "1m";

    @Default("3")
    @Min(1)
    @Max(20)
    @JsonPropertyDescription("Metrics windows (spec.metrics.interval each) averaged before re-planning and before judging a change.")
    private Integer observationWindows = 3;

    @Default("10")
    @Min(1)
    @Max(100)
    @JsonPropertyDescription("Hysteresis: a step is taken only when some knob moves by at least this percent (and by 2). Below, the loop has converged.")
    private Integer changeThresholdPercent = 10;

    @Default("10")
    @Min(1)
    @Max(100)
    @JsonPropertyDescription("A change is reverted when, compared with the period before it, throughput per CPU-second (at equal or higher load), "
            + "mean latency, errors, GC time or pool waits are worse by more than this percent.")
    private Integer regressionTolerancePercent = 10;

    @Default("30")
    @Min(1)
    @Max(1000)
    @JsonPropertyDescription("After a revert, and once converged, the loop holds its settings until the request rate or latency per pod moves by more "
            + "than this percent.")
    private Integer workloadShiftPercent = 30;

    @JsonPropertyDescription("An optional service level to keep, judged before and after each change.")
    private Guardrail guardrail;
}
