package dev.jvmtuning.operator.reconciler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.jvmtuning.operator.api.v1alpha1.AutoIteration;
import dev.jvmtuning.operator.api.v1alpha1.AutoStatus;
import dev.jvmtuning.operator.api.v1alpha1.AutoVerdict;
import dev.jvmtuning.operator.model.LabelsAndAnnotations;
import dev.jvmtuning.operator.testing.FakeKubelet;
import dev.jvmtuning.operator.testing.LabPods;
import dev.jvmtuning.operator.testing.LocalControlPlane;
import dev.jvmtuning.operator.testing.StartsProcesses;
import dev.jvmtuning.operator.testing.TestProfiles;
import dev.jvmtuning.operator.testing.TomcatPods;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;

/**
 * Mode Auto's revert on the real control plane: the loop steps away from settings it does not set (the
 * profile's own), the step's pods answer three times slower, and the loop goes back. Going back means
 * status.auto.settings leaving the last step's knobs for none, which server-side apply turns into null
 * when the object is applied empty: the status write must be accepted, the Deployment must return to the
 * template before the step, and the revert must be said once, not once per retried reconcile.
 */
@StartsProcesses
class AutoRevertTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(120);

    @Test
    void aRevertToSettingsTheLoopDoesNotSetIsWrittenAndSaidOnce() throws Exception {
        LocalControlPlane controlPlane = LabPods.controlPlaneWithOperator();
        KubernetesClient client = controlPlane.client();
        String namespace = controlPlane.newNamespace("revert");
        Deployment deployment = TestProfiles.labDeployment("orders");
        client.resource(deployment).inNamespace(namespace).create();
        new FakeKubelet(client).awaitRollout(namespace, "orders", TIMEOUT);

        try (TomcatPods pods = new TomcatPods(client, namespace, "orders")) {
            client.resource(TestProfiles.yaml("orders", "orders", """
                    runtime: SpringBootTomcat
                    mode: Auto
                    workload: {requestsPerSecond: 100}
                    metrics: {port: %d, path: /metrics, interval: 5s}
                    auto: {minInterval: 0s, warmUp: 0s, observationWindows: 1}
                    """.formatted(pods.port()))).inNamespace(namespace).create();
            await().atMost(TIMEOUT).until(() -> LabPods.autoOfOrders(client, namespace) != null && LabPods.autoOfOrders(client, namespace).getState() != null
                    && settingsHash(client, namespace) != null);
            String before = settingsHash(client, namespace);
            pods.slowWhenNot(before);

            await().atMost(TIMEOUT).until(() -> !LabPods.autoOfOrders(client, namespace).getHistory().isEmpty());
            AutoIteration step = LabPods.autoOfOrders(client, namespace).getHistory().get(0);
            assertThat(step.getFrom().getThreads()).as("the server's 200 threads in force").isEqualTo(200);
            assertThat(step.getTo().getThreads()).as(step.getReason()).isEqualTo(100);
            await().atMost(TIMEOUT).until(() -> !before.equals(settingsHash(client, namespace)));

            await().atMost(TIMEOUT).until(() -> !events(client, namespace, "AutoReverted").isEmpty());
            // Several resyncs (3 s) and retries of a refused status write later.
            Thread.sleep(15_000);

            AutoStatus auto = LabPods.autoOfOrders(client, namespace);
            SoftAssertions.assertSoftly(softly -> {
                softly.assertThat(auto.getHistory()).as("the revert in status.auto").extracting(AutoIteration::getVerdict)
                        .startsWith(AutoVerdict.Reverted);
                softly.assertThat(auto.getHistory().get(0).getReason()).contains("mean latency 100 -> 300 ms");
                softly.assertThat(auto.getSettings().isNone()).as("the profile's own values again").isTrue();
                softly.assertThat(settingsHash(client, namespace)).as("the template before the step").isEqualTo(before);
                softly.assertThat(events(client, namespace, "AutoReverted")).as("one Event for one revert").hasSize(1);
            });
        }
    }

    private static String settingsHash(KubernetesClient client, String namespace) {
        Map<String, String> annotations = client.apps().deployments().inNamespace(namespace).withName("orders").get()
                .getSpec().getTemplate().getMetadata().getAnnotations();
        return annotations == null ? null : annotations.get(LabelsAndAnnotations.SETTINGS_HASH_ANNOTATION);
    }

    private static List<Event> events(KubernetesClient client, String namespace, String reason) {
        return client.v1().events().inNamespace(namespace).list().getItems().stream().filter(e -> reason.equals(e.getReason())).toList();
    }
}
