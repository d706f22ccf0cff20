package dev.jvmtuning.operator.closedloop;

import static dev.jvmtuning.operator.model.Units.mebibytes;
import static dev.jvmtuning.operator.model.Units.number;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jvmtuning.operator.api.v1alpha1.Observed;
import dev.jvmtuning.operator.api.v1alpha1.Recommendation;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfileSpec;
import dev.jvmtuning.operator.api.v1alpha1.Workload;
import dev.jvmtuning.operator.flags.FlagPolicy;
import dev.jvmtuning.operator.model.ContainerFacts;
import dev.jvmtuning.operator.model.Setting;
import dev.jvmtuning.operator.model.TuningValues;
import dev.jvmtuning.operator.model.Units;
import dev.jvmtuning.operator.planner.PlanResult;
import dev.jvmtuning.operator.planner.Planner;
import dev.jvmtuning.operator.pressure.PressureDetector;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The closed loop's step from metrics back to the planner: the workload figures a window of
 * observed metrics implies. Pure.
 *
 * <p>R1 sizes threads by the service time, but the latency measured under load also holds the time
 * requests queued for a worker thread (R7), the time the threads waited for a CPU (R17: run-queue
 * delay), for a database connection (R8) and for the garbage collector's pauses (R15).
 * These are symptoms of the current settings, not work: planning from them would size the pool for
 * the congestion it causes (a CPU-bound service at 200 threads on 2 cores reports 1 s per 10 ms
 * request). So they are taken out, and what remains is never less than the CPU time itself. The CPU
 * time is the requests' own: the JIT compilers' share, warm-up work, is taken out of it too.
 */
public final class ObservedWorkload {
    /** Below this a figure is noise of the counters' resolution. */
    private static final double SMALLEST_MILLIS = 0.001;
    /** A tenth: below it, the declared figures are close enough. */
    private static final Significance SIGNIFICANT_CHANGE = new Significance(10);
    /** Past this the JVM is thrashing and no service time can be read from it. */
    private static final double MAX_GC_SHARE = 0.9;
    /** Past this so few requests were served that their work cannot be told from the counters' noise. */
    private static final double MAX_FAILED_PERCENT = 90;
    /** R12a, R15: below this share of wall time in GC pauses, the garbage in flight costs nothing worth fewer threads. */
    private static final double ALLOCATION_GC_PERCENT = 5;
    /** Copies a spec through its JSON form, so the copy shares nothing with the profile it came from. */
    private static final ObjectMapper SPEC_COPIER = new ObjectMapper();

    private ObservedWorkload() {
    }

    /**
     * The time a request stood still in stop-the-world pauses. A pause stops the threads that run or wait to run, and a
     * request blocked on I/O sleeps through it: its call goes on outside the JVM. So pauses stretch the time a request
     * runs or waits for a CPU by GC's share of wall time, and no more (docs/development/lab.md: taken from all of a request's
     * time, an I/O-bound service's call read far shorter than it was). Where the CPU a request costs is not measured,
     * all its time in flight counts as running, as a CPU-bound request's does.
     *
     * @param inFlight the request's time once it had a worker and a connection: its work, run-queue delay and pauses
     */
    private static double gcPauseMillis(Observed observed, Double cpu, double inFlight) {
        double share = Math.min(MAX_GC_SHARE, zeroIfAbsent(observed.getGcTimePercent()) / 100);
        double pauses = cpu == null ? inFlight * share : (cpu + zeroIfAbsent(observed.getRunQueueMillisPerRequest())) * share / (1 - share);
        return Math.max(0, Math.min(inFlight, pauses));
    }

    /**
     * @param observed   a window's figures (per pod)
     * @param targetRate the requests per second the pod must carry (the profile's workload), or null to plan for the rate observed
     * @return the workload to plan with, or empty when the window saw no requests or no request timings
     */
    public static Optional<Workload> estimate(Observed observed, Double targetRate) {
        return estimate(observed, targetRate, null);
    }

    /**
     * @param declaredService the service time to plan with where the window measures none beyond the CPU, or null to plan
     *                        with the CPU (or the floor) then. Where the waits a window counts take up the whole latency,
     *                        what is left is the requests' CPU, and that is only a lower bound: some wait was counted twice
     *                        (a run-queue delay is the whole process's, the event loop's and the collector's too, and
     *                        Little's law already put a worker's in its hold), or GC pauses hid the requests' own waits
     *                        (their calls, their sleeps). Planned from the CPU alone, the requests would be sized as if they
     *                        did nothing but run: the lab's allocation-heavy app at 200 threads, its 10 ms wait hidden in
     *                        300 ms of pauses, was planned 2 threads where 10 serve best, and its overloaded Quarkus app,
     *                        5 ms of CPU and a 20 ms wait a request, 2 threads where the declared 25 ms plans 7. So the
     *                        declared time stands unless the CPU alone exceeds it. Without one, the loop plans from the
     *                        CPU: fewer threads, which mode Auto takes a bounded step at a time and judges
     */
    private static Optional<Workload> estimate(Observed observed, Double targetRate, String declaredService) {
        if (observed == null || observed.getMeanLatencyMillis() == null || observed.getRequestsPerSecond() == null
                || observed.getRequestsPerSecond() <= 0) {
            return Optional.empty();
        }
        Double cpu = Measures.workCpuMillisPerRequest(observed);
        double inFlight = observed.getMeanLatencyMillis() - queueWaitMillis(observed) - zeroIfAbsent(observed.getConnectionWaitMillisPerRequest());
        double runQueue = zeroIfAbsent(observed.getRunQueueMillisPerRequest());
        double pauses = gcPauseMillis(observed, cpu, inFlight);
        double unpaused = inFlight - runQueue - pauses;
        // The failed requests (5xx; under overload those that timed out waiting for a connection, their time all wait) did no
        // work: what remains once the waits are out is the served requests' work, spread over all, so it is spread back over them.
        double served = 1 - Math.min(zeroIfAbsent(observed.getErrorPercent()), MAX_FAILED_PERCENT) / 100;
        double work = unpaused / served;
        double measuredService = Math.max(work, cpu == null ? 0 : cpu);
        Double declaredMillis = declaredService == null ? null : 1000 * Units.seconds(declaredService);
        boolean nothingBeyondCpu = work - (cpu == null ? 0 : cpu) < SMALLEST_MILLIS;
        boolean keepDeclared = declaredMillis != null && nothingBeyondCpu && declaredMillis >= measuredService;
        double service = keepDeclared ? declaredMillis : Math.max(SMALLEST_MILLIS, measuredService);

        Workload workload = new Workload();
        workload.setRequestsPerSecond(targetRate != null ? targetRate : observed.getRequestsPerSecond());
        workload.setMeanLatency(keepDeclared ? declaredService : millis(service));
        if (cpu != null && cpu >= SMALLEST_MILLIS) {
            workload.setCpuPerRequest(millis(Math.min(cpu, service)));
        }
        Double hold = observed.getConnectionHoldMillisPerRequest();
        if (hold != null && hold >= SMALLEST_MILLIS) {
            workload.setDbTimePerRequest(millis(Math.min(hold, service)));
        }
        Double allocatedKib = observed.getAllocatedKibPerRequest();
        // R12a assumes a request holds what it allocated until it ends. Most services' request garbage dies at
        // once, and counting it anyway capped the lab's io-bound app far below its best (docs/development/benchmarks.md);
        // only GC time says it does not die, so a measured allocation counts only when GC takes its share.
        if (allocatedKib != null && allocatedKib >= 1 && zeroIfAbsent(observed.getGcTimePercent()) >= ALLOCATION_GC_PERCENT) {
            workload.setAllocationPerRequest(Math.round(allocatedKib) + "Ki");
        }
        workload.setLoadedClasses(observed.getLoadedClasses());
        if (observed.getLiveHeapMib() != null && observed.getLiveHeapMib() >= 1) {
            workload.setLiveHeap((long) Math.ceil(observed.getLiveHeapMib()) + "Mi");
        }
        return Optional.of(workload);
    }

    /** The declared workload with the service, CPU and database times a window measured; the target rate and queue wait stay. */
    public static Optional<Workload> remeasure(Workload declared, Observed observed) {
        if (declared == null || declared.getRequestsPerSecond() == null) {
            return Optional.empty();
        }
        return estimate(observed, declared.getRequestsPerSecond(), declared.getMeanLatency()).map(measured -> {
            String cpu = measured.getCpuPerRequest() != null ? measured.getCpuPerRequest() : declared.getCpuPerRequest();
            String db = measured.getDbTimePerRequest() != null ? measured.getDbTimePerRequest() : declared.getDbTimePerRequest();
            return new Workload()
                    .setRequestsPerSecond(declared.getRequestsPerSecond())
                    .setMaxQueueWait(declared.getMaxQueueWait())
                    .setMeanLatency(atLeast(measured.getMeanLatency(), cpu, db))
                    .setCpuPerRequest(cpu)
                    .setDbTimePerRequest(db)
                    .setAllocationPerRequest(measured.getAllocationPerRequest() != null ? measured.getAllocationPerRequest()
                            : declared.getAllocationPerRequest())
                    .setLoadedClasses(measured.getLoadedClasses() != null ? measured.getLoadedClasses() : declared.getLoadedClasses())
                    .setLiveHeap(measured.getLiveHeap() != null ? measured.getLiveHeap() : declared.getLiveHeap());
        });
    }

    /**
     * A measured service time, never below the CPU or database time the workload carries: where a window measures none
     * (its CPU all the JIT compilers', no connection used) the declared figure stays, and the congestion taken out may
     * leave less than it.
     */
    private static String atLeast(String latency, String... parts) {
        String longest = latency;
        for (String part : parts) {
            if (part != null && Units.seconds(part) > Units.seconds(longest)) {
                longest = part;
            }
        }
        return longest;
    }

    /**
     * What a window says the pod carries: the declared rate with the measured times when a rate is
     * declared, else the rate and the times observed (the load per pod, so an autoscaler's replica count does not matter).
     */
    public static Optional<Workload> measured(Workload declared, Observed observed) {
        return declared != null && declared.getRequestsPerSecond() != null ? remeasure(declared, observed) : estimate(observed, null);
    }

    /** A copy of the declared workload (none: an empty one) with another live heap. */
    public static Workload withLiveHeap(Workload declared, String liveHeap) {
        return (declared == null ? new Workload() : SPEC_COPIER.convertValue(declared, Workload.class)).setLiveHeap(liveHeap);
    }

    /** A copy of the spec, sharing nothing with it but this workload, that plans with it. */
    public static TuningProfileSpec withWorkload(TuningProfileSpec spec, Workload workload) {
        TuningProfileSpec copy = SPEC_COPIER.convertValue(spec, TuningProfileSpec.class);
        copy.setWorkload(workload);
        return copy;
    }

    /**
     * The closed loop (observe, then plan): the profile's workload with the figures its pods show,
     * recommended when planning with them would change the threads or the connection pool.
     *
     * @param plan       the plan in force, from the declared figures
     * @param flagPolicy the policy the plan in force passed, so the replan judges the same jvmOptions alike
     */
    public static List<Recommendation> replan(TuningProfileSpec spec, ContainerFacts facts, PlanResult.Plan plan, Observed observed,
            FlagPolicy flagPolicy) {
        Workload declared = spec.getWorkload();
        if (observed == null) {
            return List.of();
        }
        return remeasure(declared, observed).map(measured -> Planner.plan(withWorkload(spec, measured), facts, flagPolicy)
                instanceof PlanResult.Plan replanned ? recommend(declared, measured, plan.values(), replanned.values(), observed)
                : List.<Recommendation>of()).orElse(List.of());
    }

    /**
     * Whether a window began once the youngest JVM it read had run for the warm-up: before that, a request costs the CPU of
     * code not yet compiled and caches not yet filled, which a warm JVM does not spend. With no JVM known to run, none is
     * known to be cold; a window that says neither its end nor its length is not known to be warm.
     */
    public static boolean fromWarmJvms(Observed window, Optional<Instant> youngestJvmStart, Duration warmUp) {
        return start(window).filter(start -> youngestJvmStart.map(jvm -> !start.isBefore(jvm.plus(warmUp))).orElse(true)).isPresent();
    }

    /** When a window began: its end less its length. */
    static Optional<Instant> start(Observed window) {
        return window.getEnd() == null || window.getWindow() == null ? Optional.empty()
                : Optional.of(Instant.parse(window.getEnd()).minus(Units.duration(window.getWindow())));
    }

    /**
     * The closed loop's advice: the measured figures, when planning with them changes the threads, the
     * connection pool or the heap by a tenth or more ({@link Significance}; otherwise nothing is said).
     */
    public static List<Recommendation> recommend(Workload declared, Workload measured, TuningValues current, TuningValues replanned,
            Observed observed) {
        List<String> changes = new ArrayList<>();
        change(changes, Setting.THREADS_MAX, current.maxThreads(), replanned.maxThreads());
        change(changes, Setting.POOL_MAX_SIZE, current.poolMaxSize(), replanned.poolMaxSize());
        if (current.heapBytes() != null && replanned.heapBytes() != null && SIGNIFICANT_CHANGE.heap(current.heapBytes(), replanned.heapBytes())) {
            changes.add(Setting.HEAP_SIZE.key() + " " + mebibytes(current.heapBytes()) + " -> " + mebibytes(replanned.heapBytes()));
        }
        Long limit = current.resources().memoryLimitBytes();
        Long replannedLimit = replanned.resources().memoryLimitBytes();
        if (limit != null && replannedLimit != null && SIGNIFICANT_CHANGE.heap(limit, replannedLimit)) {
            changes.add(Setting.MEMORY_LIMIT.key() + " " + mebibytes(limit) + " -> " + mebibytes(replannedLimit));
        }
        if (changes.isEmpty()) {
            return List.of();
        }
        double queued = queueWaitMillis(observed);
        String reason = "measured over " + observed.getWindow() + ": " + number(observed.getMeanLatencyMillis()) + " ms per request, of which "
                + (queued == 0 ? "" : number(queued) + " ms queued for a worker, ")
                + number(zeroIfAbsent(observed.getRunQueueMillisPerRequest())) + " ms waiting for a CPU and "
                + number(zeroIfAbsent(observed.getConnectionWaitMillisPerRequest())) + " ms for a database connection (congestion, not work); "
                + measuredMemory(observed) + "planned with the measured figures: " + String.join(", ", changes) + " (R1, R2, R8, R9, R9c, R12a)";
        List<Recommendation> recommendations = new ArrayList<>();
        recommendation(recommendations, "workload.meanLatency", declared.getMeanLatency(), measured.getMeanLatency(), reason);
        recommendation(recommendations, "workload.cpuPerRequest", declared.getCpuPerRequest(), measured.getCpuPerRequest(), reason);
        recommendation(recommendations, "workload.dbTimePerRequest", declared.getDbTimePerRequest(), measured.getDbTimePerRequest(), reason);
        recommendation(recommendations, "workload.allocationPerRequest", declared.getAllocationPerRequest(),
                measured.getAllocationPerRequest(), reason);
        recommendation(recommendations, "workload.loadedClasses", Objects.toString(declared.getLoadedClasses(), null),
                Objects.toString(measured.getLoadedClasses(), null), reason);
        recommendation(recommendations, "workload.liveHeap", declared.getLiveHeap(), measured.getLiveHeap(), reason);
        return recommendations;
    }

    private static void change(List<String> changes, Setting setting, Integer current, Integer replanned) {
        if (SIGNIFICANT_CHANGE.count(current, replanned)) {
            changes.add(setting.key() + " " + (current == null ? "unset" : current) + " -> " + replanned);
        }
    }

    private static void recommendation(List<Recommendation> out, String field, String declared, String measured, String reason) {
        if (measured != null && !measured.equals(declared)) {
            out.add(Recommendation.set(field, declared, measured, reason));
        }
    }

    /** The allocation and class figures behind R12a and R9, where the pods expose them. */
    private static String measuredMemory(Observed observed) {
        List<String> figures = new ArrayList<>();
        if (observed.getAllocatedKibPerRequest() != null) {
            figures.add(number(observed.getAllocatedKibPerRequest()) + " KiB allocated per request");
        }
        if (observed.getLoadedClasses() != null) {
            figures.add(observed.getLoadedClasses() + " classes loaded");
        }
        if (observed.getLiveHeapMib() != null) {
            figures.add(number(observed.getLiveHeapMib()) + " MiB of heap live after a collection");
        }
        return figures.isEmpty() ? "" : String.join(", ", figures) + "; ";
    }

    /**
     * The time a request waited for a worker: what the runtime's series count, and what they miss. By Little's law a
     * pool's workers each held a request busy / rate; a latency timed from the request's arrival that is longer than that
     * and the counted wait together waited the rest outside the pool, uncounted (Quarkus REST: in the executor's queue and
     * behind a CPU-starved event loop, which no series times). That takes the pool's mean busy threads over the window
     * (the agent's sum) or a pool saturated (R4) at the window's end: a single reading of a pool with headroom is too
     * noisy to split a latency by (Quarkus without the agent reads Vert.x's count, which misses its requests altogether).
     */
    static double queueWaitMillis(Observed observed) {
        double counted = zeroIfAbsent(observed.getQueueWaitMillisPerRequest());
        Double busy = observed.getBusyThreads();
        Double max = observed.getMaxThreads();
        Double rate = observed.getRequestsPerSecond();
        if (!Boolean.TRUE.equals(observed.getLatencyIncludesQueueWait()) || busy == null || max == null || !Boolean.TRUE.equals(observed.getBusyThreadsAveraged()) && busy < PressureDetector.SATURATED_RATIO * max
                || rate == null || rate <= 0 || observed.getMeanLatencyMillis() == null) {
            return counted;
        }
        double holding = 1000 * busy / rate;
        return Math.max(counted, observed.getMeanLatencyMillis() - holding);
    }

    static double zeroIfAbsent(Double value) {
        return value == null ? 0 : value;
    }

    /** A duration the CRD's pattern admits, to the microsecond; rounded down so cpu and db time never exceed the latency. */
    private static String millis(double value) {
        return BigDecimal.valueOf(value).setScale(3, RoundingMode.DOWN).stripTrailingZeros().toPlainString() + "ms";
    }
}
