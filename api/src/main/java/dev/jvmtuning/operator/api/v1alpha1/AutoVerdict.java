package dev.jvmtuning.operator.api.v1alpha1;

/** What the loop concluded about one step. */
public enum AutoVerdict {
    /** Applied, its windows not yet all seen. */
    Pending,
    /** No measure got worse beyond the tolerance: these are the new good settings. */
    Kept,
    /** A measure got worse, or the pods failed: the last good settings came back. */
    Reverted,
    /** Re-planning would move no knob by the threshold: the loop rests here until the workload moves. */
    Converged
}
