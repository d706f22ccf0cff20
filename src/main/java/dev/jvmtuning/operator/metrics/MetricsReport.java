package dev.jvmtuning.operator.metrics;

import dev.jvmtuning.operator.api.v1alpha1.Observed;
import dev.jvmtuning.operator.pressure.Verdict;

/**
 * One metrics poll of a profile: whether metrics could be read (the MetricsAvailable condition),
 * the window's figures and the detector's verdict (null until two samples exist). A report that
 * differs from the last one triggers a reconcile, which copies it into status.
 */
public record MetricsReport(String availableStatus, String availableReason, String availableMessage, Observed observed, Verdict verdict) {

    static MetricsReport unavailable(String reason, String message) {
        return new MetricsReport("False", reason, message, null, null);
    }
}
