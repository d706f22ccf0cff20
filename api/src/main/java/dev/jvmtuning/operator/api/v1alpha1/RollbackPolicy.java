package dev.jvmtuning.operator.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import lombok.Data;

/** How long after a rollout the operator still holds the settings to account for a failing pod. */
@Data
public class RollbackPolicy {
    /** Past an hour a failing pod is an incident, not a rollout's outcome. */
    public static final String WINDOW_MAX = "1h";

    @Default("5m")
    @Size(max = Patterns.DURATION_MAX_LENGTH)
    @Pattern(Patterns.DURATION)
    @ValidationRule(value = "duration(self) <= duration('" + WINDOW_MAX + "')", message = "rollback.window must be at most " + WINDOW_MAX)
    @JsonPropertyDescription("How long after a rollout of the Deployment completed a failing pod of it can still take the settings back, "
            + "e.g. 5m; at most " + WINDOW_MAX + ". Only pods created by that rollout count, and only a rollout the operator's own write "
            + "started over a template that ran healthy holds the settings to account for any failure; in a rollout of the Deployment's "
            + "own template (a release, a restart, an undo) only a JVM refusing its options or its heap, an OutOfMemoryError or an OOM "
            + "kill does. Past the window failures are reported (condition PodsFailing and an Event), never acted on.")
    private String window = "5m";
}
