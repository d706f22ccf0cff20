package dev.jvmtuning.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class NativeMemoryMetricsTest {

    private static final double MIB = 1024 * 1024;

    /** As a JDK 17 prints it (trimmed), with its default scale, KB. */
    private static final String JDK_17 = """

            Native Memory Tracking:

            Total: reserved=1498608KB, committed=127401KB
                   malloc: 6329KB #3628
                   mmap:   reserved=1492288KB, committed=121072KB

            -                 Java Heap (reserved=65536KB, committed=65536KB)
                                        (mmap: reserved=65536KB, committed=65536KB)\s
            \s
            -                     Class (reserved=1048644KB, committed=132KB)
                                        (classes #448)
                                        (  Metadata:   )
                                        (    reserved=65536KB, committed=64KB)
            \s
            -                    Thread (reserved=13356KB, committed=588KB)
                                        (thread #14)
                                        (stack: reserved=13312KB, committed=544KB)
            \s
            -    Native Memory Tracking (reserved=66KB, committed=66KB)
                                        (tracking overhead=57KB)
            \s
            -                     Other (reserved=32770KB, committed=32770KB)
                                        (malloc=32770KB #3)\s
            """;

    /** As a JDK 25 prints it (trimmed): peaks in the detail lines, a readonly figure in one category. */
    private static final String JDK_25 = """
            Native Memory Tracking:

            Total: reserved=1496424KB, committed=128044KB
                   malloc: 6308KB #4726, peak=6232KB #4135
                   mmap:   reserved=1490116KB, committed=121736KB

            -                 Java Heap (reserved=65536KB, committed=65536KB)
                                        (mmap: reserved=65536KB, committed=65536KB, at peak)

            -                 GCCardSet (reserved=1KB, committed=1KB)
                                        (malloc=1KB tag=GCCardSet #4) (at peak)

            -        Shared class space (reserved=16384KB, committed=13908KB, readonly=0KB)
                                        (mmap: reserved=16384KB, committed=13908KB, peak=14116KB)
            """;

    private static String series(String category, String kind) {
        return "jvmtuning_native_memory_bytes{category=\"" + category + "\",kind=\"" + kind + "\"}";
    }

    private static Map<String, Double> samples(String summary) {
        PrometheusRegistry registry = new PrometheusRegistry();
        registry.register(new NativeMemoryMetrics(() -> summary, () -> 0L));
        return Exposition.samples(registry);
    }

    @Test
    void jdk17sSummaryBecomesBytesByCategoryAndTheDetailLinesAreSkipped() {
        assertThat(samples(JDK_17)).containsExactlyInAnyOrderEntriesOf(Map.ofEntries(
                Map.entry(series("Total", "committed"), 127401.0 * 1024), Map.entry(series("Total", "reserved"), 1498608.0 * 1024),
                Map.entry(series("Java Heap", "committed"), 64 * MIB), Map.entry(series("Java Heap", "reserved"), 64 * MIB),
                Map.entry(series("Class", "committed"), 132.0 * 1024), Map.entry(series("Class", "reserved"), 1048644.0 * 1024),
                Map.entry(series("Thread", "committed"), 588.0 * 1024), Map.entry(series("Thread", "reserved"), 13356.0 * 1024),
                Map.entry(series("Native Memory Tracking", "committed"), 66.0 * 1024),
                Map.entry(series("Native Memory Tracking", "reserved"), 66.0 * 1024),
                Map.entry(series("Other", "committed"), 32770.0 * 1024), Map.entry(series("Other", "reserved"), 32770.0 * 1024)));
    }

    @Test
    void jdk25sCategoriesAndExtraFiguresAreRead() {
        assertThat(samples(JDK_25))
                .containsEntry(series("Total", "committed"), 128044.0 * 1024)
                .containsEntry(series("GCCardSet", "committed"), 1024.0)
                .containsEntry(series("Shared class space", "committed"), 13908.0 * 1024)
                .containsEntry(series("Shared class space", "reserved"), 16.0 * MIB)
                .hasSize(8);
    }

    @Test
    void otherScalesAreRead() {
        assertThat(samples("Total: reserved=2GB, committed=3MB\n-  Java Heap (reserved=5, committed=7B)\n"))
                .containsEntry(series("Total", "reserved"), 2 * 1024 * MIB)
                .containsEntry(series("Total", "committed"), 3 * MIB)
                .containsEntry(series("Java Heap", "reserved"), 5.0)
                .containsEntry(series("Java Heap", "committed"), 7.0);
    }

    @Test
    void aHugeOrHostileSummaryIsCutAtItsBounds() {
        StringBuilder summary = new StringBuilder();
        for (int i = 0; i < 1000; i++) {
            summary.append("-  Category ").append(i).append(" (reserved=1KB, committed=1KB)\n");
        }
        summary.append("-  ").append("x".repeat(1000)).append(" (reserved=1KB, committed=1KB)\n");

        assertThat(samples(summary.toString())).hasSize(2 * NativeMemoryMetrics.MAX_CATEGORIES);
        assertThat(samples("x".repeat(NativeMemoryMetrics.MAX_TEXT) + "\nTotal: reserved=1KB, committed=1KB\n")).isEmpty();
    }

    @Test
    void aFailingReadLeavesNoSeriesAndTheScrapeGoesOn() {
        assertThat(samples("Native memory tracking is not enabled\n")).isEmpty();
        PrometheusRegistry registry = new PrometheusRegistry();
        registry.register(new NativeMemoryMetrics(() -> {
            throw new IllegalStateException("no DiagnosticCommand MBean");
        }, () -> 0L));
        assertThat(Exposition.samples(registry)).isEmpty();
    }

    @Test
    void theSummaryIsReadAtStartThenAtMostOnceAMinute() {
        AtomicInteger reads = new AtomicInteger();
        AtomicLong now = new AtomicLong();
        NativeMemoryMetrics metrics = new NativeMemoryMetrics(() -> {
            reads.incrementAndGet();
            return JDK_17;
        }, now::get);

        metrics.collect();
        now.addAndGet(NativeMemoryMetrics.REFRESH.toNanos() - 1);
        metrics.collect();
        assertThat(reads).hasValue(1);

        now.addAndGet(1);
        metrics.collect();
        assertThat(reads).hasValue(2);
    }

    @Test
    void onlyTrackingSummaryOrDetailIsTracked() {
        assertThat(NativeMemoryMetrics.tracked("summary")).isTrue();
        assertThat(NativeMemoryMetrics.tracked("detail")).isTrue();
        assertThat(NativeMemoryMetrics.tracked("off")).isFalse();
    }

    /** Runs java with the test classpath and these options, main class and arguments; what it printed. */
    private static String run(String... arguments) throws Exception {
        List<String> command = new ArrayList<>();
        command.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp", System.getProperty("java.class.path")));
        command.addAll(List.of(arguments));
        Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String text = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return text;
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aTrackingJvmReportsItsHeapAndItsDirectBufferAndAnUntrackedOneNothing() throws Exception {
        Map<String, Double> tracked = Exposition.samples(run("-XX:NativeMemoryTracking=summary", "-Xms32m", "-Xmx32m", "-XX:+UseSerialGC",
                NativeMemoryMain.class.getName(), "24"));

        assertThat(tracked).containsEntry(series("Java Heap", "committed"), 32 * MIB)
                .containsKeys(series("Thread", "committed"), series("Class", "committed"), series("Code", "committed"));
        // a direct buffer is native memory outside the heap, which NMT counts as Other
        assertThat(tracked.get(series("Other", "committed"))).isGreaterThanOrEqualTo(24 * MIB);
        assertThat(tracked.get(series("Total", "committed"))).isGreaterThan(56 * MIB)
                .isLessThanOrEqualTo(tracked.get(series("Total", "reserved")));

        Map<String, Double> untracked = Exposition.samples(run("-Xmx32m", NativeMemoryMain.class.getName(), "1"));
        assertThat(untracked.keySet()).noneMatch(s -> s.startsWith("jvmtuning_native_memory"));
    }

    /** Prints what one reading costs in a JVM that tracks; no bound asserted, a loaded machine varies too much. */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void oneReadingCosts() throws Exception {
        String printed = run("-XX:NativeMemoryTracking=summary", ReadingCostMain.class.getName());
        System.out.println(printed.strip());
        assertThat(printed).contains("jvmtuning_native_memory_bytes: first reading");
    }

    /**
     * Prints what tracking itself costs: a malloc-heavy loop's rate and the resident set, runs with and without it
     * interleaved so that a machine's drift hits both. A figure for the benchmarks page, not a timed assertion.
     */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void trackingCosts() throws Exception {
        for (int round = 0; round < 3; round++) {
            for (String tracking : List.of("off", "summary")) {
                String printed = run("-XX:NativeMemoryTracking=" + tracking, "-Xmx64m", "-XX:+UseSerialGC", NativeMemoryCostMain.class.getName());
                String[] figures = printed.strip().split(" ");
                System.out.println("NativeMemoryTracking=" + tracking + ": " + figures[0] + " malloc+free/s, " + figures[1] + " "
                        + figures[2] + " " + figures[3]);
                assertThat(Long.parseLong(figures[0])).isPositive();
            }
        }
    }
}
