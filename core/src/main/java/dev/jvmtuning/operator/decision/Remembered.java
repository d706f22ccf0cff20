package dev.jvmtuning.operator.decision;

import dev.jvmtuning.operator.api.v1alpha1.AppliedSettings;
import dev.jvmtuning.operator.api.v1alpha1.LastOomKill;
import dev.jvmtuning.operator.api.v1alpha1.RefusedOption;
import dev.jvmtuning.operator.api.v1alpha1.RollBack;
import dev.jvmtuning.operator.api.v1alpha1.TakenBack;
import dev.jvmtuning.operator.api.v1alpha1.TrackedRollout;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfileStatus;
import dev.jvmtuning.operator.model.EffectiveOptions;
import dev.jvmtuning.operator.model.MetricsReport;
import java.util.Objects;
import lombok.With;

/**
 * What status carries from one reconcile to the next of the operator's own doing and of the JVMs: the rollout it tracks, the
 * settings it goes back to, what was taken back, what the JVMs refused or were killed for, and what they report of themselves.
 * A reconcile starts from the last one's and each step returns the next; status records the last.
 *
 * @param rollout       the rollout of the template in force, or null
 * @param takenBack     another manager's take-backs of the operator's fields, or null
 * @param lastHealthy   the settings that last ran healthy on every pod, or null
 * @param rolledBack    the settings last taken back, or null
 * @param refusedOption the VM option the JVM refused, which the settings leave out; null for none
 * @param lastOomKill   the last OOM kill announced, or null
 * @param jvm           what the JVMs report of themselves
 */
@With
record Remembered(TrackedRollout rollout, TakenBack takenBack, AppliedSettings lastHealthy, RollBack rolledBack, RefusedOption refusedOption,
        LastOomKill lastOomKill, Jvm jvm) {

    /** The Java feature version and the AOT cache the pods' JVMs report, as the JVMs of {@code images}; null where none reported. */
    record Jvm(Integer javaVersion, String aotCache, String images) {

        /** A poll's report; one that reports none (a missed scrape, a pod without the series) keeps the known facts. */
        Jvm reported(MetricsReport metrics, String reportedBy) {
            Jvm next = this;
            if (metrics.javaVersion() != null) {
                next = new Jvm(metrics.javaVersion(), next.aotCache, reportedBy);
            }
            if (EffectiveOptions.showArchives(metrics.effectiveOptions().values())) {
                next = new Jvm(next.javaVersion, EffectiveOptions.archiveReported(metrics.effectiveOptions().values()).orElse(null), reportedBy);
            }
            return next;
        }

        /**
         * Pods of {@code failing} images failed: what JVMs of other images reported no longer holds (a JDK 21 image refuses a
         * JDK 25 option), so the next plan is checked against every supported JDK until these JVMs report.
         */
        Jvm failedOn(String failing) {
            return images != null && !images.equals(failing) ? new Jvm(null, null, null) : this;
        }
    }

    /** As the last reconcile left it; a changed profile is a fresh start for the answers to OOM kills (R9b). */
    static Remembered of(TuningProfileStatus previous, Long generation) {
        LastOomKill kill = previous.getLastOomKill();
        return new Remembered(previous.getRollout(), previous.getTakenBack(), previous.getLastHealthy(), previous.getRolledBack(),
                previous.getRefusedOption(), Objects.equals(generation, previous.getObservedGeneration()) ? kill : answeredInARow(kill, 0),
                new Jvm(previous.getJavaVersion(), previous.getAotCache(), previous.getJvmImages()));
    }

    /** No rollout of the operator's settings is in force any more, and nothing it wrote can be taken back. */
    Remembered restored() {
        return withRollout(null).withTakenBack(null);
    }

    /** These settings ran on every pod: a later failure comes back to them, and the kills in a row of other settings end here. */
    Remembered healthy(AppliedSettings settings) {
        boolean otherSettingsKilled = lastOomKill != null && !settings.getSettingsHash().equals(lastOomKill.getSettingsHash());
        return withLastHealthy(settings).withRolledBack(null).withLastOomKill(otherSettingsKilled ? answeredInARow(lastOomKill, 0) : lastOomKill);
    }

    private static LastOomKill answeredInARow(LastOomKill kill, int count) {
        return kill == null || Objects.equals(kill.getAnsweredInARow(), count) ? kill
                : new LastOomKill(kill.getPod(), kill.getSettingsHash(), kill.getRestartCount(), kill.getAt(), kill.getCause(), kill.getMessage(),
                        kill.getMemoryLimitBytes(), kill.getPlannedHeapBytes(), kill.getObservedBytes(), kill.getBudgetBytes(), count);
    }
}
