package dev.jvmtuning.operator.closedloop;

import dev.jvmtuning.operator.api.v1alpha1.Auto;
import dev.jvmtuning.operator.api.v1alpha1.AutoSettings;
import dev.jvmtuning.operator.api.v1alpha1.AutoStatus;
import dev.jvmtuning.operator.api.v1alpha1.Bounds;
import dev.jvmtuning.operator.api.v1alpha1.ConnectionPool;
import dev.jvmtuning.operator.api.v1alpha1.Heap;
import dev.jvmtuning.operator.api.v1alpha1.Mode;
import dev.jvmtuning.operator.api.v1alpha1.Threads;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfileSpec;
import dev.jvmtuning.operator.model.Setting;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** What mode Auto plans from: the profile's own spec with the loop's settings laid over it. Pure. */
public final class Overlay {

    /**
     * The loop's settings as they apply, and each one the bounds moved, said as
     * {@code threads.max 1250 -> 800 (spec.auto.threads.max 800)}.
     */
    record Applied(AutoSettings settings, List<String> moves) {
    }

    private Overlay() {
    }

    /**
     * The spec to plan, with the loop's settings as {@link #applied} says; the profile's own when it is not in mode Auto or the
     * loop sets nothing.
     */
    public static TuningProfileSpec spec(TuningProfileSpec spec, AutoStatus auto) {
        AutoSettings settings = auto == null ? null : applied(spec.getAuto(), auto).settings();
        if (spec.getMode() != Mode.Auto || settings == null || settings.isNone()) {
            return spec;
        }
        TuningProfileSpec laid = ObservedWorkload.withWorkload(spec, settings.getLiveHeapMib() == null ? spec.getWorkload()
                : ObservedWorkload.withLiveHeap(spec.getWorkload(), settings.getLiveHeapMib() + "Mi"));
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

    /**
     * The loop's settings as the plan takes them. While the loop rests (Holding, Converged) no step would bring a setting
     * back within bounds tightened since it set it, so they bind at once; while it steps, each step brings such a value in
     * at most the step limit, as it does a value in force the loop did not set ({@link Steps#limit}).
     *
     * @param bounds spec.auto, or null for none
     */
    static Applied applied(Auto bounds, AutoStatus auto) {
        return bounds == null || !AutoLoop.holds(auto) ? new Applied(auto.getSettings(), List.of()) : within(bounds, auto.getSettings());
    }

    /** The settings moved within the bounds. */
    static Applied within(Auto bounds, AutoSettings settings) {
        List<String> moves = new ArrayList<>();
        AutoSettings bounded = new AutoSettings(
                within(settings.getThreads(), bounds.getThreads(), Setting.THREADS_MAX.key(), "threads", moves),
                within(settings.getConnectionPool(), bounds.getConnectionPool(), Setting.POOL_MAX_SIZE.key(), "connectionPool", moves),
                within(settings.getHeapPercentOfLimit(), bounds.getHeapPercentOfLimit(), "heap.percentOfLimit", "heapPercentOfLimit", moves),
                // spec.sizing.memory's min and max bound the limit the live heap sizes.
                settings.getLiveHeapMib());
        return new Applied(bounded, List.copyOf(moves));
    }

    private static Integer within(Integer value, Bounds bounds, String setting, String boundsField, List<String> moves) {
        if (value == null || bounds == null) {
            return value;
        }
        int bounded = bounds.clamp(value);
        if (bounded != value) {
            moves.add(setting + " " + value + " -> " + bounded + " (spec.auto." + boundsField + (bounded < value ? ".max " : ".min ")
                    + bounded + ")");
        }
        return bounded;
    }
}
