package dev.jvmtuning.agent;

import io.prometheus.metrics.model.registry.PrometheusRegistry;

/** Prints the jvmtuning_vm_option series of its own JVM, for a test that starts it with known flags. */
public final class VmOptionsMain {

    private VmOptionsMain() {}

    public static void main(String[] args) {
        PrometheusRegistry registry = new PrometheusRegistry();
        new VmOptionMetrics().register(registry);
        System.out.print(Exposition.text(registry));
    }
}
