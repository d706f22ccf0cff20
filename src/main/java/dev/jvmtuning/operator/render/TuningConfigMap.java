package dev.jvmtuning.operator.render;

import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The ConfigMap a profile renders its server properties into, owned by the profile so that deleting
 * the profile deletes it. Pure: a profile and a rendering in, the desired object out.
 */
public final class TuningConfigMap {
    /** The operator's name as field manager and in the managed-by label of what it creates. */
    public static final String MANAGER = "jvm-tuning-operator";
    public static final String MANAGED_BY = "app.kubernetes.io/managed-by";
    public static final String PROFILE_LABEL = "jvmtuning.dev/profile";
    /** The key that records the rendered JVM flags, for people reading the ConfigMap. */
    public static final String JVM_OPTIONS_KEY = "jvm-options";

    private TuningConfigMap() {
    }

    public static String name(String profile) {
        return profile + "-jvm-tuning";
    }

    /** The server properties as environment variables, and the rendered flags. */
    public static Map<String, String> data(Rendering rendering) {
        Map<String, String> data = new LinkedHashMap<>(rendering.serverEnvironment());
        data.put(JVM_OPTIONS_KEY, String.join(" ", rendering.renderedFlags()));
        return data;
    }

    public static ConfigMap desired(TuningProfile profile, Rendering rendering) {
        return new ConfigMapBuilder()
                .withNewMetadata().withName(name(profile.getMetadata().getName())).withNamespace(profile.getMetadata().getNamespace())
                .addToLabels(MANAGED_BY, MANAGER).addToLabels(PROFILE_LABEL, profile.getMetadata().getName())
                .addNewOwnerReference().withApiVersion(profile.getApiVersion()).withKind(profile.getKind())
                .withName(profile.getMetadata().getName()).withUid(profile.getMetadata().getUid()).withController(true).endOwnerReference()
                .endMetadata()
                .withData(data(rendering))
                .build();
    }
}
