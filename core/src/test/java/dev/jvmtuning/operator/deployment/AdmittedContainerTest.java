package dev.jvmtuning.operator.deployment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.jvmtuning.operator.api.v1alpha1.AdmittedResource;
import dev.jvmtuning.operator.api.v1alpha1.BoostedPod;
import dev.jvmtuning.operator.model.LabelsAndAnnotations;
import dev.jvmtuning.operator.testing.TestProfiles;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

class AdmittedContainerTest {
    private static final Predicate<Pod> ANY = pod -> true;
    private final Deployment deployment = TestProfiles.labDeployment("orders");
    private final Container template = deployment.getSpec().getTemplate().getSpec().getContainers().get(0);

    private Pod pod(String name, String created, String memoryLimit, String cpuLimit) {
        Pod pod = new PodBuilder().withNewMetadata().withName(name).withUid(name + "-uid").withCreationTimestamp(created).endMetadata()
                .withSpec(Serialization.clone(deployment.getSpec().getTemplate().getSpec())).build();
        pod.getSpec().getContainers().get(0).getResources().getLimits().putAll(Map.of("memory", new Quantity(memoryLimit), "cpu", new Quantity(cpuLimit)));
        return pod;
    }

    @Test
    void theNewestPodNotOnItsWayOutSaysWhatAdmissionGave() {
        Pod old = pod("orders-a", "2026-11-28T10:00:00Z", "1Gi", "2");
        Pod newest = pod("orders-b", "2026-11-28T10:05:00Z", "384Mi", "2");
        Pod leaving = pod("orders-c", "2026-11-28T10:06:00Z", "256Mi", "2");
        leaving.getMetadata().setDeletionTimestamp("2026-11-28T10:07:00Z");

        AdmittedContainer admitted = AdmittedContainer.newest(deployment, template, List.of(old, newest, leaving), ANY, List.of()).orElseThrow();

        assertThat(admitted.pod()).isEqualTo("orders-b");
        assertThat(admitted.differences(template).orElseThrow().getResources())
                .extracting(AdmittedResource::getResource, AdmittedResource::getTemplate, AdmittedResource::getPod)
                .containsExactly(tuple("limits.memory", "1Gi", "384Mi"));
    }

    @Test
    void theSameAmountWrittenAnotherWayIsNoDifference() {
        AdmittedContainer admitted = AdmittedContainer.newest(deployment, template,
                List.of(pod("orders-a", "2026-11-28T10:00:00Z", "1024Mi", "2000m")), ANY, List.of()).orElseThrow();
        assertThat(admitted.differences(template)).isEmpty();
    }

    @Test
    void aCpuLimitTheOperatorBoostedIsNotThePodsOwn() {
        Pod boosted = pod("orders-a", "2026-11-28T10:00:00Z", "1Gi", "4");
        BoostedPod record = new BoostedPod("orders-a", "orders-a-uid", "app", "2", "4", "2026-11-28T10:00:10Z");

        assertThat(AdmittedContainer.newest(deployment, template, List.of(boosted), ANY, List.of(record)).orElseThrow().differences(template))
                .as("back at its own 2 CPU once the boost ends: nothing to plan for").isEmpty();
        BoostedPod another = new BoostedPod("orders-a", "another-uid", "app", "2", "4", "2026-11-28T10:00:10Z");
        assertThat(AdmittedContainer.newest(deployment, template, List.of(boosted), ANY, List.of(another)).orElseThrow().differences(template)
                .orElseThrow().getResources()).as("a pod of the same name the operator never boosted runs its own 4")
                .extracting(AdmittedResource::getPod).containsExactly("4");
    }

    @Test
    void optionsAddedAtAdmissionAreReadOnlyFromAPodOfTheTemplatesSettings() {
        deployment.getSpec().getTemplate().getMetadata().setAnnotations(Map.of(LabelsAndAnnotations.SETTINGS_HASH_ANNOTATION, "new"));
        template.setEnv(List.of(new EnvVar("JAVA_TOOL_OPTIONS", "-Xmx500m -XX:+UseG1GC", null)));
        Pod injected = pod("orders-a", "2026-11-28T10:00:00Z", "1Gi", "2");
        injected.getMetadata().setAnnotations(Map.of(LabelsAndAnnotations.SETTINGS_HASH_ANNOTATION, "new"));
        injected.getSpec().getContainers().get(0).setEnv(List.of(new EnvVar("JAVA_TOOL_OPTIONS", "-Xmx500m -XX:+UseG1GC -javaagent:/otel.jar", null)));

        assertThat(AdmittedContainer.newest(deployment, template, List.of(injected), ANY, List.of()).orElseThrow().addedJvmOptions())
                .containsExactly("-javaagent:/otel.jar");

        injected.getMetadata().setAnnotations(Map.of(LabelsAndAnnotations.SETTINGS_HASH_ANNOTATION, "old"));
        assertThat(AdmittedContainer.newest(deployment, template, List.of(injected), ANY, List.of()).orElseThrow().addedJvmOptions())
                .as("a pod of other settings differs for that reason alone").isEmpty();
    }

    @Test
    void noPodWithTheContainerLeavesTheTemplate() {
        assertThat(AdmittedContainer.newest(deployment, template, List.of(), ANY, List.of())).isEmpty();
        Pod other = pod("orders-a", "2026-11-28T10:00:00Z", "1Gi", "2");
        other.getSpec().getContainers().get(0).setName("sidecar");
        assertThat(AdmittedContainer.newest(deployment, template, List.of(other), ANY, List.of())).isEmpty();
    }
}
