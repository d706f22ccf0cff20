package dev.jvmtuning.operator.monitoring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jvmtuning.lab.harness.ClosedLoopLoad;
import dev.jvmtuning.lab.harness.Container;
import dev.jvmtuning.lab.harness.LabApp;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import dev.jvmtuning.operator.testing.FakeKubelet;
import dev.jvmtuning.operator.testing.LocalControlPlane;
import dev.jvmtuning.operator.testing.LocalPrometheus;
import dev.jvmtuning.operator.testing.RunningOperator;
import dev.jvmtuning.operator.testing.StartsProcesses;
import dev.jvmtuning.operator.testing.TestProfiles;
import dev.jvmtuning.operator.testing.WorkloadProcess;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every query of the Grafana dashboard against a real Prometheus that scrapes real JVMs and the
 * running operator: the lab's Spring Boot app under load (Tomcat threads, a Hikari pool) tuned in
 * Apply mode, a JVM churning garbage with the agent in Recommend mode, a profile whose Deployment is
 * missing and one whose pods' metrics cannot be read. A query that errors or returns nothing fails
 * the test; a per-profile query must return data for one of the profiles. One exception, said here
 * and in docs/how-to/metrics-alerts-dashboard.md: these JVMs run in no cgroup with a CPU quota, so the kernel keeps no CFS
 * throttling figures for them and the CPU-throttling panel's query must evaluate but has nothing to
 * show (in a cgroup with a quota, the lab's, the agent scraped too slowly on a loaded 2-core machine).
 */
@StartsProcesses
class DashboardQueriesTest {
    static final Path DASHBOARD = Path.of("charts/jvm-tuning-operator/files/dashboard.json");
    private static final Duration TIMEOUT = Duration.ofSeconds(150);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final List<AutoCloseable> running = new ArrayList<>();
    private static KubernetesClient client;
    private static String namespace;
    private static LocalPrometheus prometheus;

    @BeforeAll
    static void startTheFleet() throws Exception {
        LocalControlPlane controlPlane = LocalControlPlane.shared();
        controlPlane.ensureControllerManager();
        RunningOperator operator = RunningOperator.shared();
        client = controlPlane.client();
        namespace = controlPlane.newNamespace("dashboard");
        FakeKubelet kubelet = new FakeKubelet(client);

        WorkloadProcess churn = WorkloadProcess.start("churn", 600, WorkloadProcess.freePort(), "-Xmx24m", "-XX:+UseSerialGC");
        running.add(churn);
        LabApp app = LabApp.start(Path.of(System.getProperty("lab.app")), Path.of(System.getProperty("agent.jar")), Container.unlimited(),
                Map.of(), 0, Files.createTempFile("lab-app", ".log"));
        running.add(app);
        running.add(new ClosedLoopLoad(app.url("/work?dbMs=100&sleepMinMs=20"), 30));

        Map<String, Map<String, String>> agents = new LinkedHashMap<>();
        Map<String, Map<String, String>> actuators = new LinkedHashMap<>();
        String orders = deploy("orders", kubelet);
        actuators.put("127.0.0.1:" + app.managementPort(), Map.of("namespace", namespace, "pod", orders));
        agents.put("127.0.0.1:" + churn.port(), Map.of("namespace", namespace, "pod", deploy("batch", kubelet)));
        deploy("legacy", kubelet);
        prometheus = LocalPrometheus.start(List.of(
                new LocalPrometheus.Job("pods", "/metrics", agents, false),
                new LocalPrometheus.Job("actuator", "/actuator/prometheus", actuators, false),
                new LocalPrometheus.Job("jvm-tuning-operator", "/q/metrics",
                        Map.of(operator.metricsAddress(), Map.of("namespace", "jvm-tuning-system", "pod", "jvm-tuning-operator-0")), true)));

        profile("orders", "orders", "Apply", app.managementPort(), "/actuator/prometheus",
                "runtime: SpringBootTomcat\nworkload: {requestsPerSecond: 200, meanLatency: 120ms, dbTimePerRequest: 100ms}\nthreads: {}\nconnectionPool: {}\n");
        profile("batch", "batch", "Recommend", churn.port(), "/metrics", "");
        profile("missing", "no-such-deployment", "Recommend", 9404, "/metrics", "");
        profile("unreachable", "legacy", "Recommend", WorkloadProcess.freePort(), "/metrics", "");

        await().atMost(TIMEOUT).pollInterval(Duration.ofSeconds(1)).untilAsserted(() -> {
            kubelet.markPodsReady(namespace); // the Apply-mode rollout's new pods
            assertThat(condition("orders", "Applied")).hasValue("True");
            // Its "pod" is a lab JVM started with its own heap, not the plan's: read from the JVM's own metrics, not in effect.
            assertThat(condition("orders", "SettingsEffective")).as("orders: %s", status("orders")).hasValue("False");
            assertThat(condition("orders", "MetricsAvailable")).hasValue("True");
            assertThat(condition("batch", "GCPressure")).as("batch: %s", status("batch")).hasValue("True");
            assertThat(condition("missing", "Ready")).hasValue("False");
            assertThat(condition("unreachable", "MetricsAvailable")).hasValue("False");
        });
        // enough scrapes after the last change for rates over a minute
        Thread.sleep(LocalPrometheus.SCRAPE_INTERVAL.multipliedBy(8).toMillis());
    }

    @AfterAll
    static void stop() throws Exception {
        for (int i = running.size() - 1; i >= 0; i--) {
            running.get(i).close();
        }
        if (prometheus != null) {
            prometheus.close();
        }
    }

    private static String deploy(String name, FakeKubelet kubelet) throws InterruptedException {
        client.resource(new DeploymentBuilder().withNewMetadata().withName(name).endMetadata()
                .withNewSpec().withReplicas(1).withNewSelector().addToMatchLabels("app", name).endSelector()
                .withNewTemplate().withNewMetadata().addToLabels("app", name).endMetadata()
                .withNewSpec().addNewContainer().withName("app").withImage("example/" + name + ":1").withNewResources()
                .addToLimits(Map.of("cpu", new Quantity("2"), "memory", new Quantity("1Gi"))).endResources().endContainer().endSpec()
                .endTemplate().endSpec().build()).inNamespace(namespace).create();
        kubelet.awaitRollout(namespace, name, TIMEOUT);
        return client.pods().inNamespace(namespace).withLabel("app", name).list().getItems().get(0).getMetadata().getName();
    }

    private static void profile(String name, String target, String mode, int port, String path, String more) {
        client.resource(TestProfiles.yaml(name, target, """
                mode: %s
                metrics: {port: %d, path: %s, interval: 5s}
                """.formatted(mode, port, path) + more)).inNamespace(namespace).create();
    }

    private static Object status(String profile) {
        TuningProfile p = client.resources(TuningProfile.class).inNamespace(namespace).withName(profile).get();
        return p == null ? null : p.getStatus();
    }

    private static Optional<String> condition(String profile, String type) {
        TuningProfile p = client.resources(TuningProfile.class).inNamespace(namespace).withName(profile).get();
        return p == null || p.getStatus() == null ? Optional.empty()
                : p.getStatus().getConditions().stream().filter(c -> c.getType().equals(type)).findFirst().map(Condition::getStatus);
    }

    /** Grafana's variables as this fleet sets them. */
    static String substitute(String expr, String profile) {
        return expr.replace("$__rate_interval", "1m").replace("$namespace", namespace).replace("$profile", profile)
                .replace("$target", profile.equals("orders") ? "orders" : "batch");
    }

    static JsonNode query(String expr) throws IOException, InterruptedException {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(prometheus.url() + "/api/v1/query?query="
                + URLEncoder.encode(expr, StandardCharsets.UTF_8))).build(), HttpResponse.BodyHandlers.ofString());
        JsonNode body = JSON.readTree(response.body());
        assertThat(body.path("status").asText()).as("%s: %s", expr, response.body()).isEqualTo("success");
        return body.path("data").path("result");
    }

    /** Every panel's target expressions, with the panel's title. */
    static List<Map.Entry<String, String>> panelQueries() throws IOException {
        List<Map.Entry<String, String>> queries = new ArrayList<>();
        for (JsonNode panel : JSON.readTree(DASHBOARD.toFile()).path("panels")) {
            panel.path("targets").forEach(t -> queries.add(Map.entry(panel.path("title").asText(), t.path("expr").asText())));
        }
        return queries;
    }

    /** The panel whose figure needs a CFS quota these test JVMs do not run under (see the class comment). */
    private static final String NEEDS_A_CPU_QUOTA = "CPU throttling";

    @Test
    void everyPanelQueryReturnsDataFromTheRealFleet() throws Exception {
        List<Map.Entry<String, String>> queries = panelQueries();
        assertThat(queries).hasSizeGreaterThan(20);
        List<String> empty = new ArrayList<>();
        for (var q : queries) {
            boolean perProfile = q.getValue().contains("$profile") || q.getValue().contains("$target");
            List<String> profiles = perProfile ? List.of("orders", "batch") : List.of("orders");
            Predicate<String> hasData = profile -> {
                try {
                    return !query(substitute(q.getValue(), profile)).isEmpty();
                } catch (IOException | InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            };
            if (profiles.stream().noneMatch(hasData) && !q.getKey().equals(NEEDS_A_CPU_QUOTA)) {
                empty.add(q.getKey() + ": " + q.getValue());
            }
        }
        assertThat(empty).as("panel queries that return nothing").isEmpty();
        keepPanelSeries();
    }

    /**
     * Each panel's series over the run so far, for deploy/render-dashboard.py, which draws them as the
     * the picture of the dashboard in docs/how-to/metrics-alerts-dashboard.md (the same queries, drawn without Grafana).
     */
    private static void keepPanelSeries() throws IOException, InterruptedException {
        long end = System.currentTimeMillis() / 1000;
        var panels = JSON.createArrayNode();
        for (JsonNode panel : JSON.readTree(DASHBOARD.toFile()).path("panels")) {
            if (!panel.has("targets")) {
                continue;
            }
            var kept = panels.addObject().put("title", panel.path("title").asText()).put("type", panel.path("type").asText());
            var series = kept.putArray("series");
            for (JsonNode target : panel.path("targets")) {
                String expr = substitute(target.path("expr").asText(), "orders");
                HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(prometheus.url() + "/api/v1/query_range?query="
                        + URLEncoder.encode(expr, StandardCharsets.UTF_8) + "&start=" + (end - 300) + "&end=" + end + "&step=5")).build(),
                        HttpResponse.BodyHandlers.ofString());
                JSON.readTree(response.body()).path("data").path("result").forEach(r -> {
                    var one = series.addObject().put("legend", target.path("legendFormat").asText());
                    one.set("metric", r.path("metric"));
                    one.set("values", r.path("values"));
                });
            }
        }
        Path out = Files.createDirectories(Path.of("target/dashboard")).resolve("panels.json");
        JSON.writerWithDefaultPrettyPrinter().writeValue(out.toFile(), panels);
    }

    @Test
    void theVariablesListTheFleet() throws Exception {
        JsonNode templating = JSON.readTree(DASHBOARD.toFile()).path("templating").path("list");
        Map<String, String> definitions = new LinkedHashMap<>();
        templating.forEach(v -> {
            if (v.path("type").asText().equals("query")) {
                definitions.put(v.path("name").asText(), v.path("definition").asText());
            }
        });
        assertThat(definitions).containsOnlyKeys("namespace", "profile", "target");
        // label_values(selector, label) is the series' label values, which Prometheus answers as a query
        Map<String, List<String>> values = new LinkedHashMap<>();
        for (var d : definitions.entrySet()) {
            var m = java.util.regex.Pattern.compile("label_values\\((.*), (\\w+)\\)").matcher(substitute(d.getValue(), "orders"));
            assertThat(m.matches()).as(d.getValue()).isTrue();
            List<String> found = new ArrayList<>();
            query("group by (" + m.group(2) + ") (" + m.group(1) + ")").forEach(r -> found.add(r.path("metric").path(m.group(2)).asText()));
            values.put(d.getKey(), found);
        }
        assertThat(values.get("namespace")).contains(namespace);
        assertThat(values.get("profile")).containsExactlyInAnyOrder("orders", "batch", "missing", "unreachable");
        assertThat(values.get("target")).containsExactly("orders");
    }

    @Test
    void thePanelsShowWhatTheFleetDoes() throws Exception {
        assertThat(query("count by (condition) (jvm_tuning_profile_condition{namespace=\"" + namespace + "\", condition=\"GCPressure\"} == 1)"))
                .as("the churning JVM is under GC pressure").isNotEmpty();
        JsonNode pool = query(substitute("sum(hikaricp_connections_max{namespace=\"$namespace\", pod=~\"$target-.*\"})", "orders"));
        assertThat(pool.get(0).path("value").get(1).asDouble()).as("Hikari's pool of the Spring Boot app").isPositive();
        JsonNode applied = query(substitute("jvm_tuning_profile_applied_pool_connections{namespace=\"$namespace\", profile=\"$profile\"}", "orders"));
        assertThat(applied.get(0).path("value").get(1).asDouble()).as("200 req/s x 100 ms at the database, +25%").isEqualTo(25);
    }
}
