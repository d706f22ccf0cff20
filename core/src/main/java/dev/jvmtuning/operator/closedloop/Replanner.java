package dev.jvmtuning.operator.closedloop;

import dev.jvmtuning.operator.api.v1alpha1.AutoSettings;
import dev.jvmtuning.operator.api.v1alpha1.Observed;
import java.util.Optional;

/** Where the planner would put the knobs for the workload a period measured. */
@FunctionalInterface
public interface Replanner {

    /** What the planner made of a period's workload. */
    sealed interface Replan permits Proposal, Unplannable {
    }

    /** A plan's knobs and the figures behind them. */
    record Proposal(AutoSettings settings, String reason) implements Replan {
    }

    /** The planner rejects the measured workload (it asks for more than the container holds): the figures and why. */
    record Unplannable(String reason) implements Replan {
    }

    /** @return the knobs or why there are none; empty when the period measured nothing to plan from (no requests) */
    Optional<Replan> propose(Observed period);

    /** Why these settings, laid over the profile, cannot be planned (they do not fit the container); empty when they can. */
    default Optional<String> rejects(AutoSettings settings) {
        return Optional.empty();
    }
}
