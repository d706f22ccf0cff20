package dev.jvmtuning.operator.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import lombok.AllArgsConstructor;
import lombok.Data;
import lombok.NoArgsConstructor;

@Data
@NoArgsConstructor
@AllArgsConstructor
public class Recommendation {
    @JsonPropertyDescription("The spec field to change, e.g. threads.max.")
    private String field;
    @JsonPropertyDescription("Its current value.")
    private String current;
    @JsonPropertyDescription("The suggested value.")
    private String recommended;
    @JsonPropertyDescription("Why, with the measured numbers.")
    private String reason;
}
