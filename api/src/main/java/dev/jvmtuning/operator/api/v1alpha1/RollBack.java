package dev.jvmtuning.operator.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import lombok.AllArgsConstructor;
import lombok.Data;
import lombok.NoArgsConstructor;

/** Settings whose pods failed, and were taken back: they are not applied again until the profile or the Deployment's own template changes. */
@Data
@NoArgsConstructor
@AllArgsConstructor
public class RollBack {
    @JsonPropertyDescription("The settings hash whose pods failed.")
    private String settingsHash;

    @JsonPropertyDescription("The profile's metadata.generation when they failed.")
    private Long generation;

    @JsonPropertyDescription("The digest of the Deployment's own pod template they failed with: a new release brings the settings back.")
    private String templateHash;

    @JsonPropertyDescription("What the pods said: the container state, exit code and termination message.")
    private String message;

    @JsonPropertyDescription("When the operator took them back.")
    private String at;
}
