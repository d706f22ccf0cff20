package dev.jvmtuning.operator.model;

import dev.jvmtuning.operator.model.EffectiveOptions.Option;
import dev.jvmtuning.operator.model.EffectiveOptions.Origin;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a runtime's own metrics (Micrometer's JVM, server and pool meters) show of the planned settings, for a pod
 * without the agent: the heap's maximum from the heap pools' maxima, the collector from their names, and the
 * server's and the connection pool's configured maxima where the runtime publishes them.
 */
public final class RuntimeMetricsOptions {
    /** The options of the collectors whose heap pools this tells apart. */
    static final List<String> COLLECTORS = List.of("UseG1GC", "UseSerialGC", "UseParallelGC", "UseZGC", "UseShenandoahGC");

    private RuntimeMetricsOptions() {
    }

    /**
     * @param heapPoolMaxima each heap pool's maximum in bytes, by pool name (Micrometer's jvm_memory_max_bytes of area heap)
     * @param maxThreads     the server's configured maximum of request threads, null where it publishes none
     * @param poolMaxSize    the connection pool's configured maximum, null where it publishes none
     * @return the options they show, NONE when they show none
     */
    public static EffectiveOptions of(Map<String, Double> heapPoolMaxima, Double maxThreads, Double poolMaxSize) {
        Map<String, Option> shown = new LinkedHashMap<>();
        Optional<String> collector = collector(heapPoolMaxima.keySet());
        collector.ifPresent(inUse -> COLLECTORS.forEach(option -> shown.put(option, shown(option.equals(inUse) ? 1 : 0))));
        collector.flatMap(inUse -> heapMaxBytes(inUse, heapPoolMaxima)).ifPresent(bytes -> shown.put("MaxHeapSize", shown(bytes)));
        if (maxThreads != null) {
            shown.put(Setting.THREADS_MAX.key(), shown(maxThreads));
        }
        if (poolMaxSize != null) {
            shown.put(Setting.POOL_MAX_SIZE.key(), shown(poolMaxSize));
        }
        return shown.isEmpty() ? EffectiveOptions.NONE : EffectiveOptions.fromRuntimeMetrics(shown);
    }

    /** The collector whose pools these are, by HotSpot's pool names; empty for pools it does not know. */
    static Optional<String> collector(Iterable<String> heapPools) {
        for (String pool : heapPools) {
            if (pool.startsWith("G1 ")) {
                return Optional.of("UseG1GC");
            } else if (pool.startsWith("PS ")) {
                return Optional.of("UseParallelGC");
            } else if (pool.equals("Tenured Gen")) {
                return Optional.of("UseSerialGC");
            } else if (pool.equals("ZHeap") || pool.startsWith("ZGC ")) {
                return Optional.of("UseZGC");
            } else if (pool.startsWith("Shenandoah")) {
                return Optional.of("UseShenandoahGC");
            }
        }
        return Optional.empty();
    }

    /**
     * MaxHeapSize from the pools' maxima, as JDK 17 and 25 report them. G1 leaves its young pools without a maximum
     * (-1) and gives the old generation the whole heap. Serial and Parallel split the heap among their pools but count
     * one survivor space of the two, the one in use: the heap is the sum plus the other survivor space. Generational
     * ZGC gives each of its two generations the whole heap; single-pool collectors give that pool the heap.
     */
    static Optional<Double> heapMaxBytes(String collector, Map<String, Double> heapPoolMaxima) {
        List<Map.Entry<String, Double>> sized = heapPoolMaxima.entrySet().stream().filter(pool -> pool.getValue() > 0).toList();
        if (sized.isEmpty()) {
            return Optional.empty();
        }
        if (collector.equals("UseZGC")) {
            return sized.stream().map(Map.Entry::getValue).max(Double::compare);
        }
        double sum = sized.stream().mapToDouble(Map.Entry::getValue).sum();
        double otherSurvivor = sized.stream().filter(pool -> pool.getKey().contains("Survivor")).mapToDouble(Map.Entry::getValue).sum();
        return Optional.of(sum + otherSurvivor);
    }

    private static Option shown(double value) {
        return new Option(value, Origin.RUNTIME_METRICS);
    }
}
