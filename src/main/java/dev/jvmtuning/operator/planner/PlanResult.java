package dev.jvmtuning.operator.planner;

import dev.jvmtuning.operator.render.Rendering;
import java.util.List;

/** What the planner returns: a plan to render, or the reasons there is none. */
public sealed interface PlanResult {

    /**
     * A plan that fits: the values, their rendering for the runtime, and warnings that do not block it.
     */
    record Plan(TuningValues values, List<Decision> decisions, MemoryBudget budget, Rendering rendering,
            List<String> warnings) implements PlanResult {
    }

    /** No plan: the spec is invalid, or its values cannot fit the container. Each message names the numbers. */
    record Rejected(Reason reason, List<String> messages) implements PlanResult {
    }

    enum Reason {
        /** The spec contradicts itself or the container (conflicting flags, missing figures). */
        Invalid,
        /** The values are consistent but do not fit the container's memory or the JVM's constraints. */
        Infeasible
    }
}
