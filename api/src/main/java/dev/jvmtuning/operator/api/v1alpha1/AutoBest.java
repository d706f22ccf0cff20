package dev.jvmtuning.operator.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import lombok.Data;

/** The best period the loop has measured since the workload last shifted: what it stops near. */
@Data
public class AutoBest {
    @JsonPropertyDescription("The settings of that period; absent while they set no knob.")
    @JsonInclude(value = JsonInclude.Include.CUSTOM, valueFilter = AutoSettings.LeftOutWhenNone.class)
    private AutoSettings settings;
    @JsonPropertyDescription("What its windows showed.")
    private AutoFigures figures;
    @JsonPropertyDescription("The last iteration when it was measured: the kept steps after it have not beaten it.")
    private Integer iteration;
    @JsonPropertyDescription("The first iteration measured at the workload as it is now: the loop predicts a step from the periods "
            + "since, and never steps back to settings they found no better than the best.")
    private Integer since;

    /** The settings; never null: absent from status, they set no knob. */
    public AutoSettings getSettings() {
        return settings == null ? new AutoSettings() : settings;
    }
}
