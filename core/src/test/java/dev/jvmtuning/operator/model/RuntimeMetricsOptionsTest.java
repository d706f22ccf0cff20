package dev.jvmtuning.operator.model;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jvmtuning.operator.model.EffectiveOptions.Option;
import dev.jvmtuning.operator.model.EffectiveOptions.Origin;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class RuntimeMetricsOptionsTest {
    /** -Xmx300m */
    private static final double MAX_300M = 314_572_800;
    /** -Xmx1001m, which HotSpot runs as 1002 MiB */
    private static final double MAX_1001M = 1_050_673_152;

    private static Map<String, Double> pools(Object... nameThenMax) {
        Map<String, Double> pools = new LinkedHashMap<>();
        for (int i = 0; i < nameThenMax.length; i += 2) {
            pools.put((String) nameThenMax[i], ((Number) nameThenMax[i + 1]).doubleValue());
        }
        return pools;
    }

    /**
     * The heap pools' maxima MemoryPoolMXBean reports (what Micrometer's jvm_memory_max_bytes shows), measured on
     * OpenJDK 17.0.15 and Temurin 25.0.3, with the MaxHeapSize HotSpot reported beside them. Both JDKs report the same
     * figures, except for ZGC, generational only on 25.
     */
    static Stream<Arguments> measured() {
        return Stream.of(
                // JDK 17 and 25, -XX:+UseG1GC: the young pools have no maximum, the old generation has the heap
                Arguments.of("G1, -Xmx300m", pools("G1 Eden Space", -1, "G1 Old Gen", 314_572_800, "G1 Survivor Space", -1),
                        "UseG1GC", MAX_300M),
                Arguments.of("G1, -Xmx1001m", pools("G1 Eden Space", -1, "G1 Old Gen", 1_050_673_152, "G1 Survivor Space", -1),
                        "UseG1GC", MAX_1001M),
                // JDK 17 and 25, -XX:+UseSerialGC: the pools sum to the heap less one survivor space (304087040)
                Arguments.of("Serial, -Xmx300m", pools("Tenured Gen", 209_715_200, "Eden Space", 83_886_080, "Survivor Space", 10_485_760),
                        "UseSerialGC", MAX_300M),
                Arguments.of("Serial, -Xmx1001m", pools("Tenured Gen", 700_448_768, "Eden Space", 280_231_936, "Survivor Space", 34_996_224),
                        "UseSerialGC", MAX_1001M),
                // JDK 17 and 25, -XX:+UseParallelGC: likewise
                Arguments.of("Parallel, -Xmx300m", pools("PS Old Gen", 209_715_200, "PS Survivor Space", 13_107_200, "PS Eden Space", 78_643_200),
                        "UseParallelGC", MAX_300M),
                Arguments.of("Parallel, -Xmx1001m", pools("PS Old Gen", 700_448_768, "PS Survivor Space", 16_252_928, "PS Eden Space", 317_718_528),
                        "UseParallelGC", MAX_1001M),
                // JDK 17, -XX:+UseZGC: one pool
                Arguments.of("ZGC on 17", pools("ZHeap", 314_572_800), "UseZGC", MAX_300M),
                // JDK 25, -XX:+UseZGC (generational): each generation may grow to the whole heap
                Arguments.of("generational ZGC on 25", pools("ZGC Old Generation", 1_050_673_152, "ZGC Young Generation", 1_050_673_152),
                        "UseZGC", MAX_1001M),
                // JDK 17 and 25, -XX:+UseShenandoahGC: one pool
                Arguments.of("Shenandoah", pools("Shenandoah", 314_572_800), "UseShenandoahGC", MAX_300M));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("measured")
    void theHeapPoolsShowTheCollectorAndMaxHeapSize(String name, Map<String, Double> heapPools, String collector, double maxHeapSize) {
        EffectiveOptions shown = RuntimeMetricsOptions.of(heapPools, null, null);

        assertThat(shown.fromRuntimeMetrics()).isTrue();
        assertThat(shown.option("MaxHeapSize")).contains(new Option(maxHeapSize, Origin.RUNTIME_METRICS));
        RuntimeMetricsOptions.COLLECTORS.forEach(option -> assertThat(shown.option(option))
                .as(option).contains(new Option(option.equals(collector) ? 1 : 0, Origin.RUNTIME_METRICS)));
    }

    @Test
    void theServersAndThePoolsMaximaAreShownByTheSettingsNames() {
        EffectiveOptions shown = RuntimeMetricsOptions.of(Map.of(), 200.0, 10.0);

        assertThat(shown.options()).containsOnly(Map.entry("threads.max", new Option(200, Origin.RUNTIME_METRICS)),
                Map.entry("connectionPool.maxSize", new Option(10, Origin.RUNTIME_METRICS)));
        assertThat(shown.shows("MaxHeapSize")).as("no heap pools, no heap").isFalse();
    }

    @Test
    void poolsOfNoKnownCollectorShowNothing() {
        assertThat(RuntimeMetricsOptions.of(pools("Some Future Pool", 314_572_800), null, null)).isEqualTo(EffectiveOptions.NONE);
    }
}
