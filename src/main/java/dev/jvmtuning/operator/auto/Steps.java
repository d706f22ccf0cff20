package dev.jvmtuning.operator.auto;

import dev.jvmtuning.operator.api.v1alpha1.Auto;
import dev.jvmtuning.operator.api.v1alpha1.AutoSettings;
import dev.jvmtuning.operator.api.v1alpha1.Bounds;
import dev.jvmtuning.operator.model.Setting;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/** How far one step may go (the step limit, then the bounds) and whether it is worth a rollout (the threshold). Pure. */
public final class Steps {
    /** As in the recommendations: a knob that moves by less than this is never worth a rollout. */
    private static final int SMALLEST_MOVE = 2;

    private Steps() {
    }

    /** The proposal moved at most maxStepPercent from the current values, then into the bounds; a knob the proposal leaves stays, the heap only moves within bounds. */
    public static AutoSettings limit(Auto spec, AutoSettings current, AutoSettings proposed) {
        double step = spec.getMaxStepPercent() / 100.0;
        return new AutoSettings(
                knob(current.getThreads(), proposed.getThreads(), step, spec.getThreads()),
                knob(current.getConnectionPool(), proposed.getConnectionPool(), step, spec.getConnectionPool()),
                // Without bounds the heap is not the loop's: the plan sizes it around the threads.
                spec.getHeapPercentOfLimit() == null ? null
                        : knob(current.getHeapPercentOfLimit(), proposed.getHeapPercentOfLimit(), step, spec.getHeapPercentOfLimit()));
    }

    /** Which knobs move by the threshold (and by 2) from {@code from} to {@code to}, as a sentence; empty when none does. */
    public static Optional<String> significant(Auto spec, AutoSettings from, AutoSettings to) {
        List<String> moves = new ArrayList<>();
        move(moves, spec, Setting.THREADS_MAX.key(), from, to, AutoSettings::getThreads);
        move(moves, spec, Setting.POOL_MAX_SIZE.key(), from, to, AutoSettings::getConnectionPool);
        move(moves, spec, Setting.HEAP_SIZE.key() + " (% of the limit)", from, to, AutoSettings::getHeapPercentOfLimit);
        return moves.isEmpty() ? Optional.empty() : Optional.of(String.join(", ", moves));
    }

    private static Integer knob(Integer current, Integer proposed, double step, Bounds bounds) {
        if (proposed == null) {
            return current;
        }
        int value = proposed;
        if (current != null) {
            value = (int) Math.max(Math.ceil(current / (1 + step)), Math.min(Math.floor(current * (1 + step)), value));
        }
        return bounds == null ? value : bounds.clamp(value);
    }

    private static void move(List<String> moves, Auto spec, String name, AutoSettings from, AutoSettings to, Function<AutoSettings, Integer> knob) {
        Integer a = knob.apply(from);
        Integer b = knob.apply(to);
        if (b == null || b.equals(a)) {
            return;
        }
        if (a == null || Math.abs(b - a) >= Math.max(SMALLEST_MOVE, a * spec.getChangeThresholdPercent() / 100.0)) {
            moves.add(name + " " + (a == null ? "unset" : a) + " -> " + b);
        }
    }
}
