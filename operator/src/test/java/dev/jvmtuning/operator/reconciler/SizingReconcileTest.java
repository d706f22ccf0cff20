package dev.jvmtuning.operator.reconciler;

import static dev.jvmtuning.operator.model.LabelsAndAnnotations.ORIGINAL_RESOURCES_ANNOTATION;
import static dev.jvmtuning.operator.model.LabelsAndAnnotations.TUNED_BY_ANNOTATION;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.jvmtuning.operator.api.v1alpha1.Sizing;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import dev.jvmtuning.operator.testing.FakeKubelet;
import dev.jvmtuning.operator.testing.LocalControlPlane;
import dev.jvmtuning.operator.testing.RunningOperator;
import dev.jvmtuning.operator.testing.StartsProcesses;
import dev.jvmtuning.operator.testing.TestProfiles;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * spec.sizing on the real API server: Recommend says the sizes and writes nothing, Apply writes them into the template and the
 * pods run them, sizing turned off and the profile deleted give the user's resources back, field for field. The figures are
 * those of the planner's worked example: 200Mi live, 600Mi of heap, a 1017Mi limit where the template asks 4Gi.
 */
@StartsProcesses
class SizingReconcileTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final String SIZED = "runtime: SpringBootTomcat\nthreads: {max: 80}\nworkload: {liveHeap: 200Mi}\n"
            + "sizing: {memory: {policy: Plan}}";
    private static LocalControlPlane controlPlane;
    private static KubernetesClient client;
    private String namespace;

    @BeforeAll
    static void startOperator() {
        controlPlane = LocalControlPlane.shared();
        controlPlane.ensureControllerManager();
        RunningOperator.shared();
        client = controlPlane.client();
    }

    @BeforeEach
    void freshNamespace() {
        namespace = controlPlane.newNamespace("sizing");
    }

    @Test
    void recommendSaysTheSizesAndWritesNothing() throws InterruptedException {
        client.resource(TuningProfileReconcilerTest.deployment("ledger", "2", "4Gi")).inNamespace(namespace).create();
        new FakeKubelet(client).awaitRollout(namespace, "ledger", TIMEOUT);
        String resourceVersion = deployment("ledger").getMetadata().getResourceVersion();

        client.resource(TestProfiles.yaml("ledger", "ledger", "mode: Recommend\n" + SIZED)).inNamespace(namespace).create();
        awaitCondition("ledger", "Ready", "True", "RecommendOnly");

        assertThat(profile("ledger").getStatus().getSettings())
                .anySatisfy(s -> {
                    assertThat(s.getName()).isEqualTo("resources.limits.memory");
                    assertThat(s.getValue()).isEqualTo("1017Mi");
                    assertThat(s.getRule()).isEqualTo("R9c");
                })
                .anySatisfy(s -> assertThat(s.getName() + "=" + s.getValue()).isEqualTo("resources.requests.memory=1017Mi"))
                .anySatisfy(s -> assertThat(s.getName() + "=" + s.getValue()).isEqualTo("heap.size=600Mi"));
        assertThat(deployment("ledger").getMetadata().getResourceVersion()).isEqualTo(resourceVersion);
    }

    @Test
    void applySizesThePodsAndTheUsersResourcesComeBackWhenSizingStopsAndWhenTheProfileGoes() throws InterruptedException {
        client.resource(TuningProfileReconcilerTest.deployment("orders", "2", "4Gi")).inNamespace(namespace).create();
        FakeKubelet kubelet = new FakeKubelet(client);
        kubelet.awaitRollout(namespace, "orders", TIMEOUT);
        PodTemplateSpec before = deployment("orders").getSpec().getTemplate();

        client.resource(TestProfiles.yaml("orders", "orders", SIZED)).inNamespace(namespace).create();
        awaitCondition("orders", "Applied", "True", "Applied");
        await().atMost(TIMEOUT).untilAsserted(() -> assertThat(resources(deployment("orders")).getLimits())
                .containsEntry("memory", new Quantity("1017Mi")).containsEntry("cpu", new Quantity("2")));
        assertThat(resources(deployment("orders")).getRequests()).containsEntry("memory", new Quantity("1017Mi"))
                .containsEntry("cpu", new Quantity("2"));
        assertThat(env(deployment("orders"))).contains("-Xmx600m");
        kubelet.awaitRollout(namespace, "orders", TIMEOUT);
        await().atMost(TIMEOUT).untilAsserted(() -> assertThat(pods("orders")).isNotEmpty().allSatisfy(pod -> assertThat(
                pod.getSpec().getContainers().get(0).getResources().getLimits()).containsEntry("memory", new Quantity("1017Mi"))));

        // Sizing off while the profile stays: the template's own 4Gi comes back through the operator's apply, and the heap
        // is planned in it again.
        editProfile("orders", p -> {
            p.getSpec().setSizing(new Sizing());
            return p;
        });
        await().atMost(TIMEOUT).untilAsserted(() -> {
            assertThat(resources(deployment("orders"))).isEqualTo(before.getSpec().getContainers().get(0).getResources());
            assertThat(env(deployment("orders"))).doesNotContain("-Xmx600m");
        });

        editProfile("orders", p -> {
            p.getSpec().getSizing().setMemory(new dev.jvmtuning.operator.api.v1alpha1.MemorySizing()
                    .setPolicy(dev.jvmtuning.operator.api.v1alpha1.SizingPolicy.Plan));
            return p;
        });
        await().atMost(TIMEOUT).untilAsserted(() -> assertThat(resources(deployment("orders")).getLimits())
                .containsEntry("memory", new Quantity("1017Mi")));
        client.resources(TuningProfile.class).inNamespace(namespace).withName("orders").delete();
        await().atMost(TIMEOUT).untilAsserted(() -> assertThat(profile("orders")).isNull());

        Deployment after = deployment("orders");
        assertThat(after.getSpec().getTemplate()).isEqualTo(before);
        assertThat(after.getMetadata().getAnnotations()).doesNotContainKeys(TUNED_BY_ANNOTATION, ORIGINAL_RESOURCES_ANNOTATION);
    }

    private Deployment deployment(String name) {
        return client.apps().deployments().inNamespace(namespace).withName(name).get();
    }

    private List<Pod> pods(String app) {
        return client.pods().inNamespace(namespace).withLabel("app", app).list().getItems().stream()
                .filter(p -> p.getMetadata().getDeletionTimestamp() == null).toList();
    }

    private static ResourceRequirements resources(Deployment deployment) {
        return deployment.getSpec().getTemplate().getSpec().getContainers().get(0).getResources();
    }

    private static String env(Deployment deployment) {
        return deployment.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv().stream()
                .filter(v -> v.getName().equals("JAVA_TOOL_OPTIONS")).findFirst().map(v -> v.getValue()).orElse("");
    }

    private TuningProfile profile(String name) {
        return client.resources(TuningProfile.class).inNamespace(namespace).withName(name).get();
    }

    private void editProfile(String name, java.util.function.UnaryOperator<TuningProfile> edit) {
        await().atMost(TIMEOUT).ignoreException(io.fabric8.kubernetes.client.KubernetesClientException.class)
                .until(() -> client.resources(TuningProfile.class).inNamespace(namespace).withName(name).edit(edit) != null);
    }

    private void awaitCondition(String profile, String type, String status, String reason) {
        await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
            TuningProfile p = profile(profile);
            Optional<Condition> condition = p == null || p.getStatus() == null ? Optional.empty()
                    : p.getStatus().getConditions().stream().filter(c -> c.getType().equals(type)).findFirst();
            assertThat(condition).as("%s of %s", type, profile).hasValueSatisfying(c -> {
                assertThat(c.getStatus()).as("%s: %s", c.getReason(), c.getMessage()).isEqualTo(status);
                assertThat(c.getReason()).as(c.getMessage()).isEqualTo(reason);
            });
        });
    }
}
