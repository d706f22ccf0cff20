package dev.jvmtuning.operator.closedloop;

import dev.jvmtuning.operator.api.v1alpha1.Auto;
import dev.jvmtuning.operator.api.v1alpha1.AutoBest;
import dev.jvmtuning.operator.api.v1alpha1.AutoFigures;
import dev.jvmtuning.operator.api.v1alpha1.AutoIteration;
import dev.jvmtuning.operator.api.v1alpha1.AutoSettings;
import dev.jvmtuning.operator.api.v1alpha1.AutoStatus;
import dev.jvmtuning.operator.api.v1alpha1.AutoVerdict;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What mode Auto remembers of the periods it measured since the workload last shifted: the best one,
 * which it stops near once steps no longer beat it beyond the noise, and the figures each settings
 * showed, which predict a step back to them. Pure.
 */
public final class BestSoFar {
    /**
     * Kept steps in a row that may leave the loop within its noise of the best before it stops. One is
     * not enough: a step may gain nothing measurable on its way to one that does (halving a CPU-bound
     * pool from far above its best, docs/explanation/closed-loop.md).
     */
    static final int PATIENCE = 2;

    private BestSoFar() {
    }

    /**
     * The best after this period: the period itself when there is none yet or it beats the best beyond the
     * noise ({@link Measures#better}); else the best as it was.
     *
     * @param settings  the settings the period ran with, as in force
     * @param iteration the loop's last iteration number (0 before any), whose period this is
     */
    public static AutoBest update(Auto spec, AutoBest best, AutoSettings settings, AutoFigures period, int iteration) {
        if (best != null && !Measures.better(spec, best.getFigures(), period)) {
            return best;
        }
        return new AutoBest().setSettings(settings).setFigures(period).setIteration(iteration)
                .setSince(best == null ? iteration + 1 : best.getSince());
    }

    /**
     * Why the loop stops here: the last {@link #PATIENCE} kept steps left it within its own noise of the best;
     * empty while it is not so.
     */
    public static Optional<String> stalled(Auto spec, AutoStatus status, AutoFigures period) {
        AutoBest best = status.getBest();
        if (best == null) {
            return Optional.empty();
        }
        long kept = status.getHistory().stream()
                .filter(it -> it.getVerdict() == AutoVerdict.Kept && it.getIteration() != null && it.getIteration() > best.getIteration())
                .count();
        if (kept < PATIENCE || !Measures.withinNoise(spec, best.getFigures(), period)) {
            return Optional.empty();
        }
        return Optional.of("the last " + kept + " steps left the figures within their noise of the best, " + figures(best.getFigures())
                + " with " + best.getSettings() + " (" + Measures.noise(period) + "): steps no longer help measurably");
    }

    /**
     * Why a step to {@code target} is not taken: a period since the workload last shifted ran with settings
     * within the threshold of it and did not beat {@code now} beyond the noise, so the step would only go
     * back (a step that was reverted, the settings the last steps left). Empty when no period predicts it.
     */
    public static Optional<String> measuredNoBetter(Auto spec, AutoStatus status, AutoSettings target, AutoFigures now, Long memoryBytes) {
        AutoBest best = status.getBest();
        if (best == null) {
            return Optional.empty();
        }
        List<AutoIteration> since = status.getHistory().stream()
                .filter(it -> it.getIteration() != null && it.getIteration() >= best.getSince()).toList();
        for (int i = since.size() - 1; i >= 0; i--) {
            AutoIteration it = since.get(i);
            Optional<String> after = noBetter(spec, it.getTo(), it.getAfter(), target, now, memoryBytes, "after", it);
            if (after.isPresent()) {
                return after;
            }
            Optional<String> before = noBetter(spec, it.getFrom(), it.getBefore(), target, now, memoryBytes, "before", it);
            if (before.isPresent()) {
                return before;
            }
        }
        return Optional.empty();
    }

    private static Optional<String> noBetter(Auto spec, AutoSettings measured, AutoFigures figures, AutoSettings target, AutoFigures now,
            Long memoryBytes, String when, AutoIteration it) {
        if (measured == null || figures == null || Steps.significant(spec, measured, target, memoryBytes).isPresent()
                || Measures.better(spec, now, figures)) {
            return Optional.empty();
        }
        return Optional.of(measured + " showed " + figures(figures) + " " + when + " iteration " + it.getIteration()
                + (it.getVerdict() == AutoVerdict.Reverted ? ", which was reverted" : "") + ", no better than now beyond the noise");
    }

    private static String figures(AutoFigures figures) {
        return Measures.text(figures.getRequestsPerSecond()) + " req/s per pod at " + Measures.text(figures.getMeanLatencyMillis()) + " ms"
                + (figures.getRequestsPerCpuSecond() == null ? "" : ", " + Measures.text(figures.getRequestsPerCpuSecond()) + " per CPU-second");
    }

    /** The last iteration number, 0 before any. */
    public static int lastIteration(AutoStatus status) {
        List<AutoIteration> history = status.getHistory();
        return history.isEmpty() ? 0 : Objects.requireNonNullElse(history.get(history.size() - 1).getIteration(), 0);
    }
}
