package dev.jvmtuning.operator.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.LinkedHashMap;
import java.util.Map;
import lombok.AllArgsConstructor;
import lombok.Data;
import lombok.NoArgsConstructor;

/** A set of settings as they reached the pod template: enough to put them back without planning again. */
@Data
@NoArgsConstructor
@AllArgsConstructor
public class AppliedSettings {
    @JsonPropertyDescription("The settings hash on the pod template (annotation jvmtuning.dev/settings-hash).")
    private String settingsHash;

    @JsonPropertyDescription("The full value of the JVM flags variable.")
    private String jvmOptions;

    @JsonPropertyDescription("The ConfigMap the server properties were read from.")
    private String configMap;

    @JsonPropertyDescription("That ConfigMap's data, to recreate it if it is gone.")
    private Map<String, String> configMapData = new LinkedHashMap<>();

    @JsonPropertyDescription("The container's resources the settings sized (spec.sizing), by field: limits.memory, requests.memory, "
            + "requests.cpu.")
    private Map<String, String> resources = new LinkedHashMap<>();
}
