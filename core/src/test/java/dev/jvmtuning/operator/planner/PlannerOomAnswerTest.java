package dev.jvmtuning.operator.planner;

import static dev.jvmtuning.operator.planner.Specs.container;
import static dev.jvmtuning.operator.planner.Specs.spec;
import static org.assertj.core.api.Assertions.assertThat;

import dev.jvmtuning.operator.api.v1alpha1.LastOomKill;
import dev.jvmtuning.operator.api.v1alpha1.MemorySizing;
import dev.jvmtuning.operator.api.v1alpha1.Sizing;
import dev.jvmtuning.operator.api.v1alpha1.SizingPolicy;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfileSpec;
import dev.jvmtuning.operator.flags.FlagPolicy;
import dev.jvmtuning.operator.model.ContainerFacts;
import dev.jvmtuning.operator.model.OomKill.Cause;
import dev.jvmtuning.operator.model.Reason;
import dev.jvmtuning.operator.model.Rule;
import dev.jvmtuning.operator.model.Setting;
import dev.jvmtuning.operator.model.Units;
import dev.jvmtuning.operator.planner.PlanResult.Plan;
import dev.jvmtuning.operator.planner.PlanResult.Rejected;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** R9b: the last OOM kill of the target, answered by the next plan's memory budget. */
class PlannerOomAnswerTest {
    private static final long MI = Units.MI;
    private static final String SPEC = "runtime: SpringBootTomcat\nthreads: {max: 80}";
    private static final ContainerFacts ONE_GI = container(2, "1Gi");

    private static PlanResult plan(String yaml, ContainerFacts facts, LastOomKill kill) {
        TuningProfileSpec spec = spec(yaml);
        return Planner.plan(spec, facts, FlagPolicy.standard(), OomAnswer.to(kill, null));
    }

    private static Plan planned(LastOomKill kill) {
        PlanResult result = plan(SPEC, ONE_GI, kill);
        assertThat(result).as("expected a plan, got %s", result).isInstanceOf(Plan.class);
        return (Plan) result;
    }

    private static LastOomKill kill(Cause cause, Long observed, Long budget, Long heap, int inARow) {
        return new LastOomKill("orders-7", "h1", 1, "2026-11-23T10:00:00Z", cause.name(), "pod orders-7 OOM-killed", 1024 * MI, heap, observed,
                budget, inARow);
    }

    private static Decision decision(Plan plan, Setting setting) {
        return plan.decisions().stream().filter(d -> d.setting() == setting).findFirst()
                .orElseThrow(() -> new AssertionError("no " + setting + " in " + plan.decisions()));
    }

    static Stream<Arguments> causes() {
        // The plan without a kill: metaspace 104.6Mi (16,000 typical classes), direct 32Mi, 124 threads x 256Ki stacks 31Mi,
        // overhead 83Mi, code cache 240Mi: heap 533Mi of the 1Gi limit.
        return Stream.of(
                // seen at 120Mi before the kill: 1.25 x 120Mi = 150Mi beats 1.5 x its 64Mi budget
                Arguments.of(Cause.METASPACE, 120 * MI, 64 * MI, Setting.METASPACE_BUDGET, "150Mi", 150 * MI,
                        "pod orders-7 OOM-killed at 1024Mi, metaspace 120Mi against its 64Mi budget: metaspace budget 104Mi -> 150Mi, "
                                + "heap 533Mi -> 487Mi (R9b)"),
                Arguments.of(Cause.DIRECT_MEMORY, 100 * MI, 32 * MI, Setting.MAX_DIRECT_MEMORY, "125Mi", 125 * MI,
                        "pod orders-7 OOM-killed at 1024Mi, direct memory 100Mi against its 32Mi budget: direct memory budget 32Mi -> 125Mi, "
                                + "heap 533Mi -> 440Mi (R9b); -XX:MaxDirectMemorySize caps"),
                // 1.25 x 40Mi = 50Mi over 124 threads: 413Ki a thread
                Arguments.of(Cause.THREAD_STACKS, 40 * MI, 31 * MI, Setting.THREAD_STACK_BUDGET, "413Ki", 413 * Units.KI * 124,
                        "pod orders-7 OOM-killed at 1024Mi, thread stacks 40Mi against its 31Mi budget: thread stacks budget 31Mi -> 50Mi"),
                Arguments.of(Cause.NATIVE_OTHER, 150 * MI, 83 * MI, Setting.NATIVE_OVERHEAD_BUDGET, "188Mi", 188 * MI,
                        "pod orders-7 OOM-killed at 1024Mi, native other 150Mi against its 83Mi budget: native other budget 83Mi -> 188Mi, "
                                + "heap 533Mi -> 428Mi (R9b)"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("causes")
    void eachKnownCauseGetsItsPartRaisedAndTheHeapGivesWay(Cause cause, long observed, long budget, Setting setting, String value,
            long partBytes, String rationale) {
        Plan before = planned(null);
        Plan after = planned(kill(cause, observed, budget, before.values().heapBytes(), 1));

        Decision answered = decision(after, setting);
        assertThat(answered.rule()).isEqualTo(Rule.R9B);
        assertThat(answered.value()).isEqualTo(value);
        assertThat(answered.rationale()).startsWith(rationale);
        assertThat(after.budget().part(cause)).isEqualTo(partBytes);
        assertThat(after.budget().fits()).isTrue();
        assertThat(after.values().heapBytes()).as("the heap gives way to the part").isLessThan(before.values().heapBytes());
        assertThat(decision(after, Setting.HEAP_SIZE).rationale()).startsWith("pod orders-7 OOM-killed at 1024Mi, ");
        assertThat(after.values().mallocArenaMax()).isEqualTo(cause == Cause.NATIVE_OTHER ? 2 : null);
        if (cause == Cause.DIRECT_MEMORY) {
            assertThat(after.values().maxDirectMemoryBytes()).isEqualTo(partBytes);
        }
    }

    @Test
    void mallocArenasGoWithTheServersVariablesAndTheCapIsAFlag() {
        TuningProfileSpec spec = spec(SPEC);
        Planned nativeKill = Planned.of((Plan) plan(SPEC, ONE_GI, kill(Cause.NATIVE_OTHER, 150 * MI, 83 * MI, null, 1)), spec, ONE_GI);
        assertThat(nativeKill.rendering().serverEnvironment()).containsEntry("MALLOC_ARENA_MAX", "2");
        assertThat(nativeKill.rendering().renderedAs()).containsEntry(Setting.MALLOC_ARENA_MAX, "MALLOC_ARENA_MAX");
        Planned directKill = Planned.of((Plan) plan(SPEC, ONE_GI, kill(Cause.DIRECT_MEMORY, 100 * MI, 32 * MI, null, 1)), spec, ONE_GI);
        assertThat(directKill.rendering().renderedFlags()).contains("-XX:MaxDirectMemorySize=125m");
        assertThat(directKill.rendering().serverEnvironment()).doesNotContainKey("MALLOC_ARENA_MAX");
    }

    @Test
    void aBudgetThatLeavesTooLittleHeapIsInfeasibleWithTheFigures() {
        PlanResult result = plan(SPEC, ONE_GI, kill(Cause.NATIVE_OTHER, 800 * MI, 83 * MI, 738 * MI, 1));
        assertThat(result).isInstanceOfSatisfying(Rejected.class, rejected -> {
            assertThat(rejected.reason()).isEqualTo(Reason.INFEASIBLE);
            assertThat(rejected.messages()).singleElement().asString()
                    .startsWith("pod orders-7 OOM-killed at 1024Mi, native other 800Mi against its 83Mi budget: the 1024Mi memory limit leaves 0Mi "
                            + "for the heap")
                    .contains("JVM overhead 1000Mi")
                    .contains("raise the limit to at least");
        });
        assertThat(plan(SPEC + "\nheap: {size: 500Mi}", ONE_GI, null)).isInstanceOf(Plan.class);
        PlanResult explicit = plan(SPEC + "\nheap: {size: 500Mi}", ONE_GI, kill(Cause.METASPACE, 120 * MI, 64 * MI, 500 * MI, 1));
        assertThat(explicit).as("a heap the profile sets does not give way").isInstanceOfSatisfying(Rejected.class,
                rejected -> assertThat(rejected.messages()).singleElement().asString().contains("metaspace 150Mi").contains("exceeds the 1024Mi"));
    }

    @Test
    void aKillWithoutAPartToBlameOrPastTheBoundChangesNothing() {
        Plan unanswered = planned(null);
        assertThat(OomAnswer.to(kill(Cause.UNKNOWN, null, null, null, 0), null)).isEmpty();
        assertThat(OomAnswer.to(kill(Cause.LIMIT_BELOW_HEAP, null, null, 900 * MI, 0), null)).isEmpty();
        assertThat(OomAnswer.to(kill(Cause.HEAP_NOT_PLANNED, null, null, 300 * MI, 0), null)).isEmpty();
        assertThat(planned(kill(Cause.UNKNOWN, null, null, null, 0))).isEqualTo(unanswered);

        assertThat(OomAnswer.to(kill(Cause.METASPACE, 120 * MI, 64 * MI, null, OomAnswer.MAX_ANSWERED_IN_A_ROW), null)).isPresent();
        LastOomKill fourth = kill(Cause.METASPACE, 120 * MI, 64 * MI, null, OomAnswer.MAX_ANSWERED_IN_A_ROW + 1);
        assertThat(OomAnswer.to(fourth, null)).isEmpty();
        assertThat(OomAnswer.exhausted(fourth, null)).isTrue();
        Sizing unbounded = new Sizing().setMemory(new MemorySizing().setPolicy(SizingPolicy.Plan));
        assertThat(OomAnswer.exhausted(fourth, unbounded)).as("sized without a maximum: three answers, as unsized").isTrue();
        Sizing bounded = new Sizing().setMemory(new MemorySizing().setPolicy(SizingPolicy.Plan).setMax("2Gi"));
        assertThat(OomAnswer.to(fourth, bounded)).as("sized up to a maximum: it bounds the answers").isPresent();
        assertThat(OomAnswer.exhausted(kill(Cause.UNKNOWN, null, null, null, 9), null)).as("an unanswered cause is never counted").isFalse();
    }

    @Test
    void oneKillIsAnsweredOnceAndTheNextStartsFromTheBudgetItsPodsRan() {
        LastOomKill first = kill(Cause.METASPACE, 120 * MI, 64 * MI, 533 * MI, 1);
        Plan once = planned(first);
        assertThat(planned(first)).as("the same kill, the same answer").isEqualTo(once);
        long raised = once.budget().metaspace();
        Plan twice = planned(kill(Cause.METASPACE, 150 * MI, raised, once.values().heapBytes(), 2));
        assertThat(twice.budget().metaspace()).as("1.5 x the 150Mi its pods ran").isEqualTo(225 * MI);
        assertThat(twice.values().heapBytes()).isEqualTo(once.values().heapBytes() - (225 * MI - raised));
    }
}
