package dev.jvmtuning.operator.reconciler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import dev.jvmtuning.operator.api.v1alpha1.AutoIteration;
import dev.jvmtuning.operator.api.v1alpha1.AutoStatus;
import dev.jvmtuning.operator.api.v1alpha1.AutoVerdict;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import dev.jvmtuning.operator.model.LabelsAndAnnotations;
import dev.jvmtuning.operator.testing.FakeKubelet;
import dev.jvmtuning.operator.testing.LabPods;
import dev.jvmtuning.operator.testing.LocalControlPlane;
import dev.jvmtuning.operator.testing.StartsProcesses;
import dev.jvmtuning.operator.testing.TestProfiles;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
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
    private static final double REQUESTS_PER_SECOND = 100;

    @Test
    void aRevertToSettingsTheLoopDoesNotSetIsWrittenAndSaidOnce() throws Exception {
        LocalControlPlane controlPlane = LabPods.controlPlaneWithOperator();
        KubernetesClient client = controlPlane.client();
        String namespace = controlPlane.newNamespace("revert");
        Deployment deployment = TestProfiles.labDeployment("orders");
        client.resource(deployment).inNamespace(namespace).create();
        new FakeKubelet(client).awaitRollout(namespace, "orders", TIMEOUT);

        try (Pods pods = new Pods(client, namespace)) {
            client.resource(TestProfiles.yaml("orders", "orders", """
                    runtime: SpringBootTomcat
                    mode: Auto
                    workload: {requestsPerSecond: 100}
                    metrics: {port: %d, path: /metrics, interval: 5s}
                    auto: {minInterval: 0s, warmUp: 0s, observationWindows: 1}
                    """.formatted(pods.port()))).inNamespace(namespace).create();
            await().atMost(TIMEOUT).until(() -> auto(client, namespace) != null && auto(client, namespace).getState() != null
                    && settingsHash(client, namespace) != null);
            String before = settingsHash(client, namespace);
            pods.slowWhenNot(before);

            await().atMost(TIMEOUT).until(() -> !auto(client, namespace).getHistory().isEmpty());
            AutoIteration step = auto(client, namespace).getHistory().get(0);
            assertThat(step.getFrom().getThreads()).as("the server's 200 threads in force").isEqualTo(200);
            assertThat(step.getTo().getThreads()).as(step.getReason()).isEqualTo(100);
            await().atMost(TIMEOUT).until(() -> !before.equals(settingsHash(client, namespace)));

            await().atMost(TIMEOUT).until(() -> !events(client, namespace, "AutoReverted").isEmpty());
            // Several resyncs (3 s) and retries of a refused status write later.
            Thread.sleep(15_000);

            AutoStatus auto = auto(client, namespace);
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

    private static AutoStatus auto(KubernetesClient client, String namespace) {
        TuningProfile profile = client.resources(TuningProfile.class).inNamespace(namespace).withName("orders").get();
        return profile.getStatus() == null ? null : profile.getStatus().getAuto();
    }

    private static String settingsHash(KubernetesClient client, String namespace) {
        Map<String, String> annotations = client.apps().deployments().inNamespace(namespace).withName("orders").get()
                .getSpec().getTemplate().getMetadata().getAnnotations();
        return annotations == null ? null : annotations.get(LabelsAndAnnotations.SETTINGS_HASH_ANNOTATION);
    }

    private static List<Event> events(KubernetesClient client, String namespace, String reason) {
        return client.v1().events().inNamespace(namespace).list().getItems().stream().filter(e -> reason.equals(e.getReason())).toList();
    }

    /**
     * The kubelet's part and the pods' metrics endpoint: pods are marked Ready as they come, and the
     * endpoint serves Tomcat's counters at 100 req/s, 100 ms each, or 300 ms while the Deployment's
     * template is not the one given.
     */
    private static final class Pods implements AutoCloseable {
        private final KubernetesClient client;
        private final String namespace;
        private final HttpServer server;
        private final ScheduledExecutorService kubelet = Executors.newSingleThreadScheduledExecutor();
        private volatile String fastTemplate;
        private volatile boolean slow;
        private long lastNanos = System.nanoTime();
        private double requests;
        private double requestSeconds;
        private double cpuSeconds;

        Pods(KubernetesClient client, String namespace) throws IOException {
            this.client = client;
            this.namespace = namespace;
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            server.createContext("/metrics", exchange -> {
                byte[] body = scrape().getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().add("Content-Type", "text/plain; version=0.0.4");
                exchange.sendResponseHeaders(200, body.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            });
            server.start();
            kubelet.scheduleWithFixedDelay(this::tick, 0, 300, TimeUnit.MILLISECONDS);
        }

        int port() {
            return server.getAddress().getPort();
        }

        void slowWhenNot(String template) {
            fastTemplate = template;
        }

        private void tick() {
            try {
                new FakeKubelet(client).markPodsReady(namespace);
                Deployment d = client.apps().deployments().inNamespace(namespace).withName("orders").get();
                Map<String, String> annotations = d.getSpec().getTemplate().getMetadata().getAnnotations();
                String hash = annotations == null ? null : annotations.get(LabelsAndAnnotations.SETTINGS_HASH_ANNOTATION);
                slow = fastTemplate != null && !Objects.equals(fastTemplate, hash);
            } catch (RuntimeException e) {
                // The next tick tries again.
            }
        }

        private synchronized String scrape() {
            long now = System.nanoTime();
            double served = REQUESTS_PER_SECOND * (now - lastNanos) / 1e9;
            lastNanos = now;
            requests += served;
            requestSeconds += served * (slow ? 0.3 : 0.1);
            cpuSeconds += served * 0.002;
            return String.format(Locale.ROOT, """
                    # TYPE http_server_requests_seconds summary
                    http_server_requests_seconds_count{method="GET",status="200",uri="/orders"} %f
                    http_server_requests_seconds_sum{method="GET",status="200",uri="/orders"} %f
                    # TYPE process_cpu_seconds_total counter
                    process_cpu_seconds_total %f
                    # TYPE tomcat_threads_config_max_threads gauge
                    tomcat_threads_config_max_threads{name="http-nio-8080"} 200
                    # TYPE tomcat_threads_busy_threads gauge
                    tomcat_threads_busy_threads{name="http-nio-8080"} 10
                    """, requests, requestSeconds, cpuSeconds);
        }

        @Override
        public void close() {
            kubelet.shutdownNow();
            server.stop(0);
        }
    }
}
