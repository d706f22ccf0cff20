package dev.jvmtuning.operator.rollout;

import dev.jvmtuning.operator.api.v1alpha1.AppliedSettings;
import dev.jvmtuning.operator.api.v1alpha1.RollBack;
import io.fabric8.kubernetes.api.model.Pod;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Apply mode's judgement of a rollout: from the Deployment, its pods, the settings being rolled out and
 * what status remembers (the last healthy settings, the last rollback), what to do next and the status
 * facts that follow. The writes are the caller's. Pure.
 */
public final class RolloutJudge {

    private RolloutJudge() {
    }

    /** What to do about the rollout, with what status records of it. */
    public sealed interface Step {
    }

    /** Under way, or complete; when complete, {@code healthy} are the settings a later failure goes back to (else null). */
    public record Progress(Rollout rollout, AppliedSettings healthy) implements Step {
    }

    /** The pods of these settings fail: write {@code to} back (null: the Deployment's own template) and record {@code rollBack}. */
    public record TakeBack(RollBack rollBack, AppliedSettings to) implements Step {
    }

    /**
     * Before anything is written: the rollback that keeps these settings out, if they were taken back for
     * this generation of the profile. The same settings come back only once the profile or the Deployment
     * changes (a different hash).
     */
    public static Optional<RollBack> keptOut(RollBack lastRollBack, String hash, Long generation) {
        return Optional.ofNullable(lastRollBack)
                .filter(r -> hash.equals(r.getSettingsHash()) && Objects.equals(r.getGeneration(), generation));
    }

    /**
     * Once the tuned template is written.
     *
     * @param rollout     the Deployment's rollout of it, or {@link Rollout#written} while the write is still to be made
     * @param pods        its pods
     * @param applying    the settings rolled out, as status would record them once healthy
     * @param container   the tuned container
     * @param lastHealthy the settings that last ran healthy on every pod, or null
     * @param generation  the profile's generation, recorded with a rollback
     * @param now         the reconcile's time, recorded with a rollback
     */
    public static Step judge(Rollout rollout, List<Pod> pods, AppliedSettings applying, String container, AppliedSettings lastHealthy,
            Long generation, Instant now) {
        if (rollout.complete()) {
            return new Progress(rollout, applying);
        }
        String hash = applying.getSettingsHash();
        return RolloutHealth.failure(pods, hash, container, rollout)
                .<Step>map(failure -> new TakeBack(new RollBack(hash, generation, failure, now.toString()),
                        lastHealthy != null && !lastHealthy.getSettingsHash().equals(hash) ? lastHealthy : null))
                .orElseGet(() -> new Progress(rollout, null));
    }
}
