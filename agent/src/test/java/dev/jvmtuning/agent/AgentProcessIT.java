package dev.jvmtuning.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Attaches the shaded agent jar to a real JVM and scrapes it over loopback. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class AgentProcessIT {

    private static final Pattern LISTENING = Pattern.compile("jvm-tuning-agent listening on 127\\.0\\.0\\.1:(\\d+)");
    private static final String VOLUNTARY = "jvmtuning_context_switches_total{kind=\"voluntary\"}";
    private static final String INVOLUNTARY = "jvmtuning_context_switches_total{kind=\"involuntary\"}";
    private static final String RUN_QUEUE_DELAY = "jvmtuning_run_queue_delay_seconds_total";
    private static final String PROCESS_CPU = "process_cpu_seconds_total";
    /**
     * Generous bounds: on a 2-core machine at load 11, with BusyMain's threads competing, the agent took
     * 5 s to start (3 s of it setting up the platform MBeans), its first scrape 4 s, and a connect
     * from this JVM over 2 s.
     */
    private static final int AGENT_START_SECONDS = 20;

    /** Meant for the application's own Prometheus client; the agent's embedded one must ignore it. */
    private static final Map<String, String> APPLICATION_PROMETHEUS_CONFIG = Map.of(
            "IO_PROMETHEUS_METRICS_EXEMPLARS_ENABLED", "false",
            "PROMETHEUS_CONFIG", "/nonexistent/prometheus.properties");

    private final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .build();
    private final List<String> stderr = new CopyOnWriteArrayList<>();
    private Process process;

    @AfterEach
    void destroyProcess() {
        if (process != null) {
            process.destroyForcibly();
        }
    }

    @Test
    void servesJvmAndSchedulerMetricsOfARunningApplication(@TempDir Path logs) throws Exception {
        Path safepoints = logs.resolve("safepoints.log");
        Map<String, String> environment = new HashMap<>(APPLICATION_PROMETHEUS_CONFIG);
        environment.put("JAVA_TOOL_OPTIONS", "-Xlog:safepoint:file=" + safepoints);
        int agentPort = start("port=0,host=127.0.0.1", List.of("30"), environment)
                .get(AGENT_START_SECONDS, TimeUnit.SECONDS);

        Map<String, Double> first = Exposition.samples(scrape(agentPort, "/metrics", "text/plain").body());
        // Past the agent's collection interval, so that the second scrape serves a later collection.
        Thread.sleep(2500);
        Map<String, Double> second = Exposition.samples(scrape(agentPort, "/metrics", "text/plain").body());

        for (String counter : List.of(VOLUNTARY, INVOLUNTARY, RUN_QUEUE_DELAY)) {
            assertThat(first).containsKey(counter);
            assertThat(second.get(counter)).as(counter).isGreaterThanOrEqualTo(first.get(counter));
        }
        assertThat(second.keySet()).anyMatch(series -> series.startsWith("jvm_gc_collection_seconds_count{"));
        // Thread counts yes; deadlock detection stops every thread at a safepoint, which the agent avoids,
        // and thread states are left out too (see BackgroundCollector).
        assertThat(second).containsKey("jvm_threads_current");
        assertThat(second.keySet()).noneMatch(series -> series.startsWith("jvm_threads_state")
                || series.startsWith("jvm_threads_deadlocked"));
        // Three or more collections so far: none stopped the application for thread dumps or deadlock checks.
        assertThat(Files.readString(safepoints)).contains("Safepoint \"")
                .doesNotContain("\"ThreadDump\"", "\"FindDeadlocks\"");
        assertThat(second.get(PROCESS_CPU)).isGreaterThan(first.get(PROCESS_CPU));
        assertThat(second.get("jvmtuning_tasks")).isGreaterThan(3);
        // Every JVM compiles as it starts; its compiler threads' time on a CPU is bounded by the process's.
        assertThat(second.get("jvmtuning_jit_compiler_cpu_seconds_total")).isGreaterThan(0).isLessThan(second.get(PROCESS_CPU));
        // Every JVM reaches safepoints, which its VM thread runs; with the collector's threads, bounded by the process's CPU too.
        assertThat(second.get("jvmtuning_gc_cpu_seconds_total")).isGreaterThan(0).isLessThan(second.get(PROCESS_CPU));
        assertThat(second.keySet()).anyMatch(series -> series.startsWith("jvmtuning_vm_option{option=\"MaxHeapSize\""));
    }

    @Test
    void countersMoveAndNeverGoBackWhileThreadsComeAndGo() throws Exception {
        int agentPort = start("port=0,host=127.0.0.1", List.of("90", "churn"), Map.of())
                .get(AGENT_START_SECONDS, TimeUnit.SECONDS);

        List<Map<String, Double>> scrapes = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            scrapes.add(Exposition.samples(scrape(agentPort, "/metrics", "text/plain").body()));
            Thread.sleep(1500);
        }

        for (String counter : List.of(VOLUNTARY, INVOLUNTARY, RUN_QUEUE_DELAY)) {
            List<Double> values = scrapes.stream().map(samples -> samples.get(counter)).toList();
            assertThat(values).as(counter).doesNotContainNull().isSorted();
            assertThat(values.get(values.size() - 1)).as(counter).isGreaterThan(values.get(0));
        }
        // Short-lived threads started and exited between scrapes: the task count moved.
        assertThat(scrapes.stream().map(samples -> samples.get("jvmtuning_tasks")).distinct()).hasSizeGreaterThan(1);
        assertThat(scrapes).allSatisfy(samples -> assertThat(samples)
                .containsKeys("jvmtuning_agent_collect_age_seconds", "jvmtuning_agent_collect_seconds"));
    }

    @Test
    void answersScrapersThatPreferProtobufWithTextAtTheRootAndLetsTheApplicationExit() throws Exception {
        int agentPort = start("port=0,host=127.0.0.1", "15").get(AGENT_START_SECONDS, TimeUnit.SECONDS);

        HttpResponse<String> response = scrape(agentPort, "/",
                "application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited;q=0.5,"
                        + "text/plain;version=0.0.4;q=0.3");

        assertThat(response.headers().firstValue("Content-Type"))
                .hasValueSatisfying(type -> assertThat(type).startsWith("text/plain"));
        assertThat(response.body()).contains("jvmtuning_tasks ");
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).as("exits despite the agent's server threads").isTrue();
        assertThat(process.exitValue()).isZero();
    }

    @Test
    void aPortInUseLeavesTheApplicationRunning() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            CompletableFuture<Integer> port = start("port=" + taken.getLocalPort() + ",host=127.0.0.1", "8");
            assertExitsNormallyAfterOneLine(port, "jvm-tuning-agent: not started on 127.0.0.1:" + taken.getLocalPort());
        }
    }

    @Test
    void badArgumentsLeaveTheApplicationRunning() throws Exception {
        CompletableFuture<Integer> port = start("port=http", "1");
        assertExitsNormallyAfterOneLine(port, "jvm-tuning-agent: not started, bad arguments 'port=http'");
    }

    /** The port future fails once stderr ends, so by then every line the agent wrote is in. */
    private void assertExitsNormallyAfterOneLine(CompletableFuture<Integer> port, String prefix) throws Exception {
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).isZero();
        assertThat(port).failsWithin(5, TimeUnit.SECONDS);
        assertThat(stderr).singleElement().satisfies(line -> assertThat(line).startsWith(prefix));
    }

    private CompletableFuture<Integer> start(String agentArguments, String seconds) throws IOException {
        return start(agentArguments, List.of(seconds), Map.of());
    }

    /** Starts BusyMain with the agent; the future completes with the port the agent reports. */
    private CompletableFuture<Integer> start(String agentArguments, List<String> workloadArguments,
            Map<String, String> environment) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(java,
                "-javaagent:" + System.getProperty("agent.jar") + "=" + agentArguments,
                "-cp", System.getProperty("workload.classpath"),
                BusyMain.class.getName()));
        command.addAll(workloadArguments);
        ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD);
        builder.environment().putAll(environment);
        Process started = builder.start();
        process = started;
        CompletableFuture<Integer> port = new CompletableFuture<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader lines = new BufferedReader(
                    new InputStreamReader(started.getErrorStream(), StandardCharsets.UTF_8))) {
                for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                    stderr.add(line);
                    Matcher listening = LISTENING.matcher(line);
                    if (listening.find()) {
                        port.complete(Integer.parseInt(listening.group(1)));
                    }
                }
            } catch (IOException e) {
                port.completeExceptionally(e);
            }
            port.completeExceptionally(new IllegalStateException("agent reported no port; stderr: " + stderr));
        }, "agent-stderr");
        reader.setDaemon(true);
        reader.start();
        return port;
    }

    private HttpResponse<String> scrape(int port, String path, String accept) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .header("Accept", accept)
                .timeout(Duration.ofSeconds(30))
                .build();
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        return response;
    }
}
