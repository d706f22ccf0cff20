package dev.jvmtuning.operator.decision;

import dev.jvmtuning.operator.model.ConditionStatus;
import dev.jvmtuning.operator.model.ConditionType;
import dev.jvmtuning.operator.model.Reason;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** Condition bookkeeping by the Kubernetes API conventions: lastTransitionTime moves only when the status flips. Pure. */
public final class Conditions {

    private Conditions() {
    }

    public static Optional<Condition> find(List<Condition> conditions, ConditionType type) {
        return conditions.stream().filter(c -> type.text().equals(c.getType())).findFirst();
    }

    public static boolean isTrue(List<Condition> conditions, ConditionType type) {
        return find(conditions, type).filter(c -> ConditionStatus.TRUE.is(c.getStatus())).isPresent();
    }

    /** The conditions with {@code type} set; its transition time is kept when its status did not change. */
    public static List<Condition> set(List<Condition> conditions, ConditionType type, ConditionStatus status, Reason reason, String message,
            Long generation, String now) {
        String transition = find(conditions, type).filter(c -> status.is(c.getStatus()))
                .map(Condition::getLastTransitionTime).orElse(now);
        Condition updated = new ConditionBuilder().withType(type.text()).withStatus(status.text()).withReason(reason.text())
                .withMessage(message).withObservedGeneration(generation).withLastTransitionTime(transition).build();
        List<Condition> result = new ArrayList<>(conditions.stream().filter(c -> !type.text().equals(c.getType())).toList());
        result.add(updated);
        result.sort(Comparator.comparing(Condition::getType));
        return result;
    }

    public static List<Condition> remove(List<Condition> conditions, ConditionType type) {
        return conditions.stream().filter(c -> !type.text().equals(c.getType())).toList();
    }

    /** The conditions whose status or reason differs between two lists: what deserves an Event. */
    public static List<Condition> transitions(List<Condition> before, List<Condition> after) {
        return after.stream().filter(c -> before.stream().filter(old -> old.getType().equals(c.getType())).findFirst()
                .map(old -> !Objects.equals(old.getStatus(), c.getStatus()) || !Objects.equals(old.getReason(), c.getReason()))
                .orElse(true)).toList();
    }
}
