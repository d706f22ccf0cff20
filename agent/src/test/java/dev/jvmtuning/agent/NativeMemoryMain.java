package dev.jvmtuning.agent;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.nio.ByteBuffer;

/**
 * Holds a direct buffer of the size its argument gives, in MiB, and prints the jvmtuning_native_memory_bytes series of
 * its own JVM as the agent would register them, for a test that starts it with and without native memory tracking.
 */
public final class NativeMemoryMain {

    private NativeMemoryMain() {}

    public static void main(String[] args) {
        ByteBuffer held = ByteBuffer.allocateDirect(Integer.parseInt(args[0]) * 1024 * 1024);
        PrometheusRegistry registry = new PrometheusRegistry();
        NativeMemoryMetrics.registerIfTracked(registry);
        System.out.print(Exposition.text(registry));
        System.out.println("# held " + held.capacity());
    }
}
