package dev.jvmtuning.agent;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.prometheus.metrics.config.PrometheusProperties;
import io.prometheus.metrics.exporter.common.PrometheusHttpExchange;
import io.prometheus.metrics.exporter.common.PrometheusHttpRequest;
import io.prometheus.metrics.exporter.common.PrometheusHttpResponse;
import io.prometheus.metrics.exporter.common.PrometheusScrapeHandler;
import io.prometheus.metrics.exporter.httpserver.HttpExchangeAdapter;
import io.prometheus.metrics.expositionformats.ExpositionFormats;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Serves the registry at / and /metrics in the text formats. The protobuf writer is left out of the
 * jar (2 MB), and the client would answer a scraper that prefers protobuf with an error instead of
 * falling back, so protobuf is removed from the Accept header before the client negotiates.
 */
final class TextFormatMetricsHandler implements HttpHandler {

    private static final List<String> METRICS_PATHS = List.of("/", "/metrics");
    private static final String PROTOBUF_MEDIA_TYPE = "application/vnd.google.protobuf";

    private final PrometheusScrapeHandler scrapeHandler;

    TextFormatMetricsHandler(PrometheusRegistry registry) {
        this.scrapeHandler = new PrometheusScrapeHandler(PrometheusProperties.get(), registry);
        warmUp(registry);
    }

    /**
     * Loads every class a scrape needs now, while the application is starting: in a heap-starved
     * application the first scrape could fail to load one with an OutOfMemoryError, and the JVM then
     * refuses that class for the rest of the process.
     */
    private static void warmUp(PrometheusRegistry registry) {
        try {
            ExpositionFormats formats = ExpositionFormats.init();
            var snapshots = registry.scrape();
            formats.getPrometheusTextFormatWriter().write(OutputStream.nullOutputStream(), snapshots);
            formats.getOpenMetricsTextFormatWriter().write(OutputStream.nullOutputStream(), snapshots);
            withoutProtobuf(PROTOBUF_MEDIA_TYPE);
            Class.forName(TextOnlyExchange.class.getName());
            Class.forName(TextOnlyRequest.class.getName());
        } catch (IOException | ClassNotFoundException | RuntimeException e) {
            // A failed warm-up only means the first scrape loads these classes itself.
        }
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        if (!METRICS_PATHS.contains(exchange.getRequestURI().getPath())) {
            exchange.sendResponseHeaders(404, -1);
            exchange.close();
            return;
        }
        scrapeHandler.handleRequest(new TextOnlyExchange(new HttpExchangeAdapter(exchange)));
    }

    /** The Accept header without its protobuf media ranges; an empty result means the default text format. */
    static String withoutProtobuf(String accept) {
        return Arrays.stream(accept.split(","))
                .filter(mediaRange -> !mediaRange.contains(PROTOBUF_MEDIA_TYPE))
                .collect(Collectors.joining(","));
    }

    private record TextOnlyExchange(HttpExchangeAdapter delegate) implements PrometheusHttpExchange {

        @Override
        public PrometheusHttpRequest getRequest() {
            return new TextOnlyRequest(delegate.getRequest());
        }

        @Override
        public PrometheusHttpResponse getResponse() {
            return delegate.getResponse();
        }

        @Override
        public void handleException(IOException e) throws IOException {
            delegate.handleException(e);
        }

        @Override
        public void handleException(RuntimeException e) {
            delegate.handleException(e);
        }

        @Override
        public void close() {
            delegate.close();
        }
    }

    private record TextOnlyRequest(PrometheusHttpRequest delegate) implements PrometheusHttpRequest {

        @Override
        public Enumeration<String> getHeaders(String name) {
            Enumeration<String> values = delegate.getHeaders(name);
            if (!"Accept".equalsIgnoreCase(name) || values == null) {
                return values;
            }
            List<String> textOnly = Collections.list(values).stream()
                    .map(TextFormatMetricsHandler::withoutProtobuf)
                    .filter(value -> !value.isBlank())
                    .toList();
            return Collections.enumeration(textOnly);
        }

        @Override
        public String getQueryString() {
            return delegate.getQueryString();
        }

        @Override
        public String getMethod() {
            return delegate.getMethod();
        }

        @Override
        public String getRequestPath() {
            return delegate.getRequestPath();
        }
    }
}
