package dev.jvmtuning.operator.installation;

import dev.jvmtuning.operator.api.v1alpha1.Guardrail;
import dev.jvmtuning.operator.api.v1alpha1.Patterns;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The guardrail queries an installation defines, and the PromQL one of them becomes for a profile. A
 * profile only names a query: what is filled in is its own namespace, its target Deployment and that
 * Deployment's Ready pods, each checked to be a Kubernetes name (no quote, backslash or brace), so
 * nothing the profile's author writes reaches the PromQL and no answer is about another namespace
 * unless the administrator's query says so. Pure.
 */
public final class GuardrailQueries {
    static final String NAMESPACE = "namespace";
    static final String DEPLOYMENT = "deployment";
    /** A regular expression matching exactly the names of the target's Ready pods, for a {@code pod=~"..."} matcher. */
    static final String PODS = "pods";
    private static final Set<String> PLACEHOLDERS = Set.of(NAMESPACE, DEPLOYMENT, PODS);
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{([^{}]*)}}");
    private static final Pattern DNS_LABEL = Pattern.compile(Patterns.DNS_LABEL);
    private static final Pattern DNS_SUBDOMAIN = Pattern.compile(Patterns.DNS_SUBDOMAIN);
    private static final int MAX_LABEL = 63;
    private static final int MAX_SUBDOMAIN = 253;

    private final SortedMap<String, String> templates;

    private GuardrailQueries(SortedMap<String, String> templates) {
        this.templates = templates;
    }

    /**
     * The installation's queries, name to PromQL template.
     *
     * @throws IllegalArgumentException naming each query whose name is not a DNS label (what a profile
     *                                  can name) or whose template is empty or has an unknown placeholder:
     *                                  the operator does not start with a query no profile could use as meant
     */
    public static GuardrailQueries of(Map<String, String> templates) {
        List<String> problems = new ArrayList<>();
        templates.forEach((name, template) -> {
            if (name.length() > MAX_LABEL || !DNS_LABEL.matcher(name).matches()) {
                problems.add("guardrail query name '" + name + "' is not a DNS label (lower-case letters, digits and '-', at most 63)");
            }
            if (template == null || template.isBlank()) {
                problems.add("guardrail query '" + name + "' is empty");
                return;
            }
            Matcher placeholder = PLACEHOLDER.matcher(template);
            while (placeholder.find()) {
                if (!PLACEHOLDERS.contains(placeholder.group(1))) {
                    problems.add("guardrail query '" + name + "' has the placeholder {{" + placeholder.group(1) + "}}; known: "
                            + PLACEHOLDERS.stream().sorted().map(p -> "{{" + p + "}}").collect(Collectors.joining(", ")));
                }
            }
        });
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(String.join("; ", problems));
        }
        return new GuardrailQueries(new TreeMap<>(templates));
    }

    /** Why a profile's guardrail cannot be evaluated, naming the field and the queries defined; empty when it can. */
    public Optional<String> refusal(Guardrail guardrail) {
        if (guardrail == null) {
            return Optional.empty();
        }
        if (guardrail.getName() == null) {
            // A profile stored with the former raw query loses it to pruning and keeps only max.
            return Optional.of("spec.auto.guardrail.name is missing (a guardrail's raw PromQL query is no longer read): set it to the name "
                    + "of a guardrail query this installation defines, or remove spec.auto.guardrail; " + defined());
        }
        if (!templates.containsKey(guardrail.getName())) {
            return Optional.of("spec.auto.guardrail.name '" + guardrail.getName() + "' is not a guardrail query of this installation; "
                    + defined());
        }
        return Optional.empty();
    }

    /**
     * The PromQL of a defined query for one target.
     *
     * @param pods the names of the target's Ready pods
     * @throws IllegalArgumentException when the query is not defined or a value is not a Kubernetes name
     */
    public String promql(String name, String namespace, String deployment, List<String> pods) {
        String template = templates.get(name);
        if (template == null) {
            throw new IllegalArgumentException("no guardrail query named '" + name + "'");
        }
        requireName(namespace, DNS_LABEL, MAX_LABEL);
        requireName(deployment, DNS_SUBDOMAIN, MAX_SUBDOMAIN);
        pods.forEach(pod -> requireName(pod, DNS_SUBDOMAIN, MAX_SUBDOMAIN));
        // One pass over the template: a value filled in is never read for placeholders.
        return PLACEHOLDER.matcher(template).replaceAll(placeholder -> Matcher.quoteReplacement(switch (placeholder.group(1)) {
            case NAMESPACE -> namespace;
            case DEPLOYMENT -> deployment;
            // '[.]' rather than '\.': the same in a "double-quoted" and a `raw` PromQL string
            default -> pods.stream().map(pod -> pod.replace(".", "[.]")).collect(Collectors.joining("|"));
        }));
    }

    private String defined() {
        return templates.isEmpty() ? "this installation defines none (an administrator sets them in the Helm value metrics.guardrailQueries)"
                : "this installation defines: " + String.join(", ", templates.keySet());
    }

    private static void requireName(String value, Pattern pattern, int maxLength) {
        if (value == null || value.length() > maxLength || !pattern.matcher(value).matches()) {
            throw new IllegalArgumentException("'" + value + "' is not a Kubernetes name");
        }
    }
}
