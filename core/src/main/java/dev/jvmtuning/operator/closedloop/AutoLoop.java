package dev.jvmtuning.operator.closedloop;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jvmtuning.operator.api.v1alpha1.Auto;
import dev.jvmtuning.operator.api.v1alpha1.AutoBest;
import dev.jvmtuning.operator.api.v1alpha1.AutoFigures;
import dev.jvmtuning.operator.api.v1alpha1.AutoIteration;
import dev.jvmtuning.operator.api.v1alpha1.AutoSettings;
import dev.jvmtuning.operator.api.v1alpha1.AutoState;
import dev.jvmtuning.operator.api.v1alpha1.AutoStatus;
import dev.jvmtuning.operator.api.v1alpha1.AutoVerdict;
import dev.jvmtuning.operator.api.v1alpha1.Observed;
import dev.jvmtuning.operator.model.ProfileEvent;
import dev.jvmtuning.operator.model.Reason;
import dev.jvmtuning.operator.model.Units;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Mode Auto's decisions, one call per reconcile: wait for the rollout and the warm-up, gather the
 * observation windows, then judge the last step against the period before it (revert it when worse)
 * and re-plan from the measured workload, stepping within the bounds and the step limit when a knob
 * moves by the threshold. It stops (Converged) when no knob would move, or when steps no longer beat the
 * best period beyond the noise its windows measured ({@link BestSoFar}), and never steps back to settings
 * a period already found no better. After a revert, and once converged, it holds its settings until the
 * workload itself moves, moving them at once within bounds tightened meanwhile; a reverted step that went
 * further than maxStepPercent (after kept steps the same way, or from a period whose windows all asked for more, {@link Steps#limit}) is first followed by one at maxStepPercent. Everything it needs is in its input and the previous status, so a reconcile stays a function
 * of spec, status and metrics. Pure.
 */
public final class AutoLoop {
    /** Iterations kept in status. */
    public static final int HISTORY = 10;
    private static final ObjectMapper COPIER = new ObjectMapper();

    private AutoLoop() {
    }

    /**
     * @param spec          spec.auto with its defaults
     * @param previous      status.auto of the last reconcile, or null
     * @param inForce       the knobs as they run now (the plan's values, the server's own where the plan leaves one)
     * @param memoryBytes   the container's memory budget, which the heap's percentage renders against, or null
     * @param settledAt     when the rollout of the settings in force completed, or null while it is under way
     * @param jvmsStartedAt when the youngest of the target's JVMs started (its container's last start: a new pod, a restart), or null
     * @param podFailure    the last rollback of failed pods, or null: it reverts the pending step when it came after that step
     * @param window        the latest metrics window, or null
     * @param replanner     the planner fed with a period's measured workload
     * @param threadsFixed  why threads.max is no knob of the loop for this target (its requests run on virtual threads), or null
     */
    public record Input(Auto spec, AutoStatus previous, AutoSettings inForce, Long memoryBytes, Instant settledAt, Instant jvmsStartedAt,
            PodFailure podFailure, Observed window, Replanner replanner, Instant now, String threadsFixed) {
    }

    /** What the pods said when a rollout failed, and when the operator took it back. */
    public record PodFailure(String message, Instant at) {
    }

    /** The next status.auto and the Events on the way there. */
    public record Decision(AutoStatus status, List<ProfileEvent> events) {
    }

    public static Decision decide(Input in) {
        List<ProfileEvent> events = new ArrayList<>();
        AutoStatus next = in.previous() == null
                ? new AutoStatus().setState(AutoState.Applying).setChangedAt(in.now().toString())
                : COPIER.convertValue(in.previous(), AutoStatus.class);
        intoBounds(in, next, events);
        Optional<AutoIteration> pending = pending(next);
        if (in.podFailure() != null && pending.isPresent() && in.podFailure().at().isAfter(Instant.parse(next.getChangedAt()))) {
            revert(in.spec(), next, pending.get(), null, "the pods failed: " + in.podFailure().message(), in.now(), events);
            return waiting(next, events, rollout(next), null);
        }
        if (in.settledAt() == null) {
            next.getWindows().clear();
            return waiting(next, events, rollout(next), null);
        }
        if (next.getState() == AutoState.Applying) {
            next.setState(AutoState.Observing);
        }
        collect(in, next);
        int needed = in.spec().getObservationWindows();
        if (next.getWindows().size() < needed) {
            return collecting(in, next, events);
        }
        boolean judging = pending.isPresent() || next.getState() == AutoState.Reverted || holds(next);
        if (!judging && tooSoon(in, next)) {
            // The windows slide: the step, when allowed, plans from the latest ones.
            next.getWindows().remove(0);
            return minInterval(in, next, events);
        }
        if (pending.isPresent() && replicasMoved(next.getWindows())) {
            // An autoscaler moved the replicas during the step's windows: a period across the move is neither the step's
            // load nor the one before, and the new pods' first windows are their warm-up. The verdict waits for a period at one count.
            next.getWindows().clear();
            return waiting(next, events, "a period at one replica count: the replicas moved during the step's windows; "
                    + windowsSeen(in, next), nextPeriodEnd(in, next));
        }
        List<Observed> windows = List.copyOf(next.getWindows());
        AutoFigures period = Measures.figures(windows);
        next.getWindows().clear();
        switch (next.getState()) {
            case Reverted -> {
                if (!overshot(in.spec(), next)) {
                    next.setState(AutoState.Holding).setHoldBaseline(period);
                    return holding(in, next, events);
                }
                // A step longer than maxStepPercent went too far: one more from the last good settings, at maxStepPercent, before holding.
                next.setState(AutoState.Observing);
            }
            case Holding, Converged -> {
                if (next.getHoldBaseline() == null) {
                    next.setHoldBaseline(period);
                }
                Optional<String> moved = Measures.shift(in.spec(), next.getHoldBaseline(), period);
                if (moved.isEmpty()) {
                    return holding(in, next, events);
                }
                // The periods before measured another workload: none is the best or predicts a step now.
                next.setState(AutoState.Observing).setHoldBaseline(null).setBest(null);
                events.add(new ProfileEvent(false, Reason.AUTO_RESUMED, moved.get() + "; re-planning"));
            }
            default -> {
                if (pending.isPresent()) {
                    Optional<String> worse = Measures.regression(in.spec(), pending.get().getBefore(), period);
                    if (worse.isPresent()) {
                        revert(in.spec(), next, pending.get(), period, worse.get(), in.now(), events);
                        return waiting(next, events, rollout(next), null);
                    }
                    pending.get().setAfter(period).setVerdict(AutoVerdict.Kept).setReason(pending.get().getReason() + "; kept: no measure worse");
                    next.setLastGood(next.getSettings());
                    events.add(new ProfileEvent(false, Reason.AUTO_KEPT, "kept " + pending.get().getTo() + ": no measure worse than before the step"));
                }
            }
        }
        next.setBest(BestSoFar.update(in.spec(), next.getBest(), effective(next.getSettings(), in.inForce()), period,
                BestSoFar.lastIteration(next)));
        if (tooSoon(in, next)) {
            return minInterval(in, next, events);
        }
        step(in, next, windows, period, events);
        if (holds(next)) {
            return holding(in, next, events);
        }
        return next.getState() == AutoState.Applying ? waiting(next, events, rollout(next), null)
                : waiting(next, events, "a period whose re-plan moves a knob by " + in.spec().getChangeThresholdPercent() + "%; "
                        + windowsSeen(in, next), nextPeriodEnd(in, next));
    }

    /** The next status, saying what the loop waits for and, when it can tell, until when. */
    private static Decision waiting(AutoStatus next, List<ProfileEvent> events, String what, Instant until) {
        next.setWaitingFor(what).setNextDecisionAt(until == null ? null : until.toString());
        return new Decision(next, events);
    }

    private static String rollout(AutoStatus next) {
        return "the rollout of " + next.getSettings() + " to complete";
    }

    /** Windows are being gathered: before the first one that counts, the warm-up; then the windows themselves. */
    private static Decision collecting(Input in, AutoStatus next, List<ProfileEvent> events) {
        Instant countsFrom = countsFrom(in, next);
        String what = holds(next) || (next.getState() == AutoState.Reverted && !overshot(in.spec(), next)) ? holdingFor(in, next) + "; " : "";
        if (next.getWindows().isEmpty() && in.now().isBefore(countsFrom)) {
            return waiting(next, events, what + "the warm-up: windows count from " + countsFrom + " (" + in.spec().getWarmUp() + " after "
                    + warmUpFrom(in, next) + "); then " + in.spec().getObservationWindows() + " metrics windows", nextPeriodEnd(in, next));
        }
        return waiting(next, events, what + windowsSeen(in, next), nextPeriodEnd(in, next));
    }

    private static Decision minInterval(Input in, AutoStatus next, List<ProfileEvent> events) {
        Instant until = Instant.parse(next.getChangedAt()).plus(Units.duration(in.spec().getMinInterval()));
        return waiting(next, events, "the minimum interval: " + in.spec().getMinInterval() + " since the last change at " + next.getChangedAt(),
                until);
    }

    private static Decision holding(Input in, AutoStatus next, List<ProfileEvent> events) {
        return waiting(next, events, holdingFor(in, next) + "; " + windowsSeen(in, next), nextPeriodEnd(in, next));
    }

    private static String holdingFor(Input in, AutoStatus next) {
        AutoFigures baseline = next.getHoldBaseline();
        return baseline == null ? "holding the last good settings " + next.getSettings()
                : "the workload to move by " + in.spec().getWorkloadShiftPercent() + "% from " + Measures.text(baseline.getRequestsPerSecond())
                        + " req/s per pod and " + Measures.text(baseline.getMeanLatencyMillis()) + " ms, holding " + next.getSettings();
    }

    private static String windowsSeen(Input in, AutoStatus next) {
        return "metrics windows: " + next.getWindows().size() + " of " + in.spec().getObservationWindows() + " seen";
    }

    /**
     * When the windows the loop still needs will have ended, at the length of the latest window: from the
     * last window counted, else from when windows start to count. Null before any window says its length.
     */
    private static Instant nextPeriodEnd(Input in, AutoStatus next) {
        Observed latest = in.window();
        if (latest == null || latest.getWindow() == null) {
            return null;
        }
        Duration length = Units.duration(latest.getWindow());
        List<Observed> counted = next.getWindows();
        Instant from = counted.isEmpty() ? countsFrom(in, next) : Instant.parse(counted.get(counted.size() - 1).getEnd());
        int missing = in.spec().getObservationWindows() - counted.size();
        return from.plus(length.multipliedBy(Math.max(1, missing)));
    }

    /**
     * Re-plans from the period and takes a step, or rests (Converged) when steps stopped beating the best beyond
     * the noise, when no knob would move by the threshold, when near the best the value in force lies among what the
     * period's windows each ask for, when a period already showed the target no better than now, when the target does not
     * fit, or when the planner rejects the measured workload.
     */
    private static void step(Input in, AutoStatus next, List<Observed> windows, AutoFigures period, List<ProfileEvent> events) {
        Optional<Replanner.Replan> replan = in.replanner().propose(Measures.mean(windows));
        if (replan.isEmpty()) {
            return;
        }
        AutoSettings current = effective(next.getSettings(), in.inForce());
        if (replan.get() instanceof Replanner.Unplannable unplannable) {
            // The loop rests where it is, and says why, as it does for stepped settings that do not fit.
            converge(in, next, current, period, unplannable.reason(), true, events);
            return;
        }
        Replanner.Proposal proposal = (Replanner.Proposal) replan.get();
        AutoSettings proposed = proposal.settings();
        if (in.threadsFixed() != null) {
            // No worker pool runs the requests: a thread count in force, proposed or left by an earlier step is nothing to step,
            // and a step drops one the loop set.
            current = current.withoutThreads();
            proposed = proposed.withoutThreads();
        }
        String planned = proposal.reason() + (in.threadsFixed() == null ? "" : "; " + in.threadsFixed());
        Optional<String> stalled = BestSoFar.stalled(in.spec(), next, period);
        if (stalled.isPresent()) {
            if (!Steps.liveHeapMoves(in.spec(), current, proposed)) {
                converge(in, next, current, period, stalled.get(), false, events);
                return;
            }
            // Less memory is the gain of a step that sizes the container down, which no figure shows: while the figures hold,
            // the memory steps on alone to the live heap the pods keep.
            proposed = new AutoSettings(current.getThreads(), current.getConnectionPool(), current.getHeapPercentOfLimit(), proposed.getLiveHeapMib());
            planned += "; " + stalled.get() + ", but the container is sized for a live heap of " + current.getLiveHeapMib() + "Mi";
        }
        List<AutoSettings> windowPlans = windowPlans(in, windows);
        AutoSettings target = Steps.worthMoving(in.spec(), current, Steps.limit(in.spec(), next.getHistory(), current, proposed, windowPlans),
                in.memoryBytes());
        Optional<String> why = Steps.significant(in.spec(), current, target, in.memoryBytes());
        if (why.isEmpty()) {
            converge(in, next, current, period, "re-planned " + target + " from " + planned + "; no knob moves by "
                    + in.spec().getChangeThresholdPercent() + "% from " + current, false, events);
            return;
        }
        Optional<String> withinNoise = nearTheBest(in, next, period) ? PlanNoise.holds(current, target, windowPlans) : Optional.empty();
        if (withinNoise.isPresent()) {
            converge(in, next, current, period, "re-planned " + target + " from " + planned + "; " + withinNoise.get(), false, events);
            return;
        }
        Optional<String> measuredThere = BestSoFar.measuredNoBetter(in.spec(), next, target, period, in.memoryBytes());
        if (measuredThere.isPresent()) {
            converge(in, next, current, period, "re-planned " + target + " from " + planned + "; " + measuredThere.get(), false, events);
            return;
        }
        // Settings that do not fit the container are never rolled out: the loop rests where it is.
        AutoSettings settings = laidOver(next.getSettings(), target, in.inForce());
        Optional<String> misfit = in.replanner().rejects(settings);
        if (misfit.isPresent()) {
            converge(in, next, current, period, "re-planned " + target + " from " + planned + ", which does not fit: " + misfit.get(), true, events);
            return;
        }
        String reason = why.get() + "; " + planned;
        add(next, new AutoIteration().setAt(in.now().toString()).setFrom(current).setTo(target).setBefore(period)
                .setVerdict(AutoVerdict.Pending).setReason(reason));
        next.setState(AutoState.Applying).setSettings(settings).setChangedAt(in.now().toString());
        events.add(new ProfileEvent(false, Reason.AUTO_STEP, "step " + current + " -> " + target + ": " + reason));
    }

    /**
     * Whether the loop stepped since the workload last shifted and this period is within its noise of the best: where a
     * step within the windows' noise would flap. Before any step, or far from the best, a noisy window must not hold the
     * loop where it started.
     */
    private static boolean nearTheBest(Input in, AutoStatus next, AutoFigures period) {
        AutoBest best = next.getBest();
        return best != null && BestSoFar.lastIteration(next) >= best.getSince() && Measures.withinNoise(in.spec(), best.getFigures(), period);
    }

    /** The knobs each window planned alone, as the step would set them (no thread count where none is stepped). */
    private static List<AutoSettings> windowPlans(Input in, List<Observed> windows) {
        return windows.stream().map(w -> in.replanner().propose(Measures.mean(List.of(w))))
                .flatMap(Optional::stream).filter(Replanner.Proposal.class::isInstance).map(p -> ((Replanner.Proposal) p).settings())
                .map(s -> in.threadsFixed() == null ? s : s.withoutThreads()).toList();
    }

    /** Rests at the current settings until the workload shifts from this period. */
    private static void converge(Input in, AutoStatus next, AutoSettings current, AutoFigures period, String reason, boolean warning,
            List<ProfileEvent> events) {
        next.setState(AutoState.Converged).setHoldBaseline(period);
        add(next, new AutoIteration().setAt(in.now().toString()).setFrom(current).setTo(current).setBefore(period)
                .setVerdict(AutoVerdict.Converged).setReason(reason));
        events.add(new ProfileEvent(warning, Reason.AUTO_CONVERGED, reason + "; holding until the workload moves"));
    }

    /** Whether the step just reverted went further than maxStepPercent allows, and was judged by its windows (the pods did not fail). */
    private static boolean overshot(Auto spec, AutoStatus status) {
        List<AutoIteration> history = status.getHistory();
        AutoIteration last = history.isEmpty() ? null : history.get(history.size() - 1);
        return last != null && last.getVerdict() == AutoVerdict.Reverted && last.getAfter() != null
                && Steps.beyondLimit(spec, last.getFrom(), last.getTo());
    }

    /** States that hold their settings until the workload shifts. */
    static boolean holds(AutoStatus status) {
        return status.getState() == AutoState.Holding || status.getState() == AutoState.Converged;
    }

    /**
     * A resting loop's settings moved within bounds tightened since it set them, as the overlay already plans them: a change
     * whose windows count after its rollout, and whose figures the workload is compared with anew. What a revert goes back to
     * stays within them too.
     */
    private static void intoBounds(Input in, AutoStatus next, List<ProfileEvent> events) {
        Overlay.Applied applied = Overlay.applied(in.spec(), next);
        if (applied.moves().isEmpty()) {
            return;
        }
        next.setSettings(applied.settings()).setLastGood(Overlay.within(in.spec(), next.getLastGood()).settings())
                .setChangedAt(in.now().toString()).setHoldBaseline(null);
        next.getWindows().clear();
        events.add(new ProfileEvent(false, Reason.AUTO_CLAMPED, "moved within the bounds: " + String.join(", ", applied.moves())
                + "; holding until the workload moves"));
    }

    private static void revert(Auto spec, AutoStatus next, AutoIteration pending, AutoFigures after, String why, Instant now,
            List<ProfileEvent> events) {
        pending.setAfter(after).setVerdict(AutoVerdict.Reverted).setReason(why);
        next.setState(AutoState.Reverted).setSettings(next.getLastGood()).setChangedAt(now.toString()).setHoldBaseline(null);
        next.getWindows().clear();
        events.add(new ProfileEvent(true, Reason.AUTO_REVERTED, "reverted " + pending.getTo() + " to " + pending.getFrom() + ": " + why
                + (overshot(spec, next) ? "; a step of at most " + spec.getMaxStepPercent() + "% next" : "; holding until the workload moves")));
    }

    private static boolean tooSoon(Input in, AutoStatus next) {
        return in.now().isBefore(Instant.parse(next.getChangedAt()).plus(Units.duration(in.spec().getMinInterval())));
    }

    /**
     * Adds this poll's window once, when it lies wholly after the warm-up: of the rollout of the settings
     * in force, and of the youngest JVM (a pod started since, by a restart or an autoscaler, is cold too).
     */
    private static void collect(Input in, AutoStatus next) {
        Observed window = in.window();
        if (window == null || next.getWindows().stream().anyMatch(w -> Objects.equals(window.getEnd(), w.getEnd()))) {
            return;
        }
        ObservedWorkload.start(window).filter(start -> !start.isBefore(countsFrom(in, next))).ifPresent(start -> next.getWindows().add(window));
    }

    /** When windows start to count: the warm-up after the later of the change, its rollout's completion and the youngest JVM's start. */
    private static Instant countsFrom(Input in, AutoStatus next) {
        return warmUpStart(in, next).plus(Units.duration(in.spec().getWarmUp()));
    }

    private static Instant warmUpStart(Input in, AutoStatus next) {
        // Settings that render the same template need no rollout: their windows count from the change.
        Instant changed = Instant.parse(next.getChangedAt());
        Instant settled = in.settledAt().isAfter(changed) ? in.settledAt() : changed;
        return in.jvmsStartedAt() != null && in.jvmsStartedAt().isAfter(settled) ? in.jvmsStartedAt() : settled;
    }

    /** What the warm-up runs from, said for status. */
    private static String warmUpFrom(Input in, AutoStatus next) {
        Instant start = warmUpStart(in, next);
        if (start.equals(in.jvmsStartedAt()) && !start.equals(in.settledAt())) {
            return "the youngest JVM started at " + start;
        }
        return start.equals(in.settledAt()) ? "the rollout completed at " + start : "the change at " + start;
    }

    /** Whether the windows read different numbers of pods. */
    private static boolean replicasMoved(List<Observed> windows) {
        return windows.stream().map(Observed::getPods).filter(Objects::nonNull).distinct().count() > 1;
    }

    /** The step being watched, if any: the last iteration while Pending. */
    private static Optional<AutoIteration> pending(AutoStatus status) {
        List<AutoIteration> history = status.getHistory();
        return history.isEmpty() || history.get(history.size() - 1).getVerdict() != AutoVerdict.Pending ? Optional.empty()
                : Optional.of(history.get(history.size() - 1));
    }

    /** The target as the loop would keep it: knobs it sets, not values merely in force. */
    private static AutoSettings laidOver(AutoSettings loop, AutoSettings target, AutoSettings inForce) {
        return new AutoSettings(own(loop.getThreads(), target.getThreads(), inForce.getThreads()),
                own(loop.getConnectionPool(), target.getConnectionPool(), inForce.getConnectionPool()),
                own(loop.getHeapPercentOfLimit(), target.getHeapPercentOfLimit(), inForce.getHeapPercentOfLimit()),
                own(loop.getLiveHeapMib(), target.getLiveHeapMib(), inForce.getLiveHeapMib()));
    }

    /** A target equal to the value in force that the loop does not set stays unset, so the plan keeps deriving it. */
    private static Integer own(Integer loop, Integer target, Integer inForce) {
        return loop == null && Objects.equals(target, inForce) ? null : target;
    }

    /** The loop's settings with the values in force where the loop sets none. */
    private static AutoSettings effective(AutoSettings loop, AutoSettings inForce) {
        return new AutoSettings(first(loop.getThreads(), inForce.getThreads()), first(loop.getConnectionPool(), inForce.getConnectionPool()),
                first(loop.getHeapPercentOfLimit(), inForce.getHeapPercentOfLimit()), first(loop.getLiveHeapMib(), inForce.getLiveHeapMib()));
    }

    private static Integer first(Integer a, Integer b) {
        return a != null ? a : b;
    }

    private static void add(AutoStatus status, AutoIteration iteration) {
        List<AutoIteration> history = status.getHistory();
        history.add(iteration.setIteration(BestSoFar.lastIteration(status) + 1));
        while (history.size() > HISTORY) {
            history.remove(0);
        }
    }
}
