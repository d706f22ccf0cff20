package dev.jvmtuning.agent;

import io.prometheus.metrics.expositionformats.OpenMetricsTextFormatWriter;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.MetricMetadata;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.Unit;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * Collects the registry on its own thread at a fixed delay and keeps the latest collection rendered in
 * both text formats, so that a scrape only writes bytes. Collecting takes seconds in a process with
 * thousands of threads on a saturated CPU (one /proc read per thread, each waiting for a sliver of CPU);
 * a scrape that collected itself took as long, past the scraper's timeout.
 */
final class BackgroundCollector {

    /**
     * One collection, rendered up to the only sample a scrape adds: the collection's age, whose family
     * header is already in. Counters in it are all from the same pass.
     */
    record Collection(byte[] prometheusText, byte[] openMetrics, long collectedAtNanos, long collectNanos) {

        /** What follows the rendered bytes in a response: the age sample, and the EOF marker in OpenMetrics. */
        byte[] tail(long nowNanos, boolean openMetrics) {
            String age = COLLECT_AGE.getPrometheusName() + " " + Unit.nanosToSeconds(nowNanos - collectedAtNanos) + "\n";
            return (openMetrics ? age + OPEN_METRICS_EOF : age).getBytes(StandardCharsets.US_ASCII);
        }
    }

    static final Duration INTERVAL = Duration.ofSeconds(1);

    private static final String NAME = "jvm-tuning-agent-collector";
    /**
     * The JVM client's deadlock detection (ThreadMXBean.findDeadlockedThreads and
     * findMonitorDeadlockedThreads) stops every thread at a safepoint, which a thousand runnable threads
     * on two CPUs take seconds to reach: collected every second, it stalled the application and the
     * scrapes it answers. Thread states take no safepoint (ThreadInfo without stack traces) but build an
     * object per thread on every collection for a metric the operator does not read. The thread counts stay.
     */
    private static final Set<String> NOT_COLLECTED =
            Set.of("jvm_threads_state", "jvm_threads_deadlocked", "jvm_threads_deadlocked_monitor");
    private static final String OPEN_METRICS_EOF = "# EOF\n";
    static final MetricMetadata COLLECT_AGE = new MetricMetadata("jvmtuning_agent_collect_age_seconds",
            "Time since the collection this scrape serves ended; the agent collects in the background", Unit.SECONDS);
    private static final MetricMetadata COLLECT_SECONDS = new MetricMetadata("jvmtuning_agent_collect_seconds",
            "Time the collection this scrape serves took, every collector and both text formats", Unit.SECONDS);

    private final PrometheusRegistry registry;
    private final LongSupplier nanoClock;
    private final PrometheusTextFormatWriter prometheusWriter = PrometheusTextFormatWriter.create();
    private final OpenMetricsTextFormatWriter openMetricsWriter = OpenMetricsTextFormatWriter.create();
    private final byte[] prometheusAgeHeader;
    private final byte[] openMetricsAgeHeader;
    private volatile Collection latest;

    BackgroundCollector(PrometheusRegistry registry, LongSupplier nanoClock) {
        this.registry = registry;
        this.nanoClock = nanoClock;
        this.prometheusAgeHeader = ageHeader(prometheusWriter::write);
        this.openMetricsAgeHeader = ageHeader(openMetricsWriter::write);
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
            MetricSnapshots cost = new MetricSnapshots(
                    ThreadSchedulingMetrics.gauge(COLLECT_SECONDS, Unit.nanosToSeconds(finished - started)));
            latest = new Collection(
                    concat(text, render(prometheusWriter::write, cost), prometheusAgeHeader),
                    concat(withoutEof(openMetrics), withoutEof(render(openMetricsWriter::write, cost)), openMetricsAgeHeader),
                    finished, finished - started);
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

    /** Families follow the registry's, and the EOF marker ends the whole response. */
    private static byte[] withoutEof(byte[] openMetrics) {
        byte[] eof = OPEN_METRICS_EOF.getBytes(StandardCharsets.US_ASCII);
        int bodyLength = openMetrics.length - eof.length;
        boolean endsWithEof = bodyLength >= 0 && Arrays.equals(openMetrics, bodyLength, openMetrics.length, eof, 0, eof.length);
        return endsWithEof ? Arrays.copyOf(openMetrics, bodyLength) : openMetrics;
    }

    /**
     * The age family as the writer renders it, up to its sample, which each scrape writes itself: the
     * writer's own header lines, so that the format stays the library's.
     */
    private static byte[] ageHeader(Writer writer) {
        try {
            String rendered = new String(render(writer,
                    new MetricSnapshots(ThreadSchedulingMetrics.gauge(COLLECT_AGE, 0))), StandardCharsets.US_ASCII);
            int sample = rendered.indexOf("\n" + COLLECT_AGE.getPrometheusName() + " ");
            return rendered.substring(0, sample + 1).getBytes(StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(Arrays.stream(parts).mapToInt(part -> part.length).sum());
        Arrays.stream(parts).forEach(out::writeBytes);
        return out.toByteArray();
    }
}
