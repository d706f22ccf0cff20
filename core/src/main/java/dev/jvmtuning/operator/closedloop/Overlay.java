package dev.jvmtuning.operator.closedloop;

import dev.jvmtuning.operator.api.v1alpha1.AutoSettings;
import dev.jvmtuning.operator.api.v1alpha1.AutoStatus;
import dev.jvmtuning.operator.api.v1alpha1.ConnectionPool;
import dev.jvmtuning.operator.api.v1alpha1.Heap;
import dev.jvmtuning.operator.api.v1alpha1.Mode;
import dev.jvmtuning.operator.api.v1alpha1.Threads;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfileSpec;
import java.util.Objects;

/** What mode Auto plans from: the profile's own spec with the loop's settings laid over it. Pure. */
public final class Overlay {

    private Overlay() {
    }

    /** The spec to plan; the profile's own when it is not in mode Auto or the loop sets nothing. */
    public static TuningProfileSpec spec(TuningProfileSpec spec, AutoStatus auto) {
        AutoSettings settings = auto == null ? null : auto.getSettings();
        if (spec.getMode() != Mode.Auto || settings == null
                || (settings.getThreads() == null && settings.getConnectionPool() == null && settings.getHeapPercentOfLimit() == null)) {
            return spec;
        }
        TuningProfileSpec laid = ObservedWorkload.withWorkload(spec, spec.getWorkload());
        if (settings.getThreads() != null) {
            Threads threads = Objects.requireNonNullElseGet(laid.getThreads(), Threads::new).setMax(settings.getThreads());
            // The user's own minimum stays unless the loop went below it.
            laid.setThreads(threads.setMinSpare(threads.getMinSpare() == null ? null : Math.min(threads.getMinSpare(), settings.getThreads())));
        }
        if (settings.getConnectionPool() != null) {
            ConnectionPool pool = Objects.requireNonNullElseGet(laid.getConnectionPool(), ConnectionPool::new).setMaxSize(settings.getConnectionPool());
            laid.setConnectionPool(pool.setMinIdle(pool.getMinIdle() == null ? null : Math.min(pool.getMinIdle(), settings.getConnectionPool())));
        }
        if (settings.getHeapPercentOfLimit() != null) {
            laid.setHeap(new Heap().setPercentOfLimit(settings.getHeapPercentOfLimit()));
        }
        return laid;
    }
}
