package dev.jvmtuning.operator.reconciler;

import dev.jvmtuning.operator.api.v1alpha1.Auto;
import dev.jvmtuning.operator.api.v1alpha1.AutoSettings;
import dev.jvmtuning.operator.api.v1alpha1.AutoStatus;
import dev.jvmtuning.operator.api.v1alpha1.Observed;
import dev.jvmtuning.operator.api.v1alpha1.RollBack;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import dev.jvmtuning.operator.auto.AutoLoop;
import dev.jvmtuning.operator.auto.MeasuredReplan;
import dev.jvmtuning.operator.flags.FlagPolicy;
import dev.jvmtuning.operator.metrics.MetricsReport;
import dev.jvmtuning.operator.model.ConditionStatus;
import dev.jvmtuning.operator.model.ConditionType;
import dev.jvmtuning.operator.model.ContainerFacts;
import dev.jvmtuning.operator.model.TuningValues;
import dev.jvmtuning.operator.planner.PlanResult;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Mode Auto within a reconcile, after the settings in force were applied: feeds the loop what this
 * reconcile saw (the rollout, a rollback of failed pods, the latest window), keeps its decision in
 * status.auto, from which the next reconcile lays the loop's settings over the profile, and says every
 * step, verdict and revert in an Event.
 */
final class AutoMode {
    private final FlagPolicy flagPolicy;

    AutoMode(FlagPolicy flagPolicy) {
        this.flagPolicy = flagPolicy;
    }

    /** The loop's next step, in status; returns the Events it deserves. */
    List<EventPolicy.Event> decide(TuningProfile profile, PlanResult.Plan plan, ContainerFacts facts, Optional<MetricsReport> metrics,
            StatusBuilder status) {
        Auto spec = Objects.requireNonNullElseGet(profile.getSpec().getAuto(), Auto::new);
        AutoStatus previous = status.auto();
        Observed window = metrics.map(MetricsReport::observed).orElse(null);
        Instant settledAt = status.condition(ConditionType.ROLLOUT_COMPLETE)
                .filter(c -> ConditionStatus.TRUE.text().equals(c.getStatus()) && c.getLastTransitionTime() != null)
                .map(c -> Instant.parse(c.getLastTransitionTime())).orElse(null);
        RollBack rolledBack = status.rolledBack();
        String podFailure = previous != null && rolledBack != null && rolledBack.getAt() != null
                && Instant.parse(rolledBack.getAt()).isAfter(Instant.parse(previous.getChangedAt())) ? rolledBack.getMessage() : null;
        AutoLoop.Decision decision = AutoLoop.decide(new AutoLoop.Input(spec, previous, inForce(plan.values(), facts, window), settledAt,
                podFailure, window, new MeasuredReplan(profile.getSpec(), facts, flagPolicy), Instant.now()));
        status.auto(decision.status());
        return decision.events().stream().map(e -> new EventPolicy.Event(e.warning(), e.reason(), e.message())).toList();
    }

    /** The knobs as they run: the plan's values, the server's own maximum threads (as its metrics say) where the plan sets none. */
    private static AutoSettings inForce(TuningValues values, ContainerFacts facts, Observed window) {
        Integer threads = values.maxThreads() != null ? values.maxThreads()
                : window == null || window.getMaxThreads() == null ? null : (int) Math.round(window.getMaxThreads());
        Long memory = facts.memoryBudgetBytes();
        Integer heapPercent = values.heapBytes() == null || memory == null ? null : (int) Math.round(100.0 * values.heapBytes() / memory);
        return new AutoSettings(threads, values.poolMaxSize(), heapPercent);
    }
}
