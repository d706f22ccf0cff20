package dev.jvmtuning.operator.render;

import static dev.jvmtuning.operator.model.LabelsAndAnnotations.ORIGINAL_JVM_OPTIONS_ANNOTATION;
import static dev.jvmtuning.operator.model.LabelsAndAnnotations.ORIGINAL_RESOURCES_ANNOTATION;
import static dev.jvmtuning.operator.model.LabelsAndAnnotations.ORIGINAL_TERMINATION_MESSAGE_POLICY_ANNOTATION;
import static dev.jvmtuning.operator.model.LabelsAndAnnotations.SETTINGS_HASH_ANNOTATION;
import static dev.jvmtuning.operator.model.LabelsAndAnnotations.TUNED_BY_ANNOTATION;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfileSpec;
import dev.jvmtuning.operator.model.LabelsAndAnnotations;
import dev.jvmtuning.operator.model.Names;
import io.fabric8.kubernetes.api.model.ConfigMapKeySelector;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.EnvVarSource;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentSpec;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * What the operator writes into a Deployment, and how it takes it out again. Pure: Deployments in,
 * Deployments out. The operator's marks on the Deployment let it tell its own fields from the user's:
 * server properties are env entries that reference the profile's ConfigMap, and the JVM flags
 * variable's original value is recorded in an annotation while the operator owns it.
 */
public final class DeploymentTuning {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int HASH_CHARS = 16;

    private DeploymentTuning() {
    }

    /** The JVM flags variable as the user left it (value null: it was not set), recorded while the operator owns the variable. */
    public record OriginalJvmOptions(String variable, String value, String applied) {
    }

    /**
     * The kubelet's policy that makes a failed container's last log lines its termination message when it wrote none: a JVM that
     * refuses its options or its heap says so there, in its own words, which tells the settings' failure from the application's.
     */
    static final String LOGS_ON_ERROR = "FallbackToLogsOnError";

    /** The tuned container's own terminationMessagePolicy ("" when unset), recorded while the operator sets its own. */
    public record OriginalTerminationMessagePolicy(String container, String policy) {
    }

    /**
     * The tuned container's own values of the resources the operator sizes, by field (limits.memory, requests.cpu; "" where
     * unset), and the values it applied, recorded while it sizes them.
     */
    public record OriginalResources(String container, Map<String, String> original, Map<String, String> applied) {
    }

    /**
     * The container as its owner declared it: the operator's env entries dropped, the JVM variable and the resources it sized
     * back at the user's values.
     */
    public static Container userContainer(Deployment deployment, Container container, String profile) {
        List<EnvVar> env = new ArrayList<>();
        Optional<OriginalJvmOptions> original = original(deployment);
        for (EnvVar var : Objects.requireNonNullElse(container.getEnv(), List.<EnvVar>of())) {
            if (isOurs(var, profile)) {
                continue;
            }
            if (original.isPresent() && original.get().variable().equals(var.getName()) && var.getValueFrom() == null) {
                String userValue = userValue(original.get(), var.getValue());
                if (userValue != null) {
                    env.add(new EnvVarBuilder(var).withValue(userValue).build());
                }
                continue;
            }
            env.add(var);
        }
        List<VolumeMount> mounts = Objects.requireNonNullElse(container.getVolumeMounts(), List.<VolumeMount>of()).stream()
                .filter(m -> !AgentInjection.NAME.equals(m.getName())).toList();
        String policy = originalTerminationMessagePolicy(deployment).filter(p -> p.container().equals(container.getName()))
                .map(OriginalTerminationMessagePolicy::policy).orElse(container.getTerminationMessagePolicy());
        policy = "".equals(policy) ? null : policy;
        ResourceRequirements resources = originalResources(deployment).filter(r -> r.container().equals(container.getName()))
                .map(r -> userResources(container.getResources(), r)).orElse(container.getResources());
        if (env.equals(Objects.requireNonNullElse(container.getEnv(), List.of()))
                && mounts.size() == Objects.requireNonNullElse(container.getVolumeMounts(), List.of()).size()
                && Objects.equals(policy, container.getTerminationMessagePolicy()) && Objects.equals(resources, container.getResources())) {
            return container; // nothing of the operator's in it: no copy
        }
        return new ContainerBuilder(container).withEnv(env).withVolumeMounts(mounts.isEmpty() && container.getVolumeMounts() == null ? null : mounts)
                .withTerminationMessagePolicy(policy).withResources(resources).build();
    }

    /**
     * The user's resources: each field the operator sized back at the user's value while it holds what the operator applied;
     * a value someone wrote since is theirs.
     */
    private static ResourceRequirements userResources(ResourceRequirements current, OriginalResources recorded) {
        ResourceRequirements resources = current == null ? new ResourceRequirements() : new ResourceRequirementsBuilder(current).build();
        recorded.original().forEach((field, original) -> {
            if (sameQuantity(resourceValue(resources, field), recorded.applied().get(field))) {
                setResource(resources, field, original.isEmpty() ? null : original);
            }
        });
        return resources.equals(current) ? current : resources;
    }

    /** A field of the resources (limits.memory, requests.cpu) as text, or null where unset. */
    static String resourceValue(ResourceRequirements resources, String field) {
        Map<String, Quantity> values = field.startsWith("limits.") ? resources.getLimits() : resources.getRequests();
        Quantity value = values == null ? null : values.get(field.substring(field.indexOf('.') + 1));
        return value == null ? null : value.toString();
    }

    /** Sets a field of the resources, or removes it (null); an emptied map goes. */
    private static void setResource(ResourceRequirements resources, String field, String value) {
        boolean limits = field.startsWith("limits.");
        Map<String, Quantity> values = new LinkedHashMap<>(Objects.requireNonNullElse(limits ? resources.getLimits() : resources.getRequests(),
                Map.of()));
        String name = field.substring(field.indexOf('.') + 1);
        if (value == null) {
            values.remove(name);
        } else {
            values.put(name, new Quantity(value));
        }
        Map<String, Quantity> result = values.isEmpty() ? null : values;
        if (limits) {
            resources.setLimits(result);
        } else {
            resources.setRequests(result);
        }
    }

    /**
     * The apply configuration: only the fields the operator owns. The JVM variable carries the user's
     * value followed by the rendered flags; each server property references the ConfigMap of these
     * values, except those the container already sets itself, which win. The reference is optional:
     * should the ConfigMap be gone (the operator uninstalled, a hand-deleted object), the pods still
     * start with the server's defaults.
     */
    public static Deployment desired(Deployment current, Container userContainer, String profile, Rendering rendering, String configMapName,
            Agent agent) {
        List<EnvVar> env = new ArrayList<>();
        env.add(new EnvVar(rendering.jvmOptionsVariable(), rendering.jvmOptionsValue(), null));
        List<String> userNames = Objects.requireNonNullElse(userContainer.getEnv(), List.<EnvVar>of()).stream().map(EnvVar::getName).toList();
        for (String name : rendering.serverEnvironment().keySet()) {
            if (!userNames.contains(name)) {
                env.add(new EnvVar(name, null, new EnvVarSource(new ConfigMapKeySelector(name, configMapName, true), null, null, null, null)));
            }
        }

        Map<String, String> annotations = new LinkedHashMap<>();
        annotations.put(TUNED_BY_ANNOTATION, profile);
        // Declared without a value (the API server drops an empty one) is still declared: "" brings the declaration back on restore.
        String userValue = userContainer.getEnv() == null ? null : userContainer.getEnv().stream()
                .filter(v -> v.getName().equals(rendering.jvmOptionsVariable())).findFirst()
                .map(v -> Objects.requireNonNullElse(v.getValue(), "")).orElse(null);
        annotations.put(ORIGINAL_JVM_OPTIONS_ANNOTATION, json(new OriginalJvmOptions(rendering.jvmOptionsVariable(), userValue, rendering.jvmOptionsValue())));
        // Plain model objects, not the fluent builders: this runs on every reconcile, and the builders copy each level they nest.
        ObjectMeta metadata = new ObjectMeta();
        metadata.setName(current.getMetadata().getName());
        metadata.setNamespace(current.getMetadata().getNamespace());
        metadata.setAnnotations(annotations);
        ObjectMeta templateMetadata = new ObjectMeta();
        templateMetadata.setAnnotations(new LinkedHashMap<>(Map.of(SETTINGS_HASH_ANNOTATION, hash(rendering, configMapName))));
        Container container = new Container();
        container.setName(userContainer.getName());
        container.setEnv(env);
        if (!LOGS_ON_ERROR.equals(userContainer.getTerminationMessagePolicy())) {
            container.setTerminationMessagePolicy(LOGS_ON_ERROR);
            annotations.put(ORIGINAL_TERMINATION_MESSAGE_POLICY_ANNOTATION, json(new OriginalTerminationMessagePolicy(userContainer.getName(),
                    Objects.requireNonNullElse(userContainer.getTerminationMessagePolicy(), ""))));
        }
        sized(current, userContainer, rendering.resources()).ifPresent(recorded -> {
            ResourceRequirements resources = new ResourceRequirements();
            recorded.applied().forEach((field, value) -> setResource(resources, field, value));
            container.setResources(resources);
            annotations.put(ORIGINAL_RESOURCES_ANNOTATION, json(recorded));
        });
        PodSpec pod = new PodSpec();
        pod.setContainers(new ArrayList<>(List.of(container)));
        DeploymentSpec spec = new DeploymentSpec();
        spec.setTemplate(new PodTemplateSpec(templateMetadata, pod));
        Deployment desired = new Deployment();
        desired.setMetadata(metadata);
        desired.setSpec(spec);
        if (agent != null) {
            injectAgent(desired.getSpec().getTemplate().getSpec(), agent);
        }
        return desired;
    }

    /**
     * The resources the apply configuration sets: each sized field at its planned value, and each field sized before and not now
     * back at the user's value, which the operator then keeps (it owns the field: leaving it out would delete it). A field
     * sized before that the user had not set is left out, which removes it. Empty when the operator never sized any.
     */
    private static Optional<OriginalResources> sized(Deployment current, Container userContainer, Map<String, String> planned) {
        Optional<OriginalResources> recorded = originalResources(current).filter(r -> r.container().equals(userContainer.getName()));
        if (planned.isEmpty() && recorded.isEmpty()) {
            return Optional.empty();
        }
        ResourceRequirements users = Objects.requireNonNullElseGet(userContainer.getResources(), ResourceRequirements::new);
        Map<String, String> original = new TreeMap<>(recorded.map(OriginalResources::original).orElse(Map.of()));
        planned.keySet().forEach(field -> original.computeIfAbsent(field, f -> Objects.requireNonNullElse(resourceValue(users, f), "")));
        Map<String, String> applied = new TreeMap<>();
        original.keySet().forEach(field -> {
            String value = planned.containsKey(field) ? planned.get(field) : resourceValue(users, field);
            if (value != null) {
                applied.put(field, value);
            }
        });
        return Optional.of(new OriginalResources(userContainer.getName(), original, applied));
    }

    /** The agent image and where its jar sits in it; null when the profile does not inject the agent. */
    public record Agent(String image, String jarPath) {
        /** This agent for a profile that asks for it to be injected, else null. */
        public static Agent ifInjected(TuningProfileSpec spec, String image, String jarPath) {
            return spec.getMetrics() != null && spec.getMetrics().agentInjected() ? new Agent(image, jarPath) : null;
        }
    }

    /** An init container copies the agent's jar into a volume the target container mounts read-only. */
    private static void injectAgent(PodSpec pod, Agent agent) {
        pod.setInitContainers(List.of(new ContainerBuilder().withName(AgentInjection.NAME).withImage(agent.image())
                .withCommand("cp", agent.jarPath(), AgentInjection.JAR)
                .addNewVolumeMount().withName(AgentInjection.NAME).withMountPath(AgentInjection.DIRECTORY).endVolumeMount()
                .withNewSecurityContext().withAllowPrivilegeEscalation(false).withRunAsNonRoot(true).withReadOnlyRootFilesystem(true)
                .withNewCapabilities().withDrop("ALL").endCapabilities().endSecurityContext()
                .withNewResources().addToRequests("cpu", new Quantity("10m")).addToRequests("memory", new Quantity("16Mi"))
                .addToLimits("memory", new Quantity("32Mi")).endResources()
                .build()));
        pod.setVolumes(List.of(new VolumeBuilder().withName(AgentInjection.NAME).withNewEmptyDir().endEmptyDir().build()));
        pod.getContainers().get(0).setVolumeMounts(List.of(new VolumeMountBuilder().withName(AgentInjection.NAME)
                .withMountPath(AgentInjection.DIRECTORY).withReadOnly(true).build()));
    }

    /** True when the Deployment already holds exactly the desired fields, so no write is needed. */
    public static boolean upToDate(Deployment current, Deployment desired, String profile) {
        Map<String, String> currentAnnotations = Objects.requireNonNullElse(current.getMetadata().getAnnotations(), Map.of());
        Map<String, String> desiredAnnotations = desired.getMetadata().getAnnotations();
        boolean annotationsMatch = desiredAnnotations.entrySet().stream()
                .allMatch(e -> e.getValue().equals(currentAnnotations.get(e.getKey())));
        String desiredHash = desired.getSpec().getTemplate().getMetadata().getAnnotations().get(SETTINGS_HASH_ANNOTATION);
        Map<String, String> templateAnnotations = Objects.requireNonNullElse(current.getSpec().getTemplate().getMetadata().getAnnotations(), Map.of());
        Container desiredContainer = desired.getSpec().getTemplate().getSpec().getContainers().get(0);
        Optional<Container> currentContainer = current.getSpec().getTemplate().getSpec().getContainers().stream()
                .filter(c -> c.getName().equals(desiredContainer.getName())).findFirst();
        if (!annotationsMatch || !desiredHash.equals(templateAnnotations.get(SETTINGS_HASH_ANNOTATION)) || currentContainer.isEmpty()) {
            return false;
        }
        boolean agentWanted = desired.getSpec().getTemplate().getSpec().getInitContainers() != null
                && !desired.getSpec().getTemplate().getSpec().getInitContainers().isEmpty();
        if (agentWanted != hasAgent(current.getSpec().getTemplate().getSpec())) {
            return false;
        }
        if (desiredContainer.getTerminationMessagePolicy() != null
                && !desiredContainer.getTerminationMessagePolicy().equals(currentContainer.get().getTerminationMessagePolicy())) {
            return false;
        }
        Optional<OriginalResources> sized = recorded(desired, ORIGINAL_RESOURCES_ANNOTATION, OriginalResources.class);
        if (sized.isPresent()) {
            ResourceRequirements resources = Objects.requireNonNullElseGet(currentContainer.get().getResources(), ResourceRequirements::new);
            if (sized.get().original().keySet().stream().anyMatch(f -> !sameQuantity(resourceValue(resources, f), sized.get().applied().get(f)))) {
                return false;
            }
        }
        List<EnvVar> currentEnv = Objects.requireNonNullElse(currentContainer.get().getEnv(), List.of());
        long oursNow = currentEnv.stream().filter(v -> isOurs(v, profile)).count();
        long oursWanted = desiredContainer.getEnv().stream().filter(v -> isOurs(v, profile)).count();
        return oursNow == oursWanted && currentEnv.containsAll(desiredContainer.getEnv());
    }

    /**
     * The environment the operator set in a container of a Deployment it tuned for the profile: the JVM variable with the value it
     * rendered, then each server property's reference to the profile's ConfigMap. What the user set beside them is left out.
     *
     * @param container the tuned container's name
     */
    public record TunedEnv(String container, List<EnvVar> env) {
        public TunedEnv {
            env = List.copyOf(env);
        }

        /**
         * Each entry's value, in order: the JVM variable's as it stands, a server property's as its ConfigMap holds it.
         *
         * @param configMapData the data of a ConfigMap by its name
         */
        public Map<String, String> values(Function<String, Map<String, String>> configMapData) {
            Map<String, String> values = new LinkedHashMap<>();
            env.forEach(var -> values.put(var.getName(), var.getValueFrom() == null ? var.getValue()
                    : configMapData.apply(var.getValueFrom().getConfigMapKeyRef().getName()).get(var.getValueFrom().getConfigMapKeyRef().getKey())));
            return values;
        }
    }

    /** The operator's environment in a Deployment it tuned for the profile, as written or as desired; empty when it tunes none. */
    public static Optional<TunedEnv> tunedEnv(Deployment deployment, String profile) {
        if (!tunedBy(deployment, profile)) {
            return Optional.empty();
        }
        return original(deployment).flatMap(original -> deployment.getSpec().getTemplate().getSpec().getContainers().stream()
                .filter(c -> Objects.requireNonNullElse(c.getEnv(), List.<EnvVar>of()).stream().anyMatch(v -> isRendered(v, original)))
                .findFirst()
                .map(c -> new TunedEnv(c.getName(), c.getEnv().stream().filter(v -> isRendered(v, original) || isOurs(v, profile)).toList())));
    }

    /**
     * The container's resources the operator set in a Deployment it tuned for the profile (spec.sizing), by kind and name as a
     * container's resources nest them ({limits: {memory: 1017Mi}}); empty where it sizes none.
     */
    public static Map<String, Map<String, String>> sizedResources(Deployment deployment, String profile) {
        Map<String, Map<String, String>> resources = new TreeMap<>();
        if (tunedBy(deployment, profile)) {
            originalResources(deployment).ifPresent(recorded -> recorded.applied().forEach((field, value) -> resources
                    .computeIfAbsent(field.substring(0, field.indexOf('.')), kind -> new TreeMap<>()).put(field.substring(field.indexOf('.') + 1), value)));
        }
        return resources;
    }

    /** The JVM variable with the value the operator rendered into it. */
    private static boolean isRendered(EnvVar var, OriginalJvmOptions original) {
        return var.getName().equals(original.variable()) && var.getValueFrom() == null && Objects.equals(var.getValue(), original.applied());
    }

    /** True when this Deployment carries the operator's settings, for whichever profile. */
    public static boolean tuned(Deployment deployment) {
        return deployment.getMetadata().getAnnotations() != null && deployment.getMetadata().getAnnotations().containsKey(TUNED_BY_ANNOTATION);
    }

    /** True when this Deployment carries the operator's settings for {@code profile}. */
    public static boolean tunedBy(Deployment deployment, String profile) {
        return deployment.getMetadata().getAnnotations() != null && profile.equals(deployment.getMetadata().getAnnotations().get(TUNED_BY_ANNOTATION));
    }

    /** The Deployment as it was before the operator wrote to it: its own fields removed, the JVM variable restored. */
    public static Deployment restored(Deployment current, String profile) {
        Deployment copy = new DeploymentBuilder(current).build();
        copy.getSpec().setTemplate(restoredTemplate(current, profile));
        removeAnnotation(copy.getMetadata().getAnnotations(), TUNED_BY_ANNOTATION);
        removeAnnotation(copy.getMetadata().getAnnotations(), ORIGINAL_JVM_OPTIONS_ANNOTATION);
        removeAnnotation(copy.getMetadata().getAnnotations(), ORIGINAL_TERMINATION_MESSAGE_POLICY_ANNOTATION);
        removeAnnotation(copy.getMetadata().getAnnotations(), ORIGINAL_RESOURCES_ANNOTATION);
        return copy;
    }

    /**
     * The pod template as it was before the operator wrote to it. A copy of the template alone: every reconcile digests it,
     * and a copy of the whole Deployment would copy its managed fields and status too.
     */
    private static PodTemplateSpec restoredTemplate(Deployment current, String profile) {
        PodTemplateSpec template = new PodTemplateSpecBuilder(current.getSpec().getTemplate()).build();
        PodSpec pod = template.getSpec();
        pod.setContainers(new ArrayList<>(pod.getContainers().stream().map(c -> userContainer(current, c, profile)).toList()));
        if (pod.getInitContainers() != null) {
            List<Container> initContainers = pod.getInitContainers().stream().filter(c -> !AgentInjection.NAME.equals(c.getName())).toList();
            pod.setInitContainers(initContainers.isEmpty() ? null : new ArrayList<>(initContainers));
        }
        if (pod.getVolumes() != null) {
            List<Volume> volumes = pod.getVolumes().stream().filter(v -> !AgentInjection.NAME.equals(v.getName())).toList();
            pod.setVolumes(volumes.isEmpty() ? null : new ArrayList<>(volumes));
        }
        Map<String, String> annotations = template.getMetadata() == null ? null : template.getMetadata().getAnnotations();
        removeAnnotation(annotations, SETTINGS_HASH_ANNOTATION);
        if (annotations != null && annotations.isEmpty()) {
            template.getMetadata().setAnnotations(null);
        }
        return template;
    }

    /**
     * A digest of the Deployment's own pod template, the operator's fields left out: it changes with a release, a restart or
     * an undo, not with the settings.
     */
    public static String templateHash(Deployment current, String profile) {
        return Names.digest(json(restoredTemplate(current, profile)), HASH_CHARS);
    }

    /**
     * The digest {@link #templateHash(Deployment, String)} gives the template a ReplicaSet of the Deployment runs: that template
     * is the Deployment's with the controller's pod-template-hash label added, which is left out as the controller itself
     * leaves it out to find a Deployment's ReplicaSet; and the controller copies the Deployment's annotations, the operator's
     * records among them, to the ReplicaSet it makes.
     */
    public static String templateHash(ReplicaSet replicaSet, String profile) {
        PodTemplateSpec template = new PodTemplateSpecBuilder(replicaSet.getSpec().getTemplate()).build();
        if (template.getMetadata() != null && template.getMetadata().getLabels() != null) {
            Map<String, String> labels = new LinkedHashMap<>(template.getMetadata().getLabels());
            labels.remove(LabelsAndAnnotations.POD_TEMPLATE_HASH_LABEL);
            template.getMetadata().setLabels(labels);
        }
        return templateHash(new DeploymentBuilder().withMetadata(replicaSet.getMetadata()).withNewSpec().withTemplate(template).endSpec().build(),
                profile);
    }

    /** A short digest of everything rendered: it changes, and rolls the pods, exactly when a setting does. */
    public static String hash(Rendering rendering, String configMapName) {
        StringBuilder rendered = new StringBuilder(rendering.jvmOptionsVariable() + "=" + rendering.jvmOptionsValue() + "\n" + configMapName + "\n");
        rendering.serverEnvironment().forEach((k, v) -> rendered.append(k).append('=').append(v).append('\n'));
        rendering.resources().forEach((k, v) -> rendered.append("resources.").append(k).append('=').append(v).append('\n'));
        return Names.digest(rendered.toString(), HASH_CHARS);
    }

    private static boolean hasAgent(PodSpec pod) {
        return pod.getInitContainers() != null && pod.getInitContainers().stream().anyMatch(c -> AgentInjection.NAME.equals(c.getName()));
    }

    /** An env entry that references one of the profile's ConfigMaps. */
    private static boolean isOurs(EnvVar var, String profile) {
        return var.getValueFrom() != null && var.getValueFrom().getConfigMapKeyRef() != null
                && var.getValueFrom().getConfigMapKeyRef().getName() != null
                && var.getValueFrom().getConfigMapKeyRef().getName().startsWith(TuningConfigMap.prefix(profile));
    }

    /**
     * The user's part of the JVM variable's current value: the recorded original while the value is
     * what the operator applied; if someone edited it since, their edit without the flags the operator
     * added, wherever they now stand. A flag of ours that they changed is theirs from then on.
     */
    private static String userValue(OriginalJvmOptions original, String current) {
        if (current == null || current.equals(original.applied())) {
            return original.value();
        }
        List<String> ours = new ArrayList<>(tokens(original.applied()));
        tokens(Objects.requireNonNullElse(original.value(), "")).forEach(ours::remove);
        List<String> remaining = new ArrayList<>(tokens(current));
        ours.forEach(remaining::remove);
        String userPart = String.join(" ", remaining);
        return userPart.isEmpty() && original.value() == null ? null : userPart;
    }

    private static List<String> tokens(String options) {
        return options.isBlank() ? List.of() : List.of(options.trim().split("\\s+"));
    }

    private static Optional<OriginalJvmOptions> original(Deployment deployment) {
        return recorded(deployment, ORIGINAL_JVM_OPTIONS_ANNOTATION, OriginalJvmOptions.class);
    }

    private static Optional<OriginalResources> originalResources(Deployment deployment) {
        return recorded(deployment, ORIGINAL_RESOURCES_ANNOTATION, OriginalResources.class);
    }

    /** Whether two quantities are the same amount, however written (1Gi, 1024Mi); null only as null. */
    private static boolean sameQuantity(String a, String b) {
        return a == null || b == null ? a == b : Quantity.getAmountInBytes(new Quantity(a)).compareTo(Quantity.getAmountInBytes(new Quantity(b))) == 0;
    }

    private static Optional<OriginalTerminationMessagePolicy> originalTerminationMessagePolicy(Deployment deployment) {
        return recorded(deployment, ORIGINAL_TERMINATION_MESSAGE_POLICY_ANNOTATION, OriginalTerminationMessagePolicy.class);
    }

    /** What an annotation of the operator's records; none when absent or not its JSON (someone edited it). */
    private static <T> Optional<T> recorded(Deployment deployment, String annotation, Class<T> type) {
        String recorded = deployment.getMetadata().getAnnotations() == null ? null : deployment.getMetadata().getAnnotations().get(annotation);
        if (recorded == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(JSON.readValue(recorded, type));
        } catch (JsonProcessingException e) {
            return Optional.empty();
        }
    }

    private static String json(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void removeAnnotation(Map<String, String> annotations, String key) {
        if (annotations != null) {
            annotations.remove(key);
        }
    }
}
