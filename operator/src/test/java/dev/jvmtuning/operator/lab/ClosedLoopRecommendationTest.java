package dev.jvmtuning.operator.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.jvmtuning.lab.harness.ClosedLoopLoad;
import dev.jvmtuning.lab.harness.Container;
import dev.jvmtuning.lab.harness.LabApp;
import dev.jvmtuning.operator.api.v1alpha1.Observed;
import dev.jvmtuning.operator.api.v1alpha1.Recommendation;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import dev.jvmtuning.operator.model.Units;
import dev.jvmtuning.operator.testing.FakeKubelet;
import dev.jvmtuning.operator.testing.LabPods;
import dev.jvmtuning.operator.testing.TestProfiles;
import dev.jvmtuning.operator.testing.LocalControlPlane;
import dev.jvmtuning.operator.testing.StartsProcesses;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The closed loop in the operator, against the lab's real Spring Boot app behind a loopback pod:
 * the pool-bound shape (a connection held 100 ms by a slow query, Hikari's default pool of 10) under
 * closed-loop load, with a profile that declares 20 ms at the database. The operator must read
 * the real actuator counters and recommend the measured figures, with the congestion taken out, once
 * the profile's warm-up has passed.
 */
@StartsProcesses
class ClosedLoopRecommendationTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(120);

    @Test
    void theOperatorRecommendsTheWorkloadItMeasuresWithoutTheCongestion() throws Exception {
        Path appJar = LabPods.appJar();
        LocalControlPlane controlPlane = LabPods.controlPlaneWithOperator();
        KubernetesClient client = controlPlane.client();
        String namespace = controlPlane.newNamespace("closed-loop");
        Path log = Files.createTempFile("lab-app", ".log");

        try (LabApp app = LabApp.start(appJar, Path.of(System.getProperty("agent.jar")), Container.unlimited(), Map.of(), 0, log);
                ClosedLoopLoad load = new ClosedLoopLoad(app.url("/work?dbMs=100&sleepMinMs=20"), 60)) {
            client.resource(TestProfiles.labDeployment("orders")).inNamespace(namespace).create();
            new FakeKubelet(client).awaitRollout(namespace, "orders", TIMEOUT);
            client.resource("""
                    apiVersion: jvmtuning.dev/v1alpha1
                    kind: TuningProfile
                    metadata: {name: orders}
                    spec:
                      targetRef: {name: orders}
                      runtime: SpringBootTomcat
                      mode: Recommend
                      workload: {requestsPerSecond: 400, meanLatency: 120ms, dbTimePerRequest: 20ms}
                      threads: {}
                      connectionPool: {}
                      metrics: {port: %d, path: /actuator/prometheus, interval: 5s, warmUp: 1h}
                    """.formatted(app.managementPort())).inNamespace(namespace).create();

            // The status write that first shows a window also says what it advises.
            await().atMost(TIMEOUT).pollInterval(Duration.ofSeconds(1)).until(() -> observed(client, namespace) != null);
            assertThat(recommendations(client, namespace)).as("no window of these pods is an hour past their start")
                    .extracting(Recommendation::getField).noneMatch(field -> field.startsWith("workload."));
            client.resources(TuningProfile.class).inNamespace(namespace).withName("orders")
                    .edit(p -> {
                        p.getSpec().getMetrics().setWarmUp("0s");
                        return p;
                    });
            await().atMost(TIMEOUT).pollInterval(Duration.ofSeconds(1)).untilAsserted(() ->
                    assertThat(recommendations(client, namespace)).extracting(Recommendation::getField).contains("workload.dbTimePerRequest"));
        }

        List<Recommendation> recommendations = recommendations(client, namespace);
        Recommendation db = recommendations.stream().filter(r -> r.getField().equals("workload.dbTimePerRequest")).findFirst().orElseThrow();
        assertThat(db.getCurrent()).isEqualTo("20ms");
        // The query holds its connection 100 ms; on a loaded machine waking from that sleep takes longer, never less.
        assertThat(Units.seconds(db.getRecommended())).as("measured hold time").isBetween(0.095, 0.5);
        assertThat(db.getReason()).contains("for a database connection", "connectionPool.maxSize 10 -> ");
        Recommendation latency = recommendations.stream().filter(r -> r.getField().equals("workload.meanLatency")).findFirst().orElseThrow();
        assertThat(Units.seconds(latency.getRecommended()))
                .as("120 ms of work (more when the machine is loaded), though requests spend far longer queueing for one of 10 connections")
                .isBetween(0.11, 0.6);
        TuningProfile profile = client.resources(TuningProfile.class).inNamespace(namespace).withName("orders").get();
        assertThat(profile.getStatus().getObserved().getMeanLatencyMillis()).isGreaterThan(300);
        assertThat(profile.getStatus().getObserved().getConnectionWaitMillisPerRequest()).isGreaterThan(150);
        // R9's input, read from the real JVM: Spring Boot with Tomcat, Hikari and the actuator loads ~10,000+ classes.
        assertThat(profile.getStatus().getObserved().getLoadedClasses()).isBetween(5_000, 40_000);
    }

    private static Observed observed(KubernetesClient client, String namespace) {
        TuningProfile profile = client.resources(TuningProfile.class).inNamespace(namespace).withName("orders").get();
        return profile == null || profile.getStatus() == null ? null : profile.getStatus().getObserved();
    }

    private static List<Recommendation> recommendations(KubernetesClient client, String namespace) {
        TuningProfile profile = client.resources(TuningProfile.class).inNamespace(namespace).withName("orders").get();
        return profile == null || profile.getStatus() == null ? List.of() : profile.getStatus().getRecommendations();
    }
}
