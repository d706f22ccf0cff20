package dev.jvmtuning.agent;

import io.prometheus.metrics.expositionformats.OpenMetricsTextFormatWriter;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * Collects the registry on its own thread at a fixed delay and keeps the latest collection rendered in
 * both text formats, so that a scrape only copies bytes. Collecting takes seconds in a process with
 * thousands of threads on a saturated CPU (one /proc read per thread, each waiting for a sliver of CPU);
 * a scrape that collected itself took as long, past the scraper's timeout.
 */
final class BackgroundCollector {

    /** One collection, rendered. Counters in it are all from the same pass. */
    record Collection(byte[] prometheusText, byte[] openMetricsWithoutEof, long collectedAtNanos, long collectNanos) {}

    static final Duration INTERVAL = Duration.ofSeconds(1);

    private static final String NAME = "jvm-tuning-agent-collector";
    /**
     * The JVM client's thread state counts and deadlock detection each stop every thread at a safepoint,
     * which a thousand runnable threads on two CPUs take seconds to reach: collected every second, they
     * stalled the application and the scrapes it answers. The thread counts stay.
     */
    private static final Set<String> NOT_COLLECTED =
            Set.of("jvm_threads_state", "jvm_threads_deadlocked", "jvm_threads_deadlocked_monitor");
    private static final byte[] OPEN_METRICS_EOF = "# EOF\n".getBytes(StandardCharsets.US_ASCII);

    private final PrometheusRegistry registry;
    private final LongSupplier nanoClock;
    private final PrometheusTextFormatWriter prometheusWriter = PrometheusTextFormatWriter.create();
    private final OpenMetricsTextFormatWriter openMetricsWriter = OpenMetricsTextFormatWriter.create();
    private volatile Collection latest;

    BackgroundCollector(PrometheusRegistry registry, LongSupplier nanoClock) {
        this.registry = registry;
        this.nanoClock = nanoClock;
    }

    /** The latest collection; null before the first one. */
    Collection latest() {
        return latest;
    }

    /** Collects now, on the caller's thread; a collector that throws leaves the previous collection in place. */
    void collect() {
        long started = nanoClock.getAsLong();
        try {
            MetricSnapshots snapshots = registry.scrape(name -> !NOT_COLLECTED.contains(name));
            byte[] text = render(prometheusWriter::write, snapshots);
            byte[] openMetrics = render(openMetricsWriter::write, snapshots);
            long finished = nanoClock.getAsLong();
            latest = new Collection(text, withoutEof(openMetrics), finished, finished - started);
        } catch (IOException | RuntimeException e) {
            // The previous collection stays; its age tells the scraper how old it is.
        }
    }

    /** Starts collecting every INTERVAL after the previous collection ended, on a daemon thread. */
    void start() {
        Thread thread = new Thread(() -> {
            while (true) {
                try {
                    Thread.sleep(INTERVAL.toMillis());
                    collect();
                } catch (InterruptedException e) {
                    return;
                } catch (LinkageError | VirtualMachineError e) {
                    // Out of memory in a starved application, say: try again next time rather than stop for good.
                }
            }
        }, NAME);
        thread.setDaemon(true);
        thread.start();
    }

    private interface Writer {
        void write(ByteArrayOutputStream out, MetricSnapshots snapshots) throws IOException;
    }

    private static byte[] render(Writer writer, MetricSnapshots snapshots) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream(64 * 1024);
        writer.write(out, snapshots);
        return out.toByteArray();
    }

    /** The handler appends families of its own (the age of the collection) and then the EOF marker. */
    private static byte[] withoutEof(byte[] openMetrics) {
        int bodyLength = openMetrics.length - OPEN_METRICS_EOF.length;
        boolean endsWithEof = bodyLength >= 0 && Arrays.equals(
                openMetrics, bodyLength, openMetrics.length, OPEN_METRICS_EOF, 0, OPEN_METRICS_EOF.length);
        return endsWithEof ? Arrays.copyOf(openMetrics, bodyLength) : openMetrics;
    }
}
