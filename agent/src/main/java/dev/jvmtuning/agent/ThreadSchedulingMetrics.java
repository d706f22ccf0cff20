package dev.jvmtuning.agent;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.CounterSnapshot.CounterDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricMetadata;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.Unit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Context switches, run-queue delay, the JIT compilers' and the garbage collector's CPU time and task count of this
 * process, and what reading them cost, all from one pass over /proc/self/task per collection: one collector, so that the
 * metrics cannot each start their own pass.
 */
final class ThreadSchedulingMetrics implements MultiCollector {

    private static final MetricMetadata CONTEXT_SWITCHES = new MetricMetadata("jvmtuning_context_switches",
            "Context switches of the threads of this process; involuntary ones are preemptions");
    private static final MetricMetadata RUN_QUEUE_DELAY = new MetricMetadata("jvmtuning_run_queue_delay_seconds",
            "Time the threads of this process spent runnable but waiting for a CPU", Unit.SECONDS);
    private static final MetricMetadata JIT_COMPILER_CPU = new MetricMetadata("jvmtuning_jit_compiler_cpu_seconds",
            "Time the JIT compiler threads of this process ran on a CPU", Unit.SECONDS);
    private static final MetricMetadata GARBAGE_COLLECTOR_CPU = new MetricMetadata("jvmtuning_gc_cpu_seconds",
            "Time the garbage collector's threads of this process ran on a CPU, concurrent work and the VM thread included",
            Unit.SECONDS);
    private static final MetricMetadata TASKS = new MetricMetadata("jvmtuning_tasks",
            "Threads of this process as the kernel sees them, JVM-internal ones included");
    private static final MetricMetadata SCRAPE_SECONDS = new MetricMetadata("jvmtuning_agent_scrape_seconds",
            "Time the latest collection's pass over the threads' /proc files took", Unit.SECONDS);
    private static final MetricMetadata SCRAPE_THREADS = new MetricMetadata("jvmtuning_agent_scrape_threads",
            "Threads the latest collection's pass reached; fewer than jvmtuning_tasks when it ran out of its time or CPU budget, "
                    + "and the others kept their last counts");

    private final TaskScan scan;

    ThreadSchedulingMetrics(HostFiles files) {
        this(TaskScan.ofThisProcess(files));
    }

    ThreadSchedulingMetrics(TaskScan scan) {
        this.scan = scan;
    }

    void register(PrometheusRegistry registry) {
        registry.register(this);
    }

    /** Whatever fails, the scrape goes on without these series, as with the other collectors (FailSafe). */
    @Override
    public MetricSnapshots collect() {
        Optional<TaskScan.Snapshot> snapshot;
        try {
            snapshot = scan.snapshot();
        } catch (RuntimeException | LinkageError e) {
            snapshot = Optional.empty();
        }
        List<MetricSnapshot> metrics = new ArrayList<>();
        snapshot.ifPresent(pass -> {
            pass.contextSwitches().ifPresent(switches -> metrics.add(new CounterSnapshot(CONTEXT_SWITCHES, List.of(
                    counter(switches.voluntary(), Labels.of("kind", "voluntary")),
                    counter(switches.involuntary(), Labels.of("kind", "involuntary"))))));
            pass.runQueueWaitNanos().ifPresent(nanos -> metrics.add(seconds(RUN_QUEUE_DELAY, nanos)));
            pass.jitCompilerCpuNanos().ifPresent(nanos -> metrics.add(seconds(JIT_COMPILER_CPU, nanos)));
            pass.garbageCollectorCpuNanos().ifPresent(nanos -> metrics.add(seconds(GARBAGE_COLLECTOR_CPU, nanos)));
            metrics.add(gauge(TASKS, pass.tasks()));
            metrics.add(gauge(SCRAPE_SECONDS, Unit.nanosToSeconds(pass.passNanos())));
            metrics.add(gauge(SCRAPE_THREADS, pass.threadsRead()));
        });
        return new MetricSnapshots(metrics);
    }

    private static CounterSnapshot seconds(MetricMetadata metadata, long nanos) {
        return new CounterSnapshot(metadata, List.of(counter(Unit.nanosToSeconds(nanos), Labels.EMPTY)));
    }

    private static CounterDataPointSnapshot counter(double value, Labels labels) {
        return new CounterDataPointSnapshot(value, labels, null, 0L);
    }

    static GaugeSnapshot gauge(MetricMetadata metadata, double value) {
        return new GaugeSnapshot(metadata, List.of(new GaugeDataPointSnapshot(value, Labels.EMPTY, null)));
    }
}
