package dev.jvmtuning.operator.docs;

import dev.jvmtuning.operator.model.ConditionType;
import dev.jvmtuning.operator.model.Reason;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceColumnDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.api.model.apiextensions.v1.ValidationRule;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The reference pages that are generated, not written: every TuningProfile field from the CRD users
 * install, every condition and reason from {@link ConditionType} and {@link Reason}, every Event reason.
 * {@code ReferenceDocsTest} keeps the committed pages equal to what this renders.
 */
public final class ReferenceDocs {
    public static final Path DIRECTORY = Path.of("docs", "reference");
    private static final String REGENERATE = "./mvnw test -Dtest=ReferenceDocsTest -Ddocs.update=true";

    private ReferenceDocs() {
    }

    public static final Path CHART_VALUES = Path.of("charts", "jvm-tuning-operator", "values.yaml");
    /** A key of values.yaml, its indentation, and what follows the colon. */
    private static final Pattern VALUES_KEY = Pattern.compile("^( *)([A-Za-z][A-Za-z0-9_.-]*):(.*)$");

    /** Every generated page, by its file name under {@link #DIRECTORY}. */
    public static Map<String, String> pages(Path crdFile) {
        Map<String, String> pages = new LinkedHashMap<>();
        pages.put("tuningprofile.md", tuningProfile(crd(crdFile)));
        pages.put("conditions.md", conditions());
        pages.put("events.md", events());
        pages.put("helm-values.md", helmValues(read(CHART_VALUES)));
        return pages;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static CustomResourceDefinition crd(Path file) {
        return Serialization.unmarshal(read(file), CustomResourceDefinition.class);
    }

    /**
     * The chart's values as values.yaml documents them: each key with its default and the {@code # --}
     * comment above it (the convention helm-docs reads), nested keys as dotted paths.
     */
    static String helmValues(String valuesYaml) {
        StringBuilder page = new StringBuilder(header("Helm values", "charts/jvm-tuning-operator/values.yaml"));
        page.append("Set with `--set key=value` or `-f my-values.yaml`. `helm install` and `helm upgrade` refuse a value the chart's "
                + "`values.schema.json` does not accept (a malformed namespace, duration, URL or count), naming it."
                + "\n\n| value | default | description |\n|---|---|---|\n");
        List<String> path = new ArrayList<>();
        List<Integer> indents = new ArrayList<>();
        StringBuilder comment = new StringBuilder();
        boolean inComment = false;
        for (String line : valuesYaml.split("\n")) {
            String trimmed = line.strip();
            if (trimmed.startsWith("# --")) {
                comment.setLength(0);
                comment.append(trimmed.substring(4).strip());
                inComment = true;
                continue;
            }
            if (trimmed.startsWith("#") && inComment) {
                comment.append(' ').append(trimmed.substring(1).strip());
                continue;
            }
            Matcher key = VALUES_KEY.matcher(line);
            if (!key.matches()) {
                inComment = false;
                continue;
            }
            int indent = key.group(1).length();
            while (!indents.isEmpty() && indents.get(indents.size() - 1) >= indent) {
                indents.remove(indents.size() - 1);
                path.remove(path.size() - 1);
            }
            path.add(key.group(2));
            indents.add(indent);
            String value = key.group(3).replaceFirst("\\s+#.*$", "").strip();
            String inline = key.group(3).contains(" # ") ? key.group(3).substring(key.group(3).indexOf(" # ") + 3).strip() : "";
            String description = (comment + (inline.isEmpty() ? "" : " " + inline)).strip();
            if (!value.isEmpty() || !description.isEmpty()) {
                page.append("| `").append(String.join(".", path)).append("` | ").append(value.isEmpty() ? "" : "`" + cell(value) + "`")
                        .append(" | ").append(cell(description)).append(" |\n");
            }
            comment.setLength(0);
            inComment = false;
        }
        return page.toString();
    }

    private static String header(String title, String source) {
        return "# " + title + "\n\n<!-- Generated from " + source + " by ReferenceDocs; do not edit. Regenerate with: " + REGENERATE + " -->\n\n";
    }

    static String tuningProfile(CustomResourceDefinition crd) {
        CustomResourceDefinitionVersion version = crd.getSpec().getVersions().get(0);
        StringBuilder page = new StringBuilder(header("TuningProfile reference", "the CRD (crds/)"));
        page.append("Group `").append(crd.getSpec().getGroup()).append("`, version `").append(version.getName()).append("`, kind `")
                .append(crd.getSpec().getNames().getKind()).append("`, short name `").append(String.join("`, `", crd.getSpec().getNames().getShortNames()))
                .append("`. The API server checks every constraint below at admission: a profile that breaks one is refused with its message.\n\n");
        page.append("## Columns of `kubectl get tp`\n\n| column | shows | only with `-o wide` |\n|---|---|---|\n");
        for (CustomResourceColumnDefinition column : version.getAdditionalPrinterColumns()) {
            page.append("| ").append(column.getName()).append(" | `").append(column.getJsonPath().replace("|", "\\|")).append("` | ")
                    .append(Objects.requireNonNullElse(column.getPriority(), 0) > 0 ? "yes" : "").append(" |\n");
        }
        JSONSchemaProps root = version.getSchema().getOpenAPIV3Schema();
        for (String section : List.of("spec", "status")) {
            page.append("\n## ").append(section).append("\n\n");
            JSONSchemaProps props = root.getProperties().get(section);
            rules(page, section, props);
            page.append("| field | type | constraints | description |\n|---|---|---|---|\n");
            fields(page, section, props);
        }
        return page.toString();
    }

    private static void fields(StringBuilder page, String path, JSONSchemaProps props) {
        for (Map.Entry<String, JSONSchemaProps> field : new TreeMap<>(Objects.requireNonNullElse(props.getProperties(), Map.<String, JSONSchemaProps>of())).entrySet()) {
            String fieldPath = path + "." + field.getKey();
            JSONSchemaProps schema = field.getValue();
            boolean required = props.getRequired() != null && props.getRequired().contains(field.getKey());
            page.append("| `").append(fieldPath).append("` | ").append(type(schema)).append(" | ")
                    .append(constraints(schema, required)).append(" | ").append(cell(schema.getDescription())).append(" |\n");
            JSONSchemaProps nested = "array".equals(schema.getType()) && schema.getItems() != null ? schema.getItems().getSchema() : schema;
            if (nested != null && nested.getProperties() != null) {
                fields(page, fieldPath + ("array".equals(schema.getType()) ? "[]" : ""), nested);
            }
        }
    }

    /** The CEL rules of a section, each with the message the API server answers when it breaks. */
    private static void rules(StringBuilder page, String path, JSONSchemaProps props) {
        List<String> found = new ArrayList<>();
        collectRules(found, path, props);
        if (!found.isEmpty()) {
            page.append("Rules across fields (CEL), with the message a profile that breaks one is refused with:\n\n");
            found.forEach(rule -> page.append("- ").append(rule).append("\n"));
            page.append("\n");
        }
    }

    private static void collectRules(List<String> found, String path, JSONSchemaProps props) {
        for (ValidationRule rule : Objects.requireNonNullElse(props.getXKubernetesValidations(), List.<ValidationRule>of())) {
            found.add("`" + path + "`: " + rule.getMessage() + " (`" + rule.getRule().replace("`", "'") + "`)");
        }
        new TreeMap<>(Objects.requireNonNullElse(props.getProperties(), Map.<String, JSONSchemaProps>of()))
                .forEach((name, schema) -> collectRules(found, path + "." + name, schema));
    }

    private static String type(JSONSchemaProps schema) {
        if ("array".equals(schema.getType()) && schema.getItems() != null && schema.getItems().getSchema() != null) {
            return "array of " + type(schema.getItems().getSchema());
        }
        if (Boolean.TRUE.equals(schema.getXKubernetesIntOrString())) {
            return "integer or string";
        }
        return Objects.requireNonNullElse(schema.getType(), "object") + (schema.getFormat() == null ? "" : " (" + schema.getFormat() + ")");
    }

    private static String constraints(JSONSchemaProps schema, boolean required) {
        List<String> parts = new ArrayList<>();
        if (required) {
            parts.add("required");
        }
        if (schema.getEnum() != null) {
            parts.add("one of " + schema.getEnum().stream().map(v -> "`" + v.asText() + "`").collect(Collectors.joining(", ")));
        }
        if (schema.getDefault() != null) {
            parts.add("default `" + schema.getDefault().asText() + "`");
        }
        if (schema.getMinimum() != null) {
            parts.add("min " + number(schema.getMinimum()));
        }
        if (schema.getMaximum() != null) {
            parts.add("max " + number(schema.getMaximum()));
        }
        if (schema.getMinLength() != null) {
            parts.add("length >= " + schema.getMinLength());
        }
        if (schema.getMaxLength() != null) {
            parts.add("length <= " + schema.getMaxLength());
        }
        if (schema.getMinItems() != null) {
            parts.add("items >= " + schema.getMinItems());
        }
        if (schema.getMaxItems() != null) {
            parts.add("items <= " + schema.getMaxItems());
        }
        if (schema.getPattern() != null) {
            parts.add("pattern `" + schema.getPattern() + "`");
        }
        return cell(String.join("; ", parts));
    }

    private static String number(Double value) {
        return value == Math.rint(value) ? String.valueOf(value.longValue()) : String.valueOf(value);
    }

    /** Text for one table cell: no line breaks, no column separators. */
    private static String cell(String text) {
        return text == null ? "" : text.replace("\n", " ").replace("|", "\\|").strip();
    }

    static String conditions() {
        StringBuilder page = new StringBuilder(header("Conditions and their reasons", "ConditionType and Reason"));
        page.append("A condition is normal-true (True is the good state, like a Deployment's Available) or abnormal-true "
                + "(True is the trouble, like a Node's MemoryPressure). `kubectl wait --for=condition=Ready tp/NAME` waits for the "
                + "summary. A reason marked *state* says where things stand on the way, not that anything went wrong.\n");
        for (ConditionType type : ConditionType.values()) {
            page.append("\n## ").append(type.text()).append("\n\n").append(type.isPressure() ? "Abnormal-true" : "Normal-true")
                    .append(": True means ").append(type.description()).append(".\n\n| reason | meaning |\n|---|---|\n");
            Arrays.stream(Reason.values()).filter(r -> r.conditions().contains(type)).forEach(r -> page.append("| `").append(r.text())
                    .append("` | ").append(r.isState() ? "*state*: " : "").append(cell(r.description())).append(" |\n"));
        }
        return page.toString();
    }

    static String events() {
        StringBuilder page = new StringBuilder(header("Events", "Reason"));
        page.append("The operator writes an Event on the TuningProfile when a condition turns to trouble (a Warning: a pressure "
                + "condition turning True, another condition turning False for a fault) and when trouble clears or a profile turns "
                + "to mode Recommend (Normal). The Event's reason is the condition's reason, listed in [conditions](conditions.md); "
                + "*state* reasons, Unknown and an ordinary apply raise none. These reasons appear on Events only:\n\n"
                + "| reason | meaning |\n|---|---|\n");
        Arrays.stream(Reason.values()).filter(r -> r.conditions().isEmpty())
                .forEach(r -> page.append("| `").append(r.text()).append("` | ").append(cell(r.description())).append(" |\n"));
        return page.toString();
    }
}
