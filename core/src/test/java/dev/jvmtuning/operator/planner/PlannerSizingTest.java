package dev.jvmtuning.operator.planner;

import static dev.jvmtuning.operator.planner.Specs.container;
import static dev.jvmtuning.operator.planner.Specs.spec;
import static org.assertj.core.api.Assertions.assertThat;

import dev.jvmtuning.operator.api.v1alpha1.LastOomKill;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfileSpec;
import dev.jvmtuning.operator.flags.FlagPolicy;
import dev.jvmtuning.operator.model.ContainerFacts;
import dev.jvmtuning.operator.model.OomKill.Cause;
import dev.jvmtuning.operator.model.PlannedResources;
import dev.jvmtuning.operator.model.Reason;
import dev.jvmtuning.operator.model.Rule;
import dev.jvmtuning.operator.model.Setting;
import dev.jvmtuning.operator.model.Units;
import dev.jvmtuning.operator.planner.PlanResult.Plan;
import dev.jvmtuning.operator.planner.PlanResult.Rejected;
import dev.jvmtuning.operator.render.Renderer;
import dev.jvmtuning.operator.render.Rendering;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * R9c: the container sized around the JVM. The worked figures: Spring Boot on Tomcat, 80 threads, 2 CPUs: metaspace 104.6Mi
 * (16,000 typical classes), 124 threads x 256Ki stacks 31Mi, direct memory 32Mi, overhead 32Mi + 5% of the limit, code cache
 * 64Mi under 1Gi and 240Mi from 1Gi up.
 */
class PlannerSizingTest {
    private static final long MI = Units.MI;
    private static final String SERVICE = "runtime: SpringBootTomcat\nthreads: {max: 80}\n";
    private static final String SIZED = "sizing: {memory: {policy: Plan}}\n";

    private static Plan plan(String yaml, ContainerFacts facts) {
        return plan(yaml, facts, Optional.empty());
    }

    private static Plan plan(String yaml, ContainerFacts facts, Optional<OomAnswer> kill) {
        PlanResult result = Planner.plan(spec(yaml), facts, FlagPolicy.standard(), kill);
        assertThat(result).as("expected a plan, got %s", result).isInstanceOf(Plan.class);
        return (Plan) result;
    }

    private static Decision decision(Plan plan, Setting setting) {
        return plan.decisions().stream().filter(d -> d.setting() == setting).findFirst()
                .orElseThrow(() -> new AssertionError("no " + setting + " in " + plan.decisions()));
    }

    @Test
    void anOversizedContainerShrinksToThreeTimesTheLiveHeapBesideTheJvmsOwnMemory() {
        String yaml = SERVICE + SIZED + "workload: {liveHeap: 200Mi}";
        Plan plan = plan(yaml, container(2, "4Gi"));

        // heap 600Mi; L = (600 + 104.6 + 64 + 31 + 32 + 32 + 0.05 L) / 0.9, so L = 1016.1Mi, whole MiB up
        assertThat(plan.values().heapBytes()).isEqualTo(600 * MI);
        assertThat(plan.values().resources()).isEqualTo(new PlannedResources(1017 * MI, 1017 * MI, null));
        assertThat(plan.budget().limit()).isEqualTo(1017 * MI);
        assertThat(plan.budget().total()).as("the headroom is left out of the budget").isLessThanOrEqualTo(1017 * MI * 9 / 10);
        Decision limit = decision(plan, Setting.MEMORY_LIMIT);
        assertThat(limit.rule()).isEqualTo(Rule.R9C);
        assertThat(limit.rationale()).startsWith("3 x the live heap 200Mi (workload.liveHeap) + the JVM's memory beside it")
                .endsWith("+ 10% headroom = 1017Mi");
        assertThat(decision(plan, Setting.MEMORY_REQUEST).value()).isEqualTo("1017Mi");
        assertThat(decision(plan, Setting.HEAP_SIZE).rule()).isEqualTo(Rule.R9C);

        Rendering rendering = Renderer.render(plan.values(), spec(yaml), container(2, "4Gi"));
        assertThat(rendering.renderedFlags()).contains("-Xmx600m", "-Xms600m", "-XX:ReservedCodeCacheSize=64m");
        assertThat(rendering.resources()).isEqualTo(Map.of("limits.memory", "1017Mi", "requests.memory", "1017Mi"));
        assertThat(rendering.renderedAs()).containsEntry(Setting.MEMORY_LIMIT, "resources.limits.memory");
    }

    @Test
    void aHeapTheLimitCannotHoldGetsTheLimitItNeedsInsteadOfInfeasible() {
        String yaml = SERVICE + "heap: {size: 1Gi}\n";
        assertThat(Planner.plan(spec(yaml), container(2, "384Mi"))).isInstanceOf(Rejected.class)
                .extracting(r -> ((Rejected) r).reason()).isEqualTo(Reason.INFEASIBLE);

        Plan plan = plan(yaml + SIZED, container(2, "384Mi"));
        // from 1Gi up the code cache is 240Mi: L = (1024 + 104.6 + 240 + 31 + 32 + 32 + 0.05 L) / 0.9 = 1721.9Mi
        assertThat(plan.values().resources().memoryLimitBytes()).isEqualTo(1722 * MI);
        assertThat(plan.values().heapBytes()).isEqualTo(1024 * MI);
        assertThat(decision(plan, Setting.MEMORY_LIMIT).rationale()).startsWith("heap.size 1024Mi + ");
    }

    @Test
    void theBoundsHoldTheLimitAndAtTheMaximumTheHeapIsWhatItLeaves() {
        Plan raised = plan(SERVICE + "sizing: {memory: {policy: Plan, min: 2Gi}}\nworkload: {liveHeap: 200Mi}", container(2, "4Gi"));
        assertThat(raised.values().resources().memoryLimitBytes()).isEqualTo(2048 * MI);
        assertThat(raised.values().heapBytes()).as("more room, the same heap").isEqualTo(600 * MI);
        assertThat(decision(raised, Setting.MEMORY_LIMIT).rationale()).endsWith(", raised to sizing.memory.min 2Gi");

        Plan held = plan(SERVICE + "sizing: {memory: {policy: Plan, max: 768Mi}}\nworkload: {liveHeap: 200Mi}", container(2, "4Gi"));
        assertThat(held.values().resources().memoryLimitBytes()).isEqualTo(768 * MI);
        // 768 - (104.6 + 64 + 31 + 32 + 32 + 38.4) = 465.9Mi
        assertThat(held.values().heapBytes()).isEqualTo(465 * MI);
        assertThat(held.warnings()).anySatisfy(w -> assertThat(w).contains("a memory limit of 1017Mi", "above sizing.memory.max 768Mi",
                "the heap is what it leaves"));
    }

    @Test
    void withoutAFigureForTheHeapTheContainersMemoryStandsAndAWarningNamesTheFigure() {
        Plan plan = plan(SERVICE + SIZED, container(2, "1Gi"));
        assertThat(plan.values().resources()).isEqualTo(PlannedResources.NONE);
        assertThat(plan.budget().limit()).isEqualTo(1024 * MI);
        assertThat(plan.warnings()).anySatisfy(w -> assertThat(w).contains("sizing.memory is Plan", "workload.liveHeap", "kept"));
    }

    @Test
    void theUsersOwnXmxIsTheHeapTheLimitHolds() {
        Plan plan = plan(SERVICE + SIZED + "jvmOptions: [-Xmx512m]", container(2, "4Gi"));
        // L = (512 + 104.6 + 64 + 31 + 32 + 32 + 0.05 L) / 0.9 = 912.5Mi
        assertThat(plan.values().resources().memoryLimitBytes()).isEqualTo(913 * MI);
        assertThat(plan.values().heapBytes()).as("theirs, not rendered").isNull();
        assertThat(decision(plan, Setting.MEMORY_LIMIT).rationale()).startsWith("the heap 512Mi of -Xmx512m in jvmOptions");
    }

    @Test
    void aShareOfTheLimitCannotSizeTheLimit() {
        PlanResult result = Planner.plan(spec(SERVICE + SIZED + "heap: {percentOfLimit: 60}"), container(2, "1Gi"));
        assertThat(result).isInstanceOf(Rejected.class);
        assertThat(((Rejected) result).reason()).isEqualTo(Reason.INVALID);
        assertThat(((Rejected) result).messages()).anySatisfy(m -> assertThat(m).contains("heap.percentOfLimit", "sizing.memory Plan"));

        PlanResult theirs = Planner.plan(spec(SERVICE + SIZED + "jvmOptions: [-XX:MaxRAMPercentage=60]"), container(2, "1Gi"));
        assertThat(((Rejected) theirs).messages()).anySatisfy(m -> assertThat(m).contains("-XX:MaxRAMPercentage=60", "set -Xmx"));
    }

    @Test
    void anOomKillOfANativePartRaisesTheLimitAndTheHeapStays() {
        String yaml = SERVICE + SIZED + "workload: {liveHeap: 150Mi}";
        Plan before = plan(yaml, container(2, "4Gi"));
        // heap 450Mi: L = (450 + 104.6 + 64 + 31 + 32 + 32 + 0.05 L) / 0.9 = 839.6Mi
        assertThat(before.values().resources().memoryLimitBytes()).isEqualTo(840 * MI);
        LastOomKill kill = new LastOomKill("orders-7", "h1", 1, "2026-11-23T10:00:00Z", Cause.METASPACE.name(), "pod orders-7 OOM-killed",
                840 * MI, 450 * MI, 120 * MI, 105 * MI, 1);
        Plan after = plan(yaml, container(2, "4Gi"), OomAnswer.to(kill, null));

        assertThat(after.values().heapBytes()).isEqualTo(450 * MI);
        // metaspace 104.6Mi -> 158Mi (1.5 x its 105Mi budget, whole MiB up): L = (450 + 158 + 64 + 31 + 32 + 32 + 0.05 L) / 0.9 = 902.4Mi
        assertThat(after.values().resources().memoryLimitBytes()).isEqualTo(903 * MI);
        assertThat(decision(after, Setting.METASPACE_BUDGET).rule()).isEqualTo(Rule.R9B);
        assertThat(after.budget().fits()).isTrue();

        // Past 1Gi the code cache's pin grows by 176Mi, which the limit holds too: 600Mi of heap and the same kill
        Plan larger = plan(SERVICE + SIZED + "workload: {liveHeap: 200Mi}", container(2, "4Gi"), OomAnswer.to(kill, null));
        assertThat(larger.values().resources().memoryLimitBytes()).isEqualTo(1286 * MI);
        assertThat(larger.budget().codeCache()).isEqualTo(240 * MI);
    }

    @Test
    void theCpuRequestFollowsTheLoadAndTheProcessorCountFollowsTheRequest() {
        String yaml = SERVICE + "sizing: {cpu: {policy: Plan}}\nworkload: {requestsPerSecond: 400, meanLatency: 50ms, cpuPerRequest: 4ms}";
        ContainerFacts noLimit = ContainerFacts.ofResources(null, 0.25, 1024 * MI, 1024 * MI);
        Plan plan = plan(yaml, noLimit);
        // 400 x 4ms = 1.6 CPU, + 25% = 2 CPU
        assertThat(plan.values().resources()).isEqualTo(new PlannedResources(null, null, 2000));
        assertThat(plan.values().activeProcessorCount()).isEqualTo(2);
        assertThat(decision(plan, Setting.CPU_REQUEST).rationale()).isEqualTo(
                "workload.requestsPerSecond 400 x workload.cpuPerRequest 4ms = 1.6 CPU, + 25% headroom");

        Plan capped = plan(yaml, ContainerFacts.ofResources(1.5, 0.25, 1024 * MI, 1024 * MI));
        assertThat(capped.values().resources().cpuRequestMillis()).isEqualTo(1500);
        assertThat(capped.warnings()).anySatisfy(w -> assertThat(w).contains("above the container's CPU limit 1.5"));

        Plan bounded = plan(SERVICE + "sizing: {cpu: {policy: Plan, max: 500m}}\n"
                + "workload: {requestsPerSecond: 400, meanLatency: 50ms, cpuPerRequest: 4ms}", noLimit);
        assertThat(bounded.values().resources().cpuRequestMillis()).isEqualTo(500);
        assertThat(bounded.values().activeProcessorCount()).isEqualTo(1);
    }

    @Test
    void keptByDefault() {
        TuningProfileSpec spec = spec(SERVICE + "workload: {liveHeap: 200Mi}");
        Plan plan = (Plan) Planner.plan(spec, container(2, "4Gi"));
        assertThat(plan.values().resources()).isEqualTo(PlannedResources.NONE);
        assertThat(plan.decisions()).noneMatch(d -> d.rule() == Rule.R9C);
    }
}
