package dev.jvmtuning.operator.testing;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jvmtuning.operator.model.LabelsAndAnnotations;
import dev.jvmtuning.operator.render.DeploymentTuning;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/** How the API server's server-side apply treats the operator's fields, for tests that apply its writes without one. */
public final class ServerSideApply {
    private static final ObjectMapper JSON = new ObjectMapper();

    private ServerSideApply() {
    }

    /**
     * The container's resources after the operator's apply: the fields it applied before are its own, so one it now leaves out
     * goes, and the others take the applied value; the rest stay as they are.
     *
     * @param into the live container the apply lands on, changed in place
     */
    public static void resources(Deployment live, Deployment desired, Container into) {
        Set<String> owned = new LinkedHashSet<>(sizedFields(live));
        owned.addAll(sizedFields(desired));
        if (owned.isEmpty()) {
            return;
        }
        ResourceRequirements resources = into.getResources() == null ? new ResourceRequirements()
                : new ResourceRequirementsBuilder(into.getResources()).build();
        ResourceRequirements applied = Objects.requireNonNullElseGet(desired.getSpec().getTemplate().getSpec().getContainers().get(0).getResources(),
                ResourceRequirements::new);
        for (String field : owned) {
            String[] parts = field.split("\\.");
            boolean limits = parts[0].equals("limits");
            Map<String, Quantity> values = new LinkedHashMap<>(Objects.requireNonNullElse(limits ? resources.getLimits() : resources.getRequests(),
                    Map.of()));
            Map<String, Quantity> from = Objects.requireNonNullElse(limits ? applied.getLimits() : applied.getRequests(), Map.of());
            if (from.containsKey(parts[1])) {
                values.put(parts[1], from.get(parts[1]));
            } else {
                values.remove(parts[1]);
            }
            if (limits) {
                resources.setLimits(values.isEmpty() ? null : values);
            } else {
                resources.setRequests(values.isEmpty() ? null : values);
            }
        }
        into.setResources(resources);
    }

    private static Set<String> sizedFields(Deployment deployment) {
        String recorded = Objects.requireNonNullElse(deployment.getMetadata().getAnnotations(), Map.<String, String>of())
                .get(LabelsAndAnnotations.ORIGINAL_RESOURCES_ANNOTATION);
        if (recorded == null) {
            return Set.of();
        }
        try {
            return JSON.readValue(recorded, DeploymentTuning.OriginalResources.class).original().keySet();
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
