package dev.jvmtuning.operator.closedloop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jvmtuning.operator.api.v1alpha1.Auto;
import dev.jvmtuning.operator.api.v1alpha1.AutoFigures;
import dev.jvmtuning.operator.api.v1alpha1.Guardrail;
import dev.jvmtuning.operator.api.v1alpha1.Observed;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class MeasuresTest {

    /** rate req/s, per CPU-second, latency ms, errors %, GC %, connection wait ms, guardrail; before then after; the measure named or empty. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            the same figures                                     | 500 | 1000 | 100 | 0 | 2 | 0  | 0.2 | 500  | 1000 | 100 | 0   | 2   | 0  | 0.2 | -
            noise within the tolerance                           | 500 | 1000 | 100 | 0 | 2 | 0  | 0.2 | 480  | 940  | 108 | 0.05| 2.5 | 0.5| 0.21| -
            latency up half at the same load                     | 500 | 1000 | 100 | 0 | 2 | 0  | 0.2 | 500  | 1000 | 150 | 0   | 2   | 0  | 0.2 | mean latency 100 -> 150 ms
            latency up half with the load doubled (more in flight)| 500 | 1000 | 100 | 0 | 2 | 0  | 0.2 | 1000 | 1000 | 150 | 0   | 2   | 0  | 0.2 | -
            latency up with fewer requests served                | 500 | 1000 | 100 | 0 | 2 | 0  | 0.2 | 300  | 1000 | 150 | 0   | 2   | 0  | 0.2 | mean latency
            less work per CPU-second at the same load            | 500 | 1000 | 100 | 0 | 2 | 0  | 0.2 | 510  | 700  | 100 | 0   | 2   | 0  | 0.2 | throughput per CPU-second 1000 -> 700
            less work per CPU-second while serving twice as much | 500 | 1000 | 100 | 0 | 2 | 0  | 0.2 | 1000 | 700  | 100 | 0   | 2   | 0  | 0.2 | -
            HPA halved the load per pod: efficiency not comparable| 500 | 1000 | 100 | 0 | 2 | 0  | 0.2 | 250  | 600  | 100 | 0   | 2   | 0  | 0.2 | -
            server errors appear                                 | 500 | 1000 | 100 | 0 | 2 | 0  | 0.2 | 500  | 1000 | 100 | 2   | 2   | 0  | 0.2 | server errors 0% -> 2%
            GC time quadruples                                   | 500 | 1000 | 100 | 0 | 2 | 0  | 0.2 | 500  | 1000 | 100 | 0   | 8   | 0  | 0.2 | GC time 2% -> 8%
            GC a few points more while serving twice as much     | 1336| 2300 | 759 | 0 | 0.92| 0 | -   | 2655 | 1724 | 376 | 0   | 3.14| 0  | -   | -
            GC time up tenfold, half as much again served        | 1219| 1240 | 601 | 0 | 1.24| 0 | -   | 1840 | 1840 | 488 | 0   |34.22| 0  | -   | -
            GC time up, the rate up within the tolerance         | 500 | 1000 | 100 | 0 | 2 | 0  | 0.2 | 540  | 1000 | 100 | 0   | 12  | 0  | 0.2 | GC time 2% -> 12%
            requests wait for connections                        | 500 | 1000 | 100 | 0 | 2 | 0  | 0.2 | 500  | 1000 | 100 | 0   | 2   | 20 | 0.2 | connection waits 0 -> 20 ms per request
            the guardrail is crossed                             | 500 | 1000 | 100 | 0 | 2 | 0  | 0.2 | 500  | 1000 | 100 | 0   | 2   | 0  | 0.6 | guardrail 0.2 -> 0.6, above its max 0.5
            figures the metrics lack are not judged              | 500 | -    | -   | - | - | -  | -   | 500  | 700  | 150 | 2   | 8   | 20 | -   | -
            """)
    void judgesAPeriodAgainstThePeriodBeforeIt(String name, Double rate, Double perCpu, Double latency, Double errors, Double gc, Double wait,
            Double guardrail, Double rate2, Double perCpu2, Double latency2, Double errors2, Double gc2, Double wait2, Double guardrail2,
            String worse) {
        Auto spec = new Auto().setGuardrail(new Guardrail("p99-latency", 0.5));
        AutoFigures before = new AutoFigures().setRequestsPerSecond(rate).setRequestsPerCpuSecond(perCpu).setMeanLatencyMillis(latency)
                .setErrorPercent(errors).setGcTimePercent(gc).setConnectionWaitMillisPerRequest(wait).setGuardrail(guardrail);
        AutoFigures after = new AutoFigures().setRequestsPerSecond(rate2).setRequestsPerCpuSecond(perCpu2).setMeanLatencyMillis(latency2)
                .setErrorPercent(errors2).setGcTimePercent(gc2).setConnectionWaitMillisPerRequest(wait2).setGuardrail(guardrail2);

        if (worse == null) {
            assertThat(Measures.regression(spec, before, after)).isEmpty();
        } else {
            assertThat(Measures.regression(spec, before, after)).hasValueSatisfying(r -> assertThat(r).contains(worse, "tolerance 10%"));
        }
    }

    /** req/s with its standard error and the busy workers' percent, before then after; the measure named or empty. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            fewer served with every worker busy: the step's doing  | 2460 | 50  | 69 | 1500 | 40  | 100 | requests served 2460 -> 1500 req/s with 100% of the workers busy
            fewer served with workers free: the load fell          | 2460 | 50  | 69 | 1500 | 40  | 60  | -
            fewer served, within the tolerance                     | 2460 | 50  | 69 | 2300 | 40  | 100 | -
            fewer served, within the windows' noise                | 2460 | 400 | 69 | 1500 | 400 | 100 | -
            no pool figures                                        | 2460 | 50  | -  | 1500 | 40  | -   | -
            """)
    void servingLessWithEveryWorkerBusyIsWorse(String name, double rate, double rateError, Double busy, double rate2, double rateError2,
            Double busy2, String worse) {
        AutoFigures before = new AutoFigures().setWindows(3).setRequestsPerSecond(rate).setRequestsPerSecondError(rateError).setBusyWorkersPercent(busy);
        AutoFigures after = new AutoFigures().setWindows(3).setRequestsPerSecond(rate2).setRequestsPerSecondError(rateError2).setBusyWorkersPercent(busy2);

        if (worse == null) {
            assertThat(Measures.regression(new Auto(), before, after)).isEmpty();
        } else {
            assertThat(Measures.regression(new Auto(), before, after)).hasValueSatisfying(r -> assertThat(r).contains(worse));
        }
    }

    @Test
    void aPeriodsBusyWorkersAreItsWindowsMeanOverThePoolsMaximum() {
        List<Observed> windows = List.of(new Observed().setBusyThreads(400.0).setMaxThreads(417.0), new Observed().setBusyThreads(417.0)
                .setMaxThreads(417.0));

        assertThat(Measures.figures(windows).getBusyWorkersPercent()).isEqualTo(97.96);
        assertThat(Measures.figures(List.of(new Observed().setBusyThreads(3.0))).getBusyWorkersPercent()).isNull();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            the same workload        | 500 | 100 | 500 | 100 | false
            within the shift         | 500 | 100 | 600 | 120 | false
            the rate per pod rose    | 500 | 100 | 700 | 100 | true
            the rate per pod fell    | 500 | 100 | 300 | 100 | true
            a dependency slowed down | 500 | 100 | 500 | 140 | true
            """)
    void aShiftIsARateOrLatencyMoveBeyondTheThreshold(String name, double rate, double latency, double rate2, double latency2, boolean shifted) {
        AutoFigures baseline = new AutoFigures().setRequestsPerSecond(rate).setMeanLatencyMillis(latency);
        AutoFigures now = new AutoFigures().setRequestsPerSecond(rate2).setMeanLatencyMillis(latency2);

        assertThat(Measures.shift(new Auto(), baseline, now).isPresent()).isEqualTo(shifted);
    }

    @Test
    void aPeriodIsTheMeanOfItsWindowsAndItsThroughputIsPerCpuSecond() {
        Observed a = new Observed().setRequestsPerSecond(400.0).setCpuCores(0.5).setMeanLatencyMillis(100.0).setEnd("t1");
        Observed b = new Observed().setRequestsPerSecond(600.0).setCpuCores(1.5).setMeanLatencyMillis(null).setEnd("t2");

        Observed mean = Measures.mean(List.of(a, b));
        AutoFigures figures = Measures.figures(List.of(a, b));

        assertThat(mean.getEnd()).isEqualTo("t2");
        assertThat(figures.getRequestsPerSecond()).isEqualTo(500.0);
        assertThat(figures.getRequestsPerCpuSecond()).isEqualTo(500.0);
        assertThat(figures.getMeanLatencyMillis()).as("the windows that have the figure").isEqualTo(100.0);
        assertThat(figures.getWindows()).isEqualTo(2);
    }

    /** rate req/s, mean ms, p99 ms; before then after; the measure named or empty. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            p99 doubles at the same load, the mean holds      | 500 | 100 | 300 | 500  | 102 | 600 | p99 latency 300 -> 600 ms at 500 -> 500 req/s
            p99 doubles with the load doubled (more in flight) | 500 | 100 | 300 | 1000 | 102 | 600 | -
            p99 within the tolerance                           | 500 | 100 | 300 | 500  | 100 | 320 | -
            the server has no histogram                        | 500 | 100 | -   | 500  | 100 | -   | -
            """)
    void p99IsJudgedLikeTheMean(String name, double rate, double mean, Double p99, double rate2, double mean2, Double p99After, String worse) {
        AutoFigures before = new AutoFigures().setRequestsPerSecond(rate).setMeanLatencyMillis(mean).setP99LatencyMillis(p99);
        AutoFigures after = new AutoFigures().setRequestsPerSecond(rate2).setMeanLatencyMillis(mean2).setP99LatencyMillis(p99After);

        if (worse == null) {
            assertThat(Measures.regression(new Auto(), before, after)).isEmpty();
        } else {
            assertThat(Measures.regression(new Auto(), before, after)).hasValueSatisfying(r -> assertThat(r).startsWith(worse));
        }
    }

    @Test
    void aPeriodsP99IsTheMeanOfItsWindowsP99() {
        Observed a = new Observed().setP99LatencyMillis(200.0).setEnd("t1");
        Observed b = new Observed().setP99LatencyMillis(300.0).setEnd("t2");

        assertThat(Measures.figures(List.of(a, b)).getP99LatencyMillis()).isEqualTo(250.0);
    }

    @Test
    void aPeriodMeasuresItsNoiseAndTakesTheJitCompilersCpuOut() {
        Observed a = new Observed().setRequestsPerSecond(400.0).setCpuCores(0.5).setCompilationMillisPerRequest(0.2).setMeanLatencyMillis(90.0)
                .setEnd("t1");
        Observed b = new Observed().setRequestsPerSecond(600.0).setCpuCores(0.5).setCompilationMillisPerRequest(0.0).setMeanLatencyMillis(110.0)
                .setEnd("t2");

        AutoFigures figures = Measures.figures(List.of(a, b));

        assertThat(figures.getRequestsPerSecondError()).as("sd 141.42 over the square root of 2 windows").isEqualTo(100.0);
        assertThat(figures.getMeanLatencyMillisError()).isEqualTo(10.0);
        assertThat(figures.getRequestsPerCpuSecondError()).as("952.38 and 1200 per CPU-second, 0.08 cores of JIT out of the first").isEqualTo(123.81);
        assertThat(figures.getRequestsPerCpuSecond()).as("500 req/s over 0.5 cores less 0.05 of JIT").isEqualTo(1111.11);
        assertThat(Measures.figures(List.of(a)).getRequestsPerSecondError()).as("one window has no spread").isNull();
    }

    /** rate, its error, latency, its error: the best then now; whether now beats it, whether it is within the noise, whether it regressed. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            the same figures                             | 500 | 10 | 100 | 2 | 500 | 10 | 100 | 2  | false | true  | false
            a fifth more served, beyond the noise        | 500 | 10 | 100 | 2 | 600 | 10 | 100 | 2  | true  | false | false
            a few percent more, within the noise         | 500 | 20 | 100 | 2 | 530 | 20 | 100 | 2  | false | true  | false
            lower latency at the same load               | 500 | 10 | 100 | 2 | 500 | 10 | 80  | 2  | true  | false | false
            latency up a fifth, beyond the noise         | 500 | 10 | 100 | 2 | 500 | 10 | 120 | 2  | false | false | true
            latency up a fifth, within a noisy period    | 500 | 10 | 100 | 2 | 500 | 10 | 120 | 15 | false | true  | false
            no spread measured: the tolerance stands in  | 500 | -  | 100 | - | 540 | -  | 105 | -  | false | true  | false
            no spread measured, past the tolerance       | 500 | -  | 100 | - | 600 | -  | 100 | -  | true  | false | false
            """)
    void aDifferenceCountsOnlyBeyondTheNoise(String name, double rate, Double rateError, double latency, Double latencyError, double rate2,
            Double rateError2, double latency2, Double latencyError2, boolean better, boolean withinNoise, boolean regression) {
        AutoFigures best = new AutoFigures().setRequestsPerSecond(rate).setRequestsPerSecondError(rateError).setMeanLatencyMillis(latency)
                .setMeanLatencyMillisError(latencyError);
        AutoFigures now = new AutoFigures().setRequestsPerSecond(rate2).setRequestsPerSecondError(rateError2).setMeanLatencyMillis(latency2)
                .setMeanLatencyMillisError(latencyError2);

        assertThat(Measures.better(new Auto(), best, now)).as("better").isEqualTo(better);
        assertThat(Measures.withinNoise(new Auto(), best, now)).as("within the noise").isEqualTo(withinNoise);
        assertThat(Measures.regression(new Auto(), best, now).isPresent()).as("a regression").isEqualTo(regression);
    }

    /** queue wait before (ms), the rate's error; the rate and latencies after; whether latency judges the step a regression. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            more served of a queue, beyond the noise          | 2405 | 5  | 260 | 3735 | 9000 | false
            no queue before: the latency judges               | 0.5  | 5  | 260 | 3735 | 9000 | true
            the queue's wait not measured: the latency judges | -    | 5  | 260 | 3735 | 9000 | true
            more served of a queue, within the noise          | 2405 | 15 | 260 | 3735 | 9000 | true
            fewer served of a queue                           | 2405 | 5  | 200 | 3735 | 9000 | true
            """)
    void servingMoreOfAQueueMovesItsWaitOntoTheServersClock(String name, Double queueWait, double rateError, double rate2, double latency2,
            double p99After, boolean regression) {
        // The lab's overloaded Quarkus pod at 200 threads (before) and at 100 (after), 1000 clients.
        AutoFigures before = new AutoFigures().setRequestsPerSecond(238.0).setRequestsPerSecondError(rateError).setMeanLatencyMillis(2862.0)
                .setMeanLatencyMillisError(40.0).setP99LatencyMillis(6000.0).setQueueWaitMillisPerRequest(queueWait);
        AutoFigures after = new AutoFigures().setRequestsPerSecond(rate2).setRequestsPerSecondError(rateError).setMeanLatencyMillis(latency2)
                .setMeanLatencyMillisError(40.0).setP99LatencyMillis(p99After);

        assertThat(Measures.regression(new Auto(), before, after).isPresent()).isEqualTo(regression);
        assertThat(Measures.regression(new Auto().setGuardrail(new Guardrail("p99-latency", 8000.0)),
                before.setGuardrail(6000.0), after.setGuardrail(p99After))).as("a guardrail judges it always").isPresent();
    }

    @Test
    void aPeriodsQueueWaitIsTheLoopsIncludingLittlesLawOnThePool() {
        Observed window = new Observed().setRequestsPerSecond(238.0).setMeanLatencyMillis(2862.0).setBusyThreads(108.9).setMaxThreads(200.0)
                .setBusyThreadsAveraged(true).setLatencyIncludesQueueWait(true).setQueueWaitMillisPerRequest(1.0);

        assertThat(Measures.figures(List.of(window, window)).getQueueWaitMillisPerRequest()).as("2862 ms less 108.9 / 238 s held")
                .isEqualTo(2404.44);
        assertThat(Measures.figures(List.of(new Observed().setRequestsPerSecond(1.0))).getQueueWaitMillisPerRequest()).isNull();
    }

    @Test
    void aPeriodCarriesWhatTheRePlanNeedsBeyondTheTimes() {
        Observed a = new Observed().setAllocatedKibPerRequest(2000.0).setQueueWaitMillisPerRequest(10.0).setCompilationMillisPerRequest(0.4)
                .setGcCpuMillisPerRequest(0.1).setLoadedClasses(9000).setEnd("t1");
        Observed b = new Observed().setAllocatedKibPerRequest(2100.0).setQueueWaitMillisPerRequest(30.0).setCompilationMillisPerRequest(0.2)
                .setGcCpuMillisPerRequest(0.3).setLoadedClasses(9010).setEnd("t2");

        Observed mean = Measures.mean(List.of(a, b));

        assertThat(mean.getAllocatedKibPerRequest()).as("R12a's garbage in flight").isEqualTo(2050.0);
        assertThat(mean.getQueueWaitMillisPerRequest()).as("queueing is no service time").isEqualTo(20.0);
        assertThat(mean.getCompilationMillisPerRequest()).isEqualTo(0.3);
        assertThat(mean.getGcCpuMillisPerRequest()).isEqualTo(0.2);
        assertThat(mean.getLoadedClasses()).as("a gauge: the newest").isEqualTo(9010);
    }
}
