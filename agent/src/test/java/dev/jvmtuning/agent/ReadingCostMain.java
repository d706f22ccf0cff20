package dev.jvmtuning.agent;

import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.util.ArrayList;
import java.util.List;

/** Prints what one reading of the native memory summary costs in its own JVM, first and then typically. */
public final class ReadingCostMain {

    private ReadingCostMain() {}

    public static void main(String[] args) {
        List<Long> nanos = new ArrayList<>();
        MetricSnapshots reading = null;
        for (int i = 0; i < 21; i++) {
            NativeMemoryMetrics fresh = new NativeMemoryMetrics(NativeMemoryMetrics::thisJvmSummary, () -> 0L);
            long started = System.nanoTime();
            reading = fresh.collect();
            nanos.add(System.nanoTime() - started);
        }
        // the first reading starts the platform MBean server, which the agent's other collectors start anyway
        System.out.println("jvmtuning_native_memory_bytes: first reading " + nanos.get(0) / 1000 + " us, then median "
                + nanos.subList(1, nanos.size()).stream().sorted().toList().get(10) / 1000 + " us for "
                + reading.get(0).getDataPoints().size() + " series");
    }
}
