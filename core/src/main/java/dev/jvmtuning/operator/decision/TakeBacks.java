package dev.jvmtuning.operator.decision;

import dev.jvmtuning.operator.api.v1alpha1.TakenBack;
import dev.jvmtuning.operator.api.v1alpha1.TrackedRollout;
import dev.jvmtuning.operator.deployment.FieldOwners;
import dev.jvmtuning.operator.model.LabelsAndAnnotations;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Whether the operator writes its fields again after another manager took them back. A GitOps controller with self-heal
 * re-applies the manifest whenever it drifts: were the operator to answer each time, the two would roll the pods for each
 * other for ever. A take-back once is answered (a user's one-off {@code kubectl apply} of an old manifest); the second within
 * {@link #WINDOW} stops the writes until the profile or the Deployment's own template changes. Pure.
 */
final class TakeBacks {
    /** The take-backs within the window that stop the writes: the first write and one answer, never more. */
    static final int STOPPING = 2;
    static final Duration WINDOW = Duration.ofMinutes(10);

    private TakeBacks() {
    }

    /** The record for status (null for none) and whether the operator writes the template. */
    record Verdict(TakenBack record, boolean write) {
    }

    /**
     * @param previous             status.takenBack, or null
     * @param tracked              the rollout status tracked before this reconcile, or null
     * @param writing              the template lacks the operator's fields of these settings
     * @param owner                the other manager that last wrote the operator's fields, if the Deployment's managedFields say
     * @param hash                 the settings hash to write
     * @param template             the digest of the Deployment's own template
     * @param deploymentGeneration the Deployment's metadata.generation
     * @param profileGeneration    the profile's metadata.generation
     */
    static Verdict judge(TakenBack previous, TrackedRollout tracked, boolean writing, Optional<FieldOwners.Owner> owner, String hash, String template,
            Long deploymentGeneration, Long profileGeneration, Instant now) {
        TakenBack current = previous == null || !Objects.equals(previous.getProfileGeneration(), profileGeneration)
                || !Objects.equals(previous.getTemplateHash(), template) ? null : previous;
        List<String> recent = current == null ? List.of()
                : current.getTimes().stream().filter(t -> current.isStopped() || Instant.parse(t).plus(WINDOW).isAfter(now)).toList();
        // These settings were written into this very template: their fields missing now were taken back, not never written.
        boolean wroteThese = tracked != null && hash.equals(tracked.getSettingsHash()) && template.equals(tracked.getTemplateHash());
        if (!writing || !wroteThese) {
            return new Verdict(recent.isEmpty() ? null : withTimes(current, recent), true);
        }
        if (current != null && (current.isStopped() || Objects.equals(current.getDeploymentGeneration(), deploymentGeneration))) {
            // Stopped stays stopped, whatever the manager writes next; the same generation is the take-back already answered.
            return new Verdict(current, !current.isStopped());
        }
        List<String> times = new ArrayList<>(recent);
        times.add(now.toString());
        // A client that records no owner of the fields it took back (managedFields off, or a write that only removed them) is
        // still another hand: the loop is stopped all the same.
        FieldOwners.Owner by = owner.orElseGet(() -> new FieldOwners.Owner("unknown (no managedFields entry owns the fields)", "unknown",
                now, List.of("the operator's fields")));
        boolean stopped = times.size() >= STOPPING;
        return new Verdict(new TakenBack(by.manager(), by.operation(), new ArrayList<>(by.fields()), times, deploymentGeneration,
                profileGeneration, template, stopped), !stopped);
    }

    /** Applied's message once the writes stopped: who, what, how often, and the ways out. */
    static String message(TakenBack record, String deployment) {
        return "Deployment " + deployment + "'s " + String.join(", ", record.getFields()) + " were taken back by field manager "
                + record.getManager() + " (" + record.getOperation() + ") " + record.getTimes().size() + " times within "
                + WINDOW.toMinutes() + " minutes, each after the operator wrote them: it writes them no more, so that the two do not roll "
                + "the pods for each other (a GitOps controller re-applying from Git?). Let that manager ignore the fields of field "
                + "manager " + LabelsAndAnnotations.OPERATOR + ", or put the settings in Git (mode Recommend and kubectl tp export); an edit of the "
                + "profile or a new template of the Deployment's tries again";
    }

    private static TakenBack withTimes(TakenBack record, List<String> times) {
        return new TakenBack(record.getManager(), record.getOperation(), record.getFields(), new ArrayList<>(times), record.getDeploymentGeneration(),
                record.getProfileGeneration(), record.getTemplateHash(), record.isStopped());
    }
}
