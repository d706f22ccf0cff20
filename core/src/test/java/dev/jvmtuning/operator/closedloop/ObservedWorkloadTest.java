package dev.jvmtuning.operator.closedloop;

import static dev.jvmtuning.operator.planner.Specs.container;
import static org.assertj.core.api.Assertions.assertThat;

import dev.jvmtuning.operator.api.v1alpha1.ConnectionPool;
import dev.jvmtuning.operator.api.v1alpha1.Observed;
import dev.jvmtuning.operator.api.v1alpha1.Patterns;
import dev.jvmtuning.operator.api.v1alpha1.Runtime;
import dev.jvmtuning.operator.api.v1alpha1.TargetRef;
import dev.jvmtuning.operator.api.v1alpha1.Threads;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfileSpec;
import dev.jvmtuning.operator.api.v1alpha1.Workload;
import dev.jvmtuning.operator.model.PlannedResources;
import dev.jvmtuning.operator.model.TuningValues;
import dev.jvmtuning.operator.model.Units;
import dev.jvmtuning.operator.planner.PlanResult.Plan;
import dev.jvmtuning.operator.planner.Planner;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ObservedWorkloadTest {

    static Observed observed(double rate, double latency, Double cpu, Double runQueue, Double connectionWait, Double connectionHold) {
        Observed o = new Observed();
        o.setRequestsPerSecond(rate);
        o.setMeanLatencyMillis(latency);
        o.setCpuMillisPerRequest(cpu);
        o.setRunQueueMillisPerRequest(runQueue);
        o.setConnectionWaitMillisPerRequest(connectionWait);
        o.setConnectionHoldMillisPerRequest(connectionHold);
        return o;
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiterString = "|", nullValues = "none", textBlock = """
            begins 30 s after the youngest JVM started, its warm-up | 2026-11-23T10:00:40Z | 10s  | 2026-11-23T10:00:00Z | true
            begins a millisecond before                            | 2026-11-23T10:00:40Z | 10.001s | 2026-11-23T10:00:00Z | false
            a JVM started during the window                        | 2026-11-23T10:05:00Z | 10s  | 2026-11-23T10:04:55Z | false
            no JVM known to run                                    | 2026-11-23T10:00:40Z | 10s  | none                 | true
            a window that says no length                           | 2026-11-23T10:00:40Z | none | 2026-11-23T10:00:00Z | false
            """)
    void aWindowCountsOnlyOnceItsYoungestJvmRanTheWarmUp(String label, String end, String length, String youngestStart, boolean warm) {
        Observed window = new Observed().setEnd(end).setWindow(length);
        assertThat(ObservedWorkload.fromWarmJvms(window, Optional.ofNullable(youngestStart).map(Instant::parse), Duration.ofSeconds(30)))
                .isEqualTo(warm);
    }

    @Test
    void cpuContentionIsNotServiceTime() {
        // 200 threads on 2 cores, 10 ms of CPU each: every request waits ~1 s for a core.
        Workload w = ObservedWorkload.estimate(observed(190, 1052.4, 10.5, 1040.1, null, null), 200.0).orElseThrow();

        assertThat(w.getMeanLatency()).isEqualTo("12.3ms");
        assertThat(w.getCpuPerRequest()).isEqualTo("10.5ms");
        assertThat(w.getRequestsPerSecond()).as("the profile's target, not the rate the old settings allowed").isEqualTo(200.0);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            JIT compilation is not the requests' CPU   | 1.08 | 0.8  | -    | 0.28ms
            the JVM reports no compilation time         | 1.08 | -    | -    | 1.08ms
            compilation counted past the CPU read       | 0.5  | 0.9  | -    | -
            the collector's CPU is not the requests'    | 0.46 | -    | 0.17 | 0.29ms
            neither the compilers' nor the collector's  | 1.08 | 0.5  | 0.3  | 0.28ms
            the two together past the CPU read          | 0.5  | 0.3  | 0.3  | -
            """)
    void theJitCompilersAndTheCollectorsCpuIsNotTheRequests(String name, double cpu, Double compilation, Double collector,
            String cpuPerRequest) {
        // The lab's io-bound app: 300 ms per request, almost all of it waiting on I/O; early after a rollout the compilers
        // take a share of its CPU, and at 1200 threads the collector a third of it.
        Observed o = observed(668, 300, cpu, null, null, null);
        o.setCompilationMillisPerRequest(compilation);
        o.setGcCpuMillisPerRequest(collector);

        assertThat(ObservedWorkload.estimate(o, null).orElseThrow().getCpuPerRequest()).isEqualTo(cpuPerRequest);
    }

    @Test
    void aWindowWhosePausesTookTheRequestsTimeKeepsTheDeclaredServiceTime() {
        // The lab's allocation-heavy app at its defaults, 200 threads: 1 ms of CPU, a 10 ms wait and 2 MiB of garbage a request;
        // 353 ms in the server, 51 of them waiting for a CPU, and nearly all the rest stopped by the collector.
        Observed o = observed(83, 353, 15.0, 51.3, null, null);
        o.setGcTimePercent(88.0);
        o.setCompilationMillisPerRequest(0.5);
        o.setGcCpuMillisPerRequest(12.75);
        o.setAllocatedKibPerRequest(1533.0);
        Workload declared = new Workload().setRequestsPerSecond(4545.45).setMeanLatency("11ms").setCpuPerRequest("1ms")
                .setAllocationPerRequest("2Mi");

        Workload w = ObservedWorkload.remeasure(declared, o).orElseThrow();

        assertThat(w.getMeanLatency()).as("the 10 ms wait is lost among the pauses: the declared time stays").isEqualTo("11ms");
        assertThat(w.getCpuPerRequest()).as("the CPU is measured all the same, the compilers' and the collector's out").isEqualTo("1.75ms");
        assertThat(ObservedWorkload.estimate(o, null).orElseThrow().getMeanLatency()).as("nothing declared: the CPU's floor")
                .isEqualTo("1.75ms");
        o.setGcTimePercent(2.0);
        o.setRunQueueMillisPerRequest(360.0);
        assertThat(ObservedWorkload.remeasure(declared, o).orElseThrow().getMeanLatency())
                .as("waits for a CPU took the time, not pauses: the CPU is a lower bound, and the declared time stays").isEqualTo("11ms");
        declared.setMeanLatency("1ms");
        assertThat(ObservedWorkload.remeasure(declared, o).orElseThrow().getMeanLatency())
                .as("a declared time below the CPU measured is wrong: the CPU").isEqualTo("1.75ms");
    }

    @Test
    void aWarmWindowWhoseWaitsTakeUpItsLatencyMeasuresOnlyTheCpuSoTheDeclaredServiceStays() {
        // The lab's overloaded Quarkus pod, warm: 6.86 ms of the requests' own CPU, and the process's waits for a CPU longer
        // than a worker held a request. The 20 ms wait of each request is gone among them; planned from the CPU, 2 threads.
        Observed o = observed(262, 2534, 6.86, 505.0, null, null);
        o.setLatencyIncludesQueueWait(true);
        o.setBusyThreads(119.0);
        o.setMaxThreads(200.0);
        o.setBusyThreadsAveraged(true);
        Workload declared = new Workload().setRequestsPerSecond(200.0).setMeanLatency("25ms").setCpuPerRequest("5ms");

        Workload w = ObservedWorkload.remeasure(declared, o).orElseThrow();

        assertThat(w.getMeanLatency()).isEqualTo("25ms");
        assertThat(w.getCpuPerRequest()).as("the CPU is measured all the same").isEqualTo("6.86ms");
        assertThat(ObservedWorkload.estimate(o, null).orElseThrow().getMeanLatency()).as("nothing declared: the CPU, fewer threads")
                .isEqualTo("6.86ms");
        o.setBusyThreads(12.0);
        o.setRunQueueMillisPerRequest(20.0);
        // 12 busy workers at 262 req/s hold a request 45.8 ms, 20 of them waiting for a CPU.
        assertThat(ObservedWorkload.remeasure(declared, o).orElseThrow().getMeanLatency())
                .as("a window that measures work beyond its CPU is read as measured").isEqualTo("25.801ms");
    }

    @Test
    void aWindowWhoseWaitsLeaveLessThanItsCpuMeasuresOnlyTheCpuSoTheDeclaredServiceStays() {
        // The lab's mixed app at 106 threads, 2026-11-27: 2 ms of CPU and a 40-60 ms call a request; 299.67 ms in the server,
        // 297.96 of them the process's waits for a CPU, which leave 1.71 ms, less than the 3.77 ms of CPU a request took.
        Observed o = observed(275.86, 299.67, 3.77, 297.96, null, null);
        Workload declared = new Workload().setRequestsPerSecond(5769.23).setMeanLatency("52ms").setCpuPerRequest("2ms");

        assertThat(ObservedWorkload.remeasure(declared, o).orElseThrow().getMeanLatency())
                .as("the call is lost among the waits: the declared time stays, not the CPU's 3.77 ms").isEqualTo("52ms");
        assertThat(ObservedWorkload.estimate(o, null).orElseThrow().getMeanLatency()).as("nothing declared: the CPU").isEqualTo("3.77ms");
        o.setRunQueueMillisPerRequest(240.0);
        assertThat(ObservedWorkload.remeasure(declared, o).orElseThrow().getMeanLatency())
                .as("59.67 ms left beyond the waits, more than the CPU: read as measured").isEqualTo("59.67ms");
    }

    @Test
    void requestsThatTimedOutWaitingForAConnectionDidNoWork() {
        // The lab's virtual-thread pool-bound app unbounded, 60% of the requests failed after waiting for one of the 10 connections:
        // 295 ms per request, 247 of them waiting for a connection (the failed ones' whole time), 5 for a CPU; the served held one 108 ms.
        Observed o = observed(250, 294.6, 3.1, 5.1, 247.0, 108.0);
        o.setErrorPercent(60.0);

        Workload w = ObservedWorkload.estimate(o, null).orElseThrow();

        assertThat(w.getMeanLatency()).as("(294.6 - 252.1) / 0.4: the served requests' own time").isEqualTo("106.25ms");
        assertThat(w.getDbTimePerRequest()).isEqualTo("106.25ms");
    }

    @Test
    void timeQueuedForAWorkerIsNotServiceTime() {
        // The overloaded pod of WindowTest: 1420 ms per request, 1400 of them queued before a worker took the request.
        Observed o = observed(100, 1420, 2.0, null, null, null);
        o.setQueueWaitMillisPerRequest(1400.0);

        assertThat(ObservedWorkload.estimate(o, null).orElseThrow().getMeanLatency()).isEqualTo("20ms");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            full pool, a wait no series counts: Little's law finds it | true  | 200 | 0    | 10ms
            full but for one worker: 995 ms held                        | true  | 199 | 0    | 5ms
            saturated as R4 judges it, 91 %: 910 ms held                | true  | 182 | 0    | 5ms
            the counted wait is the whole wait                         | true  | 200 | 1400 | 10ms
            one reading of a pool with headroom says nothing             | true  | 120 | 0    | 1410ms
            a latency timed from when a worker took the request        | false | 200 | -    | 1410ms
            """)
    void aSaturatedPoolsWorkersHoldARequestBusyOverRate(String name, boolean latencyIncludesQueueWait, double busy, Double counted,
            String service) {
        // Quarkus REST overloaded on 1 CPU: 200 workers at 200 req/s hold a request 1 s, 990 ms of it waiting for the CPU;
        // the requests waited 1.4 s for a worker before that, in an executor Vert.x's queue-delay series does not time.
        Observed o = observed(200, 2400, 5.0, 990.0, null, null);
        o.setLatencyIncludesQueueWait(latencyIncludesQueueWait);
        o.setBusyThreads(busy);
        o.setMaxThreads(200.0);
        o.setQueueWaitMillisPerRequest(counted);

        assertThat(ObservedWorkload.estimate(o, null).orElseThrow().getMeanLatency()).isEqualTo(service);
    }

    @Test
    void aPoolsMeanBusyThreadsOverTheWindowSplitTheLatencyWhateverItsHeadroom() {
        // Quarkus REST overloaded with its event loop starved of CPU: 182 of 200 workers busy on average, each holding a
        // request 1.2 s of the 4.3 s it took from its arrival.
        Observed o = observed(152, 4265, 7.2, 708.0, null, null);
        o.setLatencyIncludesQueueWait(true);
        o.setBusyThreads(182.0);
        o.setMaxThreads(200.0);
        o.setQueueWaitMillisPerRequest(1.0);
        o.setBusyThreadsAveraged(true);

        assertThat(ObservedWorkload.estimate(o, null).orElseThrow().getMeanLatency()).as("1197 ms held, 708 of them waiting for a CPU")
                .isEqualTo("489.368ms");
        o.setBusyThreads(120.0);
        assertThat(ObservedWorkload.estimate(o, null).orElseThrow().getMeanLatency()).as("a mean, so with headroom too")
                .isEqualTo("81.473ms");
        o.setBusyThreadsAveraged(false);
        assertThat(ObservedWorkload.estimate(o, null).orElseThrow().getMeanLatency()).as("one reading with headroom: as measured")
                .isEqualTo("3556ms");
    }

    @Test
    void waitingForAConnectionIsNotServiceTimeButHoldingOneIsDatabaseTime() {
        Workload w = ObservedWorkload.estimate(observed(100, 940, 0.8, 1.0, 819.0, 100.2), null).orElseThrow();

        assertThat(w.getMeanLatency()).isEqualTo("120ms");
        assertThat(w.getDbTimePerRequest()).isEqualTo("100.2ms");
        assertThat(w.getRequestsPerSecond()).as("no target: the rate observed").isEqualTo(100.0);
    }

    @Test
    void allocationAndLoadedClassesAreCarriedIntoTheWorkload() {
        Observed o = observed(400, 12, 1.0, null, null, null);
        o.setAllocatedKibPerRequest(2047.6);
        o.setLoadedClasses(11_250);
        o.setGcTimePercent(12.0);

        Workload w = ObservedWorkload.estimate(o, null).orElseThrow();

        assertThat(w.getAllocationPerRequest()).isEqualTo("2048Ki").matches(Patterns.MEMORY);
        assertThat(w.getLoadedClasses()).isEqualTo(11_250);
        // The same allocation at 1% GC: the garbage dies young, so it must not cut the threads (R12a).
        o.setGcTimePercent(1.0);
        assertThat(ObservedWorkload.estimate(o, null).orElseThrow().getAllocationPerRequest()).isNull();
    }

    @Test
    void aWindowWhoseWaitsTakeUpItsLatencyMeasuresNoServiceTimeSoTheDeclaredOneStays() {
        // The lab's overloaded Quarkus pod: its CPU per request all the JIT compilers' and the process's waits for a CPU
        // (the event loop's and the collector's too) longer than a worker held a request, so the window measures neither
        // CPU nor service time: the declared 25 ms and 5 ms of CPU stay, where planning from nothing gave 2 threads.
        Observed o = observed(262, 2534, 4.4, 505.0, null, null);
        o.setCompilationMillisPerRequest(4.6);
        o.setLatencyIncludesQueueWait(true);
        o.setBusyThreads(119.0);
        o.setMaxThreads(200.0);
        o.setBusyThreadsAveraged(true);
        Workload declared = new Workload().setRequestsPerSecond(200.0).setMeanLatency("25ms").setCpuPerRequest("5ms").setDbTimePerRequest("2ms");

        Workload w = ObservedWorkload.remeasure(declared, o).orElseThrow();

        assertThat(w.getMeanLatency()).isEqualTo("25ms");
        assertThat(w.getCpuPerRequest()).isEqualTo("5ms");
        assertThat(w.getDbTimePerRequest()).isEqualTo("2ms");
        assertThat(Planner.plan(spec(w), container(1, "768Mi"))).isInstanceOf(Plan.class);
        assertThat(ObservedWorkload.estimate(o, null).orElseThrow().getMeanLatency()).as("nothing declared: the floor, fewer threads")
                .isEqualTo("0.001ms");
        o.setConnectionHoldMillisPerRequest(40.0);
        assertThat(ObservedWorkload.remeasure(declared, o).orElseThrow().getDbTimePerRequest()).as("a hold measured, within the declared service")
                .isEqualTo("25ms");
    }

    @Test
    void aRemeasuredServiceTimeIsNeverBelowTheDeclaredCpuAndDatabaseTimeItKeeps() {
        // 12 ms of latency with 10 of them waiting for a CPU and no CPU measured: the 2 ms left, below the declared 5 ms of CPU.
        Observed o = observed(100, 12, null, 10.0, null, null);
        Workload declared = new Workload().setRequestsPerSecond(200.0).setMeanLatency("25ms").setCpuPerRequest("5ms");

        assertThat(ObservedWorkload.remeasure(declared, o).orElseThrow().getMeanLatency()).isEqualTo("5ms");
    }

    /** req/s, latency ms, CPU ms, run-queue ms, GC % of wall time; the service time read. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            thrashing: 300 - 20 ms, less the pauses over its 4 + 20 ms runnable (24 * 0.6 / 0.4) | 150  | 300 | 4.0  | 20.0 | 60 | 244ms
            io-bound at 1200 threads: a 100-500 ms call sleeps through the pauses (2.74 ms)      | 2700 | 338 | 0.32 | 5.0  | 34 | 330.259ms
            no CPU measured: 300 - 20 ms, less 60% of the 300 ms in flight                       | 150  | 300 | -    | 20.0 | 60 | 100ms
            """)
    void gcPausesStopTheTimeARequestRunsOrWaitsToRunNotItsIo(String name, double rate, double latency, Double cpu, double runQueue,
            double gcPercent, String service) {
        Observed window = observed(rate, latency, cpu, runQueue, null, null);
        window.setGcTimePercent(gcPercent);

        assertThat(ObservedWorkload.estimate(window, null).orElseThrow().getMeanLatency()).isEqualTo(service);
    }

    @Test
    void theServiceTimeIsNeverBelowTheCpuTime() {
        Workload w = ObservedWorkload.estimate(observed(50, 20, 6.0, 18.0, null, null), null).orElseThrow();

        assertThat(w.getMeanLatency()).isEqualTo("6ms");
        assertThat(w.getCpuPerRequest()).isEqualTo("6ms");
    }

    @Test
    void anIdleWindowOrOneWithoutRequestTimingsGivesNothing() {
        assertThat(ObservedWorkload.estimate(observed(0, 0, null, null, null, null), 100.0)).isEmpty();
        Observed noTimings = observed(10, 0, null, null, null, null);
        noTimings.setMeanLatencyMillis(null);
        assertThat(ObservedWorkload.estimate(noTimings, 100.0)).isEmpty();
        assertThat(ObservedWorkload.estimate(null, 100.0)).isEmpty();
    }

    @Test
    void anIoBoundHandlerObservedAtDefaultsPlansThreadsForTheTarget() {
        // 200 default threads all busy on a 100-500 ms sleep: 650 req/s observed, 2,000 wanted.
        Workload w = ObservedWorkload.estimate(observed(650, 301.2, 0.4, 0.2, null, null), 2000.0).orElseThrow();

        Plan plan = (Plan) Planner.plan(spec(w), container(2, "2Gi"));

        assertThat(plan.values().maxThreads()).isEqualTo(753); // 2000 x 0.301 s x 1.25
    }

    @Test
    void remeasuringKeepsTheTargetAndTheQueueWaitAndReplacesTheTimes() {
        Workload declared = new Workload().setRequestsPerSecond(200.0).setMeanLatency("100ms").setCpuPerRequest("2ms")
                .setMaxQueueWait("2s").setDbTimePerRequest("20ms");

        Workload measured = ObservedWorkload.remeasure(declared, observed(90, 250, 4.0, 10.0, 40.0, 80.0)).orElseThrow();

        assertThat(measured).isEqualTo(new Workload().setRequestsPerSecond(200.0).setMaxQueueWait("2s").setMeanLatency("200ms")
                .setCpuPerRequest("4ms").setDbTimePerRequest("80ms"));
        assertThat(ObservedWorkload.remeasure(new Workload().setMeanLatency("100ms"), observed(90, 250, 4.0, null, null, null)))
                .as("without a target rate there is nothing to plan for").isEmpty();
    }

    @Test
    void theClosedLoopRecommendsTheMeasuredFiguresWhenTheyChangeThePlan() {
        // Declared 50 ms at the database; the pods hold a connection 100 ms and queue for it.
        Workload declared = new Workload().setRequestsPerSecond(1000.0).setMeanLatency("120ms").setDbTimePerRequest("50ms");
        Observed o = observed(95, 1060, 0.5, 1.0, 940.0, 100.0);
        o.setWindow("30s");
        Workload measured = ObservedWorkload.remeasure(declared, o).orElseThrow();

        var recommendations = ObservedWorkload.recommend(declared, measured, values(declared), values(measured), o);

        assertThat(recommendations).extracting(r -> r.getField() + ": " + r.getCurrent() + " -> " + r.getRecommended())
                .containsExactly("workload.meanLatency: 120ms -> 119ms", "workload.cpuPerRequest: null -> 0.5ms",
                        "workload.dbTimePerRequest: 50ms -> 100ms");
        assertThat(recommendations.get(0).getReason()).contains("measured over 30s", "940 ms for a database connection",
                "connectionPool.maxSize 63 -> 125");
    }

    @Test
    void theClosedLoopIsSilentWhenTheMeasuredFiguresPlanTheSame() {
        Workload declared = new Workload().setRequestsPerSecond(100.0).setMeanLatency("300ms");
        Observed o = observed(100, 301, null, null, null, null);
        Workload measured = ObservedWorkload.remeasure(declared, o).orElseThrow();

        assertThat(measured.getMeanLatency()).isEqualTo("301ms");
        assertThat(ObservedWorkload.recommend(declared, measured, values(declared), values(measured), o))
                .as("38 threads either way").isEmpty();
    }

    /** The recommendations' heap rule is the loop's ({@link Significance}): a tenth, and at least 8 MiB as -Xmx renders it. */
    @ParameterizedTest(name = "{0} MiB -> {1} MiB")
    @CsvSource({"64, 71, false", "64, 72, true", "1024, 1100, false", "1024, 1127, true"})
    void theClosedLoopRecommendsAHeapThatMovesByATenthAndEightMib(long currentMib, long replannedMib, boolean recommended) {
        Workload declared = new Workload().setRequestsPerSecond(100.0).setMeanLatency("300ms");
        Observed o = observed(100, 301, null, null, null, null);
        Workload measured = ObservedWorkload.remeasure(declared, o).orElseThrow();

        var recommendations = ObservedWorkload.recommend(declared, measured, heap(currentMib), heap(replannedMib), o);

        assertThat(recommendations.isEmpty()).isEqualTo(!recommended);
        assertThat(recommendations).allSatisfy(r -> assertThat(r.getReason()).contains(currentMib + "Mi -> " + replannedMib + "Mi"));
    }

    private static TuningValues heap(long mebibytes) {
        return new TuningValues(null, null, null, null, null, null, null, null, null, null, mebibytes * Units.MI, mebibytes * Units.MI, null, null, null, false, false, null, null, null,
                null, null, null, null, null, PlannedResources.NONE);
    }

    private static TuningValues values(Workload workload) {
        return ((Plan) Planner.plan(spec(workload), container(2, "2Gi"))).values();
    }

    /** Whatever the counters say, the estimate is a workload the API server admits and the planner accepts. */
    @Property(tries = 1000)
    void everyEstimateIsAValidWorkload(@ForAll @DoubleRange(min = 0.01, max = 100_000) double rate,
            @ForAll @DoubleRange(min = 0, max = 60_000) double latency, @ForAll @DoubleRange(min = 0, max = 60_000) double cpu,
            @ForAll @DoubleRange(min = 0, max = 60_000) double runQueue, @ForAll @DoubleRange(min = 0, max = 60_000) double wait,
            @ForAll @DoubleRange(min = 0, max = 60_000) double hold) {
        Workload w = ObservedWorkload.estimate(observed(rate, latency, cpu, runQueue, wait, hold), null).orElseThrow();

        for (String duration : new String[] {w.getMeanLatency(), w.getCpuPerRequest(), w.getDbTimePerRequest()}) {
            assertThat(duration == null || duration.matches(Patterns.DURATION)).as(duration).isTrue();
        }
        assertThat(Planner.plan(spec(w), container(2, "64Gi"))).isInstanceOf(Plan.class);
    }

    private static TuningProfileSpec spec(Workload workload) {
        TuningProfileSpec spec = new TuningProfileSpec();
        spec.setTargetRef(new TargetRef().setName("web"));
        spec.setRuntime(Runtime.SpringBootTomcat);
        spec.setWorkload(workload);
        spec.setThreads(new Threads());
        spec.setConnectionPool(new ConnectionPool());
        return spec;
    }
}
