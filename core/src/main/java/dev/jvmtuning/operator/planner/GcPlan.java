package dev.jvmtuning.operator.planner;

import static dev.jvmtuning.operator.model.Units.mebibytes;
import static dev.jvmtuning.operator.model.Units.number;

import dev.jvmtuning.operator.api.v1alpha1.Collector;
import dev.jvmtuning.operator.api.v1alpha1.Gc;
import dev.jvmtuning.operator.model.ContainerFacts;
import dev.jvmtuning.operator.model.JvmFlags;
import dev.jvmtuning.operator.model.Rule;
import dev.jvmtuning.operator.model.Setting;
import dev.jvmtuning.operator.model.Units;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * R12-R14: an explicit collector instead of the one the JVM silently picks in a small container, its
 * pause goal, a fixed young generation for the generational throughput collectors, and GC thread
 * counts from the container's CPUs.
 *
 * @param collector       the collector to render, or null (selected in jvmOptions or the container's own flags)
 * @param maxPauseMillis  the pause goal to render, or null
 * @param effective       the collector the JVM will run, whoever chose it
 * @param youngBytes      -Xmn, or null
 */
record GcPlan(Collector collector, Collector effective, boolean zGenerational, Integer maxPauseMillis, Long youngBytes, Integer parallelThreads,
        Integer concurrentThreads, List<Decision> decisions) {
    /** R13: from this heap size on JDK 17+, ZGC's sub-millisecond pauses are worth its overhead. */
    static final long ZGC_HEAP_THRESHOLD = 4 * Units.GI;
    /** The JDK a profile is planned for when the image does not say. */
    static final int DEFAULT_JDK = 17;
    /**
     * R12: the young generation's share of the heap. A young generation that was too small caused
     * 100 minor and 7 full collections in a Tomcat load test; request garbage dies young.
     */
    static final int YOUNG_PERCENT_OF_HEAP = 40;
    /** R14: HotSpot's ParallelGCThreads is the CPU count up to 8, then 8 + 5/8 of the rest. */
    static final int PARALLEL_GC_FULL_CPUS = 8;
    /** R13: JDK 21 and 22 have generational ZGC behind -XX:+ZGenerational; from 23 on it is the only mode. */
    static final int FIRST_GENERATIONAL_ZGC_JDK = 21;
    static final int GENERATIONAL_ZGC_DEFAULT_JDK = 23;

    static GcPlan of(Gc spec, JvmFlags userFlags, ContainerFacts facts, CpuPlan cpus, MemoryPlan memory, PlanNotes notes) {
        Gc gc = Objects.requireNonNullElseGet(spec, Gc::new);
        Integer maxPause = gc.getMaxPauseMillis();
        List<Collector> fromOptions = userFlags.collectors();
        int jdk = facts.javaMajorVersion() != null ? facts.javaMajorVersion() : DEFAULT_JDK;
        List<Decision> decisions = new ArrayList<>();
        Collector collector = null;
        boolean asked = gc.getCollector() != null && gc.getCollector() != Collector.Auto;
        if (!fromOptions.isEmpty()) {
            // The JVM refuses a second collector, so the user's is never joined by the operator's (the planner has
            // already refused a profile that names another one).
            String source = userFlags.sourceOf("-XX:+UseG1GC").orElseThrow();
            decisions.add(new Decision(Setting.GC_COLLECTOR, fromOptions.get(0).name(), Rule.SPEC, asked
                    ? "set in the profile and already selected in " + source + ", so not rendered a second time"
                    : "kept as selected in " + source + ": the profile leaves the collector open (gc.collector unset or Auto), "
                            + "and the JVM refuses to start with two"));
        } else if (asked) {
            collector = gc.getCollector();
            decisions.add(new Decision(Setting.GC_COLLECTOR, collector.name(), Rule.SPEC, "set in the profile"));
        } else {
            collector = automatic(cpus.cores(), memory.heap(), maxPause, jdk);
            String rationale = automaticRationale(collector, cpus.cores(), memory.heap(), maxPause, jdk);
            Optional<String> aotCache = AotCacheGuard.cache(userFlags, facts);
            if (collector == Collector.ZGC && aotCache.isPresent()) {
                // ZGC runs without compressed oops, and the JVM rejects a cache made with them (AotCacheGuard).
                collector = automatic(cpus.cores(), null, maxPause, jdk);
                rationale = automaticRationale(collector, cpus.cores(), memory.heap(), maxPause, jdk) + "; not ZGC, which this heap "
                        + "would get: the JVM rejects the AOT cache of " + aotCache.get() + " under ZGC";
            }
            decisions.add(new Decision(Setting.GC_COLLECTOR, collector.name(), Rule.R13, rationale));
        }
        Collector effective = collector != null ? collector : fromOptions.get(0);
        boolean zGenerational = collector == Collector.ZGC && jdk >= FIRST_GENERATIONAL_ZGC_JDK && jdk < GENERATIONAL_ZGC_DEFAULT_JDK;
        if (maxPause != null) {
            if (effective == Collector.G1 || effective == Collector.Parallel) {
                decisions.add(new Decision(Setting.GC_MAX_PAUSE_MILLIS, maxPause.toString(), Rule.R12, "pause-time goal from the profile"));
            } else {
                notes.warnings.add("gc.maxPauseMillis " + maxPause + " is ignored by " + effective + ", which has no pause goal");
                maxPause = null;
            }
        }
        Long young = null;
        if (memory.renderedHeap() != null && (effective == Collector.Parallel || effective == Collector.Serial)) {
            young = memory.heap() * YOUNG_PERCENT_OF_HEAP / 100 / Units.MI * Units.MI;
            decisions.add(new Decision(Setting.HEAP_YOUNG, mebibytes(young), Rule.R12, YOUNG_PERCENT_OF_HEAP
                    + "% of the heap for the young generation: request garbage dies young, and a fixed nursery avoids a young "
                    + "generation so small that it causes full collections"));
        }

        Integer parallel = null;
        Integer concurrent = null;
        if (cpus.activeProcessorCount() != null && (effective == Collector.G1 || effective == Collector.Parallel)) {
            OptionalInt userParallel = userFlags.intFlag("ParallelGCThreads");
            OptionalInt userConc = userFlags.intFlag("ConcGCThreads");
            int n = cpus.activeProcessorCount();
            int parallelCount = userParallel.orElse(n <= PARALLEL_GC_FULL_CPUS ? n : PARALLEL_GC_FULL_CPUS + (n - PARALLEL_GC_FULL_CPUS) * 5 / 8);
            if (userParallel.isEmpty()) {
                parallel = parallelCount;
                decisions.add(new Decision(Setting.GC_PARALLEL_THREADS, Integer.toString(parallelCount), Rule.R14,
                        "HotSpot's own formula applied to " + n + " container CPUs"));
            }
            if (effective == Collector.G1 && userConc.isEmpty()) {
                concurrent = Math.max(1, (parallelCount + 2) / 4);
                decisions.add(new Decision(Setting.GC_CONCURRENT_THREADS, concurrent.toString(), Rule.R14,
                        "(ParallelGCThreads " + parallelCount + " + 2) / 4, never above ParallelGCThreads"));
            }
            if (userConc.isPresent() && userConc.getAsInt() > parallelCount) {
                notes.invalid.add(userFlags.sourceOf("-XX:ConcGCThreads=1").orElseThrow() + " set ConcGCThreads=" + userConc.getAsInt()
                        + " above ParallelGCThreads=" + parallelCount + "; the JVM refuses to start (R14)");
            }
        }
        return new GcPlan(collector, effective, zGenerational, maxPause, young, parallel, concurrent, decisions);
    }

    /**
     * R12a: the young generation the in-flight garbage must fit: -Xmn where rendered, else R12's share
     * of the heap (G1 sizes its own between 5 % and 60 %); null for ZGC, which has no survivor spaces,
     * or an unknown heap.
     */
    Long youngGeneration(Long heap) {
        if (youngBytes != null) {
            return youngBytes;
        }
        return heap == null || effective == Collector.ZGC ? null : heap * YOUNG_PERCENT_OF_HEAP / 100;
    }

    /** R13: Serial on one CPU, Parallel on two without a pause goal, G1 otherwise, ZGC for a large heap. */
    static Collector automatic(double cores, Long heap, Integer maxPause, int jdk) {
        long heapForChoice = heap != null ? heap : 0;
        if (heapForChoice >= ZGC_HEAP_THRESHOLD && jdk >= 17) {
            return Collector.ZGC;
        }
        if (cores <= 1 && maxPause == null) {
            return Collector.Serial;
        }
        if (cores <= 2 && maxPause == null) {
            return Collector.Parallel;
        }
        return Collector.G1;
    }

    private static String automaticRationale(Collector collector, double cores, Long heap, Integer maxPause, int jdk) {
        String basis = number(cores) + " CPUs, heap " + (heap != null ? mebibytes(heap) : "unknown");
        return switch (collector) {
            case ZGC -> basis + ": a heap of 4Gi or more on JDK 17+ gets ZGC's sub-millisecond pauses" + (jdk >= FIRST_GENERATIONAL_ZGC_JDK ? " (generational)" : "");
            case Serial -> basis + ": one CPU cannot run a concurrent collector alongside the application";
            case Parallel -> basis + ", no pause goal: the throughput collector";
            default -> basis + (maxPause != null ? ", pause goal " + maxPause + " ms" : "") + ": G1 meets a pause goal";
        };
    }
}
