package dev.jvmtuning.operator.render;

import dev.jvmtuning.operator.model.Setting;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;

/**
 * A plan as the container receives it.
 *
 * @param jvmOptionsVariable the variable that carries the JVM flags
 * @param jvmOptionsValue    its full value: the user's own value first, then the rendered flags, then the profile's jvmOptions
 * @param renderedFlags      the flags the operator adds, in order
 * @param serverEnvironment  server properties as environment variables (relaxed binding), for the ConfigMap
 * @param renderedAs         for each setting, where it went: a flag, an environment variable or a field of the container's resources
 * @param warnings           values that could not be rendered or that something in the container overrides
 * @param resources          the container's resources the plan sizes (spec.sizing), by field (limits.memory, requests.cpu)
 */
public record Rendering(String jvmOptionsVariable, String jvmOptionsValue, List<String> renderedFlags,
        SortedMap<String, String> serverEnvironment, Map<Setting, String> renderedAs, List<String> warnings, SortedMap<String, String> resources) {

    /** Each server setting rendered into a variable, as its variable=value. */
    public Map<Setting, String> serverSettings() {
        Map<Setting, String> settings = new EnumMap<>(Setting.class);
        renderedAs.forEach((setting, variable) -> {
            String value = serverEnvironment.get(variable);
            if (value != null) {
                settings.put(setting, variable + "=" + value);
            }
        });
        return settings;
    }
}
