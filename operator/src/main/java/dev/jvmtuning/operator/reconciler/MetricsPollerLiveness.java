package dev.jvmtuning.operator.reconciler;

import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Liveness;

/**
 * Part of /q/health/live, which the pod's liveness probe reads: DOWN, with the reason, once the metrics
 * poller has died. Without it a dead poller leaves every profile's pressure conditions frozen while the
 * operator looks healthy; a restart starts the polls afresh.
 */
@Liveness
@ApplicationScoped
public class MetricsPollerLiveness implements HealthCheck {
    static final String NAME = "metrics-poller";

    private final TuningProfileReconciler reconciler;

    public MetricsPollerLiveness(TuningProfileReconciler reconciler) {
        this.reconciler = reconciler;
    }

    @Override
    public HealthCheckResponse call() {
        return reconciler.metricsPollingStopped()
                .map(reason -> HealthCheckResponse.named(NAME).down().withData("reason", reason).build())
                .orElseGet(() -> HealthCheckResponse.named(NAME).up().build());
    }
}
