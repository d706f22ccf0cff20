package dev.jvmtuning.operator.testing;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A pod's metrics endpoint on a loopback address (any of 127.0.0.0/8), healthy or hostile, that counts
 * the scrapes it serves per caller (the scraper's User-Agent) and how long a healthy one went unscraped.
 */
public final class LoopbackMetrics implements AutoCloseable {
    public static final String PATH = "/metrics";
    /** Long enough to outlast any scrape deadline; a hung exchange ends by itself afterwards. */
    private static final long HANG_MILLIS = 60_000;
    private static final int TINY_LINES_BYTES = 16 * 1024 * 1024 - 4096;
    /** Endpoints share one pool: a hostile exchange holds a thread for as long as it drags on. */
    private static final ExecutorService EXCHANGES = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "loopback-metrics");
        t.setDaemon(true);
        return t;
    });

    /** What the endpoint does with a scrape. */
    public enum Behaviour {
        /** Counters a JVM exports, growing with every scrape. */
        HEALTHY,
        /** Headers and one line at once, then a byte a second. */
        DRIP,
        /** Just under 16 MiB of short lines of a series the operator reads, each with its own labels. */
        TINY_LINES,
        /** Headers, then nothing. */
        HANG_AFTER_HEADERS,
        /** A megabyte of random bytes. */
        GARBAGE,
        /** A redirect to somewhere else. */
        REDIRECT
    }

    private final HttpServer server;
    private final Behaviour behaviour;
    private final Map<String, AtomicInteger> scrapesByCaller = new ConcurrentHashMap<>();
    private final AtomicInteger served = new AtomicInteger();
    private final AtomicLong lastScrapeNanos = new AtomicLong();
    private final AtomicLong longestGapNanos = new AtomicLong();
    private final long startNanos = System.nanoTime();

    private LoopbackMetrics(HttpServer server, Behaviour behaviour) {
        this.server = server;
        this.behaviour = behaviour;
    }

    public static LoopbackMetrics start(String ip, int port, Behaviour behaviour) {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress(ip, port), 50);
            LoopbackMetrics endpoint = new LoopbackMetrics(server, behaviour);
            server.setExecutor(EXCHANGES);
            server.createContext(PATH, endpoint::serve);
            server.start();
            return endpoint;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot listen on " + ip + ":" + port, e);
        }
    }

    private void serve(HttpExchange exchange) throws IOException {
        long now = System.nanoTime();
        long last = lastScrapeNanos.getAndSet(now);
        if (last != 0) {
            longestGapNanos.accumulateAndGet(now - last, Math::max);
        }
        String caller = String.valueOf(exchange.getRequestHeaders().getFirst("User-Agent"));
        scrapesByCaller.computeIfAbsent(caller, c -> new AtomicInteger()).incrementAndGet();
        int n = served.incrementAndGet();
        try (exchange; OutputStream out = exchange.getResponseBody()) {
            switch (behaviour) {
                case HEALTHY -> {
                    // Counters grow with time at fixed rates, so every window reads the same figures: a calm service.
                    double t = (now - startNanos) / 1e9;
                    send(exchange, out, String.format(Locale.ROOT, """
                            # TYPE jvm_gc_collection_seconds summary
                            jvm_gc_collection_seconds_count{gc="G1 Young Generation"} %.3f
                            jvm_gc_collection_seconds_sum{gc="G1 Young Generation"} %.5f
                            jvmtuning_context_switches_total{kind="involuntary"} %.3f
                            jvmtuning_available_processors 2
                            process_cpu_seconds_total %.5f
                            """, t * 2, t * 0.01, t * 20, t * 0.5).getBytes(StandardCharsets.UTF_8));
                }
                case DRIP -> {
                    exchange.sendResponseHeaders(200, 0);
                    out.write("jvm_gc_pause_seconds_sum 1\n".getBytes(StandardCharsets.UTF_8));
                    for (long i = 0; i < HANG_MILLIS / 1000; i++) {
                        out.flush();
                        pause(1000);
                        out.write('#');
                    }
                }
                case TINY_LINES -> {
                    exchange.sendResponseHeaders(200, 0);
                    byte[] chunk = new byte[64 * 1024];
                    int filled = 0;
                    for (int written = 0, i = 0; written < TINY_LINES_BYTES; i++) {
                        byte[] line = ("jvm_gc_pause_seconds_sum{i=\"" + i + "\"} 1\n").getBytes(StandardCharsets.UTF_8);
                        if (filled + line.length > chunk.length) {
                            out.write(chunk, 0, filled);
                            filled = 0;
                        }
                        System.arraycopy(line, 0, chunk, filled, line.length);
                        filled += line.length;
                        written += line.length;
                    }
                    out.write(chunk, 0, filled);
                }
                case HANG_AFTER_HEADERS -> {
                    exchange.sendResponseHeaders(200, 0);
                    out.flush();
                    pause(HANG_MILLIS);
                }
                case GARBAGE -> {
                    byte[] junk = new byte[1024 * 1024];
                    new Random(n).nextBytes(junk);
                    send(exchange, out, junk);
                }
                case REDIRECT -> {
                    exchange.getResponseHeaders().add("Location", "http://127.0.0.1:1" + PATH);
                    exchange.sendResponseHeaders(302, -1);
                }
            }
        } catch (IOException expected) {
            // the scraper hung up (its deadline or byte cap): what a hostile endpoint is there to provoke
        }
    }

    private static void send(HttpExchange exchange, OutputStream out, byte[] body) throws IOException {
        exchange.getResponseHeaders().add("Content-Type", "text/plain; version=0.0.4");
        exchange.sendResponseHeaders(200, body.length);
        out.write(body);
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * A Recommend-mode profile (its pods stay as they are) of the Deployment of the same name, whose pods
     * are scraped on {@code port} every {@code interval}; {@code extraSpec} adds spec fields.
     */
    public static String profile(String name, int port, java.time.Duration interval, String extraSpec) {
        return """
                apiVersion: jvmtuning.dev/v1alpha1
                kind: TuningProfile
                metadata: {name: %s}
                spec:
                  targetRef: {name: %s}
                  mode: Recommend
                  metrics: {port: %d, path: %s, interval: %ds}
                """.formatted(name, name, port, PATH, interval.toSeconds()) + extraSpec.indent(2);
    }

    /** Scrapes served to callers whose User-Agent contains {@code caller}. */
    public int scrapesBy(String caller) {
        return scrapesByCaller.entrySet().stream().filter(e -> e.getKey().contains(caller)).mapToInt(e -> e.getValue().get()).sum();
    }

    public int scrapes() {
        return served.get();
    }

    /** The longest time between two scrapes, or since the last one if that is longer, in seconds. */
    public double longestGapSeconds() {
        long last = lastScrapeNanos.get();
        long sinceLast = last == 0 ? 0 : System.nanoTime() - last;
        return Math.max(longestGapNanos.get(), sinceLast) / 1e9;
    }

    /** Starts measuring gaps afresh (after a warm-up). */
    public void resetGaps() {
        longestGapNanos.set(0);
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
