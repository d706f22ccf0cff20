package dev.jvmtuning.operator.closedloop;

import dev.jvmtuning.operator.api.v1alpha1.Auto;
import dev.jvmtuning.operator.api.v1alpha1.AutoSettings;
import dev.jvmtuning.operator.api.v1alpha1.Bounds;
import dev.jvmtuning.operator.model.Setting;
import dev.jvmtuning.operator.model.Units;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BiPredicate;
import java.util.function.Function;

/**
 * How far one step may go (into the bounds, then at most the step limit from the value in force) and
 * which of its moves are worth a rollout (the threshold, judged on each knob as it renders). Pure.
 */
public final class Steps {

    private Steps() {
    }

    /**
     * The proposal brought into the bounds, then moved at most maxStepPercent from the value in force:
     * the bounds say where the loop may go, the step limit how fast, so a value in force outside the
     * bounds comes in step by step. A knob the proposal leaves stays; the heap only moves within bounds.
     * A knob whose value in force is unknown has no step to limit: it takes the bounded proposal.
     */
    public static AutoSettings limit(Auto spec, AutoSettings current, AutoSettings proposed) {
        double step = spec.getMaxStepPercent() / 100.0;
        return new AutoSettings(
                knob(current.getThreads(), proposed.getThreads(), step, spec.getThreads()),
                knob(current.getConnectionPool(), proposed.getConnectionPool(), step, spec.getConnectionPool()),
                // Without bounds the heap is not the loop's: the plan sizes it around the threads.
                spec.getHeapPercentOfLimit() == null ? null
                        : knob(current.getHeapPercentOfLimit(), proposed.getHeapPercentOfLimit(), step, spec.getHeapPercentOfLimit()));
    }

    /**
     * The target with each knob that does not move by the threshold left where it is: a step rolls out
     * the moves worth a rollout, not the small ones that come along with them.
     */
    public static AutoSettings worthMoving(Auto spec, AutoSettings from, AutoSettings to, Long memoryBytes) {
        Significance significance = significance(spec);
        return new AutoSettings(
                significance.count(from.getThreads(), to.getThreads()) ? to.getThreads() : from.getThreads(),
                significance.count(from.getConnectionPool(), to.getConnectionPool()) ? to.getConnectionPool() : from.getConnectionPool(),
                heapMoves(significance, from.getHeapPercentOfLimit(), to.getHeapPercentOfLimit(), memoryBytes)
                        ? to.getHeapPercentOfLimit() : from.getHeapPercentOfLimit());
    }

    /**
     * Which knobs move by the threshold (and by 2; the heap as it renders, by 8 MiB) from {@code from}
     * to {@code to}, as a sentence; empty when none does.
     *
     * @param memoryBytes the container's memory budget the heap's percentage renders against, or null
     */
    public static Optional<String> significant(Auto spec, AutoSettings from, AutoSettings to, Long memoryBytes) {
        Significance significance = significance(spec);
        List<String> moves = new ArrayList<>();
        describe(moves, Setting.THREADS_MAX.key(), from, to, AutoSettings::getThreads, significance::count, String::valueOf);
        describe(moves, Setting.POOL_MAX_SIZE.key(), from, to, AutoSettings::getConnectionPool, significance::count, String::valueOf);
        describe(moves, Setting.HEAP_SIZE.key(), from, to, AutoSettings::getHeapPercentOfLimit, (a, b) -> heapMoves(significance, a, b, memoryBytes),
                percent -> memoryBytes == null ? percent + "% of the limit" : percent + "% (" + Units.mebibytes(heapBytes(memoryBytes, percent)) + ")");
        return moves.isEmpty() ? Optional.empty() : Optional.of(String.join(", ", moves));
    }

    private static Integer knob(Integer current, Integer proposed, double step, Bounds bounds) {
        if (proposed == null) {
            return current;
        }
        int target = bounds == null ? proposed : bounds.clamp(proposed);
        if (current == null) {
            return target;
        }
        return (int) Math.max(Math.ceil(current / (1 + step)), Math.min(Math.floor(current * (1 + step)), target));
    }

    private static Significance significance(Auto spec) {
        return new Significance(spec.getChangeThresholdPercent());
    }

    /** The heap compared as it renders, from the percentage of the memory budget; as percentages when there is none. */
    private static boolean heapMoves(Significance significance, Integer from, Integer to, Long memoryBytes) {
        if (memoryBytes == null || from == null || to == null) {
            return significance.count(from, to);
        }
        return significance.heap(heapBytes(memoryBytes, from), heapBytes(memoryBytes, to));
    }

    /** As the planner renders heap.percentOfLimit. */
    private static long heapBytes(long memoryBytes, int percent) {
        return memoryBytes * percent / 100;
    }

    private static void describe(List<String> moves, String name, AutoSettings from, AutoSettings to, Function<AutoSettings, Integer> knob,
            BiPredicate<Integer, Integer> significant, Function<Integer, String> text) {
        Integer a = knob.apply(from);
        Integer b = knob.apply(to);
        if (significant.test(a, b)) {
            moves.add(name + " " + (a == null ? "unset" : text.apply(a)) + " -> " + text.apply(b));
        }
    }
}
