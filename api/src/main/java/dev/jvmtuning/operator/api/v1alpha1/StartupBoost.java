package dev.jvmtuning.operator.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import lombok.Data;

/**
 * More CPU while a pod's JVM starts, given and taken back by resizing the running pod in place. Whether the boost is
 * above the container's own CPU limit the operator checks: admission cannot see the Deployment.
 */
@Data
public class StartupBoost {
    /** The longest warm-up after Ready: a boost is for starting, not for carrying load. */
    public static final String WARM_UP_MAX = "10m";

    @Required
    @Size(max = 16)
    @Pattern(Patterns.CPU)
    @ValidationRule(value = "quantity(self).compareTo(quantity('0')) > 0", message = "startupBoost.cpu must be positive")
    @ValidationRule(value = "quantity(self).compareTo(quantity('" + Patterns.CPU_MAX + "')) <= 0",
            message = "startupBoost.cpu must be at most " + Patterns.CPU_MAX)
    @JsonPropertyDescription("The CPU limit of the tuned container while it starts, as a Kubernetes quantity (e.g. 2 or 1500m); "
            + "above the container's own limit, which it returns to afterwards. The JVM is still told the steady limit's CPU "
            + "count (-XX:ActiveProcessorCount), so nothing it sizes at start outlives the boost.")
    private String cpu;

    @Default("1m")
    @Size(max = Patterns.DURATION_MAX_LENGTH)
    @Pattern(Patterns.DURATION)
    @ValidationRule(value = "duration(self) <= duration('" + WARM_UP_MAX + "')", message = "startupBoost.warmUp must be at most " + WARM_UP_MAX)
    @JsonPropertyDescription("How long the boost lasts after the pod turns Ready (JIT compilation and caches warm up), e.g. 1m; at most "
            + WARM_UP_MAX + ". A pod not Ready " + WARM_UP_MAX + " after it started is lowered all the same.")
    private String warmUp = "1m";
}
