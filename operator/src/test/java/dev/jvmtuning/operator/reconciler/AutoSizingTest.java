package dev.jvmtuning.operator.reconciler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.jvmtuning.operator.api.v1alpha1.AutoIteration;
import dev.jvmtuning.operator.api.v1alpha1.AutoStatus;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import dev.jvmtuning.operator.model.Units;
import dev.jvmtuning.operator.testing.FakeKubelet;
import dev.jvmtuning.operator.testing.LabPods;
import dev.jvmtuning.operator.testing.LocalControlPlane;
import dev.jvmtuning.operator.testing.StartsProcesses;
import dev.jvmtuning.operator.testing.TestProfiles;
import dev.jvmtuning.operator.testing.TomcatPods;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Mode Auto sizing the container on the real control plane: a 4Gi container whose pods keep 60Mi of heap live comes down a
 * step at a time, each step rolled out and judged, and deleting the profile gives the container its 4Gi back.
 */
@StartsProcesses
class AutoSizingTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(180);

    @Test
    void anOversizedContainerComesDownStepByStepToTheMeasuredLiveHeapAndGetsItsMemoryBackOnDelete() throws Exception {
        LocalControlPlane controlPlane = LabPods.controlPlaneWithOperator();
        KubernetesClient client = controlPlane.client();
        String namespace = controlPlane.newNamespace("autosize");
        Deployment deployment = TestProfiles.labDeployment("orders");
        deployment.getSpec().getTemplate().getSpec().getContainers().get(0).getResources().getLimits().put("memory", new Quantity("4Gi"));
        client.resource(deployment).inNamespace(namespace).create();
        new FakeKubelet(client).awaitRollout(namespace, "orders", TIMEOUT);

        try (TomcatPods pods = new TomcatPods(client, namespace, "orders")) {
            pods.reportLiveHeap(60 * Units.MI);
            client.resource(TestProfiles.yaml("orders", "orders", """
                    runtime: SpringBootTomcat
                    mode: Auto
                    workload: {requestsPerSecond: 100}
                    metrics: {port: %d, path: /metrics, interval: 5s}
                    auto: {minInterval: 0s, warmUp: 0s, observationWindows: 1}
                    sizing: {memory: {policy: Plan, min: 256Mi}}
                    """.formatted(pods.port()))).inNamespace(namespace).create();

            // Until the loop has stepped to the measured live heap and the template runs the heap sized for it.
            List<Long> limits = new ArrayList<>();
            await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(200)).until(() -> {
                long limit = memoryLimit(client, namespace);
                if (limits.isEmpty() || limits.get(limits.size() - 1) != limit) {
                    limits.add(limit);
                }
                AutoStatus auto = LabPods.autoOfOrders(client, namespace);
                return auto != null && auto.getSettings() != null && Integer.valueOf(60).equals(auto.getSettings().getLiveHeapMib())
                        && TomcatPods.rendered(client, namespace, "orders", "JAVA_TOOL_OPTIONS").orElse("").contains("-Xmx180m");
            });

            assertThat(limits).as("the limits the template held: " + limits).hasSizeGreaterThan(2)
                    .isSortedAccordingTo(Comparator.reverseOrder()).startsWith(4096 * Units.MI);
            assertThat(limits.get(1)).as("the first step at most halves the live heap the 4Gi heap in force is sized for")
                    .isGreaterThan(2048 * Units.MI);
            List<AutoIteration> history = LabPods.autoOfOrders(client, namespace).getHistory();
            assertThat(history).filteredOn(it -> it.getReason() != null && it.getReason().contains("workload.liveHeap")).isNotEmpty()
                    .allSatisfy(it -> assertThat(it.getReason()).contains("60Mi of heap live after a collection"));
        }

        client.resources(TuningProfile.class).inNamespace(namespace).withName("orders").delete();
        await().atMost(TIMEOUT).untilAsserted(() -> {
            ResourceRequirements resources = client.apps().deployments().inNamespace(namespace).withName("orders").get()
                    .getSpec().getTemplate().getSpec().getContainers().get(0).getResources();
            assertThat(resources.getLimits()).as("the user's resources, field for field").containsEntry("memory", new Quantity("4Gi"))
                    .containsEntry("cpu", new Quantity("2"));
            assertThat(resources.getRequests()).as("no request the user did not set").isNullOrEmpty();
        });
    }

    private static long memoryLimit(KubernetesClient client, String namespace) {
        return Quantity.getAmountInBytes(client.apps().deployments().inNamespace(namespace).withName("orders").get().getSpec().getTemplate()
                .getSpec().getContainers().get(0).getResources().getLimits().get("memory")).longValue();
    }
}
