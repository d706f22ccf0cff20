package dev.jvmtuning.operator.decision;

import dev.jvmtuning.operator.api.v1alpha1.AdmittedPod;
import dev.jvmtuning.operator.api.v1alpha1.LastOomKill;
import dev.jvmtuning.operator.deployment.AdmittedContainer;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfileStatus;
import dev.jvmtuning.operator.api.v1alpha1.VerticalScaling;
import dev.jvmtuning.operator.model.ConditionStatus;
import dev.jvmtuning.operator.model.ConditionType;
import dev.jvmtuning.operator.model.ProfileEvent;
import dev.jvmtuning.operator.model.Reason;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Which Events a status change deserves: Warnings for trouble (a pressure turning True, any other
 * condition but Ready turning False, Ready turning False because a reconcile failed), Normal when trouble clears or a profile turns to Recommend only; a Warning for each new OOM kill status records. An
 * ordinary apply (Applied, RolloutComplete, metrics read for the first time), states on the way
 * (rolling out, no pod Ready yet, a first sample) and Unknown raise none: status says those, and an
 * Event for each of a thousand profiles costs a write each. Pure.
 */
public final class EventPolicy {

    private EventPolicy() {
    }

    public static List<ProfileEvent> events(TuningProfileStatus before, TuningProfileStatus after) {
        List<ProfileEvent> events = new ArrayList<>();
        for (Condition changed : Conditions.transitions(before.getConditions(), after.getConditions())) {
            ConditionType type = ConditionType.find(changed.getType()).orElse(null);
            Reason reason = Reason.find(changed.getReason()).orElse(null);
            ConditionStatus status = ConditionStatus.of(changed.getStatus());
            // Another writer's conditions are theirs to announce; Ready sums up the others, which have their Events, except
            // when a reconcile failed and only Ready says so.
            if (type == null || reason == null || (type == ConditionType.READY && reason != Reason.RECONCILE_FAILED)
                    || status == ConditionStatus.UNKNOWN || reason.isState()) {
                continue;
            }
            if (trouble(type, changed)) {
                events.add(new ProfileEvent(true, reason, changed.getMessage()));
            } else if (reason == Reason.RECOMMEND_ONLY || Conditions.find(before.getConditions(), type).filter(c -> trouble(type, c)).isPresent()) {
                events.add(new ProfileEvent(false, reason, changed.getMessage()));
            }
        }
        List<String> newWarnings = new ArrayList<>(after.getWarnings());
        newWarnings.removeAll(before.getWarnings());
        newWarnings.forEach(w -> events.add(new ProfileEvent(true, Reason.SETTING_OVERRIDDEN, w)));
        AdmittedPod admitted = after.getAdmitted();
        // Another pod admitted the same way is not news; what admission changes is.
        if (admitted != null && (before.getAdmitted() == null || !admitted.getResources().equals(before.getAdmitted().getResources())
                || !admitted.getAddedJvmOptions().equals(before.getAdmitted().getAddedJvmOptions()))) {
            events.add(new ProfileEvent(false, Reason.PLANNED_FOR_ADMITTED_POD, "pod " + admitted.getPod() + " runs "
                    + AdmittedContainer.describe(admitted) + ": " + plannedFor(after.getVerticalScaling())));
        }
        // Status holds the last kill it announced, so a kill still shown in a pod's lastState is not announced again.
        LastOomKill kill = after.getLastOomKill();
        LastOomKill known = before.getLastOomKill();
        // The same kill with another count of answers in a row is not news.
        if (kill != null && (known == null || !Objects.equals(kill.getPod(), known.getPod()) || !Objects.equals(kill.getAt(), known.getAt())
                || !Objects.equals(kill.getRestartCount(), known.getRestartCount()))) {
            events.add(new ProfileEvent(true, Reason.OOM_KILLED, kill.getMessage()));
        }
        return events;
    }

    /** Where a VPA moves the memory limit, no pod's own limit is planned for: each JVM takes its share of the limit it runs at. */
    private static String plannedFor(VerticalScaling scaling) {
        return scaling != null && scaling.getControls().contains("memory")
                ? "the heap is a share of each pod's own limit, planned at the VPA's floor of " + scaling.getJvmFloor()
                        + " (status.verticalScaling)"
                : "the settings are planned for the pod as admitted";
    }

    /** A pressure that is True, or another condition False for a fault (not a state on the way, not Recommend mode). */
    private static boolean trouble(ConditionType type, Condition condition) {
        ConditionStatus status = ConditionStatus.of(condition.getStatus());
        Reason reason = Reason.find(condition.getReason()).orElse(null);
        if (reason == null || reason.isState()) {
            return false;
        }
        return type.isPressure() ? status == ConditionStatus.TRUE : status == ConditionStatus.FALSE && reason != Reason.RECOMMEND_ONLY;
    }
}
