package dev.jvmtuning.operator.metrics;

import static dev.jvmtuning.operator.metrics.PodSnapshot.firstSum;
import static dev.jvmtuning.operator.metrics.PodSnapshot.series;

import dev.jvmtuning.operator.model.EffectiveOptions;
import dev.jvmtuning.operator.model.EffectiveOptions.Option;
import dev.jvmtuning.operator.model.EffectiveOptions.Origin;
import dev.jvmtuning.operator.model.MemoryUse;
import dev.jvmtuning.operator.model.NativeMemory;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * What one scrape (or one pod's share of a Prometheus answer) says about a pod: the figures of the window, the
 * HotSpot options its JVM reports running with, and its memory by kind.
 */
record PodReading(PodSnapshot snapshot, EffectiveOptions options, MemoryUse memory) {

    /** The agent's series of the JVM's options, labelled option and origin. */
    static final String VM_OPTION = "jvmtuning_vm_option";
    /** The agent's series of the JVM's native memory tracking, labelled category and kind. */
    static final String NATIVE_MEMORY = "jvmtuning_native_memory_bytes";
    /** The category of NATIVE_MEMORY that sums the others. */
    static final String NATIVE_MEMORY_TOTAL = "Total";
    /** The series memory is read from: the Prometheus Java client's (the agent's) and Micrometer's names. */
    static final List<String> MEMORY_SERIES = List.of("jvm_memory_used_bytes", "jvm_memory_committed_bytes", "jvm_memory_pool_committed_bytes",
            "jvm_buffer_pool_used_bytes", "jvm_buffer_memory_used_bytes", "jvm_threads_current", "jvm_threads_live_threads",
            "process_resident_memory_bytes", NATIVE_MEMORY);
    /** Every series name a reading reads, for the scrape's filter and for a Prometheus query. */
    static final List<String> SERIES = Stream.of(PodSnapshot.SERIES, List.of(VM_OPTION), MEMORY_SERIES).flatMap(List::stream).toList();

    static PodReading of(Scrape scrape, long atMillis) {
        return new PodReading(PodSnapshot.of(scrape, atMillis), options(scrape.samples()), memory(scrape.samples()));
    }

    /** The options a scrape reports; an option reported twice (two origins across a re-read) keeps its last sample. */
    static EffectiveOptions options(List<Sample> samples) {
        Map<String, Option> options = new LinkedHashMap<>();
        for (Sample s : samples) {
            if (s.name().equals(VM_OPTION) && s.label("option") != null && !Double.isNaN(s.value())) {
                options.put(s.label("option"), new Option(s.value(), Origin.of(s.label("origin"))));
            }
        }
        return options.isEmpty() ? EffectiveOptions.NONE : new EffectiveOptions(options);
    }

    /** The memory a scrape reports, in the agent's or Micrometer's names. */
    static MemoryUse memory(List<Sample> samples) {
        MemoryUse memory = new MemoryUse(
                whole(firstSum(samples, series("jvm_memory_used_bytes").and(s -> "heap".equals(s.label("area"))))),
                whole(firstSum(samples, series("jvm_memory_committed_bytes").and(s -> "heap".equals(s.label("area"))))),
                // HotSpot's Metaspace pool holds the compressed class space too.
                whole(firstSum(samples, series("jvm_memory_pool_committed_bytes").and(s -> "Metaspace".equals(s.label("pool"))),
                        series("jvm_memory_committed_bytes").and(s -> "Metaspace".equals(s.label("id"))))),
                whole(firstSum(samples, series("jvm_buffer_pool_used_bytes").and(s -> "direct".equals(s.label("pool"))),
                        series("jvm_buffer_memory_used_bytes").and(s -> "direct".equals(s.label("id"))))),
                whole(firstSum(samples, series("jvm_threads_current"), series("jvm_threads_live_threads"))),
                whole(firstSum(samples, series("process_resident_memory_bytes"))),
                nativeMemory(samples));
        return memory.reported() ? memory : MemoryUse.NONE;
    }

    /** The committed bytes by category; without the total category, the sum of the others. */
    static NativeMemory nativeMemory(List<Sample> samples) {
        Map<String, Long> committed = new LinkedHashMap<>();
        Long total = null;
        for (Sample s : samples) {
            String category = s.label("category");
            if (s.name().equals(NATIVE_MEMORY) && "committed".equals(s.label("kind")) && category != null && Double.isFinite(s.value())) {
                if (category.equals(NATIVE_MEMORY_TOTAL)) {
                    total = Math.round(s.value());
                } else {
                    committed.put(category, Math.round(s.value()));
                }
            }
        }
        if (committed.isEmpty()) {
            return NativeMemory.NONE;
        }
        return new NativeMemory(committed, total != null ? total : committed.values().stream().mapToLong(Long::longValue).sum());
    }

    private static Long whole(Double value) {
        return value == null || !Double.isFinite(value) ? null : Math.round(value);
    }
}
