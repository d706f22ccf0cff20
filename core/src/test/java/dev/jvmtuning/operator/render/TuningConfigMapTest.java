package dev.jvmtuning.operator.render;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import dev.jvmtuning.operator.model.LabelsAndAnnotations;
import dev.jvmtuning.operator.model.Names;
import dev.jvmtuning.operator.model.Setting;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Content-named, immutable ConfigMaps, and names that fit whatever the profile is called. */
class TuningConfigMapTest {

    @Test
    void theNameFollowsTheContentAndTheObjectIsImmutableAndOwnedByTheProfile() {
        TuningProfile profile = profile("orders");
        ConfigMap first = TuningConfigMap.desired(profile, rendering("150"));

        assertThat(first.getMetadata().getName()).startsWith("orders-jvm-tuning-").hasSize("orders-jvm-tuning-".length() + 10);
        assertThat(TuningConfigMap.desired(profile, rendering("150")).getMetadata().getName()).isEqualTo(first.getMetadata().getName());
        assertThat(TuningConfigMap.desired(profile, rendering("151")).getMetadata().getName()).isNotEqualTo(first.getMetadata().getName());
        assertThat(first.getImmutable()).isTrue();
        assertThat(first.getData()).containsEntry("SERVER_TOMCAT_THREADS_MAX", "150").containsEntry("jvm-options", "-Xmx512m");
        assertThat(TuningConfigMap.ownedBy(first, profile)).isTrue();
        assertThat(TuningConfigMap.ownedBy(first, profile("orders-2"))).isFalse();
    }

    @Test
    void aProfileNameOfAnyLegalLengthGivesLegalNamesAndLabels() {
        String longest = "p".repeat(Names.NAME_MAX);
        TuningProfile profile = profile(longest);
        ConfigMap configMap = TuningConfigMap.desired(profile, rendering("150"));

        assertThat(configMap.getMetadata().getName()).hasSizeLessThanOrEqualTo(Names.NAME_MAX).startsWith(TuningConfigMap.prefix(longest));
        assertThat(configMap.getMetadata().getLabels().get(LabelsAndAnnotations.PROFILE_LABEL)).hasSizeLessThanOrEqualTo(Names.LABEL_MAX);
        assertThat(TuningConfigMap.profileLabel(longest)).isNotEqualTo(TuningConfigMap.profileLabel(longest.substring(1) + "q"));
        assertThat(TuningConfigMap.ownedBy(configMap, profile)).isTrue();
    }

    private static TuningProfile profile(String name) {
        TuningProfile profile = new TuningProfile();
        profile.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace("shop").withUid("uid-" + name.hashCode()).build());
        return profile;
    }

    private static Rendering rendering(String threads) {
        return new Rendering("JAVA_TOOL_OPTIONS", "-Xmx512m", List.of("-Xmx512m"), new TreeMap<>(Map.of("SERVER_TOMCAT_THREADS_MAX", threads)),
                Map.of(Setting.THREADS_MAX, "SERVER_TOMCAT_THREADS_MAX"), List.of(), new TreeMap<>());
    }
}
