package dev.jvmtuning.operator.metrics;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * The figures the detector needs from one scrape of one pod, whatever the dialect (Micrometer,
 * Prometheus Java client / JMX exporter, this project's agent, cAdvisor through Prometheus).
 * Counters are cumulative; a null field was not exposed.
 */
public record PodSnapshot(
        long atMillis,
        Double gcPauseSeconds,
        Double involuntarySwitches,
        Double cfsPeriods,
        Double cfsThrottledPeriods,
        Double cpuSeconds,
        Double cpuLimitCores,
        Double busyThreads,
        Double busyThreadSeconds,
        Long busyThreadSecondsAtMillis,
        Double maxThreads,
        Double pendingConnections,
        Double heapAfterGcRatio,
        Double liveHeapBytes,
        Double loadedClasses,
        Service service) {

    /** A scrape whose server does not sum its busy threads over time. */
    public PodSnapshot(long atMillis, Double gcPauseSeconds, Double involuntarySwitches, Double cfsPeriods, Double cfsThrottledPeriods,
            Double cpuSeconds, Double cpuLimitCores, Double busyThreads, Double maxThreads, Double pendingConnections,
            Double heapAfterGcRatio, Double loadedClasses, Service service) {
        this(atMillis, gcPauseSeconds, involuntarySwitches, cfsPeriods, cfsThrottledPeriods, cpuSeconds, cpuLimitCores, busyThreads, null, null,
                maxThreads, pendingConnections, heapAfterGcRatio, null, loadedClasses, service);
    }

    /**
     * Where requests spend their time, cumulative: the counters the observed workload is
     * estimated from (R1, R8, R17). Null where not exposed.
     *
     * @param requests               requests served, management endpoints excluded
     * @param requestSeconds         wall time those requests spent in the server
     * @param runQueueDelaySeconds   time the JVM's threads waited for a CPU (schedstat)
     * @param connectionWaitSeconds  time spent waiting for a pooled database connection
     * @param connectionHoldSeconds  time pooled database connections were held
     * @param serverErrors           of those requests, the ones answered with a 5xx status
     * @param allocatedBytes         heap the JVM allocated (R12a)
     * @param latency                those requests by duration, when the server exposes a histogram
     * @param queue                  requests waiting for a worker thread, when the runtime exposes its queue
     * @param compilationSeconds     time the JIT compilers spent, counted in the process CPU: their threads' time on a CPU
     *                               (this project's agent), else the JVM's CompilationMXBean, which is wall time and runs
     *                               long when the compilers wait for a CPU
     * @param collectorCpuSeconds    time the garbage collector's threads spent on a CPU, concurrent work included (this
     *                               project's agent): the JVM's own GC figures are pause wall time
     */
    public record Service(Double requests, Double requestSeconds, Double runQueueDelaySeconds, Double connectionWaitSeconds,
            Double connectionHoldSeconds, Double serverErrors, Double allocatedBytes, LatencyHistogram latency, Queue queue,
            Double compilationSeconds, Double collectorCpuSeconds) {
        public static final Service NONE = new Service(null, null, null, null, null, null, null);

        /** A server without a request-duration histogram or a queue. */
        public Service(Double requests, Double requestSeconds, Double runQueueDelaySeconds, Double connectionWaitSeconds,
                Double connectionHoldSeconds, Double serverErrors, Double allocatedBytes) {
            this(requests, requestSeconds, runQueueDelaySeconds, connectionWaitSeconds, connectionHoldSeconds, serverErrors, allocatedBytes, null,
                    Queue.NONE, null, null);
        }
    }

    /**
     * The request queue in front of the worker threads: the time is part of what a client waits, yet no
     * request timer counts it, as they start when a worker takes the request.
     *
     * @param queued      requests waiting now (a gauge)
     * @param waitSeconds time the requests taken so far waited in the queue (a counter), where the runtime times it
     */
    public record Queue(Double queued, Double waitSeconds) {
        public static final Queue NONE = new Queue(null, null);
    }

    private static final Pattern HTTP_STATUS = Pattern.compile("[1-5]\\d\\d");

    /** Every series name this reads, for a Prometheus query. */
    public static final List<String> SERIES = List.of("jvm_gc_pause_seconds_sum", "jvm_gc_collection_seconds_sum",
            "jvmtuning_context_switches_total", "jvmtuning_cpu_cfs_periods_total", "container_cpu_cfs_periods_total",
            "jvmtuning_cpu_cfs_throttled_periods_total", "container_cpu_cfs_throttled_periods_total", "process_cpu_seconds_total",
            "container_cpu_usage_seconds_total", "jvmtuning_cpu_limit_cores", "jvmtuning_available_processors", "system_cpu_count",
            "jvmtuning_server_threads_busy", "jvmtuning_server_threads_busy_seconds_total", "tomcat_threads_busy_threads", "jetty_threads_busy", "tomcat_threadpool_currentthreadsbusy",
            "executor_active_threads", "worker_pool_active", "worker_pool_idle", "jvmtuning_server_threads_max", "tomcat_threads_config_max_threads", "jetty_threads_config_max",
            "tomcat_threadpool_maxthreads", "hikaricp_connections_pending", "agroal_awaiting_count", "jvm_memory_usage_after_gc_percent",
            "jvm_memory_usage_after_gc", "jvm_gc_live_data_size_bytes", "jvm_memory_pool_collection_used_bytes", "jvm_memory_pool_collection_max_bytes",
            "jvm_memory_pool_max_bytes", "process_cpu_time_ns_total", "http_server_requests_seconds_count",
            "http_server_requests_seconds_sum", LatencyHistogram.SERIES, "jvmtuning_run_queue_delay_seconds_total", "hikaricp_connections_acquire_seconds_sum",
            "hikaricp_connections_usage_seconds_sum", "jvm_gc_memory_allocated_bytes_total", "jvm_memory_pool_allocated_bytes_total",
            "jvm_classes_loaded_classes", "jvm_classes_currently_loaded", "jetty_threads_jobs", "worker_pool_queue_size", "executor_queued_tasks",
            "worker_pool_queue_delay_seconds_sum", "jvmtuning_jit_compiler_cpu_seconds_total", "jvm_compilation_time_seconds_total",
            "jvm_compilation_time_ms_total", "jvmtuning_gc_cpu_seconds_total");

    /** Reads a scrape; the first dialect that exposes a figure wins. */
    public static PodSnapshot of(Scrape scrape, long atMillis) {
        List<Sample> samples = scrape.samples();
        return new PodSnapshot(atMillis,
                firstSum(samples,
                        // Micrometer reports pauses only; the Prometheus client also lists concurrent cycles, which are not pauses.
                        series("jvm_gc_pause_seconds_sum"),
                        series("jvm_gc_collection_seconds_sum").and(s -> !concurrentCollector(s.label("gc")))),
                firstSum(samples, series("jvmtuning_context_switches_total").and(s -> "involuntary".equals(s.label("kind")))),
                firstSum(samples, series("jvmtuning_cpu_cfs_periods_total"), series("container_cpu_cfs_periods_total")),
                firstSum(samples, series("jvmtuning_cpu_cfs_throttled_periods_total"), series("container_cpu_cfs_throttled_periods_total")),
                cpuSeconds(samples),
                firstSum(samples, series("jvmtuning_cpu_limit_cores"), series("jvmtuning_available_processors"), series("system_cpu_count")),
                firstSum(samples, series("jvmtuning_server_threads_busy").and(PodSnapshot::servesTheApplication), series("tomcat_threads_busy_threads"), series("jetty_threads_busy"),
                        series("tomcat_threadpool_currentthreadsbusy"), series("executor_active_threads").and(s -> "worker".equals(s.label("name"))),
                        series("worker_pool_active").and(PodSnapshot::quarkusWorkers)),
                firstSum(samples, series("jvmtuning_server_threads_busy_seconds_total").and(PodSnapshot::servesTheApplication)),
                latestTimestamp(samples, series("jvmtuning_server_threads_busy_seconds_total").and(PodSnapshot::servesTheApplication)),
                firstSum(samples, series("jvmtuning_server_threads_max").and(PodSnapshot::servesTheApplication), series("tomcat_threads_config_max_threads"), series("jetty_threads_config_max"),
                        // Vert.x states no maximum of the Quarkus worker pool: in use + idle is it.
                        series("tomcat_threadpool_maxthreads"), series("worker_pool_active").or(series("worker_pool_idle")).and(PodSnapshot::quarkusWorkers)),
                firstSum(samples, series("hikaricp_connections_pending"), series("agroal_awaiting_count")),
                heapAfterGc(samples),
                liveHeap(samples),
                firstSum(samples, series("jvm_classes_loaded_classes"), series("jvm_classes_currently_loaded")),
                new Service(
                        firstSum(samples, series("http_server_requests_seconds_count").and(PodSnapshot::servesRequests)),
                        firstSum(samples, series("http_server_requests_seconds_sum").and(PodSnapshot::servesRequests)),
                        firstSum(samples, series("jvmtuning_run_queue_delay_seconds_total")),
                        firstSum(samples, series("hikaricp_connections_acquire_seconds_sum")),
                        firstSum(samples, series("hikaricp_connections_usage_seconds_sum")),
                        serverErrors(samples),
                        // Allocation happens in eden; the other pools' figures count the same bytes again as they are copied.
                        firstSum(samples, series("jvm_gc_memory_allocated_bytes_total"),
                                series("jvm_memory_pool_allocated_bytes_total").and(s -> s.label("pool") != null && s.label("pool").contains("Eden"))),
                        LatencyHistogram.of(samples, PodSnapshot::servesRequests),
                        new Queue(
                                firstSum(samples, series("jetty_threads_jobs"), series("worker_pool_queue_size").and(PodSnapshot::quarkusWorkers),
                                        series("executor_queued_tasks").and(s -> "worker".equals(s.label("name")))),
                                firstSum(samples, series("worker_pool_queue_delay_seconds_sum").and(PodSnapshot::quarkusWorkers))),
                        compilationSeconds(samples),
                        firstSum(samples, series("jvmtuning_gc_cpu_seconds_total"))));
    }

    /** Quarkus's worker pool (quarkus.thread-pool.*), where @Blocking endpoints run, in Vert.x's pool metrics. */
    private static boolean quarkusWorkers(Sample s) {
        return "vert.x-worker-thread".equals(s.label("pool_name"));
    }

    /** The agent labels the pool of a management port of its own: its threads answer probes and scrapes, not the workload. */
    private static boolean servesTheApplication(Sample s) {
        return !"management".equals(s.label("role"));
    }

    /**
     * The workload's requests the server answered. Scrapes and probes of the management endpoints are not the workload, and
     * neither is a request whose connection closed before an answer: Quarkus counts those with the status {@code RESET},
     * thousands a second when a connection limit sheds, each in a fraction of a millisecond of no work.
     */
    private static boolean servesRequests(Sample s) {
        String uri = s.label("uri");
        String status = s.label("status");
        return (uri == null || !(uri.startsWith("/actuator") || uri.startsWith("/q/")))
                && (status == null || HTTP_STATUS.matcher(status).matches());
    }

    /** Requests answered 5xx; zero when the server counts requests but none failed (Micrometer's status label). */
    private static Double serverErrors(List<Sample> samples) {
        Predicate<Sample> requests = series("http_server_requests_seconds_count").and(PodSnapshot::servesRequests);
        if (samples.stream().noneMatch(requests)) {
            return null;
        }
        Double errors = firstSum(samples, requests.and(s -> s.label("status") != null && s.label("status").startsWith("5")));
        return errors == null ? 0.0 : errors;
    }

    private static Double cpuSeconds(List<Sample> samples) {
        Double seconds = firstSum(samples, series("process_cpu_seconds_total"), series("container_cpu_usage_seconds_total"));
        Double micrometerNanos = firstSum(samples, series("process_cpu_time_ns_total"));
        // Boxed on both sides: a mixed ternary would unbox a missing figure into a NullPointerException.
        return seconds != null || micrometerNanos == null ? seconds : Double.valueOf(micrometerNanos / 1e9);
    }

    /** The Prometheus client (this project's agent) counts seconds, Micrometer milliseconds. */
    private static Double compilationSeconds(List<Sample> samples) {
        Double seconds = firstSum(samples, series("jvmtuning_jit_compiler_cpu_seconds_total"), series("jvm_compilation_time_seconds_total"));
        Double micrometerMillis = firstSum(samples, series("jvm_compilation_time_ms_total"));
        return seconds != null || micrometerMillis == null ? seconds : Double.valueOf(micrometerMillis / 1000);
    }

    static Predicate<Sample> series(String name) {
        return s -> s.name().equals(name) && !Double.isNaN(s.value());
    }

    private static boolean concurrentCollector(String gc) {
        return gc != null && (gc.contains("Concurrent") || gc.contains("Cycles"));
    }

    /** When the latest of the samples was taken, where they say (a sample's own timestamp); null when none does. */
    private static Long latestTimestamp(List<Sample> samples, Predicate<Sample> series) {
        return samples.stream().filter(series).map(Sample::timestampMillis).filter(Objects::nonNull).max(Long::compare).orElse(null);
    }

    /** The sum of the samples of the first dialect that has any; null when none has. */
    @SafeVarargs
    static Double firstSum(List<Sample> samples, Predicate<Sample>... dialects) {
        for (Predicate<Sample> dialect : dialects) {
            double sum = 0;
            boolean found = false;
            for (Sample s : samples) {
                if (dialect.test(s)) {
                    sum += s.value();
                    found = true;
                }
            }
            if (found) {
                return sum;
            }
        }
        return null;
    }

    /**
     * The heap live after the last collection, in bytes (R9c): Micrometer's live data size (the old generation after a full
     * collection), else the old generation's occupancy right after its last collection.
     */
    private static Double liveHeap(List<Sample> samples) {
        return firstSum(samples, series("jvm_gc_live_data_size_bytes"), series("jvm_memory_pool_collection_used_bytes").and(PodSnapshot::oldGeneration));
    }

    private static boolean oldGeneration(Sample sample) {
        String pool = sample.label("pool");
        return pool != null && (pool.contains("Old") || pool.contains("Tenured"));
    }

    /** Occupancy of the old generation right after the last collection, 0..1 (R15). */
    private static Double heapAfterGc(List<Sample> samples) {
        Double micrometer = firstSum(samples,
                series("jvm_memory_usage_after_gc_percent").and(s -> "heap".equals(s.label("area"))),
                series("jvm_memory_usage_after_gc").and(s -> "heap".equals(s.label("area"))));
        if (micrometer != null) {
            return micrometer;
        }
        Double used = firstSum(samples, series("jvm_memory_pool_collection_used_bytes").and(PodSnapshot::oldGeneration));
        Double max = firstSum(samples, series("jvm_memory_pool_collection_max_bytes").and(PodSnapshot::oldGeneration).and(s -> s.value() > 0),
                series("jvm_memory_pool_max_bytes").and(PodSnapshot::oldGeneration).and(s -> s.value() > 0));
        return used == null || max == null || max <= 0 ? null : used / max;
    }
}
