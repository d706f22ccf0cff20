package dev.jvmtuning.operator.reconciler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.jvmtuning.operator.api.v1alpha1.Setting;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import dev.jvmtuning.operator.testing.FakeKubelet;
import dev.jvmtuning.operator.testing.LabPods;
import dev.jvmtuning.operator.testing.LocalControlPlane;
import dev.jvmtuning.operator.testing.StartsProcesses;
import dev.jvmtuning.operator.testing.TestProfiles;
import dev.jvmtuning.operator.testing.TomcatPods;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;

/**
 * What status claims of the JVMs when no agent reads them, on the real control plane: the pods' own metrics show
 * Tomcat's thread maximum and no JVM option at all. The settings read are judged and the rest named unread, so neither
 * SettingsEffective nor Ready says the pods run the tuned settings "as their JVMs report"; and what was read does count:
 * a thread maximum other than the planned one makes the settings not effective.
 */
@StartsProcesses
class PartlyReportedTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(120);

    @Test
    void withoutTheAgentOnlyTheSettingsTheRuntimesMetricsShowAreClaimedInEffect() throws Exception {
        LocalControlPlane controlPlane = LabPods.controlPlaneWithOperator();
        KubernetesClient client = controlPlane.client();
        String namespace = controlPlane.newNamespace("partly");
        client.resource(TestProfiles.labDeployment("orders")).inNamespace(namespace).create();
        new FakeKubelet(client).awaitRollout(namespace, "orders", TIMEOUT);

        try (TomcatPods pods = new TomcatPods(client, namespace, "orders")) {
            client.resource(TestProfiles.yaml("orders", "orders", """
                    runtime: SpringBootTomcat
                    mode: Apply
                    threads: {max: 150}
                    metrics: {port: %d, path: /metrics, interval: 5s}
                    """.formatted(pods.port()))).inNamespace(namespace).create();

            awaitSettingsEffective(client, namespace, "PartlyReported");
            assertThat(TomcatPods.rendered(client, namespace, "orders", TomcatPods.THREADS_MAX)).as("rendered, so the pods serve it").contains("150");
            TuningProfile profile = profile(client, namespace);
            Condition effective = condition(profile, "SettingsEffective").orElseThrow();
            Condition ready = condition(profile, "Ready").orElseThrow();
            SoftAssertions.assertSoftly(softly -> {
                softly.assertThat(effective.getStatus()).as("what was read holds, the rest is not known").isEqualTo("Unknown");
                softly.assertThat(effective.getMessage()).as("what was verified, what could not be, and what would read it")
                        .contains("in effect as far as read on 1 of 1 pods", "read from the runtime's metrics: threads.max;",
                                "not checkable without the agent: UseContainerSupport", "MaxHeapSize",
                                "the jvm-tuning agent (metrics.injectAgent) reads every planned JVM option")
                        .doesNotContain("read from the runtime's metrics: MaxHeapSize");
                softly.assertThat(ready.getStatus()).as("the pods run the tuned template").isEqualTo("True");
                softly.assertThat(ready.getMessage()).contains("what their JVMs run is read only in part")
                        .doesNotContain("as their JVMs report");
                softly.assertThat(setting(profile, "threads.max").getEffective()).as("read: said").isEqualTo("150 on 1 of 1 pods");
                softly.assertThat(setting(profile, "heap.size").getEffective()).as("not read: not said").isNull();
            });

            // What was read is judged, not waved through: Tomcat now runs another maximum than the one planned.
            pods.reportThreadsMax(50);
            awaitSettingsEffective(client, namespace, "SettingsNotEffective");
            assertThat(condition(client, namespace, "SettingsEffective")).hasValueSatisfying(c -> {
                assertThat(c.getStatus()).isEqualTo("False");
                assertThat(c.getMessage()).contains("threads.max is 50 (runtime metrics), planned 150 by SERVER_TOMCAT_THREADS_MAX=150");
            });
            assertThat(condition(client, namespace, "Ready")).hasValueSatisfying(c -> {
                assertThat(c.getStatus()).isEqualTo("False");
                assertThat(c.getReason()).isEqualTo("SettingsNotEffective");
            });
        }
    }

    /** Waits for SettingsEffective to give this reason; a failure shows every condition. */
    private static void awaitSettingsEffective(KubernetesClient client, String namespace, String reason) {
        await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> assertThat(condition(client, namespace,
                "SettingsEffective")).map(Condition::getReason).as("%s", conditions(client, namespace)).contains(reason));
    }

    private static TuningProfile profile(KubernetesClient client, String namespace) {
        return client.resources(TuningProfile.class).inNamespace(namespace).withName("orders").get();
    }

    private static Optional<Condition> condition(KubernetesClient client, String namespace, String type) {
        return condition(profile(client, namespace), type);
    }

    private static Optional<Condition> condition(TuningProfile profile, String type) {
        return profile == null || profile.getStatus() == null ? Optional.empty()
                : profile.getStatus().getConditions().stream().filter(c -> c.getType().equals(type)).findFirst();
    }

    /** The conditions, for a failure's message. */
    private static List<String> conditions(KubernetesClient client, String namespace) {
        TuningProfile profile = profile(client, namespace);
        return profile == null || profile.getStatus() == null ? List.of()
                : profile.getStatus().getConditions().stream().map(c -> c.getType() + "=" + c.getStatus() + " " + c.getReason() + ": "
                        + c.getMessage()).toList();
    }

    private static Setting setting(TuningProfile profile, String name) {
        return profile.getStatus().getSettings().stream().filter(s -> s.getName().equals(name)).findFirst().orElseThrow();
    }
}
