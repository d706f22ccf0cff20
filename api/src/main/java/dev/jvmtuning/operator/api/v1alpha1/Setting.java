package dev.jvmtuning.operator.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import lombok.AllArgsConstructor;
import lombok.Data;
import lombok.NoArgsConstructor;

@Data
@NoArgsConstructor
@AllArgsConstructor
public class Setting {
    @JsonPropertyDescription("The tuned quantity, e.g. threads.max or heap.size.")
    private String name;

    @JsonPropertyDescription("The value chosen.")
    private String value;

    @JsonPropertyDescription("Where it is rendered: an environment variable or JVM flag; empty when the runtime has no such knob.")
    private String renderedAs;

    @JsonPropertyDescription("The tuning rule that produced it, e.g. R1.")
    private String rule;

    @JsonPropertyDescription("The numbers behind the value.")
    private String rationale;

    @JsonPropertyDescription("What the JVMs of the settings in force run of this JVM flag, as they report it once the rollout completed, e.g. "
            + "'540Mi on 2 of 2 pods', or '200Mi (VM_CREATION) on 1 of 2 pods, 540Mi on 1' naming where a value other than the planned "
            + "one came from. Absent while not judged: before the rollout completed, when no pod reports its options, or for a "
            + "setting not rendered as a flag the jvm-tuning agent reports.")
    private String effective;
}
