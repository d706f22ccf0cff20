package dev.jvmtuning.lab;

import dev.jvmtuning.operator.api.v1alpha1.Observed;
import dev.jvmtuning.operator.api.v1alpha1.Runtime;
import dev.jvmtuning.operator.metrics.Sample;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;

/**
 * One setting measured: several closed-loop runs on one warmed-up process, and the window of
 * metrics the operator would have seen over them.
 *
 * @param origin    default, sweep, planner, loop 1, loop 2
 * @param runs      the runs' figures (medians are reported)
 * @param discardedRuns runs thrown away because the hypervisor stole too much of the CPU during them
 * @param effective what the app really ran with, read from its own metrics
 * @param observed  the operator's view of the runs (null when the app died)
 * @param failure   why the setting could not be measured, or null
 */
record Measurement(String origin, String label, Map<String, String> env, List<Run> runs, int discardedRuns, Effective effective, long peakRssBytes,
        Observed observed, String failure) {

    /**
     * A run: the load generator's figures, the CPU the app used meanwhile, and the share of the
     * machine's CPU time the hypervisor took for other guests (steal), which a VM's figures swing with.
     */
    record Run(double requestsPerSecond, double meanMillis, double p99Millis, long errors, double cpuCores, double stealPercent) {
    }

    /** The settings in force, as the app's metrics state them. */
    record Effective(Integer maxThreads, Integer poolSize, Long heapMiB, String collector) {
        static final Effective UNKNOWN = new Effective(null, null, null, null);
        private static final String QUARKUS_WORKERS = "vert.x-worker-thread";

        /**
         * From the app's Micrometer series (on Tomcat its own connector's, named by {@code connectorSuffix}) and the
         * agent's JVM series (the ones without Micrometer's id label). Agroal states no maximum: a Quarkus app's pool size is unknown.
         */
        static Effective of(Runtime runtime, List<Sample> samples, String connectorSuffix) {
            Double threads = switch (runtime) {
                case SpringBootTomcat -> first(samples, s -> s.name().equals("tomcat_threads_config_max_threads")
                        && s.label("name") != null && s.label("name").endsWith(connectorSuffix));
                case SpringBootJetty -> first(samples, s -> s.name().equals("jetty_threads_config_max"));
                // Vert.x's worker pool: in use + idle = its maximum.
                case Quarkus -> {
                    Double active = first(samples, s -> s.name().equals("worker_pool_active") && QUARKUS_WORKERS.equals(s.label("pool_name")));
                    Double idle = first(samples, s -> s.name().equals("worker_pool_idle") && QUARKUS_WORKERS.equals(s.label("pool_name")));
                    yield active == null || idle == null ? null : active + idle;
                }
                default -> null;
            };
            Double pool = first(samples, s -> s.name().equals("hikaricp_connections_max"));
            Double heap = first(samples, s -> s.name().equals("jvm_memory_max_bytes") && "heap".equals(s.label("area")) && s.label("id") == null);
            String gc = samples.stream().filter(s -> s.name().equals("jvm_gc_collection_seconds_count")).map(s -> s.label("gc"))
                    .map(Effective::collector).findFirst().orElse(null);
            return new Effective(threads == null ? null : threads.intValue(), pool == null ? null : pool.intValue(),
                    heap == null ? null : Math.round(heap / (1 << 20)), gc);
        }

        private static Double first(List<Sample> samples, Predicate<Sample> series) {
            return samples.stream().filter(series).map(Sample::value).findFirst().orElse(null);
        }

        private static String collector(String bean) {
            if (bean.startsWith("G1")) {
                return "G1";
            } else if (bean.startsWith("PS ")) {
                return "Parallel";
            } else if (bean.equals("Copy") || bean.equals("MarkSweepCompact")) {
                return "Serial";
            }
            return bean.split(" ")[0];
        }
    }

    static Measurement failed(String origin, String label, Map<String, String> env, String failure) {
        return new Measurement(origin, label, env, List.of(), 0, Effective.UNKNOWN, 0, null, failure);
    }

    double throughput() {
        return median(Run::requestsPerSecond);
    }

    double p99Millis() {
        return median(Run::p99Millis);
    }

    double meanMillis() {
        return median(Run::meanMillis);
    }

    double cpuCores() {
        return median(Run::cpuCores);
    }

    double stealPercent() {
        return median(Run::stealPercent);
    }

    long errors() {
        return runs.stream().mapToLong(Run::errors).sum();
    }

    private double median(ToDoubleFunction<Run> figure) {
        double[] values = runs.stream().mapToDouble(figure).sorted().toArray();
        if (values.length == 0) {
            return 0;
        }
        int middle = values.length / 2;
        return values.length % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
    }
}
