package dev.jvmtuning.operator.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.ArrayList;
import java.util.List;
import lombok.Data;

/**
 * Auto mode's loop as it stands: everything the next decision needs, so a reconcile stays a function
 * of the spec, this status and the metrics.
 */
@Data
public class AutoStatus {
    @JsonPropertyDescription("Observing, Applying, Converged, Reverted or Holding.")
    private AutoState state;
    @JsonPropertyDescription("What the loop waits for before its next decision, e.g. \"metrics windows: 1 of 3 seen since the warm-up\".")
    private String waitingFor;
    @JsonPropertyDescription("When the loop expects to decide next (RFC 3339), if it can tell: the end of the warm-up, of the minimum "
            + "interval or of the last window it waits for. Absent while a rollout is under way.")
    private String nextDecisionAt;
    @JsonPropertyDescription("The loop's settings, laid over the profile's own values; absent while it sets no knob.")
    @JsonInclude(value = JsonInclude.Include.CUSTOM, valueFilter = AutoSettings.LeftOutWhenNone.class)
    private AutoSettings settings;
    @JsonPropertyDescription("The last settings no measure found worse: what a bad step goes back to; absent while they set no knob.")
    @JsonInclude(value = JsonInclude.Include.CUSTOM, valueFilter = AutoSettings.LeftOutWhenNone.class)
    private AutoSettings lastGood;
    @JsonPropertyDescription("When the settings last changed; windows count once their rollout completed after this and warmed up.")
    private String changedAt;
    @JsonPropertyDescription("The HorizontalPodAutoscaler that scales the target, if any, and how the loop deals with it: it plans "
            + "and judges per pod, and a step's verdict waits while the replicas move.")
    private String autoscaler;
    @JsonPropertyDescription("The windows seen since, per pod (their figures, as status.observed shows them).")
    private List<Observed> windows = new ArrayList<>();
    @JsonPropertyDescription("While Holding or Converged: the figures the workload is compared with.")
    private AutoFigures holdBaseline;
    @JsonPropertyDescription("The best period since the workload last shifted: once steps leave the loop within its noise of it, the loop "
            + "stops.")
    private AutoBest best;
    @JsonPropertyDescription("The last iterations, newest last.")
    private List<AutoIteration> history = new ArrayList<>();

    /** The loop's settings; never null: absent from status, they set no knob. */
    public AutoSettings getSettings() {
        return settings == null ? new AutoSettings() : settings;
    }

    /** The last good settings; never null: absent from status, they set no knob. */
    public AutoSettings getLastGood() {
        return lastGood == null ? new AutoSettings() : lastGood;
    }
}
