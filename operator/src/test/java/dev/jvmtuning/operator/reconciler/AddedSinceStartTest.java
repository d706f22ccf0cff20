package dev.jvmtuning.operator.reconciler;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import org.junit.jupiter.api.Test;

class AddedSinceStartTest {

    private static ConfigMap at(String resourceVersion) {
        return new ConfigMapBuilder().withNewMetadata().withName("values").withResourceVersion(resourceVersion).endMetadata().build();
    }

    @Test
    void beforeTheFirstListIsInEveryAddIsOneOfIt() {
        AddedSinceStart<ConfigMap> filter = new AddedSinceStart<>();
        assertThat(filter.accept(at("1"))).isFalse();
        assertThat(filter.accept(at("999999999"))).isFalse();
    }

    @Test
    void onlyObjectsNewerThanTheFirstListPass() {
        AddedSinceStart<ConfigMap> filter = new AddedSinceStart<>();
        filter.listed(4711);
        assertThat(filter.accept(at("17"))).as("listed at start").isFalse();
        assertThat(filter.accept(at("4711"))).as("the newest listed").isFalse();
        assertThat(filter.accept(at("4712"))).as("created after the list, or found by a re-list").isTrue();
    }

    @Test
    void anEmptyFirstListLetsEveryAddPass() {
        AddedSinceStart<ConfigMap> filter = new AddedSinceStart<>();
        filter.listed(0);
        assertThat(filter.accept(at("1"))).isTrue();
    }

    @Test
    void aVersionThatIsNoNumberPassesRatherThanBeLost() {
        AddedSinceStart<ConfigMap> filter = new AddedSinceStart<>();
        filter.listed(4711);
        assertThat(filter.accept(at("v7"))).isTrue();
        assertThat(filter.accept(at(null))).isTrue();
    }
}
