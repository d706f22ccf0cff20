package dev.jvmtuning.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ThreadSchedulingMetricsTest {

    @TempDir
    Path root;

    private FixtureTree tree;
    private PrometheusRegistry registry;

    @BeforeEach
    void registerOverFixtureTree() {
        tree = new FixtureTree(root);
        registry = new PrometheusRegistry();
        new ThreadSchedulingMetrics(tree.hostFiles()).register(registry);
    }

    @Test
    void sumsEveryThreadOfTheProcess() {
        thread("100", 3, 1, 2_000_000_000L);
        thread("101", 40, 25, 500_000_000L);

        assertThat(Exposition.samples(registry)).containsAllEntriesOf(Map.of(
                "jvmtuning_context_switches_total{kind=\"voluntary\"}", 43.0,
                "jvmtuning_context_switches_total{kind=\"involuntary\"}", 26.0,
                "jvmtuning_run_queue_delay_seconds_total", 2.5,
                "jvmtuning_tasks", 2.0));
    }

    @Test
    void countersKeepWhatThreadsThatExitedHadDone() {
        thread("100", 3, 1, 2_000_000_000L);
        thread("101", 40, 25, 500_000_000L);
        Exposition.samples(registry);

        tree.delete("/proc/self/task/101");
        thread("100", 4, 1, 2_100_000_000L);

        assertThat(Exposition.samples(registry)).containsAllEntriesOf(Map.of(
                "jvmtuning_context_switches_total{kind=\"voluntary\"}", 44.0,
                "jvmtuning_context_switches_total{kind=\"involuntary\"}", 26.0,
                "jvmtuning_run_queue_delay_seconds_total", 2.6,
                "jvmtuning_tasks", 1.0));
    }

    @Test
    void threadsWithUnreadableFilesAreSkipped() {
        thread("100", 3, 1, 1_000_000_000L);
        tree.file("/proc/self/task/101/status", "Name:\tjava\n").file("/proc/self/task/101/schedstat", "garbage\n");

        assertThat(Exposition.samples(registry)).containsAllEntriesOf(Map.of(
                "jvmtuning_context_switches_total{kind=\"voluntary\"}", 3.0,
                "jvmtuning_run_queue_delay_seconds_total", 1.0,
                "jvmtuning_tasks", 2.0));
    }

    @Test
    void noSeriesWithoutProc() {
        assertThat(Exposition.text(registry)).doesNotContain("jvmtuning_");
    }

    private void thread(String threadId, long voluntary, long involuntary, long runQueueWaitNanos) {
        tree.file("/proc/self/task/" + threadId + "/status",
                "Name:\tworker\nState:\tR (running)\nvoluntary_ctxt_switches:\t" + voluntary
                        + "\nnonvoluntary_ctxt_switches:\t" + involuntary + "\n");
        tree.file("/proc/self/task/" + threadId + "/schedstat", "123456 " + runQueueWaitNanos + " 17\n");
    }
}
