package dev.jvmtuning.operator.deployment;

import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Who else owns fields of a Deployment's template that the operator sets, as the API server's managedFields say: a GitOps
 * controller re-applying the manifest from Git (client-side apply as Argo CD does by default, or server-side apply under its
 * own manager), or a user's {@code kubectl apply}. Pure.
 */
public final class FieldOwners {

    private FieldOwners() {
    }

    /**
     * Another manager's write of fields the operator sets.
     *
     * @param operation Apply (server-side apply) or Update (any other write, client-side apply among them)
     * @param fields    the operator's fields it owns, e.g. "env JAVA_TOOL_OPTIONS", "annotation jvmtuning.dev/settings-hash"
     */
    public record Owner(String manager, String operation, Instant at, List<String> fields) {
    }

    /**
     * The manager other than {@code operator} that last wrote any of these fields of the template, if any.
     *
     * @param container   the tuned container
     * @param env         the names of the container's variables the operator sets
     * @param annotations the keys of the template's annotations the operator sets
     * @param resources   the fields of the container's resources the operator sets, e.g. "limits.memory"
     */
    public static Optional<Owner> lastOther(Deployment deployment, String operator, String container, Collection<String> env,
            Collection<String> annotations, Collection<String> resources) {
        return Objects.requireNonNullElse(deployment.getMetadata().getManagedFields(), List.<ManagedFieldsEntry>of()).stream()
                .filter(e -> !operator.equals(e.getManager()) && e.getFieldsV1() != null && e.getTime() != null && e.getSubresource() == null)
                .map(e -> new Owner(e.getManager(), e.getOperation(), Instant.parse(e.getTime()), owned(e.getFieldsV1().getAdditionalProperties(),
                        container, env, annotations, resources)))
                .filter(o -> !o.fields().isEmpty())
                .max(Comparator.comparing(Owner::at));
    }

    private static List<String> owned(Map<String, Object> fields, String container, Collection<String> env, Collection<String> annotations,
            Collection<String> resources) {
        Map<String, Object> template = at(fields, "f:spec", "f:template");
        Map<String, Object> variables = at(template, "f:spec", "f:containers", key(container), "f:env");
        Map<String, Object> templateAnnotations = at(template, "f:metadata", "f:annotations");
        List<String> owned = new ArrayList<>();
        env.stream().filter(name -> variables.containsKey(key(name))).forEach(name -> owned.add("env " + name));
        annotations.stream().filter(name -> templateAnnotations.containsKey("f:" + name)).forEach(name -> owned.add("annotation " + name));
        Map<String, Object> containerResources = at(template, "f:spec", "f:containers", key(container), "f:resources");
        resources.stream().filter(field -> at(containerResources, "f:" + field.substring(0, field.indexOf('.')))
                .containsKey("f:" + field.substring(field.indexOf('.') + 1))).forEach(field -> owned.add("resources." + field));
        return owned;
    }

    /** A list element's key in managedFields: the merge key's JSON. */
    private static String key(String name) {
        return "k:{\"name\":\"" + name + "\"}";
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> at(Map<String, Object> fields, String... path) {
        Map<String, Object> node = fields;
        for (String step : path) {
            Object next = node.get(step);
            if (!(next instanceof Map)) {
                return Map.of();
            }
            node = (Map<String, Object>) next;
        }
        return node;
    }
}
