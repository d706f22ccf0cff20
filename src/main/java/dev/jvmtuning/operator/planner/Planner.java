package dev.jvmtuning.operator.planner;

import static dev.jvmtuning.operator.planner.Units.mebibytes;
import static dev.jvmtuning.operator.planner.Units.number;

import dev.jvmtuning.operator.api.v1alpha1.Collector;
import dev.jvmtuning.operator.api.v1alpha1.ConnectionPool;
import dev.jvmtuning.operator.api.v1alpha1.Gc;
import dev.jvmtuning.operator.api.v1alpha1.Heap;
import dev.jvmtuning.operator.api.v1alpha1.Metrics;
import dev.jvmtuning.operator.api.v1alpha1.Queue;
import dev.jvmtuning.operator.api.v1alpha1.Runtime;
import dev.jvmtuning.operator.api.v1alpha1.Threads;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfileSpec;
import dev.jvmtuning.operator.api.v1alpha1.Workload;
import dev.jvmtuning.operator.planner.PlanResult.Plan;
import dev.jvmtuning.operator.planner.PlanResult.Reason;
import dev.jvmtuning.operator.planner.PlanResult.Rejected;
import dev.jvmtuning.operator.render.Knob;
import dev.jvmtuning.operator.render.Renderer;
import dev.jvmtuning.operator.render.Rendering;
import dev.jvmtuning.operator.render.ServerVocabulary;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * Turns a TuningProfile spec and the facts of its target container into JVM and server settings,
 * each with the rule of TUNING.md behind it (R1-R14). Pure: no I/O, no Kubernetes client, same
 * input, same output.
 */
public final class Planner {
    /** R1: a pool sized to the mean concurrency is saturated half the time; 25 % headroom keeps it near 80 % busy. */
    static final double CONCURRENCY_HEADROOM = 1.25;
    /** R2: seed 003's CPU-bound handler peaked at 1.5 x the saturation point (6 threads on 4 cores). */
    static final double CPU_SATURATION_HEADROOM = 1.5;
    /** R9a: what a busy worker thread's stack really commits (measured ~230 KiB), not its 1 MiB reservation. */
    static final long STACK_BUDGET = 256 * Units.KI;
    /** Threads besides the workers: JIT, VM, signal, reference handling, acceptors, pollers, pool housekeeping. */
    static final int JVM_OWN_THREADS = 40;
    /** The worker pool that Tomcat, Jetty and Quarkus use when nothing is set. */
    static final int SERVER_DEFAULT_MAX_THREADS = 200;
    static final long MIN_HEAP = 32 * Units.MI;
    static final long ZGC_HEAP_THRESHOLD = 4 * Units.GI;
    /** R6: the kernel's net.core.somaxconn on Linux 5.4 and later; the listen backlog is capped at it. */
    static final int SOMAXCONN = 4096;
    static final int TOMCAT_DEFAULT_ACCEPT_COUNT = 100;
    static final int TOMCAT_DEFAULT_MAX_CONNECTIONS = 8192;
    /** Derived values stay within the bounds the CRD puts on explicit ones. */
    static final int MAX_THREADS = 100_000;
    static final int MAX_QUEUE_SIZE = 10_000_000;
    static final int MAX_POOL_SIZE = 10_000;
    static final int MAX_CONNECTIONS = 1_000_000;

    private Planner() {
    }

    public static PlanResult plan(TuningProfileSpec spec, ContainerFacts facts) {
        return new Planning(spec, facts).run();
    }

    /** One planning pass; holds the intermediate figures so each rule reads as a step. */
    private static final class Planning {
        private final TuningProfileSpec spec;
        private final ContainerFacts facts;
        private final JvmFlags userFlags;
        private final ServerVocabulary vocabulary;
        private final List<String> invalid = new ArrayList<>();
        private final List<String> infeasible = new ArrayList<>();
        private final List<String> warnings = new ArrayList<>();
        private final List<Decision> decisions = new ArrayList<>();

        private Double rate;
        private Double latency;
        private Double cpuPerRequest;
        private Double queueWait;
        private Double dbTime;

        private Integer activeProcessorCount;
        private double cores;
        private Integer maxThreads;
        private boolean threadsExplicit;
        private Integer minSpare;
        private MemoryBudget budget;
        private Long heap;
        private boolean heapRendered;
        private Long young;
        private Collector collector;
        private boolean zGenerational;
        private Integer maxPause;
        private Integer parallelGcThreads;
        private Integer concGcThreads;
        private Integer acceptCount;
        private Integer maxConnections;
        private Integer maxQueueSize;
        private Integer poolMax;
        private Integer poolMinIdle;

        Planning(TuningProfileSpec spec, ContainerFacts facts) {
            this.spec = spec;
            this.facts = facts;
            this.userFlags = new JvmFlags(Objects.requireNonNullElse(spec.getJvmOptions(), List.of()));
            this.vocabulary = ServerVocabulary.of(spec.getRuntime());
        }

        /** Derived values only for knobs the runtime has; an explicit value it lacks is reported by the renderer. */
        private boolean derivable(Knob knob) {
            return vocabulary.properties().containsKey(knob);
        }

        PlanResult run() {
            readWorkload();
            checkJvmOptions();
            if (!invalid.isEmpty()) {
                return new Rejected(Reason.Invalid, invalid);
            }
            planCpus();
            planThreads();
            planMemory();
            planCollector();
            planQueues();
            planConnectionPool();
            planAgent();
            if (!invalid.isEmpty()) {
                return new Rejected(Reason.Invalid, invalid);
            }
            if (!infeasible.isEmpty()) {
                return new Rejected(Reason.Infeasible, infeasible);
            }
            TuningValues values = new TuningValues(maxThreads, minSpare, acceptCount, maxConnections, maxQueueSize,
                    poolMax, poolMinIdle, activeProcessorCount, heapRendered ? heap : null, young, collector, zGenerational,
                    maxPause, parallelGcThreads, concGcThreads, agentPort(),
                    budget == null ? null : budget.codeCache(), budget == null ? null : budget.directMemory());
            Rendering rendering = Renderer.render(values, spec, facts);
            List<String> allWarnings = new ArrayList<>(warnings);
            allWarnings.addAll(rendering.warnings());
            return new Plan(values, List.copyOf(decisions), budget, rendering, List.copyOf(allWarnings));
        }

        private void decide(String name, String value, String rule, String rationale) {
            decisions.add(new Decision(name, value, rule, rationale));
        }

        private void readWorkload() {
            Workload w = spec.getWorkload();
            if (w == null) {
                return;
            }
            rate = w.getRequestsPerSecond();
            if (rate != null && !(rate > 0)) {
                invalid.add("workload.requestsPerSecond must be positive, got " + rate);
            }
            latency = duration("workload.meanLatency", w.getMeanLatency());
            cpuPerRequest = duration("workload.cpuPerRequest", w.getCpuPerRequest());
            queueWait = duration("workload.maxQueueWait", w.getMaxQueueWait());
            dbTime = duration("workload.dbTimePerRequest", w.getDbTimePerRequest());
            if (latency != null && latency <= 0) {
                invalid.add("workload.meanLatency must be positive");
            }
            if (cpuPerRequest != null && cpuPerRequest <= 0) {
                invalid.add("workload.cpuPerRequest must be positive");
            }
            if (cpuPerRequest != null && latency != null && cpuPerRequest > latency) {
                invalid.add("workload.cpuPerRequest (" + w.getCpuPerRequest() + ") cannot exceed workload.meanLatency (" + w.getMeanLatency() + ")");
            }
        }

        private Double duration(String field, String value) {
            if (value == null) {
                return null;
            }
            try {
                return Units.seconds(value);
            } catch (IllegalArgumentException e) {
                invalid.add(field + ": " + e.getMessage());
                return null;
            }
        }

        private void checkJvmOptions() {
            List<Collector> chosen = userFlags.collectors();
            if (chosen.size() > 1) {
                invalid.add("jvmOptions select more than one garbage collector: " + chosen + "; the JVM refuses to start");
            }
            Gc gc = spec.getGc();
            if (gc != null && gc.getCollector() != null && gc.getCollector() != Collector.Auto && !chosen.isEmpty()
                    && chosen.get(0) != gc.getCollector()) {
                invalid.add("jvmOptions select " + chosen.get(0) + " but gc.collector is " + gc.getCollector() + "; set the collector in one place");
            }
            if (spec.getHeap() != null && userFlags.heapSizingFlag().isPresent()) {
                invalid.add("jvmOptions contain " + userFlags.heapSizingFlag().get() + " but the heap section sizes the heap; set it in one place");
            }
            String variable = spec.getJvmOptionsVariable().name();
            if (facts.envFromReferences().contains(variable)) {
                invalid.add(variable + " is set from a reference (valueFrom) in the container, so the operator cannot add flags to it "
                        + "without losing it; choose another jvmOptionsVariable or make the value literal");
            }
            int threads = userFlags.intFlag("ParallelGCThreads").orElse(Integer.MAX_VALUE);
            OptionalInt conc = userFlags.intFlag("ConcGCThreads");
            if (conc.isPresent() && conc.getAsInt() > threads) {
                invalid.add("jvmOptions set ConcGCThreads=" + conc.getAsInt() + " above ParallelGCThreads=" + threads + "; the JVM refuses to start (R14)");
            }
        }

        /** R14: the JVM sees the container's CPUs only if told; since JDK 19 / 17.0.5 it ignores CPU shares. */
        private void planCpus() {
            OptionalInt userCount = userFlags.intFlag("ActiveProcessorCount");
            Double containerCores = facts.cores();
            if (userCount.isPresent()) {
                cores = userCount.getAsInt();
                decide("jvm.activeProcessorCount", Integer.toString(userCount.getAsInt()), "spec",
                        "set in jvmOptions: -XX:ActiveProcessorCount=" + userCount.getAsInt());
            } else if (containerCores != null) {
                activeProcessorCount = (int) Math.max(1, Math.ceil(containerCores));
                cores = containerCores;
                String source = facts.cpuLimitCores() != null ? "CPU limit" : "CPU request (no limit set)";
                decide("jvm.activeProcessorCount", activeProcessorCount.toString(), "R14",
                        source + " " + number(containerCores) + " rounded up to " + activeProcessorCount
                                + " so GC and JIT threads are sized for the container, not the node");
            } else {
                cores = 1;
                warnings.add("the container has no CPU limit or request: the JVM sizes GC and JIT threads for the whole node (R14), "
                        + "and thread caps assume 1 CPU; set resources.requests.cpu");
            }
        }

        /** R1-R3, R5: enough workers for the target concurrency, no more than the CPUs can keep busy. */
        private void planThreads() {
            Threads threads = spec.getThreads();
            Integer explicitMax = threads == null ? null : threads.getMax();
            Integer explicitMinSpare = threads == null ? null : threads.getMinSpare();
            Double saturation = cpuPerRequest != null && latency != null ? cores * latency / cpuPerRequest : null;
            if (explicitMax != null) {
                maxThreads = explicitMax;
                threadsExplicit = true;
                decide("threads.max", explicitMax.toString(), "spec", "set in the profile");
                if (saturation != null && explicitMax > Math.ceil(saturation * CPU_SATURATION_HEADROOM)) {
                    warnings.add("threads.max " + explicitMax + " is above the CPU saturation point " + number(Math.ceil(saturation))
                            + " (" + number(cores) + " CPUs x " + number(latency * 1000) + " ms / " + number(cpuPerRequest * 1000)
                            + " ms CPU per request, R2): the extra threads only add context switches");
                }
            } else if (rate != null && latency != null) {
                double inFlight = rate * latency;
                int littles = bounded(inFlight * CONCURRENCY_HEADROOM, MAX_THREADS);
                String rationale = number(rate) + " req/s x " + number(latency * 1000) + " ms = " + number(inFlight)
                        + " requests in flight (R1), +25% headroom = " + littles;
                maxThreads = littles;
                String rule = "R1";
                if (saturation != null) {
                    int cap = bounded(saturation * CPU_SATURATION_HEADROOM, MAX_THREADS);
                    if (cap < littles) {
                        maxThreads = cap;
                        rule = "R3";
                        rationale += "; capped at " + cap + " = 1.5 x the CPU saturation point " + number(cores) + " CPUs x "
                                + number(latency * 1000) + " ms / " + number(cpuPerRequest * 1000) + " ms CPU (R2): more threads only add context switches";
                    } else {
                        rationale += "; below the CPU cap " + cap + " (R2)";
                    }
                }
                decide("threads.max", maxThreads.toString(), rule, rationale);
            }

            if (explicitMinSpare != null) {
                if (maxThreads != null && explicitMinSpare > maxThreads) {
                    invalid.add("threads.minSpare " + explicitMinSpare + " exceeds threads.max " + maxThreads
                            + (threadsExplicit ? "" : " (derived from the workload)"));
                }
                minSpare = explicitMinSpare;
                decide("threads.minSpare", explicitMinSpare.toString(), "spec", "set in the profile");
            } else if (maxThreads != null && rate != null && latency != null && derivable(Knob.MIN_SPARE_THREADS)) {
                double inFlight = rate * latency;
                minSpare = (int) Math.min(maxThreads, Math.max(1, Math.ceil(inFlight)));
                decide("threads.minSpare", minSpare.toString(), "R5",
                        "the steady concurrency " + number(inFlight) + " stays warm, so the pool does not shrink and regrow under load");
            }
        }

        /** R9-R10: the heap is what the limit leaves after metaspace, code cache, stacks, direct memory and overhead. */
        private void planMemory() {
            Long limit = facts.memoryBudgetBytes();
            Heap heapSpec = spec.getHeap();
            if (facts.memoryLimitBytes() == null && limit != null) {
                warnings.add("the container has no memory limit: the heap is budgeted against the memory request " + mebibytes(limit));
            }

            long stack = userFlags.threadStackBytes().stream().map(xss -> Math.min(xss, STACK_BUDGET)).findFirst().orElse(STACK_BUDGET);
            int workerThreads = maxThreads != null ? maxThreads : SERVER_DEFAULT_MAX_THREADS;
            int ownThreads = JVM_OWN_THREADS + 2 * (int) Math.ceil(cores);
            long metaspace = 14 * Units.MI + (long) (5.8 * Units.KI) * loadedClasses(spec.getRuntime());
            long codeCache = userFlags.all().stream().filter(f -> f.startsWith("-XX:ReservedCodeCacheSize="))
                    .map(f -> Units.jvmBytes(f.substring(f.indexOf('=') + 1))).reduce((a, b) -> b)
                    .orElse(limit != null && limit < Units.GI ? 64 * Units.MI : 240 * Units.MI);
            long direct = userFlags.all().stream().filter(f -> f.startsWith("-XX:MaxDirectMemorySize="))
                    .map(f -> Units.jvmBytes(f.substring(f.indexOf('=') + 1))).reduce((a, b) -> b)
                    .orElse(directMemory(spec.getRuntime()));
            long overhead = 32 * Units.MI + (limit == null ? 0 : limit / 20);

            Long explicitHeap = null;
            String heapSource = null;
            if (heapSpec != null && heapSpec.getSize() != null) {
                explicitHeap = Units.bytes(heapSpec.getSize()) / Units.MI * Units.MI;
                heapSource = "set in the profile";
            } else if (heapSpec != null && heapSpec.getPercentOfLimit() != null) {
                if (limit == null) {
                    invalid.add("heap.percentOfLimit needs a memory limit on the container, and it has none");
                    return;
                }
                explicitHeap = limit * heapSpec.getPercentOfLimit() / 100 / Units.MI * Units.MI;
                heapSource = heapSpec.getPercentOfLimit() + "% of the " + mebibytes(limit) + " limit";
            } else if (userFlags.maxHeapBytes().isPresent()) {
                explicitHeap = userFlags.maxHeapBytes().getAsLong() / Units.MI * Units.MI;
                heapSource = "set in jvmOptions";
            }

            budget = new MemoryBudget(limit == null ? Long.MAX_VALUE : limit, 0, metaspace, codeCache,
                    workerThreads + ownThreads, stack, direct, overhead);
            if (limit == null) {
                budget = null;
                if (explicitHeap != null) {
                    heap = explicitHeap;
                    heapRendered = heapSpec != null;
                    decide("heap.size", mebibytes(heap), "spec", heapSource + "; not checked: the container has no memory limit or request");
                } else {
                    warnings.add("the container has no memory limit or request: the heap is left to the JVM (a quarter of the node's memory)");
                }
                return;
            }

            if (explicitHeap != null) {
                heap = explicitHeap;
                heapRendered = heapSpec != null;
                budget = budget.withHeap(heap);
                if (!budget.fits() && !threadsExplicit && maxThreads != null) {
                    capThreadsToFit(ownThreads);
                }
                if (!budget.fits()) {
                    infeasible.add(budget.describe() + " exceeds the " + mebibytes(limit) + " memory limit (R9); "
                            + "lower the heap or threads, or raise the limit to at least " + mebibytes(roundUpToMi(budget.total())));
                    return;
                }
                decide("heap.size", mebibytes(heap), heapSpec != null ? "spec" : "R9", heapSource + "; " + budget.describe()
                        + " fits the " + mebibytes(limit) + " limit (R9)");
            } else {
                long derived = (limit - budget.nonHeap()) / Units.MI * Units.MI;
                if (derived < MIN_HEAP) {
                    infeasible.add("the " + mebibytes(limit) + " memory limit leaves " + mebibytes(Math.max(0, derived))
                            + " for the heap after non-heap memory (" + budget.withHeap(0).describe() + "); "
                            + "raise the limit to at least " + mebibytes(roundUpToMi(budget.nonHeap() + MIN_HEAP)) + " or lower threads (R9)");
                    return;
                }
                heap = derived;
                heapRendered = true;
                budget = budget.withHeap(heap);
                decide("heap.size", mebibytes(heap), "R9", "the " + mebibytes(limit) + " limit minus non-heap memory: " + budget.describe());
            }
            if (heapRendered) {
                decide("heap.initial", mebibytes(heap), "R10", "initial heap = maximum heap: no resizing pauses, and the memory is claimed at start");
            }
            OptionalLong userXss = userFlags.threadStackBytes();
            if (userXss.isEmpty()) {
                decide("jvm.threadStackBudget", (stack / Units.KI) + "Ki", "R9a",
                        "stacks are reserved at -Xss (1 MiB) but commit lazily: measured ~230 KiB per busy worker, budgeted at 256 KiB");
            }
        }

        /** R3 with R9: derived threads give way to an explicit heap before the plan is declared infeasible. */
        private void capThreadsToFit(int ownThreads) {
            long room = budget.limit() - budget.heap() - (budget.nonHeap() - budget.threadStacks());
            int fit = (int) (room / budget.stackPerThread()) - ownThreads;
            if (fit >= 1 && fit < maxThreads) {
                int before = maxThreads;
                maxThreads = fit;
                budget = budget.withThreads(fit + ownThreads);
                decisions.removeIf(d -> d.name().equals("threads.max"));
                decide("threads.max", Integer.toString(fit), "R3",
                        "derived " + before + " capped at " + fit + " so thread stacks fit the memory limit beside the heap (R9)");
                if (minSpare != null && minSpare > fit) {
                    minSpare = fit;
                    decisions.removeIf(d -> d.name().equals("threads.minSpare"));
                    decide("threads.minSpare", Integer.toString(fit), "R5", "capped at threads.max");
                }
            }
        }

        /** R12-R14: an explicit collector, not the one the JVM silently picks in a small container. */
        private void planCollector() {
            Gc gc = Objects.requireNonNullElseGet(spec.getGc(), Gc::new);
            maxPause = gc.getMaxPauseMillis();
            List<Collector> fromOptions = userFlags.collectors();
            int jdk = facts.javaMajorVersion() != null ? facts.javaMajorVersion() : 17;
            if (gc.getCollector() != null && gc.getCollector() != Collector.Auto) {
                collector = gc.getCollector();
                decide("gc.collector", collector.name(), "spec", "set in the profile");
            } else if (!fromOptions.isEmpty()) {
                decide("gc.collector", fromOptions.get(0).name(), "spec", "selected in jvmOptions");
            } else {
                long heapForChoice = heap != null ? heap : 0;
                String basis = number(cores) + " CPUs, heap " + (heap != null ? mebibytes(heap) : "unknown");
                if (heapForChoice >= ZGC_HEAP_THRESHOLD && jdk >= 17) {
                    collector = Collector.ZGC;
                    decide("gc.collector", "ZGC", "R13", basis + ": a heap of 4Gi or more on JDK 17+ gets ZGC's sub-millisecond pauses"
                            + (jdk >= 21 ? " (generational)" : ""));
                } else if (cores <= 1 && maxPause == null) {
                    collector = Collector.Serial;
                    decide("gc.collector", "Serial", "R13", basis + ": one CPU cannot run a concurrent collector alongside the application");
                } else if (cores <= 2 && maxPause == null) {
                    collector = Collector.Parallel;
                    decide("gc.collector", "Parallel", "R13", basis + ", no pause goal: the throughput collector");
                } else {
                    collector = Collector.G1;
                    decide("gc.collector", "G1", "R13", basis + (maxPause != null ? ", pause goal " + maxPause + " ms" : "") + ": G1 meets a pause goal");
                }
            }
            Collector effective = collector != null ? collector : fromOptions.get(0);
            zGenerational = collector == Collector.ZGC && jdk >= 21 && jdk < 23;
            if (maxPause != null) {
                if (effective == Collector.G1 || effective == Collector.Parallel) {
                    decide("gc.maxPauseMillis", maxPause.toString(), "R12", "pause-time goal from the profile");
                } else {
                    warnings.add("gc.maxPauseMillis " + maxPause + " is ignored by " + effective + ", which has no pause goal");
                    maxPause = null;
                }
            }
            if (heap != null && heapRendered && (effective == Collector.Parallel || effective == Collector.Serial)) {
                young = heap * 2 / 5 / Units.MI * Units.MI;
                decide("heap.young", mebibytes(young), "R12", "40% of the heap for the young generation: request garbage dies young, "
                        + "and a fixed nursery avoids the too-small young generation of seed 001 (100 minor + 7 full GCs)");
            }
            planGcThreads(effective);
        }

        /** R14: GC worker counts from the container's CPUs; ConcGCThreads never above ParallelGCThreads. */
        private void planGcThreads(Collector effective) {
            if (activeProcessorCount == null || (effective != Collector.G1 && effective != Collector.Parallel)) {
                return;
            }
            OptionalInt userParallel = userFlags.intFlag("ParallelGCThreads");
            OptionalInt userConc = userFlags.intFlag("ConcGCThreads");
            int n = activeProcessorCount;
            int parallel = userParallel.orElse(n <= 8 ? n : 8 + (n - 8) * 5 / 8);
            if (userParallel.isEmpty()) {
                parallelGcThreads = parallel;
                decide("gc.parallelThreads", Integer.toString(parallel), "R14", "HotSpot's own formula applied to " + n + " container CPUs");
            }
            if (effective == Collector.G1 && userConc.isEmpty()) {
                concGcThreads = Math.max(1, (parallel + 2) / 4);
                decide("gc.concurrentThreads", concGcThreads.toString(), "R14",
                        "(ParallelGCThreads " + parallel + " + 2) / 4, never above ParallelGCThreads");
            }
            if (userConc.isPresent() && userConc.getAsInt() > parallel) {
                invalid.add("jvmOptions set ConcGCThreads=" + userConc.getAsInt() + " above ParallelGCThreads=" + parallel
                        + "; the JVM refuses to start (R14)");
            }
        }

        /** R6-R7: a bounded queue fails fast; the backlog holds a burst; connections cover workers plus queue. */
        private void planQueues() {
            Queue queue = Objects.requireNonNullElseGet(spec.getQueue(), Queue::new);
            if (queue.getMaxQueueSize() != null) {
                maxQueueSize = queue.getMaxQueueSize();
                decide("queue.maxQueueSize", maxQueueSize.toString(), "spec", "set in the profile");
            } else if (rate != null && queueWait != null && derivable(Knob.MAX_QUEUE_SIZE)) {
                maxQueueSize = bounded(rate * queueWait, MAX_QUEUE_SIZE);
                decide("queue.maxQueueSize", maxQueueSize.toString(), "R7", number(rate) + " req/s x " + number(queueWait)
                        + " s longest acceptable wait: a request further back would wait too long, so it is rejected at once");
            }
            if (queue.getAcceptCount() != null) {
                acceptCount = queue.getAcceptCount();
                decide("queue.acceptCount", acceptCount.toString(), "spec", "set in the profile; the kernel caps it at net.core.somaxconn (R6)");
            } else if (rate != null && derivable(Knob.ACCEPT_COUNT)) {
                acceptCount = (int) Math.min(SOMAXCONN, Math.max(TOMCAT_DEFAULT_ACCEPT_COUNT, Math.ceil(rate)));
                decide("queue.acceptCount", acceptCount.toString(), "R6", "one second of arrivals at " + number(rate)
                        + " req/s, at least the default " + TOMCAT_DEFAULT_ACCEPT_COUNT + ", at most net.core.somaxconn " + SOMAXCONN);
            }
            if (acceptCount != null && acceptCount > SOMAXCONN) {
                warnings.add("queue.acceptCount " + acceptCount + " exceeds net.core.somaxconn (" + SOMAXCONN + " on Linux 5.4+, 128 before): "
                        + "the kernel caps the backlog and resets connections beyond it; raising acceptCount alone does nothing (R6)");
            }
            if (queue.getMaxConnections() != null) {
                maxConnections = queue.getMaxConnections();
                decide("queue.maxConnections", maxConnections.toString(), "spec", "set in the profile");
                int needed = Objects.requireNonNullElse(maxThreads, 0) + Objects.requireNonNullElse(maxQueueSize, 0);
                if (maxConnections < needed) {
                    warnings.add("queue.maxConnections " + maxConnections + " is below threads.max + queue.maxQueueSize = " + needed
                            + ": connections, not threads, will limit throughput (R6)");
                }
            } else if (maxThreads != null && derivable(Knob.MAX_CONNECTIONS)) {
                int needed = maxThreads + Objects.requireNonNullElse(maxQueueSize, 0);
                if (needed > TOMCAT_DEFAULT_MAX_CONNECTIONS) {
                    needed = Math.min(needed, MAX_CONNECTIONS);
                    maxConnections = needed;
                    decide("queue.maxConnections", maxConnections.toString(), "R6", "threads.max " + maxThreads + " + queue "
                            + Objects.requireNonNullElse(maxQueueSize, 0) + ": the default " + TOMCAT_DEFAULT_MAX_CONNECTIONS
                            + " connections would cap throughput below the threads'");
                }
            }
        }

        /** R8: the pool admits the concurrency that reaches the database, and no more than the workers can use. */
        private void planConnectionPool() {
            ConnectionPool pool = spec.getConnectionPool();
            if (pool != null && pool.getMaxSize() != null) {
                poolMax = pool.getMaxSize();
                decide("connectionPool.maxSize", poolMax.toString(), "spec", "set in the profile; " + totalConnections(poolMax));
            } else if (rate != null && dbTime != null && derivable(Knob.POOL_MAX_SIZE)) {
                double atDatabase = rate * dbTime;
                int size = bounded(atDatabase * CONCURRENCY_HEADROOM, MAX_POOL_SIZE);
                String rationale = number(rate) + " req/s x " + number(dbTime * 1000) + " ms at the database = " + number(atDatabase)
                        + " connections busy (R8), +25% headroom = " + size;
                if (maxThreads != null && size > maxThreads) {
                    rationale += "; capped at threads.max " + maxThreads + ": a worker holds one connection at a time";
                    size = maxThreads;
                }
                poolMax = size;
                decide("connectionPool.maxSize", poolMax.toString(), "R8", rationale + "; " + totalConnections(poolMax));
            }
            if (pool != null && pool.getMinIdle() != null) {
                poolMinIdle = pool.getMinIdle();
                if (poolMax != null && poolMinIdle > poolMax) {
                    invalid.add("connectionPool.minIdle " + poolMinIdle + " exceeds connectionPool.maxSize " + poolMax);
                }
                decide("connectionPool.minIdle", poolMinIdle.toString(), "spec", "set in the profile");
            }
        }

        private Integer agentPort() {
            Metrics metrics = spec.getMetrics();
            return metrics != null && metrics.agentInjected() ? metrics.effectivePort() : null;
        }

        private void planAgent() {
            Metrics metrics = spec.getMetrics();
            if (metrics != null && metrics.agentInjected()) {
                decide("metrics.agent", Integer.toString(metrics.effectivePort()), "R17",
                        "the jvm-tuning agent is injected and serves /metrics on this port: context switches, run-queue delay "
                                + "and CPU throttling exist per container only inside the pod");
            }
        }

        private String totalConnections(int size) {
            return size + " x " + facts.replicas() + " replicas = " + (long) size * facts.replicas()
                    + " database connections; keep that under the database's limit (R8)";
        }

        /** A derived count: rounded up, at least 1, at most the bound. */
        private static int bounded(double value, int max) {
            return (int) Math.min(max, Math.max(1, Math.ceil(value)));
        }

        private static long roundUpToMi(long bytes) {
            return (bytes + Units.MI - 1) / Units.MI * Units.MI;
        }

        /** Classes a typical service of this stack loads, for the metaspace estimate (R9). */
        private static int loadedClasses(Runtime runtime) {
            return switch (runtime) {
                case SpringBootTomcat, SpringBootJetty, SpringBootUndertow -> 16_000;
                case Quarkus -> 10_000;
                case Generic -> 12_000;
            };
        }

        /** Direct buffers: Netty (Quarkus) and XNIO (Undertow) pool them; servlet NIO connectors need little. */
        private static long directMemory(Runtime runtime) {
            return switch (runtime) {
                case Quarkus, SpringBootUndertow -> 64 * Units.MI;
                default -> 32 * Units.MI;
            };
        }
    }
}
