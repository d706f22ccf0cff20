package dev.jvmtuning.operator.decision;

import dev.jvmtuning.operator.api.v1alpha1.Auto;
import dev.jvmtuning.operator.api.v1alpha1.AutoSettings;
import dev.jvmtuning.operator.api.v1alpha1.AutoStatus;
import dev.jvmtuning.operator.api.v1alpha1.Observed;
import dev.jvmtuning.operator.api.v1alpha1.RollBack;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfileSpec;
import dev.jvmtuning.operator.closedloop.AutoLoop;
import dev.jvmtuning.operator.closedloop.MeasuredReplan;
import dev.jvmtuning.operator.deployment.TargetPods;
import dev.jvmtuning.operator.flags.FlagPolicy;
import dev.jvmtuning.operator.model.ContainerFacts;
import dev.jvmtuning.operator.model.CurrentSettings;
import dev.jvmtuning.operator.model.MetricsReport;
import dev.jvmtuning.operator.model.TuningValues;
import dev.jvmtuning.operator.model.Units;
import dev.jvmtuning.operator.planner.PlanResult;
import dev.jvmtuning.operator.planner.Planner;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * Mode Auto within a decision, after the settings in force were judged: feeds the loop what this
 * reconcile saw (the rollout, a rollback of failed pods, the latest window), keeps its decision in
 * status.auto, from which the next reconcile lays the loop's settings over the profile, and says every
 * step, verdict and revert in an Event. Pure.
 */
final class AutoStep {
    private AutoStep() {
    }

    /**
     * The loop's next step: status.auto and the Events it deserves.
     *
     * @param rolledBack the settings last taken back (status.rolledBack as this reconcile leaves it), or null
     * @param settledAt  when the rollout of the settings in force completed, or null while it is under way or none is applied
     */
    static AutoLoop.Decision decide(Observation seen, Deployment target, PlanResult.Plan plan, ContainerFacts facts, FlagPolicy flagPolicy,
            AutoStatus previous, RollBack rolledBack, Instant settledAt) {
        Auto spec = Objects.requireNonNullElseGet(seen.profile().getSpec().getAuto(), Auto::new);
        // The window as polled, not as steadied for status: the loop counts each window once, by its end.
        Observed window = seen.metrics().map(MetricsReport::observed).orElse(null);
        AutoLoop.PodFailure podFailure = rolledBack == null || rolledBack.getAt() == null ? null
                : new AutoLoop.PodFailure(rolledBack.getMessage(), Instant.parse(rolledBack.getAt()));
        CurrentSettings current = plan.current();
        String threadsFixed = !current.virtualThreads() ? null : "threads.max is not stepped: requests run on virtual threads ("
                + current.threading().source() + "), which no worker pool bounds; the loop steps the connection pool, which the "
                + "connection limit follows (R18), and the heap";
        AutoLoop.Decision decision = AutoLoop.decide(new AutoLoop.Input(spec, previous, inForce(seen.profile().getSpec(), plan.values(), current,
                facts, window),
                facts.memoryBudgetBytes(), settledAt, TargetPods.youngestStart(seen.pods()).orElse(null), podFailure, window,
                new MeasuredReplan(seen.profile().getSpec(), facts, flagPolicy), seen.now(), threadsFixed));
        return new AutoLoop.Decision(decision.status().setAutoscaler(autoscaler(seen.autoscalers(), target)), decision.events());
    }

    /**
     * The autoscaler of the target, said for status, or null. Read once per reconcile of an Auto profile
     * rather than watched: the loop only reports it, and the replica moves it makes reach the loop through
     * the windows' pod counts anyway.
     */
    private static String autoscaler(List<HorizontalPodAutoscaler> scalers, Deployment target) {
        return TargetPods.autoscalersOf(scalers, target).stream().findFirst().map(h -> {
                    Integer now = h.getStatus() != null && h.getStatus().getCurrentReplicas() != null ? h.getStatus().getCurrentReplicas()
                            : target.getSpec().getReplicas();
                    return "scaled by HorizontalPodAutoscaler " + h.getMetadata().getName() + " (" + Objects.requireNonNullElse(h.getSpec().getMinReplicas(), 1)
                            + " to " + h.getSpec().getMaxReplicas() + " replicas), " + now + " now: the loop plans and judges per pod,"
                            + " and a step's verdict waits while the replicas move";
                }).orElse(null);
    }

    /**
     * The knobs as they run: the plan's values, the server's own maximum threads (as its metrics say) where the plan sets none.
     * On virtual threads no thread count bounds the requests: the platform pool's maximum the metrics show is not one. Where
     * spec.sizing.memory sizes the container, the live heap it is sized for: the declared one, else the one the heap in force
     * would be planned for, so that the first step from the container as given is step-limited too.
     */
    private static AutoSettings inForce(TuningProfileSpec spec, TuningValues values, CurrentSettings current, ContainerFacts facts, Observed window) {
        Integer threads = current.virtualThreads() ? null : values.maxThreads() != null ? values.maxThreads()
                : window == null || window.getMaxThreads() == null ? null : (int) Math.round(window.getMaxThreads());
        Long memory = facts.memoryBudgetBytes();
        Integer heapPercent = values.heapBytes() == null || memory == null ? null : (int) Math.round(100.0 * values.heapBytes() / memory);
        Integer liveHeap = !MeasuredReplan.sizesForLiveHeap(spec) ? null : spec.getWorkload() != null && spec.getWorkload().getLiveHeap() != null
                ? (int) Math.ceil((double) Units.bytes(spec.getWorkload().getLiveHeap()) / Units.MI)
                : values.heapBytes() == null ? null : Planner.liveHeapMibFor(values.heapBytes());
        return new AutoSettings(threads, values.poolMaxSize(), heapPercent, liveHeap);
    }
}
