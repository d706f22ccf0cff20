package dev.jvmtuning.operator.metrics;

import dev.jvmtuning.operator.api.v1alpha1.Observed;
import dev.jvmtuning.operator.model.ConditionStatus;
import dev.jvmtuning.operator.model.Reason;

/**
 * One metrics poll of a profile: whether metrics could be read (the MetricsAvailable condition), the
 * window's figures (null until two samples exist) and the window before it, for trends. A report
 * that differs from the last one triggers a reconcile, which judges it against the plan in force.
 */
public record MetricsReport(ConditionStatus availableStatus, Reason availableReason, String availableMessage, Observed observed,
        Observed previous) {

    static MetricsReport unavailable(Reason reason, String message) {
        return new MetricsReport(ConditionStatus.FALSE, reason, message, null, null);
    }
}
