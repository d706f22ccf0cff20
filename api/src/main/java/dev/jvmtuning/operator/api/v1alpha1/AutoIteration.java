package dev.jvmtuning.operator.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import lombok.Data;

/** One step of the loop: the settings it left and took, what it saw before and after, and what it concluded. */
@Data
public class AutoIteration {
    @JsonPropertyDescription("Counts the loop's steps since the profile was created.")
    private Integer iteration;
    @JsonPropertyDescription("When the step was decided.")
    private String at;
    @JsonPropertyDescription("The settings before the step.")
    private AutoSettings from;
    @JsonPropertyDescription("The settings of the step.")
    private AutoSettings to;
    @JsonPropertyDescription("What the windows before the step showed.")
    private AutoFigures before;
    @JsonPropertyDescription("What the windows after the step showed.")
    private AutoFigures after;
    @JsonPropertyDescription("Pending (being watched), Kept, Reverted or Converged.")
    private AutoVerdict verdict;
    @JsonPropertyDescription("Why: the planner's figures for a step, the measure that got worse for a revert.")
    private String reason;
}
