package dev.jvmtuning.agent;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * A collector whose reading is dear (an MBean call, a diagnostic command) and changes slowly: read at the first
 * scrape, then at most once per {@link #REFRESH}; the scrapes between serve the last reading. Called by one
 * thread, the collector's.
 */
abstract class PeriodicCollector implements MultiCollector {
    static final Duration REFRESH = Duration.ofSeconds(60);

    private final LongSupplier nanoClock;
    private MetricSnapshots latest;
    private long readAtNanos;

    PeriodicCollector(LongSupplier nanoClock) {
        this.nanoClock = nanoClock;
    }

    @Override
    public final MetricSnapshots collect() {
        long now = nanoClock.getAsLong();
        if (latest == null || now - readAtNanos >= REFRESH.toNanos()) {
            latest = read();
            readAtNanos = now;
        }
        return latest;
    }

    /** One reading; a failure answers with no series until the next, as the other collectors do. */
    abstract MetricSnapshots read();
}
