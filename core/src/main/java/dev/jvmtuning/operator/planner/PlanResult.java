package dev.jvmtuning.operator.planner;

import dev.jvmtuning.operator.model.CurrentSettings;
import dev.jvmtuning.operator.model.Reason;
import dev.jvmtuning.operator.model.TuningValues;
import java.util.List;

/** What the planner returns: a plan to render, or the reasons there is none. */
public sealed interface PlanResult {

    /**
     * A plan that fits: the values with the decision behind each, the memory budget they fit (null
     * without a memory figure), and warnings that do not block it.
     */
    record Plan(TuningValues values, List<Decision> decisions, MemoryBudget budget, CurrentSettings current, List<String> warnings)
            implements PlanResult {
    }

    /**
     * No plan: the spec is invalid ({@link Reason#INVALID}: it contradicts itself or the container), it asks
     * for what the container's own JVM flags already set otherwise and the JVM cannot take both
     * ({@link Reason#CONFLICT}: two collectors), or its values cannot fit the container ({@link Reason#INFEASIBLE}).
     * Each message names the numbers.
     */
    record Rejected(Reason reason, List<String> messages) implements PlanResult {
    }
}
