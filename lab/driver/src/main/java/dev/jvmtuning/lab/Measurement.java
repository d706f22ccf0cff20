package dev.jvmtuning.lab;

import dev.jvmtuning.operator.api.v1alpha1.Observed;
import dev.jvmtuning.operator.api.v1alpha1.Runtime;
import dev.jvmtuning.operator.metrics.Sample;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;

/**
 * One setting measured: one warmed-up process, measured in rounds interleaved with the other
 * settings of its phase, and the window of metrics the operator would have seen at the end of its
 * warm-up.
 *
 * @param origin    default, sweep, planner, loop 1, loop 2, auto n
 * @param runs      one per round the setting took part in
 * @param effective what the app really ran with, read from its own metrics
 * @param observed  the operator's view of the last part of the warm-up (null when the app died)
 * @param failure   why the setting could not be measured, or null
 */
record Measurement(String origin, String label, Map<String, String> env, List<Run> runs, Effective effective, long peakRssBytes,
        Observed observed, String failure) {

    /**
     * A run: its round (the settings a round measured ran one after the other, so the VM's drift hits
     * them alike), the load generator's figures, the requests the connection pool failed for want of a
     * connection, the CPU the app and the generator used meanwhile, and the share of the machine's CPU
     * time the hypervisor took for other guests (steal).
     */
    record Run(int round, double requestsPerSecond, double meanMillis, double p99Millis, long errors, long acquisitionTimeouts,
            double appCores, double generatorCores, double stealPercent) {
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
                // Micrometer has no Undertow binder: the agent's reading of XNIO's worker MBean. The management server's
                // worker binds the same server.undertow.threads.worker, so either pool states it.
                case SpringBootUndertow -> first(samples, s -> s.name().equals("jvmtuning_server_threads_max") && "undertow".equals(s.label("server")));
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
        return new Measurement(origin, label, env, List.of(), Effective.UNKNOWN, 0, null, failure);
    }

    boolean ok() {
        return failure == null && !runs.isEmpty();
    }

    Stats.Interval throughput() {
        return mean(Run::requestsPerSecond);
    }

    Stats.Interval mean(ToDoubleFunction<Run> figure) {
        return Stats.mean(runs.stream().mapToDouble(figure).toArray());
    }

    /** This setting's figure over {@code other}'s, from the rounds both took part in. */
    Stats.Interval ratio(Measurement other, ToDoubleFunction<Run> figure) {
        Map<Integer, Run> theirs = other.runs.stream().collect(Collectors.toMap(Run::round, r -> r));
        List<Run> common = runs.stream().filter(r -> theirs.containsKey(r.round())).toList();
        return Stats.pairedRatio(common.stream().mapToDouble(figure).toArray(),
                common.stream().mapToDouble(r -> figure.applyAsDouble(theirs.get(r.round()))).toArray());
    }

    long errors() {
        return runs.stream().mapToLong(Run::errors).sum();
    }

    long acquisitionTimeouts() {
        return runs.stream().mapToLong(Run::acquisitionTimeouts).sum();
    }
}
