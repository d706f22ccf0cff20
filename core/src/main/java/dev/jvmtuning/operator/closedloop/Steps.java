package dev.jvmtuning.operator.closedloop;

import dev.jvmtuning.operator.api.v1alpha1.Auto;
import dev.jvmtuning.operator.api.v1alpha1.AutoIteration;
import dev.jvmtuning.operator.api.v1alpha1.AutoSettings;
import dev.jvmtuning.operator.api.v1alpha1.AutoVerdict;
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
    /** A run of kept steps doubles the limit at most this often: 100 % grows to 200, 400 and 800 (x2, x3, x5, x9). */
    static final int MAX_DOUBLINGS = 3;

    private Steps() {
    }

    /**
     * The proposal brought into the bounds, then moved at most the step limit from the value in force:
     * the bounds say where the loop may go, the step limit how fast, so a value in force outside the
     * bounds comes in step by step. A knob the proposal leaves stays; the heap only moves within bounds.
     * A knob whose value in force is unknown has no step to limit: it takes the bounded proposal.
     * The limit is maxStepPercent, doubled for each step just before this one that moved the knob the same
     * way and was kept: the windows after each of them found the way no worse, so the loop gallops where
     * the evidence keeps agreeing, and a revert, a rest or a turn starts it again at maxStepPercent. It
     * doubles again for as long as every window of the period, planned alone, asks to move the knob past
     * the limit the same way: evidence that agrees across the period's windows counts as kept steps do (not
     * right after a revert, where the windows just misled). Either way at most {@link #MAX_DOUBLINGS} times.
     *
     * @param history     the loop's iterations, oldest first, the last one judged
     * @param windowPlans the knobs each window of the period planned alone
     */
    public static AutoSettings limit(Auto spec, List<AutoIteration> history, AutoSettings current, AutoSettings proposed,
            List<AutoSettings> windowPlans) {
        double step = spec.getMaxStepPercent() / 100.0;
        return new AutoSettings(
                knob(current.getThreads(), proposed.getThreads(), step, spec.getThreads(), history, windowPlans, AutoSettings::getThreads),
                knob(current.getConnectionPool(), proposed.getConnectionPool(), step, spec.getConnectionPool(), history, windowPlans,
                        AutoSettings::getConnectionPool),
                // Without bounds the heap is not the loop's: the plan sizes it around the threads.
                spec.getHeapPercentOfLimit() == null ? null
                        : knob(current.getHeapPercentOfLimit(), proposed.getHeapPercentOfLimit(), step, spec.getHeapPercentOfLimit(), history,
                                windowPlans, AutoSettings::getHeapPercentOfLimit),
                // The live heap moves the container's memory, which spec.sizing.memory bounds.
                knob(current.getLiveHeapMib(), proposed.getLiveHeapMib(), step, null, history, windowPlans, AutoSettings::getLiveHeapMib));
    }

    /** Whether some knob moved from {@code from} to {@code to} by more than maxStepPercent, as only a run of kept steps allows. */
    public static boolean beyondLimit(Auto spec, AutoSettings from, AutoSettings to) {
        double step = spec.getMaxStepPercent() / 100.0;
        return from != null && to != null && (beyond(from.getThreads(), to.getThreads(), step)
                || beyond(from.getConnectionPool(), to.getConnectionPool(), step)
                || beyond(from.getHeapPercentOfLimit(), to.getHeapPercentOfLimit(), step)
                || beyond(from.getLiveHeapMib(), to.getLiveHeapMib(), step));
    }

    private static boolean beyond(Integer from, Integer to, double step) {
        return from != null && to != null && (to > highest(from, step) || to < lowest(from, step));
    }

    /** The most a step of {@code step} (a fraction) goes up from {@code value}, and the least it goes down to. */
    private static int highest(int value, double step) {
        return (int) Math.floor(value * (1 + step));
    }

    private static int lowest(int value, double step) {
        return (int) Math.ceil(value / (1 + step));
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
                        ? to.getHeapPercentOfLimit() : from.getHeapPercentOfLimit(),
                significance.liveHeap(from.getLiveHeapMib(), to.getLiveHeapMib()) ? to.getLiveHeapMib() : from.getLiveHeapMib());
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
        describe(moves, "workload.liveHeap", from, to, AutoSettings::getLiveHeapMib, significance::liveHeap, mib -> mib + "Mi");
        return moves.isEmpty() ? Optional.empty() : Optional.of(String.join(", ", moves));
    }

    /** Whether the live heap the container is sized for moves by the threshold (and by 8 MiB) from {@code from} to {@code to}. */
    public static boolean liveHeapMoves(Auto spec, AutoSettings from, AutoSettings to) {
        return significance(spec).liveHeap(from.getLiveHeapMib(), to.getLiveHeapMib());
    }

    private static Integer knob(Integer current, Integer proposed, double step, Bounds bounds, List<AutoIteration> history,
            List<AutoSettings> windowPlans, Function<AutoSettings, Integer> knob) {
        if (proposed == null) {
            return current;
        }
        int target = bounds == null ? proposed : bounds.clamp(proposed);
        if (current == null) {
            return target;
        }
        int direction = Integer.signum(target - current);
        int doublings = keptRun(history, knob, direction);
        if (!justReverted(history)) {
            List<Integer> planned = windowPlans.stream().map(knob).toList();
            while (doublings < MAX_DOUBLINGS && everyWindowGoesPast(planned, current, doubled(step, doublings), direction)) {
                doublings++;
            }
        }
        double limit = doubled(step, doublings);
        return Math.max(lowest(current, limit), Math.min(highest(current, limit), target));
    }

    private static double doubled(double step, int doublings) {
        return step * (1 << Math.min(MAX_DOUBLINGS, doublings));
    }

    /** A step just reverted is evidence that the period's windows misled: the next one goes no further than the kept steps allow. */
    private static boolean justReverted(List<AutoIteration> history) {
        return !history.isEmpty() && history.get(history.size() - 1).getVerdict() == AutoVerdict.Reverted;
    }

    /** Whether at least two windows plan the knob and each of them past a step of {@code limit} from {@code current}, the same way. */
    private static boolean everyWindowGoesPast(List<Integer> planned, int current, double limit, int direction) {
        return planned.size() >= 2 && direction != 0 && planned.stream().allMatch(p -> p != null
                && (direction > 0 ? p > highest(current, limit) : p < lowest(current, limit)));
    }

    /** How many of the last iterations, back from the latest, are kept steps that moved the knob in this direction. */
    private static int keptRun(List<AutoIteration> history, Function<AutoSettings, Integer> knob, int direction) {
        int run = 0;
        for (int i = history.size() - 1; i >= 0; i--) {
            AutoIteration iteration = history.get(i);
            Integer from = iteration.getFrom() == null ? null : knob.apply(iteration.getFrom());
            Integer to = iteration.getTo() == null ? null : knob.apply(iteration.getTo());
            if (direction == 0 || iteration.getVerdict() != AutoVerdict.Kept || from == null || to == null
                    || Integer.signum(to - from) != direction) {
                break;
            }
            run++;
        }
        return run;
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
