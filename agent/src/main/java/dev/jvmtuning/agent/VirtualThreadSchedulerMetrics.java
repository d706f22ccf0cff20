package dev.jvmtuning.agent;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricMetadata;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.util.ArrayList;
import java.util.List;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * The virtual thread scheduler's carriers and load, from jdk.management.VirtualThreadSchedulerMXBean (JDK 24 on),
 * read through its MBean: the agent compiles for JDK 17, which lacks the interface. On an older JDK the MBean is
 * not there and the collector is not registered. Cheap attribute reads, so read at every collection.
 */
final class VirtualThreadSchedulerMetrics implements MultiCollector {

    static final String MBEAN = "jdk.management:type=VirtualThreadScheduler";

    /** The MBean's attribute behind each figure. */
    private record Figure(String label, String attribute) {}

    private static final List<Figure> FIGURES = List.of(
            new Figure("parallelism", "Parallelism"),
            new Figure("pool_size", "PoolSize"),
            new Figure("mounted", "MountedVirtualThreadCount"),
            new Figure("queued", "QueuedVirtualThreadCount"));

    private static final MetricMetadata SCHEDULER = new MetricMetadata("jvmtuning_virtual_thread_scheduler",
            "The virtual thread scheduler: parallelism (carriers it aims to run), pool_size (carrier threads that exist), "
                    + "mounted (virtual threads on a carrier now) and queued (virtual threads waiting for one)");

    private final MBeanServer server;
    private final ObjectName name;

    private VirtualThreadSchedulerMetrics(MBeanServer server, ObjectName name) {
        this.server = server;
        this.name = name;
    }

    static void registerIfPresent(PrometheusRegistry registry, MBeanServer server) {
        try {
            ObjectName name = new ObjectName(MBEAN);
            if (server.isRegistered(name)) {
                registry.register(new VirtualThreadSchedulerMetrics(server, name));
            }
        } catch (JMException e) {
            // Cannot happen with a constant name; without the MBean there is nothing to serve anyway.
        }
    }

    /** A figure that cannot be read is left out; the others stay, as with the other collectors (FailSafe). */
    @Override
    public MetricSnapshots collect() {
        List<GaugeDataPointSnapshot> points = new ArrayList<>();
        for (Figure figure : FIGURES) {
            try {
                double value = ((Number) server.getAttribute(name, figure.attribute())).doubleValue();
                points.add(new GaugeDataPointSnapshot(value, Labels.of("figure", figure.label()), null));
            } catch (JMException | RuntimeException e) {
                // Left out this time.
            }
        }
        return new MetricSnapshots(new GaugeSnapshot(SCHEDULER, points));
    }
}
