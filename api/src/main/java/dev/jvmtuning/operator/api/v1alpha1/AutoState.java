package dev.jvmtuning.operator.api.v1alpha1;

/** Where Auto mode's loop stands. */
public enum AutoState {
    /** Watching the settings in force, after their rollout and warm-up, to re-plan or to judge the last step. */
    Observing,
    /** A step's rollout is under way. */
    Applying,
    /** Re-planning moves no knob by the threshold, or steps no longer beat the best beyond the noise; stays until the workload shifts. */
    Converged,
    /** The last good settings are rolling back out after a step made things worse. */
    Reverted,
    /** Stays at the last good settings until the workload itself shifts. */
    Holding
}
