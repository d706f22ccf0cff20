package dev.jvmtuning.operator.render;

import static dev.jvmtuning.operator.model.LabelsAndAnnotations.MANAGED_BY_LABEL;
import static dev.jvmtuning.operator.model.LabelsAndAnnotations.OPERATOR;
import static dev.jvmtuning.operator.model.LabelsAndAnnotations.PROFILE_LABEL;

import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import dev.jvmtuning.operator.model.LabelsAndAnnotations;
import dev.jvmtuning.operator.model.Names;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The ConfigMaps a profile renders its server properties into: one per set of values, named by its
 * content and immutable, so a pod template always points at the values it was rolled out with. An
 * old ReplicaSet, `kubectl rollout undo` or a container restarted in the middle of a rollout read a
 * consistent set, and a ConfigMap is removed only once no ReplicaSet refers to it. Owned by the
 * profile, so deleting the profile deletes them. Pure.
 */
public final class TuningConfigMap {
    /** The key that records the rendered JVM flags, for people reading the ConfigMap. */
    public static final String JVM_OPTIONS_KEY = "jvm-options";
    private static final String SUFFIX = "-jvm-tuning";
    private static final int CONTENT_DIGEST_CHARS = 10;

    private TuningConfigMap() {
    }

    /** What every ConfigMap name of this profile starts with; an env entry referencing such a name is the operator's. */
    public static String prefix(String profile) {
        return Names.fit(profile, Names.NAME_MAX - SUFFIX.length() - CONTENT_DIGEST_CHARS - 1) + SUFFIX;
    }

    /** The name of the ConfigMap holding exactly this rendering's values. */
    public static String name(String profile, Rendering rendering) {
        return prefix(profile) + "-" + Names.digest(new TreeMap<>(data(rendering)).toString(), CONTENT_DIGEST_CHARS);
    }

    /** The profile label's value: the name, or a digest-suffixed cut when it is longer than a label may be. */
    public static String profileLabel(String profile) {
        return Names.fit(profile, Names.LABEL_MAX);
    }

    /** Whether this object is one of the profile's ConfigMaps: labelled for it and owned by it. */
    public static boolean ownedBy(HasMetadata object, TuningProfile profile) {
        return profileLabel(profile.getMetadata().getName()).equals(object.getMetadata().getLabels().get(PROFILE_LABEL))
                && object.getMetadata().getOwnerReferences().stream().anyMatch(o -> profile.getMetadata().getUid().equals(o.getUid()));
    }

    /**
     * The rendering that wrote this data into a ConfigMap, this value into the JVM variable and these resources into the
     * container, for applying it again.
     */
    public static Rendering rendering(String jvmOptionsVariable, String jvmOptionsValue, Map<String, String> data, Map<String, String> resources) {
        TreeMap<String, String> server = new TreeMap<>(data);
        server.remove(JVM_OPTIONS_KEY);
        return new Rendering(jvmOptionsVariable, jvmOptionsValue, List.of(), server, Map.of(), List.of(), new TreeMap<>(resources));
    }

    /** The server properties as environment variables, and the rendered flags. */
    public static Map<String, String> data(Rendering rendering) {
        Map<String, String> data = new LinkedHashMap<>(rendering.serverEnvironment());
        data.put(JVM_OPTIONS_KEY, String.join(" ", rendering.renderedFlags()));
        return data;
    }

    public static ConfigMap desired(TuningProfile profile, Rendering rendering) {
        return desired(profile, name(profile.getMetadata().getName(), rendering), data(rendering));
    }

    /** The ConfigMap of settings applied before, from what status recorded of them. */
    public static ConfigMap desired(TuningProfile profile, String configMapName, Map<String, String> data) {
        String name = profile.getMetadata().getName();
        return new ConfigMapBuilder()
                .withNewMetadata().withName(configMapName).withNamespace(profile.getMetadata().getNamespace())
                .addToLabels(MANAGED_BY_LABEL, OPERATOR).addToLabels(PROFILE_LABEL, profileLabel(name))
                .addNewOwnerReference().withApiVersion(profile.getApiVersion()).withKind(profile.getKind())
                .withName(name).withUid(profile.getMetadata().getUid()).withController(true).endOwnerReference()
                .endMetadata()
                .withImmutable(true)
                .withData(data)
                .build();
    }
}
