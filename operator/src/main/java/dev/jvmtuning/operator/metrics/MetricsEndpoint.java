package dev.jvmtuning.operator.metrics;

import dev.jvmtuning.operator.api.v1alpha1.Metrics;
import dev.jvmtuning.operator.api.v1alpha1.Runtime;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfileSpec;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/** One endpoint of a profile's pods that the operator reads: the injected agent's, or the runtime's own. Pure. */
public record MetricsEndpoint(Role role, int port, String path) {
    /** The agent answers on any path. */
    static final String AGENT_PATH = "/metrics";
    /** The agent's first, as a pod's reading prefers its series. */
    static final Comparator<MetricsEndpoint> ORDER = Comparator.comparing(MetricsEndpoint::role).thenComparingInt(MetricsEndpoint::port)
            .thenComparing(MetricsEndpoint::path);

    public enum Role {
        AGENT, RUNTIME;

        @Override
        public String toString() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * The endpoints to read, the agent's first. With the agent injected the runtime's own too, as the agent serves no
     * connection pool or request figures; a Generic runtime's only where the profile names it, as it has no usual one, and
     * not on the agent's port, which would read the agent twice.
     */
    public static List<MetricsEndpoint> of(TuningProfileSpec spec) {
        Metrics metrics = Objects.requireNonNullElseGet(spec.getMetrics(), Metrics::new);
        MetricsEndpoint runtime = new MetricsEndpoint(Role.RUNTIME, metrics.effectiveRuntimePort(), runtimePath(spec));
        if (!metrics.agentInjected()) {
            return List.of(runtime);
        }
        MetricsEndpoint agent = new MetricsEndpoint(Role.AGENT, metrics.effectivePort(), AGENT_PATH);
        boolean named = spec.getRuntime() != Runtime.Generic || metrics.getPath() != null || metrics.getRuntimePort() != null;
        return named && runtime.port() != agent.port() ? List.of(agent, runtime) : List.of(agent);
    }

    /** The path of the runtime's own endpoint: the profile's, else the runtime's usual one. */
    public static String runtimePath(TuningProfileSpec spec) {
        if (spec.getMetrics() != null && spec.getMetrics().getPath() != null) {
            return spec.getMetrics().getPath();
        }
        return switch (spec.getRuntime()) {
            case SpringBootTomcat, SpringBootJetty, SpringBootUndertow -> "/actuator/prometheus";
            case Quarkus -> "/q/metrics";
            case Generic -> "/metrics";
        };
    }

    /** As status and messages name it: agent :9404/metrics. */
    @Override
    public String toString() {
        return role + " :" + port + path;
    }
}
