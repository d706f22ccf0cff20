package dev.jvmtuning.operator.drills;

import dev.jvmtuning.operator.metrics.PrometheusTextParser;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmCompilationMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmInfoMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Random;

/**
 * Throughput of {@link PrometheusTextParser} on a Spring Boot actuator-like scrape of about 200 KB made by
 * Micrometer's Prometheus registry (JVM binders, HTTP server timers, HTTP client timers with percentile histograms, a
 * Hikari pool, Tomcat, Logback, an executor). Prints figures only. Run it from the repository root:
 * <pre>
 * ./mvnw -q -B -pl tools -am package -DskipTests
 * java -cp tools/target/classes:$(cat tools/target/classpath.txt) dev.jvmtuning.operator.drills.ParserBenchmark
 * </pre>
 */
public final class ParserBenchmark {
    private static final int TARGET_BYTES = 200 * 1024;
    private static final Duration WARM_UP = Duration.ofSeconds(5);
    private static final Duration MEASURE = Duration.ofSeconds(5);
    private static final String[] URIS = {"/api/v1/orders", "/api/v1/orders/{id}", "/api/v1/orders/{id}/items",
        "/api/v1/customers/{id}", "/api/v1/customers/{id}/addresses", "/api/v1/catalog/products",
        "/api/v1/catalog/products/{sku}", "/api/v1/cart", "/api/v1/cart/checkout", "/api/v1/payments/{id}",
        "/api/v1/search", "/actuator/health", "/actuator/prometheus", "/**", "root"};
    private static final String[] METHODS = {"GET", "POST", "PUT", "DELETE"};
    private static final String[] STATUSES = {"200", "201", "204", "400", "404", "409", "500", "503"};

    public static void main(String[] args) {
        try (JvmGcMetrics gc = new JvmGcMetrics()) {
            PrometheusMeterRegistry registry = actuatorLikeRegistry(gc);
            measure("Prometheus 0.0.4", registry.scrape());
            measure("OpenMetrics 1.0", registry.scrape("application/openmetrics-text; version=1.0.0; charset=utf-8"));
        }
    }

    private static PrometheusMeterRegistry actuatorLikeRegistry(JvmGcMetrics gc) {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        registry.config().commonTags("application", "orders-api", "instance", "orders-api-7d9f8b6c5-x2k4q");
        new JvmMemoryMetrics().bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ClassLoaderMetrics().bindTo(registry);
        new JvmCompilationMetrics().bindTo(registry);
        new JvmInfoMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
        gc.bindTo(registry);
        Gauge.builder("hikaricp.connections.active", () -> 7).tag("pool", "HikariPool-1").register(registry);
        Gauge.builder("hikaricp.connections.idle", () -> 3).tag("pool", "HikariPool-1").register(registry);
        Gauge.builder("tomcat.sessions.active.current", () -> 42).register(registry);
        Gauge.builder("executor.queued", () -> 0).tag("name", "applicationTaskExecutor").register(registry);
        for (String level : new String[] {"trace", "debug", "info", "warn", "error"}) {
            Counter.builder("logback.events").tag("level", level).register(registry).increment(level.length() * 100);
        }
        DistributionSummary.builder("http.server.requests.size").baseUnit("bytes").publishPercentiles(0.5, 0.95, 0.99)
                .register(registry).record(1234);

        Random random = new Random(7);
        for (String client : new String[] {"payments-api", "inventory-api", "pricing-api"}) {
            // Client calls publish a percentile histogram, as teams do for their key dependencies.
            Timer timer = Timer.builder("http.client.requests").tag("client.name", client).tag("method", "GET")
                    .tag("uri", "/v2/" + client + "/{id}").tag("status", "200").tag("outcome", "SUCCESS")
                    .publishPercentileHistogram().register(registry);
            record(timer, random);
        }
        for (int i = 0; registry.scrape().length() < TARGET_BYTES; i++) {
            String uri = URIS[i % URIS.length];
            String method = METHODS[(i / URIS.length) % METHODS.length];
            String status = STATUSES[(i / (URIS.length * METHODS.length)) % STATUSES.length];
            Timer timer = Timer.builder("http.server.requests").tag("uri", uri).tag("method", method)
                    .tag("status", status).tag("outcome", status.startsWith("2") ? "SUCCESS" : "CLIENT_ERROR")
                    .tag("exception", status.equals("500") ? "IllegalStateException" : "None").register(registry);
            record(timer, random);
        }
        return registry;
    }

    private static void record(Timer timer, Random random) {
        for (int i = 0; i < 5; i++) {
            timer.record(Duration.ofMillis(1 + random.nextInt(900)));
        }
    }

    private static void measure(String format, String body) {
        int bytes = body.getBytes(StandardCharsets.UTF_8).length;
        int samples = PrometheusTextParser.parse(body).samples().size();
        run(body, WARM_UP);
        Run run = run(body, MEASURE);
        double seconds = run.nanos() / 1e9;
        System.out.printf("%-17s payload %,d bytes, %,d samples: %,.1f MB/s, %,.0f samples/s, %.3f ms per parse%n",
                format, bytes, samples, run.parses() * bytes / seconds / 1e6, run.samples() / seconds,
                seconds * 1000 / run.parses());
    }

    /** Parses until the duration is over; the samples counted keep the JIT from dropping the work. */
    private static Run run(String body, Duration duration) {
        long parses = 0;
        long samples = 0;
        long start = System.nanoTime();
        long end = start + duration.toNanos();
        long now;
        do {
            samples += PrometheusTextParser.parse(body).samples().size();
            parses++;
            now = System.nanoTime();
        } while (now < end);
        return new Run(parses, samples, now - start);
    }

    private record Run(long parses, long samples, long nanos) {
    }
}
