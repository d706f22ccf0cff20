package dev.jvmtuning.operator.decision;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jvmtuning.operator.api.v1alpha1.Observed;
import dev.jvmtuning.operator.api.v1alpha1.Setting;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfileStatus;
import dev.jvmtuning.operator.model.Attestation;
import dev.jvmtuning.operator.model.ConditionStatus;
import dev.jvmtuning.operator.model.ConditionType;
import dev.jvmtuning.operator.model.EffectiveOptions;
import dev.jvmtuning.operator.model.EffectiveOptions.Option;
import dev.jvmtuning.operator.model.EffectiveOptions.Origin;
import dev.jvmtuning.operator.model.MemoryUse;
import dev.jvmtuning.operator.model.MetricsReport;
import dev.jvmtuning.operator.model.NativeMemory;
import dev.jvmtuning.operator.model.Reason;
import dev.jvmtuning.operator.model.RuntimeMetricsOptions;
import dev.jvmtuning.operator.model.Units;
import dev.jvmtuning.operator.planner.MemoryBudget;
import dev.jvmtuning.operator.pressure.MemoryAccount;
import dev.jvmtuning.operator.rollout.Rollout;
import io.fabric8.kubernetes.api.model.Condition;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;

class StatusBuilderTest {
    private static final Rollout COMPLETE = new Rollout(true, Reason.ROLLOUT_COMPLETE, "2 of 2 replicas run the tuned pod template");
    private static final Rollout ROLLING = new Rollout(false, Reason.ROLLING_OUT, "1 of 2 replicas updated, 1 available");
    private static final Instant T0 = Instant.parse("2026-11-25T10:00:00Z");

    private static final List<String> HEAP = List.of("-Xmx512m");
    /** A JVM that runs HEAP, in a container it sizes itself for. */
    private static final EffectiveOptions RUNS_HEAP = new EffectiveOptions(Map.of("MaxHeapSize", new Option(512 * Units.MI, Origin.ENVIRON_VAR),
            "UseContainerSupport", new Option(1, Origin.DEFAULT)));

    private static Condition ready(Attestation attestation) {
        TuningProfileStatus status = new StatusBuilder(new TuningProfileStatus(), 1L, T0.toString()).applied("applied", COMPLETE)
                .attested(attestation).build();
        return Conditions.find(status.getConditions(), ConditionType.READY).orElseThrow();
    }

    @Test
    void readySaysTheReplicasRunTheTunedSettingsOnlyWhenTheirJvmsReportIt() {
        Condition ready = ready(Attestation.of(HEAP, Map.of(), Map.of("orders-1", RUNS_HEAP, "orders-2", RUNS_HEAP)));

        assertThat(ready.getStatus()).isEqualTo("True");
        assertThat(ready.getReason()).isEqualTo(Reason.READY.text());
        assertThat(ready.getMessage()).isEqualTo("2 of 2 replicas run the tuned settings, as their JVMs report");
    }

    @Test
    void readyStaysTrueWhenTheJvmsReportNothingButSaysOnlyWhatTheRolloutKnowsAndWhy() {
        Condition ready = ready(Attestation.of(HEAP, Map.of(), Map.of("orders-1", RUNS_HEAP, "orders-2", EffectiveOptions.NONE)));

        assertThat(ready.getStatus()).as("a pod without the agent never reports: it is not held back for that").isEqualTo("True");
        assertThat(ready.getReason()).isEqualTo(Reason.READY.text());
        assertThat(ready.getMessage()).isEqualTo("2 of 2 replicas run the tuned pod template; what their JVMs run is not reported: "
                + "the planned JVM options are in effect on 1 of 2 pods; no options reported by orders-2 (no jvm-tuning agent, or an older one)");
        assertThat(ready.getMessage()).doesNotContain("run the tuned settings");
    }

    /** What a plan on G1 renders; a pod's runtime metrics show only its heap's maximum and its collector. */
    private static final List<String> ON_G1 = List.of("-XX:ActiveProcessorCount=2", "-Xms512m", "-Xmx512m", "-XX:+UseG1GC",
            "-XX:MaxGCPauseMillis=150", "-XX:ReservedCodeCacheSize=64m");
    /** A pod without the agent: Micrometer's heap pools of G1 with the planned heap. */
    private static final EffectiveOptions G1_POOLS = RuntimeMetricsOptions.of(Map.of("G1 Eden Space", -1.0, "G1 Old Gen", 512.0 * Units.MI,
            "G1 Survivor Space", -1.0), null, null);

    @Test
    void settingsNoPodCouldReportAreNotSaidInEffectNorReadyAsTheJvmsReport() {
        TuningProfileStatus previous = new TuningProfileStatus();
        previous.setSettings(List.of(new Setting("heap.size", "512Mi", "-Xmx512m", "R9", "", null),
                new Setting("heap.initial", "512Mi", "-Xms512m", "R10", "", null),
                new Setting("jvm.activeProcessorCount", "2", "-XX:ActiveProcessorCount=2", "R14", "", null)));
        TuningProfileStatus status = new StatusBuilder(previous, 1L, T0.toString()).applied("applied", COMPLETE)
                .attested(Attestation.of(ON_G1, Map.of(), Map.of("orders-1", G1_POOLS, "orders-2", G1_POOLS))).build();

        Condition effective = Conditions.find(status.getConditions(), ConditionType.SETTINGS_EFFECTIVE).orElseThrow();
        assertThat(effective.getStatus()).as("two of seven planned options read back").isEqualTo("Unknown");
        assertThat(effective.getReason()).isEqualTo(Reason.PARTLY_REPORTED.text());
        assertThat(effective.getMessage()).isEqualTo("the planned JVM options are in effect as far as read on 2 of 2 pods, read from "
                + "the runtime's metrics: MaxHeapSize, UseG1GC; not checkable without the agent: UseContainerSupport, ActiveProcessorCount, "
                + "InitialHeapSize, MaxGCPauseMillis, ReservedCodeCacheSize; the jvm-tuning agent (metrics.injectAgent) reads every "
                + "planned JVM option");
        Condition ready = Conditions.find(status.getConditions(), ConditionType.READY).orElseThrow();
        assertThat(ready.getStatus()).as("a pod without the agent is not held back for that").isEqualTo("True");
        assertThat(ready.getMessage()).isEqualTo("2 of 2 replicas run the tuned pod template; what their JVMs run is read only in part: "
                + effective.getMessage());
        assertThat(ready.getMessage()).doesNotContain("as their JVMs report");
        assertThat(status.getSettings()).extracting(Setting::getName, Setting::getEffective).containsExactly(
                Tuple.tuple("heap.size", "512Mi on 2 of 2 pods"), Tuple.tuple("heap.initial", null),
                Tuple.tuple("jvm.activeProcessorCount", null));
    }

    private static final long MI = Units.MI;
    private static final MemoryBudget BUDGET = new MemoryBudget(384 * MI, 153 * MI, 60 * MI, 8_000, true, 48 * MI, 160, 256 * Units.KI,
            32 * MI, 51 * MI, null);

    private static MemoryAccount.Judgement judged(long resident) {
        return MemoryAccount.judge(Map.of("orders-1", new MemoryUse(100 * MI, 153 * MI, 50 * MI, 10 * MI, 120L, resident, NativeMemory.NONE)),
                384 * MI, BUDGET);
    }

    @Test
    void memoryIsShownBesideTheWindowUntilItMovesBeyondNoiseAndGoesWithoutABudget() {
        MetricsReport window = new MetricsReport(ConditionStatus.TRUE, Reason.METRICS_READ, "read 1 of 1 Ready pods",
                new Observed().setWindow("30s").setEnd(T0.toString()).setPods(1), null);
        TuningProfileStatus shown = new StatusBuilder(new TuningProfileStatus(), 1L, T0.toString()).metrics(window, null, List.of())
                .memory(judged(250 * MI)).build();
        assertThat(shown.getObserved().getMemory().getResident()).isEqualTo("250Mi");
        assertThat(window.observed().getMemory()).as("the poll's window is not written to").isNull();

        TuningProfileStatus drifted = new StatusBuilder(shown, 1L, T0.plusSeconds(30).toString()).metrics(window, null, List.of())
                .memory(judged(252 * MI)).build();
        assertThat(drifted).as("2Mi of a 384Mi limit: the same reading").isEqualTo(shown);

        TuningProfileStatus grown = new StatusBuilder(shown, 1L, T0.plusSeconds(60).toString()).memory(judged(300 * MI)).build();
        assertThat(grown.getObserved().getMemory().getResident()).isEqualTo("300Mi");
        assertThat(Conditions.find(grown.getConditions(), ConditionType.NATIVE_MEMORY_PRESSURE).orElseThrow().getMessage())
                .startsWith("pod orders-1 at 300Mi");

        TuningProfileStatus unjudged = new StatusBuilder(grown, 1L, T0.plusSeconds(90).toString()).memoryNotJudged().build();
        assertThat(unjudged.getObserved().getMemory()).isNull();
        assertThat(unjudged.getObserved().getWindow()).isEqualTo("30s");
        assertThat(Conditions.find(unjudged.getConditions(), ConditionType.NATIVE_MEMORY_PRESSURE)).isEmpty();
    }
}
