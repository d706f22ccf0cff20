package dev.jvmtuning.operator.reconciler;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** Condition bookkeeping by the Kubernetes API conventions: lastTransitionTime moves only when the status flips. */
public final class Conditions {
    public static final String READY = "Ready";
    public static final String APPLIED = "Applied";
    public static final String ROLLOUT_COMPLETE = "RolloutComplete";
    public static final String METRICS_AVAILABLE = "MetricsAvailable";

    private Conditions() {
    }

    public static Optional<Condition> find(List<Condition> conditions, String type) {
        return conditions.stream().filter(c -> type.equals(c.getType())).findFirst();
    }

    /** The conditions with {@code type} set; its transition time is kept when its status did not change. */
    public static List<Condition> set(List<Condition> conditions, String type, boolean status, String reason, String message,
            Long generation, String now) {
        return set(conditions, type, status ? "True" : "False", reason, message, generation, now);
    }

    /** As above, with the status as written in the API: True, False or Unknown. */
    public static List<Condition> set(List<Condition> conditions, String type, String statusText, String reason, String message,
            Long generation, String now) {
        String transition = find(conditions, type).filter(c -> statusText.equals(c.getStatus()))
                .map(Condition::getLastTransitionTime).orElse(now);
        Condition updated = new ConditionBuilder().withType(type).withStatus(statusText).withReason(reason)
                .withMessage(message).withObservedGeneration(generation).withLastTransitionTime(transition).build();
        List<Condition> result = new ArrayList<>(conditions.stream().filter(c -> !type.equals(c.getType())).toList());
        result.add(updated);
        result.sort(java.util.Comparator.comparing(Condition::getType));
        return result;
    }

    public static List<Condition> remove(List<Condition> conditions, String type) {
        return conditions.stream().filter(c -> !type.equals(c.getType())).toList();
    }

    /** The conditions whose status or reason differs between two lists: what deserves an Event. */
    public static List<Condition> transitions(List<Condition> before, List<Condition> after) {
        return after.stream().filter(c -> find(before, c.getType())
                .map(old -> !Objects.equals(old.getStatus(), c.getStatus()) || !Objects.equals(old.getReason(), c.getReason()))
                .orElse(true)).toList();
    }
}
