package dev.jvmtuning.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.prometheus.metrics.expositionformats.ExpositionFormatWriter;
import io.prometheus.metrics.expositionformats.OpenMetricsTextFormatWriter;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.MetricMetadata;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The agent's endpoint over real HTTP, serving a registry whose one collector counts its collections. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TextFormatMetricsHandlerTest {

    private static final String OPEN_METRICS = "application/openmetrics-text;version=1.0.0;q=0.4";
    private static final String PROTOBUF_FIRST =
            "application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited;q=0.5,"
                    + "text/plain;version=0.0.4;q=0.3";

    private final AtomicLong clock = new AtomicLong(1_000_000_000L);
    private final AtomicInteger collections = new AtomicInteger();
    private volatile CountDownLatch holdCollection = new CountDownLatch(0);
    private volatile boolean failCollection;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private BackgroundCollector collector;
    private HttpServer server;

    @BeforeEach
    void serve() throws IOException {
        PrometheusRegistry registry = new PrometheusRegistry();
        registry.register((MultiCollector) () -> {
            await(holdCollection);
            if (failCollection) {
                throw new IllegalStateException("collector broke");
            }
            int collection = collections.incrementAndGet();
            return new MetricSnapshots(ThreadSchedulingMetrics.gauge(new MetricMetadata("collections", "Collections"), collection));
        });
        collector = new BackgroundCollector(registry, clock::get);
        collector.collect();
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 3);
        server.createContext("/", new TextFormatMetricsHandler(collector, clock::get));
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    @Test
    void aScrapeServesTheLatestCollectionWithItsAgeAndCostWithoutCollecting() throws Exception {
        clock.addAndGet(2_500_000_000L);

        String first = scrape("/metrics", "text/plain").body();
        String second = scrape("/", "text/plain").body();

        assertThat(collections.get()).isEqualTo(1);
        assertThat(Exposition.samples(first)).containsEntry("collections", 1.0)
                .containsEntry("jvmtuning_agent_collect_age_seconds", 2.5)
                .containsKey("jvmtuning_agent_collect_seconds");
        assertThat(second).isEqualTo(first);

        collector.collect();
        assertThat(Exposition.samples(scrape("/metrics", "text/plain").body()))
                .containsEntry("collections", 2.0).containsEntry("jvmtuning_agent_collect_age_seconds", 0.0);
    }

    @Test
    void openMetricsWhenAcceptedTextOtherwiseAndNeverProtobuf() throws Exception {
        HttpResponse<String> openMetrics = scrape("/metrics", OPEN_METRICS + ",text/plain;version=0.0.4;q=0.3");
        assertThat(openMetrics.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("application/openmetrics-text"));
        assertThat(openMetrics.body()).contains("collections 1", "# TYPE jvmtuning_agent_collect_age_seconds gauge")
                .endsWith("# EOF\n");
        assertThat(openMetrics.body().indexOf("# EOF")).isEqualTo(openMetrics.body().length() - "# EOF\n".length());

        HttpResponse<String> text = scrape("/metrics", PROTOBUF_FIRST);
        assertThat(text.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("text/plain"));
        assertThat(text.body()).contains("collections 1", "jvmtuning_agent_collect_age_seconds ")
                .doesNotContain("# EOF");
    }

    @Test
    void aScrapeWritesTheCollectionsBytesAndOnlyTheAgeSampleOfItsOwnAsTheLibraryRendersIt() throws Exception {
        for (ExpositionFormatWriter writer : List.of(OpenMetricsTextFormatWriter.create(), PrometheusTextFormatWriter.create())) {
            String accept = writer instanceof OpenMetricsTextFormatWriter ? OPEN_METRICS : "text/plain";
            clock.addAndGet(2_500_000_000L);
            String older = scrape("/metrics", accept).body();
            clock.addAndGet(1_000_000_000L);
            String newer = scrape("/metrics", accept).body();

            String olderAge = render(writer, 2.5);
            assertThat(older).as(accept).endsWith(olderAge);
            assertThat(newer).as(accept).endsWith(render(writer, 3.5))
                    .startsWith(older.substring(0, older.length() - olderAge.length()));
            clock.set(1_000_000_000L);
        }
        assertThat(collections.get()).isEqualTo(1);
    }

    /** The age family alone as the Prometheus library renders it (with OpenMetrics' EOF marker). */
    private static String render(ExpositionFormatWriter writer, double ageSeconds) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        writer.write(out, new MetricSnapshots(ThreadSchedulingMetrics.gauge(BackgroundCollector.COLLECT_AGE, ageSeconds)));
        return out.toString(StandardCharsets.US_ASCII);
    }

    @Test
    void aCollectionUnderWayDoesNotHoldUpAScrape() throws Exception {
        holdCollection = new CountDownLatch(1);
        Thread slowCollection = new Thread(collector::collect);
        slowCollection.start();

        assertThat(Exposition.samples(scrape("/metrics", "text/plain").body())).containsEntry("collections", 1.0);

        holdCollection.countDown();
        slowCollection.join();
        assertThat(Exposition.samples(scrape("/metrics", "text/plain").body())).containsEntry("collections", 2.0);
    }

    @Test
    void aFailedCollectionKeepsThePreviousOneAndAStuckCollectorEndsInUnavailable() throws Exception {
        failCollection = true;
        collector.collect();
        clock.addAndGet(TextFormatMetricsHandler.STALE_AFTER.toNanos());
        assertThat(Exposition.samples(scrape("/metrics", "text/plain").body())).containsEntry("collections", 1.0)
                .containsEntry("jvmtuning_agent_collect_age_seconds", 60.0);

        clock.addAndGet(1);
        HttpResponse<String> stale = http.send(request("/metrics", "text/plain"), HttpResponse.BodyHandlers.ofString());
        assertThat(stale.statusCode()).isEqualTo(503);
    }

    @Test
    void otherPathsAreNotFound() throws Exception {
        assertThat(http.send(request("/other", "text/plain"), HttpResponse.BodyHandlers.ofString()).statusCode())
                .isEqualTo(404);
    }

    private HttpResponse<String> scrape(String path, String accept) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(request(path, accept), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        return response;
    }

    private HttpRequest request(String path, String accept) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.getAddress().getPort() + path))
                .header("Accept", accept).timeout(Duration.ofSeconds(20)).build();
    }

    private static void await(CountDownLatch latch) {
        try {
            assertThat(latch.await(30, TimeUnit.SECONDS)).isTrue();
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }
}
