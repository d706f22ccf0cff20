package dev.jvmtuning.operator.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import lombok.AllArgsConstructor;
import lombok.Data;
import lombok.NoArgsConstructor;

/** One resource of the target container whose value in the pod differs from the template's. */
@Data
@NoArgsConstructor
@AllArgsConstructor
public class AdmittedResource {
    @JsonPropertyDescription("The resource: limits.memory, requests.memory, limits.cpu or requests.cpu.")
    private String resource;

    @JsonPropertyDescription("The template's value; absent where the template sets none.")
    private String template;

    @JsonPropertyDescription("The pod's value, which the settings are planned for; absent where admission removed it.")
    private String pod;
}
