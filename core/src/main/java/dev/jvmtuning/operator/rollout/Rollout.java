package dev.jvmtuning.operator.rollout;

import dev.jvmtuning.operator.model.ConditionStatus;
import dev.jvmtuning.operator.model.Reason;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentCondition;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Where the rollout of the tuned template stands, judged from the Deployment's own status once its
 * controller has seen the current generation. It knows which template the pods run, not what their JVMs run. Pure.
 */
public record Rollout(boolean complete, Reason reason, String message) {

    public static Rollout of(Deployment deployment) {
        var status = deployment.getStatus();
        int replicas = Objects.requireNonNullElse(deployment.getSpec().getReplicas(), 1);
        if (status == null || status.getObservedGeneration() == null || status.getObservedGeneration() < deployment.getMetadata().getGeneration()) {
            return unseen(deployment.getMetadata().getGeneration());
        }
        Optional<DeploymentCondition> stalled = Objects.requireNonNullElse(status.getConditions(), List.<DeploymentCondition>of()).stream()
                .filter(c -> "Progressing".equals(c.getType()) && ConditionStatus.FALSE.is(c.getStatus())
                        && "ProgressDeadlineExceeded".equals(c.getReason()))
                .findFirst();
        if (stalled.isPresent()) {
            return new Rollout(false, Reason.DEGRADED, "rollout exceeded its progress deadline: " + stalled.get().getMessage());
        }
        int updated = Objects.requireNonNullElse(status.getUpdatedReplicas(), 0);
        int available = Objects.requireNonNullElse(status.getAvailableReplicas(), 0);
        int total = Objects.requireNonNullElse(status.getReplicas(), 0);
        if (updated == replicas && available == replicas && total == replicas) {
            return new Rollout(true, Reason.ROLLOUT_COMPLETE, replicas + " of " + replicas + " replicas run the tuned pod template");
        }
        return new Rollout(false, Reason.ROLLING_OUT, updated + " of " + replicas + " replicas updated, " + available + " available");
    }

    /**
     * The rollout of a template about to be written over {@code live}: the write makes the next generation,
     * which the Deployment controller has yet to see.
     */
    public static Rollout written(Deployment live) {
        return unseen(Objects.requireNonNullElse(live.getMetadata().getGeneration(), 0L) + 1);
    }

    private static Rollout unseen(Long generation) {
        return new Rollout(false, Reason.ROLLING_OUT, "the Deployment controller has not yet seen generation " + generation);
    }
}
