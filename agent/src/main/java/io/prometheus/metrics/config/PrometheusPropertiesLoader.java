package io.prometheus.metrics.config;

/**
 * Takes the place of the client's own loader in the agent jar (the original is filtered out when
 * shading). That one reads the application's configuration for its own Prometheus client:
 * IO_PROMETHEUS_* variables, prometheus.properties, PROMETHEUS_CONFIG. Relocated, it rejected every
 * IO_PROMETHEUS_* variable as unknown, and the agent could not start. The agent's client runs on defaults.
 */
public final class PrometheusPropertiesLoader {

    private PrometheusPropertiesLoader() {}

    /** Called once, by PrometheusProperties' static initializer. */
    public static PrometheusProperties load() {
        return PrometheusProperties.builder().build();
    }
}
