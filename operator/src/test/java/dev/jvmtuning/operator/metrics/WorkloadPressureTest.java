package dev.jvmtuning.operator.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jvmtuning.operator.api.v1alpha1.Metrics;
import dev.jvmtuning.operator.api.v1alpha1.MetricsSource;
import dev.jvmtuning.operator.api.v1alpha1.TargetRef;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfileSpec;
import dev.jvmtuning.operator.config.Leadership;
import dev.jvmtuning.operator.model.CurrentSettings;
import dev.jvmtuning.operator.model.MetricsReport;
import dev.jvmtuning.operator.pressure.PressureDetector;
import dev.jvmtuning.operator.testing.FakeKubelet;
import dev.jvmtuning.operator.testing.LocalControlPlane;
import dev.jvmtuning.operator.testing.LocalPrometheus;
import dev.jvmtuning.operator.testing.StartsProcesses;
import dev.jvmtuning.operator.testing.TestSettings;
import dev.jvmtuning.operator.testing.WorkloadProcess;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Real JVMs under real pressure, with the project's agent: a tiny heap churning garbage, hundreds of
 * threads fighting for two cores, and a calm one. Their metrics are read the two ways the operator
 * reads them, scraping the pods directly and querying a real Prometheus that scrapes them, and the
 * detector must tell them apart the same way.
 */
@StartsProcesses
class WorkloadPressureTest {
    private static final Map<String, String[]> MODES = Map.of(
            "churn", new String[] {"-Xmx24m", "-XX:+UseSerialGC"},
            "switch", new String[] {},
            "calm", new String[] {});
    private static final Map<String, WorkloadProcess> workloads = new LinkedHashMap<>();
    private static KubernetesClient client;
    private static String namespace;
    private static LocalPrometheus prometheus;

    @BeforeAll
    static void startWorkloads() throws InterruptedException {
        LocalControlPlane controlPlane = LocalControlPlane.shared();
        controlPlane.ensureControllerManager();
        client = controlPlane.client();
        namespace = controlPlane.newNamespace("pressure");
        Map<String, Map<String, String>> targets = new LinkedHashMap<>();
        for (var mode : MODES.entrySet()) {
            workloads.put(mode.getKey(), WorkloadProcess.start(mode.getKey(), 600, WorkloadProcess.freePort(), mode.getValue()));
            client.resource(new DeploymentBuilder().withNewMetadata().withName(mode.getKey()).endMetadata()
                    .withNewSpec().withReplicas(1).withNewSelector().addToMatchLabels("app", mode.getKey()).endSelector()
                    .withNewTemplate().withNewMetadata().addToLabels("app", mode.getKey()).endMetadata()
                    .withNewSpec().addNewContainer().withName("app").withImage("example/" + mode.getKey()).endContainer().endSpec()
                    .endTemplate().endSpec().build()).inNamespace(namespace).create();
            new FakeKubelet(client).awaitRollout(namespace, mode.getKey(), Duration.ofSeconds(60));
            String pod = client.pods().inNamespace(namespace).withLabel("app", mode.getKey()).list().getItems().get(0).getMetadata().getName();
            targets.put("127.0.0.1:" + workloads.get(mode.getKey()).port(), Map.of("namespace", namespace, "pod", pod));
        }
        prometheus = LocalPrometheus.start(targets);
    }

    @AfterAll
    static void stopWorkloads() {
        workloads.values().forEach(WorkloadProcess::close);
        if (prometheus != null) {
            prometheus.close();
        }
    }

    private static TuningProfile profile(String mode, MetricsSource source) {
        TuningProfile profile = new TuningProfile();
        profile.setMetadata(new ObjectMetaBuilder().withName(mode).withNamespace(namespace).build());
        profile.setSpec(new TuningProfileSpec().setTargetRef(new TargetRef().setName(mode))
                .setMetrics(new Metrics().setSource(source).setPort(workloads.get(mode).port()).setPath("/metrics")));
        return profile;
    }

    /** Polls each workload at Prometheus's pace until each has a verdict, that is two good samples. */
    private static Map<String, MetricsReport> judgeAll(MetricsSource source) throws InterruptedException {
        MetricsFetcher fetcher = new MetricsFetcher(
                p -> Optional.ofNullable(client.apps().deployments().inNamespace(namespace).withName(p.getSpec().getTargetRef().getName()).get()),
                new FakeKubelet(client)::podsOf,
                p -> null,
                TestSettings.of(Duration.ofMinutes(5), Optional.of(prometheus.url())).metrics(), Leadership.alone("test"), Clock.systemUTC());
        Map<String, MetricsReport> reports = new LinkedHashMap<>();
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (reports.size() < MODES.size() || reports.values().stream().anyMatch(r -> r.observed() == null)) {
            assertThat(System.nanoTime()).as("verdicts within 90 s: %s", reports).isLessThan(deadline);
            Thread.sleep(LocalPrometheus.SCRAPE_INTERVAL.multipliedBy(2).toMillis());
            MODES.keySet().forEach(mode -> reports.put(mode, fetcher.fetchResources(profile(mode, source)).iterator().next()));
        }
        return reports;
    }

    private static String status(MetricsReport report, String type) {
        assertThat(report.observed()).as("a window in %s", report).isNotNull();
        return PressureDetector.judge(report.observed(), report.previous(), null, CurrentSettings.UNKNOWN).findings().stream()
                .filter(f -> f.type().text().equals(type)).findFirst().map(f -> f.status().text()).orElseThrow();
    }

    @ParameterizedTest
    @EnumSource(MetricsSource.class)
    void theDetectorTellsTheWorkloadsApart(MetricsSource source) throws InterruptedException {
        Map<String, MetricsReport> reports = judgeAll(source);

        MetricsReport churn = reports.get("churn");
        MetricsReport switching = reports.get("switch");
        MetricsReport calm = reports.get("calm");
        assertThat(status(churn, "GCPressure")).as("churn: %s", churn.observed()).isEqualTo("True");
        assertThat(churn.observed().getGcTimePercent()).isGreaterThan(10);
        assertThat(status(switching, "ContextSwitchPressure")).as("switch: %s", switching.observed()).isEqualTo("True");
        assertThat(switching.observed().getInvoluntarySwitchesPerCorePerSecond()).isGreaterThan(2000);
        assertThat(status(calm, "GCPressure")).as("calm: %s", calm.observed()).isEqualTo("False");
        assertThat(status(calm, "ContextSwitchPressure")).as("calm: %s", calm.observed()).isEqualTo("False");
    }
}
