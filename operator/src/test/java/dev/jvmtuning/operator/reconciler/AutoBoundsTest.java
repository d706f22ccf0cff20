package dev.jvmtuning.operator.reconciler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.jvmtuning.operator.api.v1alpha1.AutoState;
import dev.jvmtuning.operator.api.v1alpha1.AutoStatus;
import dev.jvmtuning.operator.api.v1alpha1.AutoVerdict;
import dev.jvmtuning.operator.api.v1alpha1.Bounds;
import dev.jvmtuning.operator.api.v1alpha1.Setting;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import dev.jvmtuning.operator.testing.FakeKubelet;
import dev.jvmtuning.operator.testing.LabPods;
import dev.jvmtuning.operator.testing.LocalControlPlane;
import dev.jvmtuning.operator.testing.StartsProcesses;
import dev.jvmtuning.operator.testing.TestProfiles;
import dev.jvmtuning.operator.testing.TomcatPods;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;

/**
 * Mode Auto's bounds on the real control plane: once the loop rests on a thread maximum it set, a bound the user tightens
 * below it binds at the next reconcile, not at the loop's next step (which a resting loop never takes while the workload
 * holds still). The ConfigMap the Deployment reads, status.auto and status.settings all move inside the bound, and an
 * Event says which setting moved and why.
 */
@StartsProcesses
class AutoBoundsTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(120);
    /** A reconcile or two on a loaded machine: the clamp waits for no metrics window and no step. */
    private static final Duration AT_ONCE = Duration.ofSeconds(30);

    @Test
    void aThreadMaxLoweredBelowTheOneTheLoopRestsOnBindsAtTheNextReconcile() throws Exception {
        LocalControlPlane controlPlane = LabPods.controlPlaneWithOperator();
        KubernetesClient client = controlPlane.client();
        String namespace = controlPlane.newNamespace("auto-bounds");
        client.resource(TestProfiles.labDeployment("orders")).inNamespace(namespace).create();
        new FakeKubelet(client).awaitRollout(namespace, "orders", TIMEOUT);

        try (TomcatPods pods = new TomcatPods(client, namespace, "orders")) {
            // 100 req/s at 100 ms re-plans far fewer than Tomcat's 200 threads: the floor of 120 is where the loop steps to and rests.
            client.resource(TestProfiles.yaml("orders", "orders", """
                    runtime: SpringBootTomcat
                    mode: Auto
                    workload: {requestsPerSecond: 100}
                    metrics: {port: %d, path: /metrics, interval: 5s}
                    auto: {minInterval: 0s, warmUp: 0s, observationWindows: 1, threads: {min: 120}}
                    """.formatted(pods.port()))).inNamespace(namespace).create();

            await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
                AutoStatus auto = LabPods.autoOfOrders(client, namespace);
                assertThat(auto).isNotNull();
                assertThat(auto.getState()).as("%s", auto).isIn(AutoState.Converged, AutoState.Holding);
                assertThat(auto.getSettings().getThreads()).as("%s", auto).isEqualTo(120);
            });
            assertThat(LabPods.autoOfOrders(client, namespace).getHistory()).as("the loop set the threads itself")
                    .anyMatch(step -> step.getVerdict() == AutoVerdict.Kept && Objects.equals(step.getTo().getThreads(), 120));
            assertThat(renderedThreadsMax(client, namespace)).contains("120");
            int iterations = LabPods.autoOfOrders(client, namespace).getHistory().size();
            int steps = events(client, namespace, "AutoStep").size();

            client.resources(TuningProfile.class).inNamespace(namespace).withName("orders")
                    .edit(profile -> {
                        profile.getSpec().getAuto().setThreads(new Bounds(null, 80));
                        return profile;
                    });

            await().atMost(AT_ONCE).pollInterval(Duration.ofMillis(250))
                    .untilAsserted(() -> assertThat(renderedThreadsMax(client, namespace)).as("the Deployment's server setting").contains("80"));
            await().atMost(AT_ONCE).pollInterval(Duration.ofMillis(250))
                    .untilAsserted(() -> assertThat(events(client, namespace, "AutoClamped")).isNotEmpty());
            TuningProfile profile = client.resources(TuningProfile.class).inNamespace(namespace).withName("orders").get();
            AutoStatus auto = profile.getStatus().getAuto();
            SoftAssertions.assertSoftly(softly -> {
                softly.assertThat(auto.getSettings().getThreads()).as("status.auto.settings").isEqualTo(80);
                softly.assertThat(auto.getLastGood().getThreads()).as("what a revert would go back to").isEqualTo(80);
                softly.assertThat(auto.getState()).as("still resting: moving into bounds is no step").isIn(AutoState.Converged, AutoState.Holding);
                softly.assertThat(auto.getHistory()).as("no iteration for the clamp").hasSize(iterations);
                softly.assertThat(events(client, namespace, "AutoStep")).as("no step took it there").hasSize(steps);
                softly.assertThat(profile.getStatus().getSettings()).as("status.settings")
                        .filteredOn(s -> s.getName().equals("threads.max")).singleElement().extracting(Setting::getValue).isEqualTo("80");
                softly.assertThat(events(client, namespace, "AutoClamped")).as("one Event, naming the setting, both values and the bound")
                        .singleElement().satisfies(event -> {
                            softly.assertThat(event.getType()).isEqualTo("Normal");
                            softly.assertThat(event.getMessage()).contains("threads.max 120 -> 80 (spec.auto.threads.max 80)");
                        });
            });
        }
    }

    /** The thread maximum the Deployment's template gives its container, as the kubelet would resolve it; empty when none. */
    private static Optional<String> renderedThreadsMax(KubernetesClient client, String namespace) {
        return TomcatPods.rendered(client, namespace, "orders", TomcatPods.THREADS_MAX);
    }

    private static List<Event> events(KubernetesClient client, String namespace, String reason) {
        return client.v1().events().inNamespace(namespace).list().getItems().stream().filter(e -> reason.equals(e.getReason())).toList();
    }
}
