package dev.jvmtuning.operator.rollout;

import dev.jvmtuning.operator.api.v1alpha1.AppliedSettings;
import dev.jvmtuning.operator.api.v1alpha1.RefusedOption;
import dev.jvmtuning.operator.api.v1alpha1.RollBack;
import dev.jvmtuning.operator.api.v1alpha1.TrackedRollout;
import dev.jvmtuning.operator.deployment.TargetPods;
import dev.jvmtuning.operator.model.Reason;
import dev.jvmtuning.operator.render.DeploymentTuning;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Apply mode's judgement of a rollout: from the Deployment, its pods, the settings being rolled out and
 * what status remembers (the rollout in force, the last healthy settings, the last rollback), what to do next and the
 * status facts that follow. The settings answer only for what they can have caused: the pods their rollout created,
 * within {@code spec.rollback.window} of its completion; any failure there when the operator's own write started the
 * rollout over a template that ran healthy, only a JVM's refusal or an OOM kill when the Deployment's own template
 * changed. The writes are the caller's. Pure.
 */
public final class RolloutJudge {
    /**
     * Pods created this long before the operator first saw their template still count as its rollout's: the Deployment
     * controller may act on a release before the operator hears of it.
     */
    static final Duration SEEN_LATE_BY = Duration.ofSeconds(30);

    private RolloutJudge() {
    }

    /** What to do about the rollout, with what status records of it. */
    public sealed interface Step {
    }

    /**
     * Under way, or complete; when complete, {@code healthy} are the settings a later failure goes back to (else null).
     * {@code unheld}: a failing pod the settings are not held to account for, and why, for status to report.
     */
    public record Progress(Rollout rollout, AppliedSettings healthy, Optional<String> unheld) implements Step {
    }

    /**
     * The pods of these settings fail: write {@code to} back (null: the Deployment's own template) and record {@code rollBack}.
     * {@code refusedVmOption}: the one VM option the failing pod's JVM refused by name, if it did.
     */
    public record TakeBack(RollBack rollBack, AppliedSettings to, Optional<RolloutHealth.RefusedVmOption> refusedVmOption) implements Step {
    }

    /**
     * Before anything is written: the rollback that keeps these settings out, if they were taken back for this generation of
     * the profile and this template of the Deployment's own. A release, or an edit of the profile, lets them try again. A
     * rollback recorded before templates were (no template hash) holds until the profile changes.
     */
    public static Optional<RollBack> keptOut(RollBack lastRollBack, String hash, String template, Long generation) {
        return Optional.ofNullable(lastRollBack)
                .filter(r -> hash.equals(r.getSettingsHash()) && Objects.equals(r.getGeneration(), generation)
                        && (r.getTemplateHash() == null || r.getTemplateHash().equals(template)));
    }

    /**
     * The VM option the JVM refused, while it holds: for the generation of the profile and the template of the Deployment's own
     * it was refused under, as {@link #keptOut} holds a rollback. Another release may run a JVM that takes it. The template's
     * digest is read only where a refusal is recorded.
     */
    public static Optional<RefusedOption> refusalInForce(RefusedOption refused, Supplier<String> template, Long generation) {
        return Optional.ofNullable(refused)
                .filter(r -> Objects.equals(r.getGeneration(), generation) && template.get().equals(r.getTemplateHash()));
    }

    /**
     * The rollout of the template in force, from the one status tracks.
     *
     * @param previous the rollout status tracks, or null
     * @param hash     the settings hash of the template in force (once written)
     * @param template the digest of the Deployment's own template
     * @param writing  the operator writes the template this reconcile
     * @param before   the Deployment's rollout before that write: complete, its template ran healthy
     * @param rollout  the rollout of the template in force
     */
    public static TrackedRollout track(TrackedRollout previous, String hash, String template, boolean writing, Rollout before, Rollout rollout,
            Instant now) {
        String completedAt = rollout.complete() ? now.toString() : null;
        if (previous != null && hash.equals(previous.getSettingsHash()) && template.equals(previous.getTemplateHash())) {
            return previous.getCompletedAt() != null || completedAt == null ? previous
                    : new TrackedRollout(hash, template, previous.getCause(), previous.getStartedAt(), completedAt);
        }
        boolean settingsOnly = writing && before.complete() && (previous == null || template.equals(previous.getTemplateHash()));
        return new TrackedRollout(hash, template, settingsOnly ? TrackedRollout.CAUSE_SETTINGS : TrackedRollout.CAUSE_TEMPLATE, now.toString(),
                completedAt);
    }

    /**
     * Once the tuned template is written.
     *
     * @param tracked     the rollout of it, as {@link #track} leaves it
     * @param rollout     the Deployment's rollout of it, or {@link Rollout#written} while the write is still to be made
     * @param pods        the Deployment's pods
     * @param applying    the settings rolled out, as status would record them once healthy
     * @param container   the tuned container
     * @param lastHealthy the settings that last ran healthy on every pod, or null
     * @param generation  the profile's generation, recorded with a rollback
     * @param window      how long after the rollout completed its pods' failures still count (spec.rollback.window)
     * @param now         the reconcile's time, recorded with a rollback
     */
    public static Step judge(TrackedRollout tracked, Rollout rollout, List<Pod> pods, AppliedSettings applying, String container,
            AppliedSettings lastHealthy, Long generation, Duration window, Instant now) {
        String hash = applying.getSettingsHash();
        Instant started = Instant.parse(tracked.getStartedAt());
        boolean watching = tracked.getCompletedAt() == null || now.isBefore(Instant.parse(tracked.getCompletedAt()).plus(window));
        boolean settingsOnly = TrackedRollout.CAUSE_SETTINGS.equals(tracked.getCause());
        // A pod created once the rollout completed replaces or adds to its pods (a scale-up, an eviction): not the rollout's.
        Instant completed = tracked.getCompletedAt() == null ? null : Instant.parse(tracked.getCompletedAt());
        Predicate<Pod> ofRollout = p -> hash.equals(TargetPods.settingsHash(p)) && createdSince(p, started.minus(SEEN_LATE_BY))
                && (completed == null || !createdSince(p, completed.plusSeconds(1)));
        List<RolloutHealth.Failure> failing = RolloutHealth.failures(pods, container, ofRollout);
        boolean stalled = rollout.reason() == Reason.DEGRADED;
        Optional<RolloutHealth.Failure> blamedPod = !watching ? Optional.empty()
                : failing.stream().filter(f -> !f.restarting() && (settingsOnly || f.jvmRefusal())).findFirst();
        Optional<String> blamed = blamedPod.map(RolloutHealth.Failure::description)
                .or(() -> watching && settingsOnly && stalled ? Optional.of(rollout.message()) : Optional.empty());
        if (blamed.isPresent()) {
            return new TakeBack(new RollBack(hash, generation, tracked.getTemplateHash(), blamed.get(), now.toString()),
                    lastHealthy != null && !lastHealthy.getSettingsHash().equals(hash) ? lastHealthy : null,
                    blamedPod.flatMap(RolloutHealth.Failure::refusedVmOption));
        }
        String why = watching ? "the Deployment's own template changed (a rollout the operator first saw at " + tracked.getStartedAt()
                + "), and the container was neither OOM-killed nor refused by its JVM"
                : "the settings' rollout completed at " + tracked.getCompletedAt() + ", more than " + window.toSeconds() + " s (spec.rollback.window) "
                        + "before: they ran healthy, and a failure since is not theirs";
        // An OOM kill has a report of its own (status.lastOomKill, an OOMKilled Event) and an answer (a larger budget); a
        // container Ready again fails no more, whatever its restarts.
        Predicate<RolloutHealth.Failure> reported = f -> !f.oomKilled() && !f.recovered();
        Optional<String> unheld = failing.stream().filter(reported).findFirst().map(f -> f.description() + "; not rolled back: " + why)
                .or(() -> RolloutHealth.failures(pods, container, ofRollout.negate()).stream().filter(reported).findFirst()
                        .map(f -> f.description() + "; not rolled back: not a pod of the rollout of the settings in force"))
                .or(() -> stalled ? Optional.of(rollout.message() + "; not rolled back: " + why) : Optional.empty());
        return new Progress(rollout, rollout.complete() ? applying : null, unheld);
    }

    /**
     * Which pods run the Deployment's own template as it is now, whatever settings the operator gave them (settings alone do not
     * change what admission gives a pod, a release does): all of them once its rollout is complete; while one rolls, the pods
     * of those of its ReplicaSets whose template is the Deployment's own, the operator's fields left out.
     *
     * @param replicaSets the Deployment's ReplicaSets, read while its rollout is under way
     */
    public static Predicate<Pod> ofTemplateInForce(Rollout rollout, Deployment deployment, List<ReplicaSet> replicaSets, String profile) {
        if (rollout.complete()) {
            return pod -> true;
        }
        String template = DeploymentTuning.templateHash(deployment, profile);
        Set<String> ofTemplate = replicaSets.stream().filter(r -> template.equals(DeploymentTuning.templateHash(r, profile)))
                .map(r -> r.getMetadata().getName()).collect(Collectors.toSet());
        return pod -> TargetPods.replicaSetName(pod).filter(ofTemplate::contains).isPresent();
    }

    /** A pod without a creation time (not yet stored) is new. */
    private static boolean createdSince(Pod pod, Instant since) {
        String created = pod.getMetadata().getCreationTimestamp();
        return created == null || !Instant.parse(created).isBefore(since);
    }
}
