package dev.jvmtuning.operator.reconciler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import dev.jvmtuning.operator.testing.FakeKubelet;
import dev.jvmtuning.operator.testing.LocalControlPlane;
import dev.jvmtuning.operator.testing.RunningOperator;
import dev.jvmtuning.operator.testing.StartsProcesses;
import dev.jvmtuning.operator.testing.WorkloadProcess;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The whole loop on the real control plane: the operator finds the target's Ready pod, whose IP is
 * loopback, scrapes the real JVM behind it (churning garbage, then fighting for the CPUs, then calm),
 * and reports each pressure in the profile's status; when the pressure goes, so does the condition.
 */
@StartsProcesses
class MetricsConditionsTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(90);

    @Test
    void gcAndContextSwitchPressureAppearUnderLoadAndClearWhenItStops() throws Exception {
        LocalControlPlane controlPlane = LocalControlPlane.shared();
        controlPlane.ensureControllerManager();
        RunningOperator.shared();
        KubernetesClient client = controlPlane.client();
        String namespace = controlPlane.newNamespace("loop");
        int port = WorkloadProcess.freePort();

        try (WorkloadProcess churn = WorkloadProcess.start("churn", 120, port, "-Xmx24m", "-XX:+UseSerialGC")) {
            client.resource(new DeploymentBuilder().withNewMetadata().withName("batch").endMetadata()
                    .withNewSpec().withReplicas(1).withNewSelector().addToMatchLabels("app", "batch").endSelector()
                    .withNewTemplate().withNewMetadata().addToLabels("app", "batch").endMetadata()
                    .withNewSpec().addNewContainer().withName("app").withImage("example/batch:1").endContainer().endSpec()
                    .endTemplate().endSpec().build()).inNamespace(namespace).create();
            new FakeKubelet(client).awaitRollout(namespace, "batch", TIMEOUT);
            client.resource("""
                    apiVersion: jvmtuning.dev/v1alpha1
                    kind: TuningProfile
                    metadata: {name: batch}
                    spec:
                      targetRef: {name: batch}
                      mode: Recommend
                      metrics: {port: %d, path: /metrics, interval: 5s}
                    """.formatted(port)).inNamespace(namespace).create();

            awaitCondition(client, namespace, "MetricsAvailable", "True");
            awaitCondition(client, namespace, "GCPressure", "True");
            TuningProfile profile = profile(client, namespace);
            assertThat(profile.getStatus().getObserved().getGcTimePercent()).isGreaterThan(10);
            assertThat(condition(profile, "GCPressure").orElseThrow().getMessage()).contains("% of wall time", "threshold 10%");
            assertThat(client.v1().events().inNamespace(namespace).list().getItems())
                    .anyMatch(e -> e.getType().equals("Warning") && e.getReason().equals("GCTimeHigh"));
        }

        try (WorkloadProcess switching = WorkloadProcess.start("switch", 120, port)) {
            awaitCondition(client, namespace, "ContextSwitchPressure", "True");
            awaitCondition(client, namespace, "GCPressure", "False");
            assertThat(profile(client, namespace).getStatus().getObserved().getInvoluntarySwitchesPerCorePerSecond()).isGreaterThan(2000);
        }

        try (WorkloadProcess calm = WorkloadProcess.start("calm", 120, port)) {
            awaitCondition(client, namespace, "ContextSwitchPressure", "False");
            awaitCondition(client, namespace, "GCPressure", "False");
            TuningProfile profile = profile(client, namespace);
            assertThat(profile.getStatus().getObserved().getGcTimePercent()).isLessThan(10);
            assertThat(profile.getStatus().getObserved().getInvoluntarySwitchesPerCorePerSecond()).isLessThan(2000);
        }
        assertThat(client.v1().events().inNamespace(namespace).list().getItems())
                .anyMatch(e -> e.getType().equals("Warning") && e.getReason().equals("InvoluntarySwitchesHigh"))
                .anyMatch(e -> e.getType().equals("Normal") && e.getReason().equals("InvoluntarySwitchesNormal"));
    }

    private static TuningProfile profile(KubernetesClient client, String namespace) {
        return client.resources(TuningProfile.class).inNamespace(namespace).withName("batch").get();
    }

    private static Optional<Condition> condition(TuningProfile profile, String type) {
        return profile == null || profile.getStatus() == null ? Optional.empty() : profile.getStatus().getConditions().stream().filter(c -> c.getType().equals(type)).findFirst();
    }

    private static void awaitCondition(KubernetesClient client, String namespace, String type, String status) {
        await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(500)).untilAsserted(() ->
                assertThat(condition(profile(client, namespace), type)).as(type).hasValueSatisfying(c -> assertThat(c.getStatus()).isEqualTo(status)));
    }
}
