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
    private CountingHostFiles files;
    private PrometheusRegistry registry;

    @BeforeEach
    void registerOverFixtureTree() {
        tree = new FixtureTree(root);
        files = new CountingHostFiles(root);
        registry = new PrometheusRegistry();
        new ThreadSchedulingMetrics(files).register(registry);
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
    void oneScrapeIsOnePassThatFeedsEverySeriesAndReportsWhatItRead() {
        thread("100", 3, 1, 2_000_000_000L);
        thread("101", 40, 25, 500_000_000L);

        Map<String, Double> samples = Exposition.samples(registry);

        assertThat(files.lists.get()).isEqualTo(1);
        assertThat(files.reads).hasSize(4).doesNotHaveDuplicates();
        assertThat(samples).containsEntry("jvmtuning_agent_scrape_threads", 2.0);
        assertThat(samples.get("jvmtuning_agent_scrape_seconds")).isGreaterThan(0.0).isLessThan(10.0);
    }

    @Test
    void seriesKeepTheirNamesTypesAndHelp() {
        thread("100", 3, 1, 2_000_000_000L);

        assertThat(Exposition.text(registry)).contains(
                "# HELP jvmtuning_context_switches_total Context switches of the threads of this process; "
                        + "involuntary ones are preemptions\n# TYPE jvmtuning_context_switches_total counter\n",
                "# HELP jvmtuning_run_queue_delay_seconds_total Time the threads of this process spent runnable but "
                        + "waiting for a CPU\n# TYPE jvmtuning_run_queue_delay_seconds_total counter\n",
                "# HELP jvmtuning_tasks Threads of this process as the kernel sees them, JVM-internal ones included\n"
                        + "# TYPE jvmtuning_tasks gauge\n",
                "# TYPE jvmtuning_agent_scrape_seconds gauge\n",
                "# TYPE jvmtuning_agent_scrape_threads gauge\n");
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
    void theJitCompilersTimeOnACpuIsACounterOfItsOwn() {
        thread("100", 3, 1, 2_000_000_000L);
        tree.file("/proc/self/task/101/status", "Name:\tC2 CompilerThre\nvoluntary_ctxt_switches:\t5\nnonvoluntary_ctxt_switches:\t1\n")
                .file("/proc/self/task/101/schedstat", "1500000000 0 6\n");

        assertThat(Exposition.samples(registry)).containsEntry("jvmtuning_jit_compiler_cpu_seconds_total", 1.5);
        assertThat(Exposition.text(registry)).contains("# HELP jvmtuning_jit_compiler_cpu_seconds_total Time the JIT compiler "
                + "threads of this process ran on a CPU\n# TYPE jvmtuning_jit_compiler_cpu_seconds_total counter\n");
    }

    @Test
    void theCollectorsTimeOnACpuIsACounterOfItsOwn() {
        thread("100", 3, 1, 2_000_000_000L);
        tree.file("/proc/self/task/101/status", "Name:\tGC Thread#0\nvoluntary_ctxt_switches:\t5\nnonvoluntary_ctxt_switches:\t1\n")
                .file("/proc/self/task/101/schedstat", "250000000 0 6\n");

        assertThat(Exposition.samples(registry)).containsEntry("jvmtuning_gc_cpu_seconds_total", 0.25)
                .doesNotContainKey("jvmtuning_jit_compiler_cpu_seconds_total");
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
