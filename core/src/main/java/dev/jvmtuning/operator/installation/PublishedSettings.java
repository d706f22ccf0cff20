package dev.jvmtuning.operator.installation;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The operator's settings that decide what it renders beyond a profile, as it publishes them in a
 * ConfigMap of its own namespace for {@code kubectl tp}: a preview then plans with the installation's
 * flag allow-list and guardrail queries and injects its agent image, rather than with defaults that may
 * differ. The operator writes the ConfigMap when it takes the lead; readers need only get on that one name.
 */
public record PublishedSettings(List<String> flagPolicyAllow, Map<String, String> guardrailQueries, String agentImage, String agentJarPath) {
    public static final String CONFIG_MAP = "jvm-tuning-operator-settings";
    /** The agent an operator injects unless its settings name another: its settings' defaults, and kubectl tp's without them. */
    public static final String DEFAULT_AGENT_IMAGE = "ghcr.io/jvm-tuning-operator/jvm-tuning-agent:0.1.0";
    public static final String DEFAULT_AGENT_JAR_PATH = "/jvm-tuning-agent.jar";
    static final String FLAG_POLICY_ALLOW = "flagPolicy.allow";
    static final String GUARDRAIL_QUERY = "guardrailQuery.";
    static final String AGENT_IMAGE = "agent.image";
    static final String AGENT_JAR_PATH = "agent.jarPath";

    public PublishedSettings {
        flagPolicyAllow = List.copyOf(flagPolicyAllow);
        guardrailQueries = Map.copyOf(guardrailQueries);
        Objects.requireNonNull(agentImage);
        Objects.requireNonNull(agentJarPath);
    }

    /** The ConfigMap's data: one allow-list entry a line (entries hold no line breaks), one key per guardrail query. */
    public Map<String, String> data() {
        Map<String, String> data = new LinkedHashMap<>();
        data.put(FLAG_POLICY_ALLOW, String.join("\n", flagPolicyAllow));
        // A query's name is a DNS label, so the key is a valid ConfigMap key.
        new TreeMap<>(guardrailQueries).forEach((name, template) -> data.put(GUARDRAIL_QUERY + name, template));
        data.put(AGENT_IMAGE, agentImage);
        data.put(AGENT_JAR_PATH, agentJarPath);
        return data;
    }

    /**
     * The settings from a published ConfigMap's data.
     *
     * @throws IllegalArgumentException naming the key missing: data another version or a person wrote is not guessed at
     */
    public static PublishedSettings from(Map<String, String> data) {
        Map<String, String> queries = new TreeMap<>();
        data.forEach((key, value) -> {
            if (key.startsWith(GUARDRAIL_QUERY)) {
                queries.put(key.substring(GUARDRAIL_QUERY.length()), value);
            }
        });
        String allow = required(data, FLAG_POLICY_ALLOW);
        return new PublishedSettings(allow.isBlank() ? List.of() : Arrays.stream(allow.split("\n")).filter(e -> !e.isBlank()).toList(),
                queries, required(data, AGENT_IMAGE), required(data, AGENT_JAR_PATH));
    }

    private static String required(Map<String, String> data, String key) {
        String value = data.get(key);
        if (value == null) {
            throw new IllegalArgumentException("it has no key " + key);
        }
        return value;
    }
}
