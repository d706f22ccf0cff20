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

/** The container's CPU request, sized for the CPU the load costs; the limit, if any, stays the container's. */
@Data
@Accessors(chain = true)
@ValidationRule(value = "!has(self.min) || !has(self.max) || quantity(self.min).compareTo(quantity(self.max)) <= 0",
        message = "sizing.cpu.min must not exceed sizing.cpu.max")
public class CpuSizing {
    /** Room above the load's CPU: bursts, the collector's and the JIT compilers' threads. */
    public static final int DEFAULT_HEADROOM_PERCENT = 25;

    @JsonPropertyDescription("Keep the container's CPU request as it is (the default), or Plan it: workload.requestsPerSecond x "
            + "workload.cpuPerRequest and the headroom, the JVM's processor count following it where no CPU limit is set (R9c, R14).")
    @Default("Keep")
    private SizingPolicy policy = SizingPolicy.Keep;

    @Size(max = 12)
    @Pattern(Patterns.CPU)
    @ValidationRule(value = "quantity(self).compareTo(quantity('10m')) >= 0", message = "sizing.cpu.min must be at least 10m")
    @ValidationRule(value = "quantity(self).compareTo(quantity('" + Patterns.CPU_MAX + "')) <= 0",
            message = "sizing.cpu.min must be at most " + Patterns.CPU_MAX)
    @JsonPropertyDescription("The least CPU request the operator plans, e.g. 250m.")
    private String min;

    @Size(max = 12)
    @Pattern(Patterns.CPU)
    @ValidationRule(value = "quantity(self).compareTo(quantity('10m')) >= 0", message = "sizing.cpu.max must be at least 10m")
    @ValidationRule(value = "quantity(self).compareTo(quantity('" + Patterns.CPU_MAX + "')) <= 0",
            message = "sizing.cpu.max must be at most " + Patterns.CPU_MAX)
    @JsonPropertyDescription("The most CPU request the operator plans, e.g. 4.")
    private String max;

    @Min(0)
    @Max(400)
    @JsonPropertyDescription("Percent above the load's CPU. Default 25.")
    private Integer headroomPercent;
}
