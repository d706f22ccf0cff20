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
}
