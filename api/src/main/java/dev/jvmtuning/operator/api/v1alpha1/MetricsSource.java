package dev.jvmtuning.operator.api.v1alpha1;

public enum MetricsSource {
    /** Scrape each ready pod of the target directly. */
    Pod,
    /** Query the Prometheus server configured when the operator was installed. */
    Prometheus
}
