package dev.jvmtuning.operator.closedloop;

import dev.jvmtuning.operator.api.v1alpha1.AutoSettings;
import dev.jvmtuning.operator.api.v1alpha1.Observed;
import java.util.Optional;

/** Where the planner would put the knobs for the workload a period measured. */
@FunctionalInterface
public interface Replanner {

    /** A plan's knobs and the figures behind them. */
    record Proposal(AutoSettings settings, String reason) {
    }

    /** @return the knobs, or empty when the period measured nothing to plan from (no requests, or the plan is rejected) */
    Optional<Proposal> propose(Observed period);

    /** Why these settings, laid over the profile, cannot be planned (they do not fit the container); empty when they can. */
    default Optional<String> rejects(AutoSettings settings) {
        return Optional.empty();
    }
}
