package dev.jvmtuning.operator.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import lombok.AllArgsConstructor;
import lombok.Data;
import lombok.NoArgsConstructor;

/**
 * A VM option the operator rendered that the target's JVM refused to start with: the settings are rendered without it, for the
 * generation of the profile and the template of the Deployment's own it was refused under.
 */
@Data
@NoArgsConstructor
@AllArgsConstructor
public class RefusedOption {
    @JsonPropertyDescription("The VM option as the JVM named it, e.g. UseShenandoahGC.")
    private String option;

    @JsonPropertyDescription("The flag the operator rendered for it, and leaves out, e.g. -XX:+UseShenandoahGC.")
    private String flag;

    @JsonPropertyDescription("The JVM's own line refusing it, from the container's termination message.")
    private String jvmMessage;

    @JsonPropertyDescription("The settings hash whose pods' JVM refused it.")
    private String settingsHash;

    @JsonPropertyDescription("The profile's metadata.generation it was refused at: an edit of the profile forgets it.")
    private Long generation;

    @JsonPropertyDescription("The digest of the Deployment's own pod template it was refused with: a new release forgets it.")
    private String templateHash;

    @JsonPropertyDescription("When the operator took back the settings that carried it.")
    private String at;
}
