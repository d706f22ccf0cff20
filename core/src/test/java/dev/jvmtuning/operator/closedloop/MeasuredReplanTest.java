package dev.jvmtuning.operator.closedloop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jvmtuning.operator.api.v1alpha1.Auto;
import dev.jvmtuning.operator.api.v1alpha1.Bounds;
import dev.jvmtuning.operator.api.v1alpha1.Heap;
import dev.jvmtuning.operator.api.v1alpha1.MemorySizing;
import dev.jvmtuning.operator.api.v1alpha1.Mode;
import dev.jvmtuning.operator.api.v1alpha1.Observed;
import dev.jvmtuning.operator.api.v1alpha1.Runtime;
import dev.jvmtuning.operator.api.v1alpha1.Sizing;
import dev.jvmtuning.operator.api.v1alpha1.SizingPolicy;
import dev.jvmtuning.operator.api.v1alpha1.TargetRef;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfileSpec;
import dev.jvmtuning.operator.api.v1alpha1.Workload;
import dev.jvmtuning.operator.flags.FlagPolicy;
import dev.jvmtuning.operator.model.ContainerFacts;
import dev.jvmtuning.operator.model.Units;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The loop's re-plan is the planner fed with what the pods measured, per pod. */
class MeasuredReplanTest {
    private static final ContainerFacts FACTS = ContainerFacts.ofResources(2.0, 2.0, Units.bytes("1Gi"), Units.bytes("1Gi"));

    private static TuningProfileSpec spec(Workload workload) {
        return new TuningProfileSpec().setTargetRef(new TargetRef().setName("orders")).setRuntime(Runtime.SpringBootTomcat).setMode(Mode.Auto)
                .setWorkload(workload).setAuto(new Auto());
    }

    /** 200 busy threads, 100 ms in the server of which 20 ms waiting for a CPU, 1 ms of CPU per request. */
    private static Observed window(double rate) {
        return new Observed().setRequestsPerSecond(rate).setMeanLatencyMillis(100.0).setRunQueueMillisPerRequest(20.0)
                .setCpuMillisPerRequest(1.0).setMaxThreads(200.0);
    }

    @Test
    void withoutADeclaredRateItPlansForTheRateEachPodServes() {
        MeasuredReplan replan = new MeasuredReplan(spec(null), FACTS, FlagPolicy.standard());

        int twoPods = proposal(replan, window(400)).settings().getThreads();
        int fourPods = proposal(replan, window(200)).settings().getThreads();

        assertThat(twoPods).as("400 req/s x 80 ms of work = 32 in flight, + a quarter").isEqualTo(40);
        assertThat(fourPods).as("an autoscaler that doubles the pods halves each one's load").isEqualTo(20);
    }

    @Test
    void aDeclaredRateIsPlannedForWithTheMeasuredTimes() {
        MeasuredReplan replan = new MeasuredReplan(spec(new Workload().setRequestsPerSecond(5000.0)), FACTS, FlagPolicy.standard());

        Replanner.Proposal proposal = proposal(replan, window(2000));

        assertThat(proposal.settings().getThreads()).as("5000 req/s x 80 ms = 400 in flight, capped where 2 CPUs saturate (R2)").isEqualTo(240);
        assertThat(proposal.settings().getHeapPercentOfLimit()).as("the heap moves only within bounds the spec gives").isNull();
        assertThat(proposal.reason()).contains("planned for 5000 req/s per pod, 80ms in the server per request, 1ms CPU");
    }

    @Test
    void theHeapIsProposedAsAShareOfTheLimitWhenTheSpecBoundsIt() {
        TuningProfileSpec spec = spec(null);
        spec.getAuto().setHeapPercentOfLimit(new Bounds(40, 80));

        assertThat(proposal(new MeasuredReplan(spec, FACTS, FlagPolicy.standard()), window(400)).settings().getHeapPercentOfLimit())
                .isBetween(10, 90);
    }

    @Test
    void whereSizingPlansTheMemoryTheMeasuredLiveHeapIsProposed() {
        TuningProfileSpec sized = spec(null).setSizing(new Sizing().setMemory(new MemorySizing().setPolicy(SizingPolicy.Plan)));
        Observed window = window(400).setLiveHeapMib(150.2);

        Replanner.Proposal proposal = proposal(new MeasuredReplan(sized, FACTS, FlagPolicy.standard()), window);

        assertThat(proposal.settings().getLiveHeapMib()).isEqualTo(151);
        assertThat(proposal.reason()).contains("151Mi of heap live after a collection");
        assertThat(proposal(new MeasuredReplan(spec(null), FACTS, FlagPolicy.standard()), window).settings().getLiveHeapMib())
                .as("the container's memory is not the loop's without spec.sizing").isNull();
        sized.setHeap(new Heap().setSize("512Mi"));
        assertThat(proposal(new MeasuredReplan(sized, FACTS, FlagPolicy.standard()), window).settings().getLiveHeapMib())
                .as("heap.size fixes the heap the limit is sized around").isNull();
    }

    @Test
    void aWorkloadThePlannerRejectsIsNamedWithItsFigures() {
        // 10,000 req/s held 200 ms each with no CPU figure to bound them (R2): 2,000 in flight, whose stacks outgrow 1Gi.
        Observed jitBound = new Observed().setRequestsPerSecond(10_000.0).setMeanLatencyMillis(200.0).setMaxThreads(200.0);

        Optional<Replanner.Replan> replan = new MeasuredReplan(spec(null), FACTS, FlagPolicy.standard()).propose(jitBound);

        assertThat(replan).get().isInstanceOfSatisfying(Replanner.Unplannable.class, unplannable -> assertThat(unplannable.reason())
                .startsWith("the planner rejects 10000 req/s per pod, 200ms in the server per request").contains("Infeasible", "(R9)"));
    }

    @Test
    void aWindowWithoutRequestsProposesNothing() {
        assertThat(new MeasuredReplan(spec(null), FACTS, FlagPolicy.standard()).propose(new Observed().setRequestsPerSecond(0.0))).isEmpty();
    }

    private static Replanner.Proposal proposal(MeasuredReplan replan, Observed period) {
        return (Replanner.Proposal) replan.propose(period).orElseThrow();
    }
}
