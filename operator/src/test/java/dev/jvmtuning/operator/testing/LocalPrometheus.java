package dev.jvmtuning.operator.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A real Prometheus server (Debian's package) on a loopback port, scraping loopback targets every
 * second with the namespace and pod labels a Kubernetes service discovery would attach.
 */
public final class LocalPrometheus implements AutoCloseable {
    private final Process process;
    private final int port;

    private LocalPrometheus(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    public static final Duration SCRAPE_INTERVAL = Duration.ofSeconds(3);

    /**
     * A scrape job: its targets ("127.0.0.1:port" to the labels a service discovery would attach) on
     * one path; with honorLabels the scraped series keep their own namespace label, as a
     * ServiceMonitor with honorLabels does for the operator's per-profile series.
     */
    public record Job(String name, String path, Map<String, Map<String, String>> targets, boolean honorLabels) {
        String config() {
            return """
                    - job_name: %s
                      metrics_path: %s
                      honor_labels: %s
                      static_configs:
                    """.formatted(name, path, honorLabels) + targets.entrySet().stream().map(t -> """
                      - targets: ["%s"]
                        labels: {%s}
                    """.formatted(t.getKey(), t.getValue().entrySet().stream()
                    .map(l -> l.getKey() + ": \"" + l.getValue() + "\"").collect(Collectors.joining(", ")))).collect(Collectors.joining());
        }
    }

    /** @param targets "127.0.0.1:port" to its labels (namespace, pod), scraped at /metrics */
    public static LocalPrometheus start(Map<String, Map<String, String>> targets) {
        return start(List.of(new Job("pods", "/metrics", targets, false)));
    }

    public static LocalPrometheus start(List<Job> jobs) {
        int port = WorkloadProcess.freePort();
        try {
            Path dir = Files.createTempDirectory("prometheus");
            Files.writeString(dir.resolve("prometheus.yml"), """
                    global: {scrape_interval: 3s, scrape_timeout: 3s}
                    scrape_configs:
                    """ + jobs.stream().map(Job::config).collect(Collectors.joining()));
            Process process = new ProcessBuilder("prometheus", "--config.file=" + dir.resolve("prometheus.yml"),
                    "--storage.tsdb.path=" + dir.resolve("data"), "--web.listen-address=127.0.0.1:" + port)
                    .redirectErrorStream(true).redirectOutput(dir.resolve("prometheus.log").toFile()).start();
            LocalPrometheus prometheus = new LocalPrometheus(process, port);
            prometheus.awaitReady(Duration.ofSeconds(30));
            return prometheus;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start prometheus (deploy/local/install-tools.sh installs it)", e);
        }
    }

    public String url() {
        return "http://127.0.0.1:" + port;
    }

    private void awaitReady(Duration timeout) {
        HttpClient http = HttpClient.newHttpClient();
        Instant deadline = Instant.now().plus(timeout);
        while (Instant.now().isBefore(deadline) && process.isAlive()) {
            try {
                if (http.send(HttpRequest.newBuilder(URI.create(url() + "/-/ready")).build(), HttpResponse.BodyHandlers.discarding())
                        .statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // still starting
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        close();
        throw new IllegalStateException("prometheus did not become ready on " + url());
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
