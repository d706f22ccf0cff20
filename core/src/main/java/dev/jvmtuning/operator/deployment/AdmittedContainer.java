package dev.jvmtuning.operator.deployment;

import dev.jvmtuning.operator.api.v1alpha1.AdmittedPod;
import dev.jvmtuning.operator.api.v1alpha1.AdmittedResource;
import dev.jvmtuning.operator.api.v1alpha1.BoostedPod;
import dev.jvmtuning.operator.model.JvmFlags;
import dev.jvmtuning.operator.model.LabelsAndAnnotations;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The target container as its newest pod runs it, which is what a JVM gets: admission may have given it resources the template
 * does not have (a LimitRange default, a VerticalPodAutoscaler, a mutating admission policy), an in-place resize may have moved
 * them since, and an agent injector may have appended to its JAVA_TOOL_OPTIONS. A CPU limit the operator raised for the startup
 * boost is not the pod's own: its record says the limit it goes back to. Pure.
 *
 * @param pod             the pod read
 * @param resources       the container's resources in that pod, its own CPU limit where the operator boosted it
 * @param addedJvmOptions what the pod's JAVA_TOOL_OPTIONS holds beyond the template's, read only from a pod of the settings in
 *                        the template: a pod of other settings runs other flags for that reason alone
 */
public record AdmittedContainer(String pod, ResourceRequirements resources, List<String> addedJvmOptions) {
    private static final String JAVA_TOOL_OPTIONS = "JAVA_TOOL_OPTIONS";
    private static final List<String> RESOURCES = List.of("limits.memory", "requests.memory", "limits.cpu", "requests.cpu");

    public AdmittedContainer {
        addedJvmOptions = List.copyOf(addedJvmOptions);
    }

    /**
     * The newest pod of the target's own template, not on its way out, with the container of the template's name; empty when no
     * such pod has it. A pod of an earlier template (a release that changed the resources, still rolling) says nothing of what
     * admission gives this one.
     *
     * @param template   the container as the template (with the operator's settings) has it
     * @param ofTemplate whether a pod runs the Deployment's own template as it is now
     * @param boosts     the profile's status.startupBoosts
     */
    public static Optional<AdmittedContainer> newest(Deployment deployment, Container template, List<Pod> pods, Predicate<Pod> ofTemplate,
            List<BoostedPod> boosts) {
        Comparator<Pod> byAge = Comparator.comparing(p -> p.getMetadata().getCreationTimestamp(), Comparator.nullsFirst(
                Comparator.comparing(Instant::parse)));
        return pods.stream().filter(p -> p.getMetadata().getDeletionTimestamp() == null && p.getSpec() != null).filter(ofTemplate).max(byAge)
                .flatMap(p -> p.getSpec().getContainers().stream().filter(c -> template.getName().equals(c.getName())).findFirst()
                        .map(c -> new AdmittedContainer(p.getMetadata().getName(), ownResources(p, c, boosts),
                                sameSettings(p, deployment) ? added(javaToolOptions(template), javaToolOptions(c)) : List.of())));
    }

    /** How the pod differs from the template, for status; empty when it runs what the template says. */
    public Optional<AdmittedPod> differences(Container template) {
        Map<String, String> inTemplate = values(template.getResources());
        Map<String, String> inPod = values(resources);
        List<AdmittedResource> differing = new ArrayList<>();
        for (String resource : RESOURCES) {
            if (!sameAmount(inTemplate.get(resource), inPod.get(resource))) {
                differing.add(new AdmittedResource(resource, inTemplate.get(resource), inPod.get(resource)));
            }
        }
        return differing.isEmpty() && addedJvmOptions.isEmpty() ? Optional.empty()
                : Optional.of(new AdmittedPod(pod, differing, new ArrayList<>(addedJvmOptions)));
    }

    /** e.g. "limits.memory 384Mi (the template: 1Gi)", each difference of the pod's. */
    public static String describe(AdmittedPod admitted) {
        List<String> parts = new ArrayList<>(admitted.getResources().stream().map(r -> r.getResource() + " "
                + Objects.requireNonNullElse(r.getPod(), "none") + " (the template: " + Objects.requireNonNullElse(r.getTemplate(), "none") + ")")
                .toList());
        if (!admitted.getAddedJvmOptions().isEmpty()) {
            parts.add(JAVA_TOOL_OPTIONS + " + " + String.join(" ", admitted.getAddedJvmOptions()));
        }
        return String.join(", ", parts);
    }

    private static ResourceRequirements ownResources(Pod pod, Container container, List<BoostedPod> boosts) {
        ResourceRequirements resources = Objects.requireNonNullElseGet(container.getResources(), ResourceRequirements::new);
        Quantity cpu = resources.getLimits() == null ? null : resources.getLimits().get("cpu");
        Optional<BoostedPod> boost = boosts.stream().filter(b -> b.getPod().equals(pod.getMetadata().getName())
                && Objects.equals(b.getUid(), pod.getMetadata().getUid()) && container.getName().equals(b.getContainer())
                && cpu != null && sameAmount(b.getTo(), cpu.toString())).findFirst();
        if (boost.isEmpty()) {
            return resources;
        }
        Map<String, Quantity> limits = new HashMap<>(resources.getLimits());
        limits.put("cpu", new Quantity(boost.get().getFrom()));
        return new ResourceRequirements(resources.getClaims(), limits, resources.getRequests());
    }

    private static boolean sameSettings(Pod pod, Deployment deployment) {
        return Objects.equals(TargetPods.settingsHash(pod), Objects.requireNonNullElse(
                deployment.getSpec().getTemplate().getMetadata().getAnnotations(), Map.<String, String>of())
                .get(LabelsAndAnnotations.SETTINGS_HASH_ANNOTATION));
    }

    private static String javaToolOptions(Container container) {
        return Objects.requireNonNullElse(container.getEnv(), List.<EnvVar>of()).stream()
                .filter(v -> JAVA_TOOL_OPTIONS.equals(v.getName()) && v.getValueFrom() == null).map(EnvVar::getValue)
                .filter(Objects::nonNull).findFirst().orElse("");
    }

    /** The options of the pod's value that the template's does not hold, in the pod's order. */
    private static List<String> added(String template, String pod) {
        List<String> remaining = new ArrayList<>(JvmFlags.parse("template", template).all());
        List<String> added = new ArrayList<>();
        for (String option : JvmFlags.parse("pod", pod).all()) {
            if (!remaining.remove(option)) {
                added.add(option);
            }
        }
        return added;
    }

    private static Map<String, String> values(ResourceRequirements resources) {
        Map<String, String> values = new HashMap<>();
        if (resources != null) {
            Objects.requireNonNullElse(resources.getLimits(), Map.<String, Quantity>of()).forEach((k, v) -> values.put("limits." + k, v.toString()));
            Objects.requireNonNullElse(resources.getRequests(), Map.<String, Quantity>of()).forEach((k, v) -> values.put("requests." + k, v.toString()));
        }
        return values;
    }

    private static boolean sameAmount(String a, String b) {
        return a == null || b == null ? Objects.equals(a, b)
                : Quantity.getAmountInBytes(new Quantity(a)).compareTo(Quantity.getAmountInBytes(new Quantity(b))) == 0;
    }
}
