package dev.jvmtuning.operator.api.v1alpha1;

public enum Mode {
    /** Write the plan to the Deployment. */
    Apply,
    /** Plan and report in status only; the Deployment is not touched. */
    Recommend,
    /** Apply, then keep re-planning from the measured workload within spec.auto's bounds, reverting changes that made things worse. */
    Auto
}
