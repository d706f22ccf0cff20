package dev.jvmtuning.operator.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.jvmtuning.lab.harness.ClosedLoopLoad;
import dev.jvmtuning.operator.api.v1alpha1.AutoFigures;
import dev.jvmtuning.operator.api.v1alpha1.AutoIteration;
import dev.jvmtuning.operator.api.v1alpha1.AutoState;
import dev.jvmtuning.operator.api.v1alpha1.AutoStatus;
import dev.jvmtuning.operator.api.v1alpha1.AutoVerdict;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import dev.jvmtuning.operator.model.ConditionType;
import dev.jvmtuning.operator.model.LabelsAndAnnotations;
import dev.jvmtuning.operator.model.Reason;
import dev.jvmtuning.operator.testing.LabPods;
import dev.jvmtuning.operator.testing.TestProfiles;
import dev.jvmtuning.operator.testing.LocalControlPlane;
import dev.jvmtuning.operator.testing.StartsProcesses;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Mode Auto on the local control plane, with the lab's real Spring Boot app standing behind the pods
 * and restarted with whatever the operator rolls out. An I/O-bound service (300 closed-loop clients,
 * 1 s per request, Tomcat's default 200 threads) that must carry 300 req/s: the loop raises the
 * threads to the plateau; then a dependency slows down right after a step, and that step is reverted
 * with the reason in status.
 */
@StartsProcesses
class AutoModeTest {
    private static final int CLIENTS = 300;
    /** Seconds the dependency takes per request at first: the plateau is CLIENTS / SECONDS requests per second. */
    private static final double SECONDS = 1.0;
    /** Each step restarts the JVM, and a Spring Boot start takes over a minute on a loaded 2-core machine (docs/development/benchmarks.md). */
    private static final Duration PHASE = Duration.ofMinutes(12);

    @Test
    void theLoopRaisesAnIoBoundPoolToThePlateauAndRevertsAStepThatMadeThingsWorse() throws Exception {
        Path appJar = LabPods.appJar();
        LocalControlPlane controlPlane = LabPods.controlPlaneWithOperator();
        KubernetesClient client = controlPlane.client();
        String namespace = controlPlane.newNamespace("auto");
        client.resource(TestProfiles.labDeployment("orders")).inNamespace(namespace).create();

        try (LabPods pods = new LabPods(client, namespace, "orders", appJar, Path.of(System.getProperty("agent.jar")))) {
            await().atMost(Duration.ofMinutes(2)).until(() -> !pods.starts().isEmpty() && pods.runningHash() != null);
            ClosedLoopLoad load = new ClosedLoopLoad(pods.url("/work?sleepMinMs=1000"), CLIENTS);
            try {
                client.resource("""
                        apiVersion: jvmtuning.dev/v1alpha1
                        kind: TuningProfile
                        metadata: {name: orders}
                        spec:
                          targetRef: {name: orders}
                          runtime: SpringBootTomcat
                          mode: Auto
                          workload: {requestsPerSecond: 300}
                          metrics: {port: %d, path: /actuator/prometheus, interval: 5s}
                          auto: {minInterval: 0s, warmUp: 10s, observationWindows: 2, regressionTolerancePercent: 20, threads: {max: 1000}}
                        """.formatted(pods.managementPort())).inNamespace(namespace).create();

                // From the defaults to the plateau: 300 clients each waiting 1 s can be served 300 req/s, by 300 threads or more.
                await().atMost(PHASE).pollInterval(Duration.ofSeconds(5)).until(() -> progress(client, namespace) == AutoState.Converged);
                AutoStatus converged = auto(client, namespace);
                List<AutoIteration> steps = converged.getHistory().stream().filter(it -> it.getVerdict() == AutoVerdict.Kept).toList();
                assertThat(steps).as("steps to the plateau").hasSizeBetween(1, 2);
                assertThat(steps.get(0).getFrom().getThreads()).as("Tomcat's default, read from its metrics").isEqualTo(200);
                assertThat(steps.get(steps.size() - 1).getTo().getThreads()).isGreaterThanOrEqualTo(CLIENTS);
                AutoIteration rest = converged.getHistory().get(converged.getHistory().size() - 1);
                assertThat(rest.getBefore().getRequestsPerSecond()).as("the period at the plateau, per pod")
                        .isGreaterThan(0.85 * CLIENTS / SECONDS);
                assertThat(steps.get(0).getBefore().getRequestsPerSecond()).as("the defaults' period: 200 threads").isLessThan(0.75 * CLIENTS / SECONDS);
                assertThat(pods.starts().get(pods.starts().size() - 1)).as("what the JVM runs")
                        .containsEntry("SERVER_TOMCAT_THREADS_MAX", steps.get(steps.size() - 1).getTo().getThreads().toString());

                // The dependency slows to 2 s: a workload move, so the loop re-plans and steps.
                load.close();
                load = new ClosedLoopLoad(pods.url("/work?sleepMinMs=2000"), CLIENTS);
                int before = converged.getHistory().size();
                await().atMost(PHASE).pollInterval(Duration.ofSeconds(1)).until(() -> {
                    AutoStatus auto = auto(client, namespace);
                    return auto.getHistory().size() > before && last(auto).getVerdict() == AutoVerdict.Pending;
                });
                AutoIteration step = last(auto(client, namespace));
                await().atMost(PHASE).until(() -> currentHash(client, namespace).equals(pods.runningHash()) && step.getTo().getThreads().toString()
                        .equals(pods.starts().get(pods.starts().size() - 1).get("SERVER_TOMCAT_THREADS_MAX")));

                // ... and right after the step, before its windows, the dependency slows again: the step looks bad and goes back.
                load.close();
                load = new ClosedLoopLoad(pods.url("/work?sleepMinMs=5000"), CLIENTS);
                await().atMost(PHASE).pollInterval(Duration.ofSeconds(2)).until(() -> {
                    AutoStatus auto = auto(client, namespace);
                    return auto.getHistory().stream().anyMatch(it -> it.getIteration().equals(step.getIteration())
                            && it.getVerdict() == AutoVerdict.Reverted);
                });
                AutoStatus reverted = auto(client, namespace);
                AutoIteration judged = reverted.getHistory().stream().filter(it -> it.getIteration().equals(step.getIteration())).findFirst()
                        .orElseThrow();
                assertThat(judged.getReason()).contains("mean latency").contains("tolerance 20%");
                assertThat(judged.getAfter().getMeanLatencyMillis()).isGreaterThan(1.5 * judged.getBefore().getMeanLatencyMillis());
                assertThat(reverted.getState()).isIn(AutoState.Reverted, AutoState.Holding);
                assertThat(reverted.getSettings()).as("the last good settings").isEqualTo(reverted.getLastGood());
                assertThat(reverted.getSettings().getThreads()).isEqualTo(step.getFrom().getThreads());
                reverted.getHistory().forEach(it -> System.err.println("[auto] iteration " + it.getIteration() + " " + it.getVerdict() + ": "
                        + it.getFrom() + " -> " + it.getTo() + "; before " + figures(it.getBefore()) + ", after " + figures(it.getAfter())
                        + "; " + it.getReason()));
                List<Event> events = client.v1().events().inNamespace(namespace).list().getItems();
                assertThat(events).extracting(Event::getReason).contains(Reason.AUTO_STEP.text(), Reason.AUTO_KEPT.text(),
                        Reason.AUTO_CONVERGED.text(), Reason.AUTO_REVERTED.text());
            } finally {
                load.close();
            }
        }
    }

    private static String figures(AutoFigures f) {
        return f == null ? "-" : f.getRequestsPerSecond() + " req/s, " + f.getMeanLatencyMillis() + " ms, " + f.getRequestsPerCpuSecond() + " req/CPU-s";
    }

    private static String currentHash(KubernetesClient client, String namespace) {
        return client.apps().deployments().inNamespace(namespace).withName("orders").get().getSpec().getTemplate().getMetadata()
                .getAnnotations().getOrDefault(LabelsAndAnnotations.SETTINGS_HASH_ANNOTATION, "");
    }

    private static AutoIteration last(AutoStatus auto) {
        return auto.getHistory().get(auto.getHistory().size() - 1);
    }

    private static AutoStatus auto(KubernetesClient client, String namespace) {
        TuningProfile profile = client.resources(TuningProfile.class).inNamespace(namespace).withName("orders").get();
        return profile == null || profile.getStatus() == null || profile.getStatus().getAuto() == null ? new AutoStatus()
                : profile.getStatus().getAuto();
    }

    /** The loop's state, and what it has done so far on stderr: a slow machine's run can be followed, a failed one read. */
    private static AutoState progress(KubernetesClient client, String namespace) {
        AutoStatus auto = auto(client, namespace);
        TuningProfile profile = client.resources(TuningProfile.class).inNamespace(namespace).withName("orders").get();
        var conditions = profile == null || profile.getStatus() == null ? List.<io.fabric8.kubernetes.api.model.Condition>of()
                : profile.getStatus().getConditions();
        System.err.println("[auto] " + auto.getState() + ", settings " + auto.getSettings() + ", " + auto.getWindows().size() + " windows; "
                + auto.getHistory().stream().map(it -> it.getIteration() + " " + it.getVerdict() + " -> " + it.getTo()).toList() + "; "
                + conditions.stream().filter(c -> c.getType().equals(ConditionType.METRICS_AVAILABLE.text()) || c.getType().equals(ConditionType.ROLLOUT_COMPLETE.text()))
                        .map(c -> c.getType() + "=" + c.getStatus() + " since " + c.getLastTransitionTime() + ": " + c.getMessage()).toList()
                + (profile == null || profile.getStatus() == null || profile.getStatus().getObserved() == null ? ""
                        : "; last window ends " + profile.getStatus().getObserved().getEnd()));
        return auto.getState();
    }
}
