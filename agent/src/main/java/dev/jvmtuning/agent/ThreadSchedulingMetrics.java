package dev.jvmtuning.agent;

import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.Unit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/** Context switches, run-queue delay and task count of this process, read from /proc/self/task on each scrape. */
final class ThreadSchedulingMetrics {

    private static final String TASKS = "/proc/self/task";

    private final HostFiles files;
    private final PerThreadCounterSum voluntarySwitches = new PerThreadCounterSum();
    private final PerThreadCounterSum involuntarySwitches = new PerThreadCounterSum();
    private final PerThreadCounterSum runQueueWaitNanos = new PerThreadCounterSum();

    ThreadSchedulingMetrics(HostFiles files) {
        this.files = files;
    }

    void register(PrometheusRegistry registry) {
        CounterWithCallback.builder()
                .name("jvmtuning_context_switches_total")
                .help("Context switches of the threads of this process; involuntary ones are preemptions")
                .labelNames("kind")
                .callback(FailSafe.callback(callback -> contextSwitches().ifPresent(totals -> {
                    callback.call(totals.voluntary(), "voluntary");
                    callback.call(totals.involuntary(), "involuntary");
                })))
                .register(registry);
        CounterWithCallback.builder()
                .name("jvmtuning_run_queue_delay_seconds_total")
                .help("Time the threads of this process spent runnable but waiting for a CPU")
                .unit(Unit.SECONDS)
                .callback(FailSafe.callback(callback -> runQueueWaitNanos()
                        .ifPresent(nanos -> callback.call(Unit.nanosToSeconds(nanos)))))
                .register(registry);
        GaugeWithCallback.builder()
                .name("jvmtuning_tasks")
                .help("Threads of this process as the kernel sees them, JVM-internal ones included")
                .callback(FailSafe.callback(callback -> files.list(TASKS)
                        .ifPresent(threadIds -> callback.call(threadIds.size()))))
                .register(registry);
    }

    /** Synchronized so that concurrent scrapes feed the sums in the order they read the files. */
    synchronized Optional<ProcParsers.ContextSwitches> contextSwitches() {
        Optional<List<String>> threadIds = files.list(TASKS);
        if (threadIds.isEmpty()) {
            return Optional.empty();
        }
        Map<String, Long> voluntary = new HashMap<>();
        Map<String, Long> involuntary = new HashMap<>();
        for (String threadId : threadIds.get()) {
            files.read(TASKS + "/" + threadId + "/status")
                    .flatMap(ProcParsers::parseContextSwitches)
                    .ifPresent(switches -> {
                        voluntary.put(threadId, switches.voluntary());
                        involuntary.put(threadId, switches.involuntary());
                    });
        }
        if (voluntary.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new ProcParsers.ContextSwitches(
                voluntarySwitches.update(voluntary), involuntarySwitches.update(involuntary)));
    }

    /** Empty when the kernel keeps no schedstats (no CONFIG_SCHED_INFO). */
    synchronized OptionalLong runQueueWaitNanos() {
        Optional<List<String>> threadIds = files.list(TASKS);
        if (threadIds.isEmpty()) {
            return OptionalLong.empty();
        }
        Map<String, Long> waitNanos = new HashMap<>();
        for (String threadId : threadIds.get()) {
            files.read(TASKS + "/" + threadId + "/schedstat")
                    .map(ProcParsers::parseRunQueueWaitNanos)
                    .filter(OptionalLong::isPresent)
                    .ifPresent(wait -> waitNanos.put(threadId, wait.getAsLong()));
        }
        if (waitNanos.isEmpty()) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(runQueueWaitNanos.update(waitNanos));
    }
}
