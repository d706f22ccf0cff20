package dev.jvmtuning.lab.harness;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The workload application as a real process in the lab's container, on loopback. It depends on nothing
 * of the operator (the operator's tests compile it too), so its metrics come back as text for the
 * caller to parse.
 */
public final class LabApp implements AutoCloseable {
    private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(120);
    /** Longer than the operator's default 10 s: the lab wants the figures even when a scrape is slow (it logs how slow). */
    private static final Duration SCRAPE_TIMEOUT = Duration.ofSeconds(60);
    private static final long CLOCK_TICKS_PER_SECOND = 100;
    private static final String SPRING_METRICS = "/actuator/prometheus";
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final Process process;
    private final int port;
    private final int managementPort;
    private final int agentPort;
    private final Path log;
    private final String metricsPath;

    private LabApp(Process process, int port, int managementPort, int agentPort, Path log, String metricsPath) {
        this.process = process;
        this.port = port;
        this.managementPort = managementPort;
        this.agentPort = agentPort;
        this.log = log;
        this.metricsPath = metricsPath;
    }

    /**
     * Starts the app with exactly {@code environment} (plus PATH, the port and the live set) and the
     * jvm-tuning agent appended to JAVA_TOOL_OPTIONS, and waits until it answers its health check.
     */
    public static LabApp start(Path appJar, Path agentJar, Container container, Map<String, String> environment, int liveSetMb, Path log)
            throws IOException, InterruptedException {
        return start("java", appJar, agentJar, container, environment, liveSetMb, log, SPRING_METRICS);
    }

    /**
     * As above, started by the launcher {@code java} (a path, or "java" from PATH), for an app that serves its Prometheus
     * metrics on the management port at {@code metricsPath} (Quarkus: /q/metrics).
     */
    public static LabApp start(String java, Path appJar, Path agentJar, Container container, Map<String, String> environment, int liveSetMb,
            Path log, String metricsPath) throws IOException, InterruptedException {
        return start(java, appJar, agentJar, container, environment, liveSetMb, log, freePort(), freePort(), metricsPath);
    }

    /** As above, on the given server and management ports: a restarted app keeps its address, as a pod's container does. */
    public static LabApp start(Path appJar, Path agentJar, Container container, Map<String, String> environment, int liveSetMb, Path log,
            int port, int managementPort) throws IOException, InterruptedException {
        return start("java", appJar, agentJar, container, environment, liveSetMb, log, port, managementPort, SPRING_METRICS);
    }

    private static LabApp start(String java, Path appJar, Path agentJar, Container container, Map<String, String> environment, int liveSetMb,
            Path log, int port, int managementPort, String metricsPath) throws IOException, InterruptedException {
        int agentPort = freePort();
        ProcessBuilder builder = new ProcessBuilder(container.wrap(List.of(java, "-jar", appJar.toString())))
                .redirectErrorStream(true).redirectOutput(log.toFile());
        Map<String, String> env = builder.environment();
        env.clear();
        env.put("PATH", System.getenv("PATH"));
        env.putAll(environment);
        String agent = "-javaagent:" + agentJar + "=port=" + agentPort + ",host=127.0.0.1";
        env.merge("JAVA_TOOL_OPTIONS", agent, (own, added) -> own + " " + added);
        env.put("SERVER_PORT", Integer.toString(port));
        // Actuator on its own connector and threads, as in production: a scrape must not queue behind the load.
        env.put("MANAGEMENT_SERVER_PORT", Integer.toString(managementPort));
        env.put("MANAGEMENT_SERVER_ADDRESS", "127.0.0.1");
        env.put("LAB_LIVE_SET_MB", Integer.toString(liveSetMb));
        LabApp app = new LabApp(builder.start(), port, managementPort, agentPort, log, metricsPath);
        try {
            app.awaitHealthy();
        } catch (IOException | RuntimeException | InterruptedException e) {
            app.close();
            throw e;
        }
        return app;
    }

    public String url(String pathAndQuery) {
        return "http://127.0.0.1:" + port + pathAndQuery;
    }

    public int managementPort() {
        return managementPort;
    }

    private String management(String path) {
        return "http://127.0.0.1:" + managementPort + path;
    }

    /** The app's own connector, as named in its tomcat_* series (the management connector has another). */
    public String connectorSuffix() {
        return "-" + port;
    }

    private void awaitHealthy() throws IOException, InterruptedException {
        long deadline = System.nanoTime() + STARTUP_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IOException("the workload exited with " + process.exitValue() + " at start; its log: " + tail());
            }
            try {
                // Serving metrics means started, on every runtime (a Quarkus app has no health endpoint without smallrye-health).
                get(management(metricsPath));
                return;
            } catch (IOException notYet) {
                // not listening yet
            }
            Thread.sleep(200);
        }
        throw new IOException("the workload did not become healthy in " + STARTUP_TIMEOUT.toSeconds() + " s; its log: " + tail());
    }

    /** The app's own metrics (Prometheus text) from its management endpoint. */
    public String appMetrics() throws IOException, InterruptedException {
        return get(management(metricsPath));
    }

    /** The jvm-tuning agent's metrics (Prometheus text), served by the agent's own thread. */
    public String agentMetrics() throws IOException, InterruptedException {
        return get("http://127.0.0.1:" + agentPort + "/metrics");
    }

    /** CPU seconds the process has used (all threads, user and system). */
    public double cpuSeconds() throws IOException {
        String stat = Files.readString(Path.of("/proc/" + process.pid() + "/stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) / (double) CLOCK_TICKS_PER_SECOND;
    }

    /** Peak resident memory so far (VmHWM). */
    public long peakRssBytes() throws IOException {
        Map<String, String> status = new HashMap<>();
        for (String line : Files.readAllLines(Path.of("/proc/" + process.pid() + "/status"))) {
            String[] kv = line.split(":\\s+", 2);
            if (kv.length == 2) {
                status.put(kv[0], kv[1]);
            }
        }
        return Long.parseLong(status.get("VmHWM").replace(" kB", "").trim()) * 1024;
    }

    public boolean alive() {
        return process.isAlive();
    }

    public String tail() throws IOException {
        List<String> lines = Files.readAllLines(log);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
    }

    public static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private static String get(String url) throws IOException, InterruptedException {
        HttpResponse<String> response;
        try {
            response = HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(SCRAPE_TIMEOUT).build(), HttpResponse.BodyHandlers.ofString());
        } catch (HttpTimeoutException e) {
            throw new IOException(url + " did not answer within " + SCRAPE_TIMEOUT.toSeconds() + " s", e);
        }
        if (response.statusCode() != 200) {
            throw new IOException(url + " answered " + response.statusCode());
        }
        return response.body();
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(20, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
        }
    }
}
