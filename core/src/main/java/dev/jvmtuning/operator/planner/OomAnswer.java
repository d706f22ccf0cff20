package dev.jvmtuning.operator.planner;

import static dev.jvmtuning.operator.model.Units.mebibytes;

import dev.jvmtuning.operator.api.v1alpha1.LastOomKill;
import dev.jvmtuning.operator.api.v1alpha1.Sizing;
import dev.jvmtuning.operator.model.OomKill.Cause;
import dev.jvmtuning.operator.model.Units;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * R9b: the last OOM kill of the target, as the next plan answers it: the part of memory that ran over gets more, the heap
 * gives way. Only a kernel kill with a part to blame is answered; an UNKNOWN one (no reading before it) leaves the plan as
 * it was, and so do a kill of a JVM that runs another heap than planned and a kill past {@link #MAX_ANSWERED_IN_A_ROW}.
 * The answer is a function of the kill alone, so one kill is answered once however often the profile is reconciled; a
 * later kill starts from the budget the pods then ran.
 *
 * @param pod          the killed pod
 * @param cause        the part that ran over
 * @param limitBytes   the container's limit at the kill, null when none
 * @param heapBytes    the heap the pod's plan set, null when another plan or the JVM chose it
 * @param partBytes    what the part held at the pod's last reading, null when not measured
 * @param budgetBytes  the part's budget in the pod's plan, null when the pod ran other settings
 */
public record OomAnswer(String pod, Cause cause, Long limitBytes, Long heapBytes, Long partBytes, Long budgetBytes) {

    /**
     * The parts a larger budget can answer: the heap is the JVM's to keep within -Xmx, a kill without a reading names none, and
     * a JVM that runs another heap than planned (HEAP_NOT_PLANNED) runs no budget of the plan.
     */
    private static final Set<Cause> ANSWERED = Set.of(Cause.METASPACE, Cause.DIRECT_MEMORY, Cause.THREAD_STACKS, Cause.NATIVE_OTHER);
    /** The last reading is from before the kill, so the part grew past it: a quarter more than seen. */
    static final double OVER_OBSERVED = 1.25;
    /** A budget the part ran over was wrong by more than noise: half as much again, so one answer is usually enough. */
    static final double OVER_BUDGET = 1.5;
    /**
     * Kills answered in a row, each with a larger budget, before the operator stops re-planning: three misses mean the part
     * grows without bound (a leak), which no budget answers.
     */
    public static final int MAX_ANSWERED_IN_A_ROW = 3;
    /** glibc's arenas: up to 8 per CPU of 64 MiB each, reserved as threads first malloc; 2 bounds them for a pooled server. */
    static final int MALLOC_ARENAS = 2;

    /**
     * The answer to the kill status records, or empty when there is none to give.
     *
     * @param sizing the profile's spec.sizing, null for none: where it sizes the memory up to a maximum, the answers go on
     */
    public static Optional<OomAnswer> to(LastOomKill kill, Sizing sizing) {
        if (kill == null || !answers(kill.getCause()) || exhausted(kill, sizing)) {
            return Optional.empty();
        }
        return Optional.of(new OomAnswer(kill.getPod(), Cause.valueOf(kill.getCause()), kill.getMemoryLimitBytes(), kill.getPlannedHeapBytes(),
                kill.getObservedBytes(), kill.getBudgetBytes()));
    }

    /** Whether a kill of this cause (as status names it) is answered with a new budget. */
    public static boolean answers(String cause) {
        return ANSWERED.stream().anyMatch(c -> c.name().equals(cause));
    }

    /**
     * More kills in a row than are answered: the operator has stopped re-planning for them. Where the profile sizes the memory
     * within a maximum (spec.sizing.memory), each answer raises the limit, compounding, and the maximum bounds them instead:
     * there the limit stops, the heap gives way to the part, and a heap that no longer fits is Infeasible (R9c).
     */
    public static boolean exhausted(LastOomKill kill, Sizing sizing) {
        boolean bounded = sizing != null && sizing.plansMemory() && sizing.getMemory().getMax() != null;
        return kill != null && answers(kill.getCause()) && !bounded && Objects.requireNonNullElse(kill.getAnsweredInARow(), 0) > MAX_ANSWERED_IN_A_ROW;
    }

    /** The part's new budget: above what it held at the kill, above the budget it ran over, never below today's. */
    long raised(long plannedBudget) {
        long overObserved = partBytes == null ? 0 : (long) (partBytes * OVER_OBSERVED);
        long overBudget = (long) (Objects.requireNonNullElse(budgetBytes, plannedBudget) * OVER_BUDGET);
        return roundUpToMi(Math.max(plannedBudget, Math.max(overObserved, overBudget)));
    }

    /** The kill as a rationale cites it, e.g. "pod web-1 OOM-killed at 384Mi, metaspace 120Mi against its 64Mi budget". */
    String citation() {
        String part = cause.name().toLowerCase(Locale.ROOT).replace('_', ' ');
        return "pod " + pod + " OOM-killed at " + (limitBytes == null ? "its limit" : mebibytes(limitBytes)) + ", " + part + " "
                + (partBytes == null ? "not measured" : mebibytes(partBytes)) + (budgetBytes == null ? "" : " against its "
                + mebibytes(budgetBytes) + " budget");
    }

    private static long roundUpToMi(long bytes) {
        return (bytes + Units.MI - 1) / Units.MI * Units.MI;
    }
}
