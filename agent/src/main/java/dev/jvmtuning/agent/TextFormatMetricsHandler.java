package dev.jvmtuning.agent;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.prometheus.metrics.expositionformats.ExpositionFormatWriter;
import io.prometheus.metrics.expositionformats.OpenMetricsTextFormatWriter;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.snapshots.MetricMetadata;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.Unit;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * Serves the latest background collection at / and /metrics, in OpenMetrics when the scraper accepts it
 * and in the Prometheus text format otherwise (protobuf is never offered: its writer is left out of the
 * jar). A scrape does no collecting: it copies the rendered bytes and adds how old they are.
 */
final class TextFormatMetricsHandler implements HttpHandler {

    /**
     * Older than this, the collector is stuck: counters frozen that long and then jumping would read as a
     * burst, so the scraper is told there are no metrics instead.
     */
    static final Duration STALE_AFTER = Duration.ofSeconds(60);

    private static final List<String> METRICS_PATHS = List.of("/", "/metrics");
    private static final MetricMetadata COLLECT_AGE = new MetricMetadata("jvmtuning_agent_collect_age_seconds",
            "Time since the collection this scrape serves ended; the agent collects in the background", Unit.SECONDS);
    private static final MetricMetadata COLLECT_SECONDS = new MetricMetadata("jvmtuning_agent_collect_seconds",
            "Time the collection this scrape serves took, every collector and both text formats", Unit.SECONDS);

    private final BackgroundCollector collector;
    private final LongSupplier nanoClock;
    private final OpenMetricsTextFormatWriter openMetricsWriter = OpenMetricsTextFormatWriter.create();
    private final PrometheusTextFormatWriter prometheusWriter = PrometheusTextFormatWriter.create();

    TextFormatMetricsHandler(BackgroundCollector collector, LongSupplier nanoClock) {
        this.collector = collector;
        this.nanoClock = nanoClock;
        warmUp();
    }

    /**
     * Loads every class a scrape needs now, while the application is starting: in a heap-starved
     * application the first scrape could fail to load one with an OutOfMemoryError, and the JVM then
     * refuses that class for the rest of the process.
     */
    private void warmUp() {
        BackgroundCollector.Collection collection = collector.latest();
        if (collection == null) {
            return;
        }
        try {
            body(collection, openMetricsWriter);
            body(collection, prometheusWriter);
        } catch (IOException | RuntimeException e) {
            // A failed warm-up only means the first scrape loads these classes itself.
        }
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            if (!METRICS_PATHS.contains(exchange.getRequestURI().getPath())) {
                exchange.sendResponseHeaders(404, -1);
                return;
            }
            BackgroundCollector.Collection collection = collector.latest();
            if (collection == null || ageNanos(collection) > STALE_AFTER.toNanos()) {
                byte[] reason = "metrics not collected recently\n".getBytes(StandardCharsets.US_ASCII);
                exchange.sendResponseHeaders(503, reason.length);
                exchange.getResponseBody().write(reason);
                return;
            }
            ExpositionFormatWriter writer = accepts(exchange, openMetricsWriter) ? openMetricsWriter : prometheusWriter;
            byte[] body = body(collection, writer);
            exchange.getResponseHeaders().set("Content-Type", writer.getContentType());
            boolean head = "HEAD".equals(exchange.getRequestMethod());
            exchange.sendResponseHeaders(200, head ? -1 : body.length);
            if (!head) {
                exchange.getResponseBody().write(body);
            }
        }
    }

    /** The collection in the writer's format, followed by its age and cost (and OpenMetrics' EOF). */
    byte[] body(BackgroundCollector.Collection collection, ExpositionFormatWriter writer) throws IOException {
        byte[] collected = writer == openMetricsWriter ? collection.openMetricsWithoutEof() : collection.prometheusText();
        ByteArrayOutputStream out = new ByteArrayOutputStream(collected.length + 512);
        out.write(collected);
        writer.write(out, new MetricSnapshots(
                ThreadSchedulingMetrics.gauge(COLLECT_AGE, Unit.nanosToSeconds(ageNanos(collection))),
                ThreadSchedulingMetrics.gauge(COLLECT_SECONDS, Unit.nanosToSeconds(collection.collectNanos()))));
        return out.toByteArray();
    }

    private long ageNanos(BackgroundCollector.Collection collection) {
        return nanoClock.getAsLong() - collection.collectedAtNanos();
    }

    private static boolean accepts(HttpExchange exchange, ExpositionFormatWriter writer) {
        List<String> accept = exchange.getRequestHeaders().get("Accept");
        return accept != null && writer.accepts(String.join(",", accept));
    }
}
