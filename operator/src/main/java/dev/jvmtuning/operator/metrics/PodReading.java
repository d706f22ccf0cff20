package dev.jvmtuning.operator.metrics;

import static dev.jvmtuning.operator.metrics.PodSnapshot.firstSum;
import static dev.jvmtuning.operator.metrics.PodSnapshot.series;

import dev.jvmtuning.operator.model.EffectiveOptions;
import dev.jvmtuning.operator.model.EffectiveOptions.Option;
import dev.jvmtuning.operator.model.EffectiveOptions.Origin;
import dev.jvmtuning.operator.model.JavaVersion;
import dev.jvmtuning.operator.model.ThreadingReport;
import dev.jvmtuning.operator.model.MemoryUse;
import dev.jvmtuning.operator.model.NativeMemory;
import dev.jvmtuning.operator.model.RuntimeMetricsOptions;
import dev.jvmtuning.operator.model.VirtualThreads;
import dev.jvmtuning.operator.model.VirtualThreads.Pinned;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * What one scrape (of a pod's endpoints together, or one pod's share of a Prometheus answer) says about a pod: the
 * figures of the window, the HotSpot options its JVM reports running with, its memory by kind, its virtual threads'
 * pinning, the Java feature version its JVM reports (null when none), and whether its JVM was seen running virtual
 * threads (null when it does not say).
 */
record PodReading(PodSnapshot snapshot, EffectiveOptions options, MemoryUse memory, VirtualThreads virtualThreads, Integer javaVersion,
        Boolean ranVirtualThreads) {

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
    /** The agent's counters of virtual threads that blocked pinned to their carrier, labelled frame. */
    static final String PINNED = "jvmtuning_virtual_thread_pinned_total";
    static final String PINNED_SECONDS = "jvmtuning_virtual_thread_pinned_seconds_total";
    /** The agent's gauges of the virtual thread scheduler (JDK 24 on), labelled figure. */
    static final String SCHEDULER = "jvmtuning_virtual_thread_scheduler";
    /** The agent's 1 once the JVM was seen running virtual threads (JDK 21 on), else 0. */
    static final String VIRTUAL_THREADS_SEEN = "jvmtuning_virtual_threads_seen";
    static final List<String> VIRTUAL_THREAD_SERIES = List.of(PINNED, PINNED_SECONDS, SCHEDULER, VIRTUAL_THREADS_SEEN);
    /** Micrometer's maximum of each memory pool, labelled area and id (the pool). */
    static final String MEMORY_MAX = "jvm_memory_max_bytes";
    /** Hikari's configured maximum of a pool's connections, labelled pool. */
    static final String CONNECTIONS_MAX = "hikaricp_connections_max";
    /** The series settings are read from without the agent; the server's thread maxima are PodSnapshot's too. */
    static final List<String> RUNTIME_SETTING_SERIES = List.of(MEMORY_MAX, "tomcat_threads_config_max_threads", "jetty_threads_config_max",
            CONNECTIONS_MAX);
    /**
     * The JVM's runtime, labelled version, vendor and runtime: the Prometheus Java client's (the agent's) and Micrometer's
     * (JvmInfoMetrics) names.
     */
    static final List<String> RUNTIME_INFO_SERIES = List.of("jvm_runtime_info", "jvm_info");
    /** Every series name a reading reads, for the scrape's filter and for a Prometheus query. */
    static final List<String> SERIES = Stream.of(PodSnapshot.SERIES, List.of(VM_OPTION), MEMORY_SERIES, VIRTUAL_THREAD_SERIES,
            RUNTIME_SETTING_SERIES, RUNTIME_INFO_SERIES).flatMap(List::stream).distinct().toList();

    static PodReading of(Scrape scrape, long atMillis) {
        return new PodReading(PodSnapshot.of(scrape, atMillis), options(scrape.samples()), memory(scrape.samples()),
                virtualThreads(scrape.samples()), javaVersion(scrape.samples()), ranVirtualThreads(scrape.samples()));
    }

    /** What the agent says of the JVM's virtual threads; null without its series. */
    static Boolean ranVirtualThreads(List<Sample> samples) {
        return samples.stream().filter(s -> s.name().equals(VIRTUAL_THREADS_SEEN) && !Double.isNaN(s.value())).map(s -> s.value() >= 1)
                .findFirst().orElse(null);
    }

    /** Of the readings whose JVM says, how many have run virtual threads; null when none says. */
    static ThreadingReport threading(Collection<PodReading> readings) {
        List<Boolean> said = readings.stream().map(PodReading::ranVirtualThreads).filter(Objects::nonNull).toList();
        return said.isEmpty() ? null : new ThreadingReport(said.size(), (int) said.stream().filter(ran -> ran).count());
    }

    /**
     * The lowest version the readings report; null when none does. Pods of a rollout across images run different JDKs: the
     * plan is for the oldest, whose JVM must still start with every flag planned.
     */
    static Integer oldestJavaVersion(Collection<PodReading> readings) {
        return readings.stream().map(PodReading::javaVersion).filter(Objects::nonNull).min(Integer::compare).orElse(null);
    }

    /** The feature version of the first runtime-info sample whose version label reads as one; null when none does. */
    static Integer javaVersion(List<Sample> samples) {
        return samples.stream().filter(s -> RUNTIME_INFO_SERIES.contains(s.name())).map(s -> JavaVersion.feature(s.label("version")))
                .filter(Objects::nonNull).findFirst().orElse(null);
    }

    /**
     * The options a scrape reports; an option reported twice (two origins across a re-read) keeps its last sample.
     * Without the agent's series, what the runtime's own metrics show.
     */
    static EffectiveOptions options(List<Sample> samples) {
        Map<String, Option> options = new LinkedHashMap<>();
        for (Sample s : samples) {
            if (s.name().equals(VM_OPTION) && s.label("option") != null && !Double.isNaN(s.value())) {
                options.put(s.label("option"), new Option(s.value(), Origin.of(s.label("origin"))));
            }
        }
        return options.isEmpty() ? shownByRuntime(samples) : new EffectiveOptions(options);
    }

    /**
     * The heap pools' maxima, and the server's and the connection pool's configured maxima where exactly one of
     * each shows: with two connectors or two data sources, which one the plan sized is not for the metrics to say.
     */
    static EffectiveOptions shownByRuntime(List<Sample> samples) {
        Map<String, Double> heapPools = new LinkedHashMap<>();
        for (Sample s : samples) {
            if (s.name().equals(MEMORY_MAX) && "heap".equals(s.label("area")) && s.label("id") != null && Double.isFinite(s.value())) {
                heapPools.put(s.label("id"), s.value());
            }
        }
        Double maxThreads = single(samples, "tomcat_threads_config_max_threads");
        return RuntimeMetricsOptions.of(heapPools, maxThreads != null ? maxThreads : single(samples, "jetty_threads_config_max"),
                single(samples, CONNECTIONS_MAX));
    }

    /** The value of the one series of this name; null when there is none, or several. */
    private static Double single(List<Sample> samples, String name) {
        List<Double> values = samples.stream().filter(s -> s.name().equals(name) && Double.isFinite(s.value())).map(Sample::value).toList();
        return values.size() == 1 ? values.get(0) : null;
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

    /** The pinnings by frame and the scheduler's figures; a frame with only one of its two counters counts zero for the other. */
    static VirtualThreads virtualThreads(List<Sample> samples) {
        Map<String, Double> counts = new LinkedHashMap<>();
        Map<String, Double> seconds = new LinkedHashMap<>();
        Map<String, Double> scheduler = new LinkedHashMap<>();
        for (Sample s : samples) {
            if (!Double.isFinite(s.value()) || s.value() < 0) {
                continue;
            }
            if (s.name().equals(PINNED) && s.label("frame") != null) {
                counts.put(s.label("frame"), s.value());
            } else if (s.name().equals(PINNED_SECONDS) && s.label("frame") != null) {
                seconds.put(s.label("frame"), s.value());
            } else if (s.name().equals(SCHEDULER) && s.label("figure") != null) {
                scheduler.put(s.label("figure"), s.value());
            }
        }
        Map<String, Pinned> frames = new LinkedHashMap<>();
        Stream.concat(counts.keySet().stream(), seconds.keySet().stream()).distinct()
                .forEach(frame -> frames.put(frame, new Pinned(counts.getOrDefault(frame, 0.0), seconds.getOrDefault(frame, 0.0))));
        return frames.isEmpty() && scheduler.isEmpty() ? VirtualThreads.NONE : new VirtualThreads(frames, scheduler);
    }

    private static Long whole(Double value) {
        return value == null || !Double.isFinite(value) ? null : Math.round(value);
    }
}
