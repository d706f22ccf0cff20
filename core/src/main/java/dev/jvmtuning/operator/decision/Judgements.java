package dev.jvmtuning.operator.decision;

import dev.jvmtuning.operator.api.v1alpha1.LastOomKill;
import dev.jvmtuning.operator.api.v1alpha1.Metrics;
import dev.jvmtuning.operator.api.v1alpha1.Mode;
import dev.jvmtuning.operator.api.v1alpha1.Recommendation;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfileSpec;
import dev.jvmtuning.operator.closedloop.ObservedWorkload;
import dev.jvmtuning.operator.deployment.TargetPods;
import dev.jvmtuning.operator.flags.FlagPolicy;
import dev.jvmtuning.operator.model.ContainerFacts;
import dev.jvmtuning.operator.model.CurrentSettings;
import dev.jvmtuning.operator.model.MemoryUse;
import dev.jvmtuning.operator.model.MetricsReport;
import dev.jvmtuning.operator.model.Rule;
import dev.jvmtuning.operator.model.Setting;
import dev.jvmtuning.operator.model.Units;
import dev.jvmtuning.operator.planner.MemoryBudget;
import dev.jvmtuning.operator.planner.PlanResult;
import dev.jvmtuning.operator.pressure.CarrierPinning;
import dev.jvmtuning.operator.pressure.Finding;
import dev.jvmtuning.operator.pressure.HeapFit;
import dev.jvmtuning.operator.pressure.MemoryAccount;
import dev.jvmtuning.operator.pressure.PressureDetector;
import dev.jvmtuning.operator.preview.Preview;
import dev.jvmtuning.operator.render.DeploymentTuning;
import dev.jvmtuning.operator.render.TuningConfigMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The pods judged against the plan in force: their metrics (the pressure detector's verdict and the closed loop's advice),
 * their memory against the plan's budget, each JVM's heap against its own limit. Values in, values out.
 */
final class Judgements {
    private Judgements() {
    }

    /**
     * The metrics of the target's pods, judged against the plan in force, and the closed loop's advice: the workload measured
     * only from a window of warm JVMs (spec.metrics.warmUp), judged by the window as polled, not as steadied for status.
     *
     * @param flagPolicy  the policy the plan in force passed, so a plan from measured figures judges the same jvmOptions alike
     * @param lastOomKill the last kill as this reconcile records it, which mode Recommend answers
     */
    static Findings.Metrics metrics(Observation seen, PlanResult.Plan plan, ContainerFacts facts, CurrentSettings current,
            FlagPolicy flagPolicy, LastOomKill lastOomKill) {
        TuningProfileSpec spec = seen.profile().getSpec();
        return seen.metrics().map(polled -> {
            MetricsReport report = polled.steadied(seen.previousStatus().getObserved());
            var verdict = report.observed() == null ? null
                    : PressureDetector.judge(report.observed(), report.previous(), spec.getPressure(), current)
                            .with(CarrierPinning.judge(report.virtualThreads(), report.observed().getWindow()));
            boolean warm = polled.observed() != null && ObservedWorkload.fromWarmJvms(polled.observed(), TargetPods.youngestStart(seen.pods()),
                    Units.duration(Objects.requireNonNullElseGet(spec.getMetrics(), Metrics::new).getWarmUp()));
            List<Recommendation> remeasured = plan == null ? List.of() : Stream.concat(
                    warm ? ObservedWorkload.replan(spec, facts, plan, report.observed(), flagPolicy).stream() : Stream.empty(),
                    spec.getMode() == Mode.Recommend ? oomAnswer(plan, lastOomKill).stream() : Stream.empty()).toList();
            return new Findings.Metrics(report, verdict, remeasured);
        }).orElse(null);
    }

    /**
     * The memory of the Ready pods of the settings in force against the plan's budget, beside a new window: in mode Recommend
     * every Ready pod, which runs the Deployment's own template, is held against the budget Apply would give it. Not judged
     * without a memory limit, which nothing is killed at, or a budget; not looked at without a window.
     */
    static Findings.Memory memory(Observation seen, Preview.Rendered rendered) {
        Long limit = rendered.asPlanned().memoryLimitBytes();
        MemoryBudget budget = rendered.plan().budget();
        if (limit == null || budget == null) {
            return Findings.Memory.NOT_JUDGED;
        }
        return seen.metrics().filter(report -> report.observed() != null).map(report -> {
            Map<String, MemoryUse> memory = new TreeMap<>();
            podsOfThePlan(seen, rendered).forEach(pod -> memory.put(pod, report.memory().getOrDefault(pod, MemoryUse.NONE)));
            return new Findings.Memory(MemoryAccount.judge(memory, limit, budget));
        }).orElse(null);
    }

    /**
     * Each Ready pod's maximum heap, as its JVM reports it, against its own memory limit (as the kubelet applied it, after any
     * in-place resize) beside the plan's non-heap budget, whoever sized the heap: the pods of the settings in force (in mode
     * Recommend every pod, which runs the Deployment's own template). A pod of earlier settings is held to its own plan, which
     * this budget is not: during a rollout it would be judged against the next one. No verdict without a budget, or from a
     * poll that read no options.
     */
    static Finding heapFit(Observation seen, Preview.Rendered rendered) {
        MemoryBudget budget = rendered.plan().budget();
        if (budget == null) {
            return null;
        }
        Set<String> judged = podsOfThePlan(seen, rendered);
        return seen.metrics().filter(report -> !report.effectiveOptions().isEmpty()).map(report -> {
            Map<String, Long> heaps = new TreeMap<>();
            report.effectiveOptions().forEach((pod, options) -> options.option("MaxHeapSize").filter(o -> judged.contains(pod))
                    .ifPresent(o -> heaps.put(pod, (long) o.value())));
            Map<String, Long> limits = new TreeMap<>();
            seen.pods().stream().filter(TargetPods::ready).forEach(pod -> TargetPods.memoryLimitBytes(pod, rendered.userContainer().getName())
                    .ifPresent(limit -> limits.put(pod.getMetadata().getName(), limit)));
            return HeapFit.judge(HeapFit.pods(heaps, limits), budget.nonHeap());
        }).orElse(null);
    }

    /** The Ready pods the plan in force speaks for: in mode Recommend every one, else those of its settings. */
    private static Set<String> podsOfThePlan(Observation seen, Preview.Rendered rendered) {
        return seen.profile().getSpec().getMode() == Mode.Recommend
                ? seen.pods().stream().filter(TargetPods::ready).map(p -> p.getMetadata().getName()).collect(Collectors.toSet())
                : ApplyStep.readyPodsRunning(settingsHash(seen, rendered), seen);
    }

    /**
     * Mode Recommend's answer to the last OOM kill (R9b): what Apply would change, each with the kill's figures; the heap gives
     * way to the part that ran over.
     */
    private static List<Recommendation> oomAnswer(PlanResult.Plan plan, LastOomKill kill) {
        if (plan.decisions().stream().noneMatch(d -> d.rule() == Rule.R9B)) {
            return List.of();
        }
        String heapAtKill = kill.getPlannedHeapBytes() == null ? null : Units.mebibytes(kill.getPlannedHeapBytes());
        return plan.decisions().stream().filter(d -> d.rule() == Rule.R9B || d.setting() == Setting.HEAP_SIZE)
                .map(d -> Recommendation.set(d.name(), d.setting() == Setting.HEAP_SIZE ? heapAtKill : null, d.value(), d.rationale()))
                .toList();
    }

    /** The hash of the settings the plan in force renders, as the template carries it once written. */
    static String settingsHash(Observation seen, Preview.Rendered rendered) {
        return DeploymentTuning.hash(rendered.rendering(), TuningConfigMap.name(seen.profile().getMetadata().getName(), rendered.rendering()));
    }
}
