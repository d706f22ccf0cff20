package dev.jvmtuning.operator.planner;

import dev.jvmtuning.operator.model.ContainerFacts;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfileSpec;
import dev.jvmtuning.operator.model.TuningValues;
import dev.jvmtuning.operator.planner.PlanResult.Plan;
import dev.jvmtuning.operator.render.Renderer;
import dev.jvmtuning.operator.render.Rendering;
import java.util.List;
import java.util.stream.Stream;

/** A plan and its rendering, as the reconciler produces them, so rule tests can check what reaches the container. */
record Planned(Plan plan, Rendering rendering) {

    static Planned of(Plan plan, TuningProfileSpec spec, ContainerFacts facts) {
        return new Planned(plan, Renderer.render(plan.values(), spec, facts));
    }

    TuningValues values() {
        return plan.values();
    }

    List<Decision> decisions() {
        return plan.decisions();
    }

    MemoryBudget budget() {
        return plan.budget();
    }

    /** The planner's warnings and the renderer's, as status shows them. */
    List<String> warnings() {
        return Stream.concat(plan.warnings().stream(), rendering.warnings().stream()).toList();
    }
}
