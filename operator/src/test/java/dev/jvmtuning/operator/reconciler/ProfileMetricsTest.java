package dev.jvmtuning.operator.reconciler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import dev.jvmtuning.operator.metrics.PrometheusTextParser;
import dev.jvmtuning.operator.metrics.Sample;
import dev.jvmtuning.operator.testing.FakeKubelet;
import dev.jvmtuning.operator.testing.LocalControlPlane;
import dev.jvmtuning.operator.testing.RunningOperator;
import dev.jvmtuning.operator.testing.StartsProcesses;
import dev.jvmtuning.operator.testing.TestProfiles;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The per-profile series as the operator serves them in the Prometheus text format, for a profile
 * reconciled on the real control plane: present while it lives, gone once it is deleted.
 */
@StartsProcesses
class ProfileMetricsTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    private static List<Sample> profileSamples(RunningOperator operator, String namespace) {
        return PrometheusTextParser.parse(operator.scrape()).samples().stream()
                .filter(s -> s.name().startsWith("jvm_tuning_profile_") && namespace.equals(s.label("namespace"))).toList();
    }

    private static double value(List<Sample> samples, String name, String label, String labelValue) {
        return samples.stream().filter(s -> s.name().equals(name) && labelValue.equals(s.label(label))).findFirst()
                .orElseThrow(() -> new AssertionError(name + "{" + label + "=" + labelValue + "} in " + samples)).value();
    }

    @Test
    void anAppliedProfileIsSeriesOnSlashQSlashMetricsUntilItIsDeleted() throws InterruptedException {
        LocalControlPlane controlPlane = LocalControlPlane.shared();
        controlPlane.ensureControllerManager();
        RunningOperator operator = RunningOperator.shared();
        KubernetesClient client = controlPlane.client();
        String namespace = controlPlane.newNamespace("series");
        client.resource(TuningProfileReconcilerTest.deployment("orders", "2", "2Gi")).inNamespace(namespace).create();
        new FakeKubelet(client).awaitRollout(namespace, "orders", TIMEOUT);
        client.resource(TestProfiles.yaml("orders-api", "orders", """
                runtime: SpringBootTomcat
                workload: {requestsPerSecond: 400, meanLatency: 300ms, dbTimePerRequest: 50ms}
                threads: {}
                connectionPool: {}
                """)).inNamespace(namespace).create();
        FakeKubelet kubelet = new FakeKubelet(client);
        await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
            kubelet.markPodsReady(namespace);
            assertThat(value(profileSamples(operator, namespace), "jvm_tuning_profile_condition", "condition", "Ready")).isEqualTo(1);
        });

        List<Sample> samples = profileSamples(operator, namespace);
        TuningProfile profile = client.resources(TuningProfile.class).inNamespace(namespace).withName("orders-api").get();
        String threads = profile.getStatus().getSettings().stream().filter(s -> s.getName().equals("threads.max")).findFirst().orElseThrow().getValue();
        assertThat(value(samples, "jvm_tuning_profile_applied_max_threads", "profile", "orders-api")).isEqualTo(Double.parseDouble(threads));
        assertThat(value(samples, "jvm_tuning_profile_recommended_pool_connections", "profile", "orders-api")).isEqualTo(25);
        assertThat(value(samples, "jvm_tuning_profile_applied_heap_bytes", "profile", "orders-api")).isGreaterThan(1e9);
        assertThat(value(samples, "jvm_tuning_profile_rollout", "outcome", "RolloutComplete")).isEqualTo(1);
        assertThat(value(samples, "jvm_tuning_profile_target", "target", "orders")).isEqualTo(1);
        assertThat(samples).as("one series per profile and condition type").filteredOn(s -> s.name().equals("jvm_tuning_profile_condition"))
                .extracting(s -> s.label("condition")).doesNotHaveDuplicates();
        assertThat(samples).allSatisfy(s -> assertThat(s.labels()).doesNotContainKey("pod"));

        client.resources(TuningProfile.class).inNamespace(namespace).withName("orders-api").delete();
        await().atMost(TIMEOUT).untilAsserted(() -> assertThat(profileSamples(operator, namespace)).isEmpty());
    }
}
