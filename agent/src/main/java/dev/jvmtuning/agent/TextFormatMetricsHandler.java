package dev.jvmtuning.agent;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.prometheus.metrics.expositionformats.ExpositionFormatWriter;
import io.prometheus.metrics.expositionformats.OpenMetricsTextFormatWriter;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * Serves the latest background collection at / and /metrics, in OpenMetrics when the scraper accepts it
 * and in the Prometheus text format otherwise (protobuf is never offered: its writer is left out of the
 * jar). A scrape does no collecting and no rendering: it writes the collection's bytes and the one line
 * that says how old they are.
 */
final class TextFormatMetricsHandler implements HttpHandler {

    /**
     * Older than this, the collector is stuck: counters frozen that long and then jumping would read as a
     * burst, so the scraper is told there are no metrics instead.
     */
    static final Duration STALE_AFTER = Duration.ofSeconds(60);

    private static final List<String> METRICS_PATHS = List.of("/", "/metrics");

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
     * Links what a scrape runs now, while the application is starting: in a heap-starved application the
     * first scrape could fail to load a class with an OutOfMemoryError, and the JVM then refuses that
     * class for the rest of the process.
     */
    private void warmUp() {
        BackgroundCollector.Collection collection = collector.latest();
        if (collection != null) {
            collection.tail(nanoClock.getAsLong(), true);
            collection.tail(nanoClock.getAsLong(), false);
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
            long now = nanoClock.getAsLong();
            if (collection == null || now - collection.collectedAtNanos() > STALE_AFTER.toNanos()) {
                byte[] reason = "metrics not collected recently\n".getBytes(StandardCharsets.US_ASCII);
                exchange.sendResponseHeaders(503, reason.length);
                exchange.getResponseBody().write(reason);
                return;
            }
            boolean openMetrics = accepts(exchange, openMetricsWriter);
            byte[] collected = openMetrics ? collection.openMetrics() : collection.prometheusText();
            byte[] tail = collection.tail(now, openMetrics);
            ExpositionFormatWriter writer = openMetrics ? openMetricsWriter : prometheusWriter;
            exchange.getResponseHeaders().set("Content-Type", writer.getContentType());
            boolean head = "HEAD".equals(exchange.getRequestMethod());
            exchange.sendResponseHeaders(200, head ? -1 : collected.length + tail.length);
            if (!head) {
                exchange.getResponseBody().write(collected);
                exchange.getResponseBody().write(tail);
            }
        }
    }

    private static boolean accepts(HttpExchange exchange, ExpositionFormatWriter writer) {
        List<String> accept = exchange.getRequestHeaders().get("Accept");
        return accept != null && writer.accepts(String.join(",", accept));
    }
}
