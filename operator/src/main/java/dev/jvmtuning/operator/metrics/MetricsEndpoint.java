package dev.jvmtuning.operator.metrics;

import dev.jvmtuning.operator.api.v1alpha1.Metrics;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfileSpec;
import java.util.Objects;

/** Where a profile's pods serve their metrics when the profile does not say. Pure. */
public final class MetricsEndpoint {

    private MetricsEndpoint() {
    }

    /** The profile's path, else the agent's, else the runtime's usual endpoint. */
    public static String path(TuningProfileSpec spec) {
        Metrics metrics = Objects.requireNonNullElseGet(spec.getMetrics(), Metrics::new);
        if (metrics.getPath() != null) {
            return metrics.getPath();
        }
        if (metrics.agentInjected()) {
            return "/metrics";
        }
        return switch (spec.getRuntime()) {
            case SpringBootTomcat, SpringBootJetty, SpringBootUndertow -> "/actuator/prometheus";
            case Quarkus -> "/q/metrics";
            case Generic -> "/metrics";
        };
    }
}
