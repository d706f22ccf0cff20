package dev.jvmtuning.operator.pressure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jvmtuning.operator.api.v1alpha1.Observed;
import dev.jvmtuning.operator.api.v1alpha1.Pressure;
import dev.jvmtuning.operator.api.v1alpha1.RecommendedAction;
import dev.jvmtuning.operator.api.v1alpha1.ThreadingModel;
import dev.jvmtuning.operator.model.ConditionStatus;
import dev.jvmtuning.operator.model.ConditionType;
import dev.jvmtuning.operator.model.CurrentSettings;
import dev.jvmtuning.operator.model.Reason;
import dev.jvmtuning.operator.model.RequestThreading;
import dev.jvmtuning.operator.model.Units;
import org.junit.jupiter.api.Test;

/** One test per rule the detector encodes (R4, R8, R15-R17 of docs/explanation/tuning-rules.md). */
class PressureDetectorTest {
    /** threads.max 200, heap 1024Mi, connectionPool.maxSize 10, on 2 CPUs. */
    private static final CurrentSettings CURRENT = new CurrentSettings(200, 1024 * Units.MI, 10, 2.0, null);

    static Observed window() {
        Observed o = new Observed();
        o.setWindow("30s");
        o.setPods(1);
        return o;
    }

    static Finding finding(Verdict verdict, String type) {
        return verdict.findings().stream().filter(f -> f.type().text().equals(type)).findFirst().orElseThrow();
    }

    @Test
    void r18_onVirtualThreadsABusyPlatformPoolIsNoSaturation() {
        // Spring Boot's Jetty on virtual threads: its 200 platform threads hand requests over and look all busy
        Observed o = window();
        o.setBusyThreads(200.0);
        o.setMaxThreads(200.0);
        o.setQueuedRequests(12.0);
        o.setCpuCores(0.4);
        RequestThreading virtual = new RequestThreading(ThreadingModel.Virtual, "the container's env sets SPRING_THREADS_VIRTUAL_ENABLED=true", null);

        Verdict onVirtual = PressureDetector.judge(o, null, new Pressure(), new CurrentSettings(null, null, 10, 2.0, virtual));
        Finding pool = finding(onVirtual, "ThreadPoolSaturated");
        assertThat(pool.status()).isEqualTo(ConditionStatus.FALSE);
        assertThat(pool.reason()).isEqualTo(Reason.VIRTUAL_THREADS);
        assertThat(pool.message()).startsWith("requests run on virtual threads (the container's env sets SPRING_THREADS_VIRTUAL_ENABLED=true)");
        assertThat(onVirtual.recommendations()).noneMatch(r -> r.getField().equals("threads.max"));

        // the same series on platform threads: saturated, with more threads recommended
        Verdict onPlatform = PressureDetector.judge(o, null, new Pressure(), CURRENT);
        assertThat(finding(onPlatform, "ThreadPoolSaturated").status()).isEqualTo(ConditionStatus.TRUE);
        assertThat(onPlatform.recommendations()).anyMatch(r -> r.getField().equals("threads.max"));
    }

    @Test
    void r15_gcTimeAboveTheThresholdIsPressureAndTheHeapShouldGrow() {
        Observed o = window();
        o.setGcTimePercent(23.4);
        o.setHeapAfterGcPercent(61.0);

        Verdict v = PressureDetector.judge(o, null, new Pressure(), CURRENT);

        assertThat(finding(v, "GCPressure")).isEqualTo(new Finding(ConditionType.GC_PRESSURE, ConditionStatus.TRUE, Reason.GC_TIME_HIGH,
                "GC took 23.4% of wall time over 30s (threshold 10%), heap 61% full after GC"));
        assertThat(v.recommendations()).anySatisfy(r -> {
            assertThat(r.getField()).isEqualTo("heap.size");
            assertThat(r.getCurrent()).isEqualTo("1024Mi");
            assertThat(r.getAction()).isEqualTo(RecommendedAction.Set);
            assertThat(r.getRecommended()).isEqualTo("1536Mi");
        });
    }

    @Test
    void r15_aRisingAfterGcOccupancyIsALeakSuspectNotAHeapTooSmall() {
        Observed before = window();
        before.setHeapAfterGcPercent(78.0);
        Observed now = window();
        now.setGcTimePercent(15.0);
        now.setHeapAfterGcPercent(93.0);

        Verdict v = PressureDetector.judge(now, before, new Pressure(), CURRENT);

        assertThat(v.recommendations()).singleElement().satisfies(r -> {
            assertThat(r.getAction()).isEqualTo(RecommendedAction.Investigate);
            assertThat(r.getRecommended()).as("no value makes a leak go away").isNull();
            assertThat(r.getReason()).contains("rose from 78% to 93%");
        });
    }

    @Test
    void r15_aNearlyFullHeapAfterGcIsPressureEvenWithLittleGcTime() {
        Observed o = window();
        o.setGcTimePercent(2.0);
        o.setHeapAfterGcPercent(95.0);

        assertThat(finding(PressureDetector.judge(o, null, new Pressure(), CURRENT), "GCPressure").reason().text()).isEqualTo("HeapNearlyFull");
    }

    @Test
    void thresholdsComeFromTheProfile() {
        Observed o = window();
        o.setGcTimePercent(6.0);
        Pressure strict = new Pressure();
        strict.setGcTimePercent(5);

        assertThat(finding(PressureDetector.judge(o, null, new Pressure(), CURRENT), "GCPressure").status().text()).isEqualTo("False");
        assertThat(finding(PressureDetector.judge(o, null, strict, CURRENT), "GCPressure").status().text()).isEqualTo("True");
    }

    @Test
    void r17_involuntarySwitchesAboveTheThresholdWithBusyCpusAskForFewerThreads() {
        Observed o = window();
        o.setInvoluntarySwitchesPerCorePerSecond(5400.0);
        o.setCpuCores(1.9);

        Verdict v = PressureDetector.judge(o, null, new Pressure(), CURRENT);

        assertThat(finding(v, "ContextSwitchPressure").status().text()).isEqualTo("True");
        assertThat(finding(v, "ContextSwitchPressure").message()).contains("5400 involuntary context switches per CPU per second", "threshold 2000");
        assertThat(v.recommendations()).anySatisfy(r -> {
            assertThat(r.getField()).isEqualTo("threads.max");
            assertThat(r.getRecommended()).isEqualTo("100");
        });
    }

    @Test
    void r16_throttlingAboveTheKubernetesMixinThreshold() {
        Observed o = window();
        o.setCpuThrottlePercent(40.0);

        Verdict v = PressureDetector.judge(o, null, new Pressure(), CURRENT);

        assertThat(finding(v, "CPUThrottled")).isEqualTo(new Finding(ConditionType.CPU_THROTTLED, ConditionStatus.TRUE, Reason.THROTTLED,
                "40% of CFS periods throttled over 30s (threshold 25%)"));
        assertThat(v.recommendations()).anyMatch(r -> r.getField().equals("resources.limits.cpu") && r.getRecommended().equals("3"));
    }

    @Test
    void withoutTheValueInForceTheAdviceIsAFactorNotAValue() {
        Observed o = window();
        o.setCpuThrottlePercent(40.0);
        o.setGcTimePercent(23.4);

        Verdict v = PressureDetector.judge(o, null, new Pressure(), new CurrentSettings(200, null, 10, null, null));

        assertThat(v.recommendations()).filteredOn(r -> r.getField().equals("heap.size") || r.getField().equals("resources.limits.cpu"))
                .hasSize(2).allSatisfy(r -> {
                    assertThat(r.getAction()).isEqualTo(RecommendedAction.Scale);
                    assertThat(r.getFactor()).isEqualTo(1.5);
                    assertThat(r.getRecommended()).isNull();
                });
    }

    @Test
    void r4_aSaturatedPoolWithIdleCpusNeedsMoreThreadsWithBusyCpusItDoesNot() {
        Observed idle = window();
        idle.setBusyThreads(200.0);
        idle.setMaxThreads(200.0);
        idle.setCpuCores(0.3);
        Observed busy = window();
        busy.setBusyThreads(199.0);
        busy.setMaxThreads(200.0);
        busy.setCpuCores(1.95);

        Verdict waiting = PressureDetector.judge(idle, null, new Pressure(), CURRENT);
        Verdict computing = PressureDetector.judge(busy, null, new Pressure(), CURRENT);

        assertThat(finding(waiting, "ThreadPoolSaturated").status().text()).isEqualTo("True");
        assertThat(waiting.recommendations()).anyMatch(r -> r.getField().equals("threads.max") && r.getRecommended().equals("300"));
        assertThat(computing.recommendations()).anyMatch(r -> r.getField().equals("threads.max") && r.getRecommended().equals("200")
                && r.getAction() == RecommendedAction.Keep);
    }

    @Test
    void r4_r7_requestsQueuedForAWorkerMeanThePoolIsSaturatedWhateverTheBusyGaugeRead() {
        // The busy gauge, read once per scrape, caught a moment of 150; over the window 140 requests waited 1.4 s each.
        Observed o = window();
        o.setBusyThreads(150.0);
        o.setMaxThreads(200.0);
        o.setQueuedRequests(140.0);
        o.setQueueWaitMillisPerRequest(1400.0);

        Verdict v = PressureDetector.judge(o, null, new Pressure(), CURRENT);

        assertThat(finding(v, "ThreadPoolSaturated")).isEqualTo(new Finding(ConditionType.THREAD_POOL_SATURATED, ConditionStatus.TRUE,
                Reason.POOL_SATURATED, "150 of 200 request threads busy, 140 requests queued for a worker (1400 ms each)"));
    }

    @Test
    void r8_requestsWaitingForConnectionsMeanTheConnectionPoolIsStarved() {
        Observed o = window();
        o.setPendingConnections(37.0);

        Verdict v = PressureDetector.judge(o, null, new Pressure(), CURRENT);

        assertThat(finding(v, "ConnectionPoolStarved").status().text()).isEqualTo("True");
        assertThat(v.recommendations()).anyMatch(r -> r.getField().equals("connectionPool.maxSize") && r.getRecommended().equals("20"));
    }

    @Test
    void aCalmWindowFlagsNothingAndMissingSeriesAreUnknown() {
        Observed o = window();
        o.setGcTimePercent(0.4);
        o.setInvoluntarySwitchesPerCorePerSecond(35.0);
        o.setCpuThrottlePercent(0.0);

        Verdict v = PressureDetector.judge(o, null, new Pressure(), CURRENT);

        assertThat(finding(v, "GCPressure").status().text()).isEqualTo("False");
        assertThat(finding(v, "ContextSwitchPressure").status().text()).isEqualTo("False");
        assertThat(finding(v, "CPUThrottled").status().text()).isEqualTo("False");
        assertThat(finding(v, "ThreadPoolSaturated").status().text()).isEqualTo("Unknown");
        assertThat(finding(v, "ConnectionPoolStarved").status().text()).isEqualTo("Unknown");
        assertThat(v.recommendations()).isEmpty();
    }
}
