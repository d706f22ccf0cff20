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

    /** @param targets "127.0.0.1:port" to its labels (namespace, pod) */
    public static LocalPrometheus start(Map<String, Map<String, String>> targets) {
        int port = WorkloadProcess.freePort();
        try {
            Path dir = Files.createTempDirectory("prometheus");
            String scrapeConfigs = targets.entrySet().stream().map(t -> """
                      - targets: ["%s"]
                        labels: {%s}
                    """.formatted(t.getKey(), t.getValue().entrySet().stream()
                    .map(l -> l.getKey() + ": \"" + l.getValue() + "\"").collect(Collectors.joining(", ")))).collect(Collectors.joining());
            Files.writeString(dir.resolve("prometheus.yml"), """
                    global: {scrape_interval: 3s, scrape_timeout: 3s}
                    scrape_configs:
                    - job_name: pods
                      metrics_path: /metrics
                      static_configs:
                    """ + scrapeConfigs);
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
