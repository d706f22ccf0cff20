package dev.jvmtuning.operator.rollout;

import static dev.jvmtuning.operator.model.OomKill.KERNEL_KILL_REASON;

import dev.jvmtuning.operator.model.LabelsAndAnnotations;
import dev.jvmtuning.operator.model.Reason;
import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Whether the pods of a rollout the operator caused are failing because of it: the tuned container
 * of a pod that runs the new settings crash-loops, was OOM-killed, cannot be created from its
 * configuration, or keeps restarting; or the rollout passed its progress deadline. Pure.
 */
public final class RolloutHealth {
    /** The kubelet's states of a container that cannot start or keeps dying; image pulls are not the settings' fault. */
    static final Set<String> FAILING_WAITING_REASONS = Set.of("CrashLoopBackOff", "CreateContainerConfigError", "CreateContainerError",
            "RunContainerError");
    /** Restarts of one container that count as a failure even before the kubelet backs off. */
    static final int MAX_RESTARTS = 3;
    /** What of a termination message status keeps: the JVM's first lines say why it refused to start. */
    static final int MESSAGE_CHARS = 400;

    private RolloutHealth() {
    }

    /**
     * @param pods      the Deployment's pods
     * @param hash      the settings hash of the rollout being judged
     * @param container the tuned container
     * @param rollout   the Deployment's own judgement of the rollout
     * @return why the rollout failed, or empty while it is healthy or still under way
     */
    public static Optional<String> failure(List<Pod> pods, String hash, String container, Rollout rollout) {
        for (Pod pod : pods) {
            Map<String, String> annotations = Objects.requireNonNullElse(pod.getMetadata().getAnnotations(), Map.of());
            if (!hash.equals(annotations.get(LabelsAndAnnotations.SETTINGS_HASH_ANNOTATION)) || pod.getStatus() == null) {
                continue;
            }
            for (ContainerStatus status : Objects.requireNonNullElse(pod.getStatus().getContainerStatuses(), List.<ContainerStatus>of())) {
                if (container.equals(status.getName())) {
                    Optional<String> failure = failure(status);
                    if (failure.isPresent()) {
                        return Optional.of("pod " + pod.getMetadata().getName() + ", container " + container + ": " + failure.get());
                    }
                }
            }
        }
        return rollout.reason() == Reason.DEGRADED ? Optional.of(rollout.message()) : Optional.empty();
    }

    private static Optional<String> failure(ContainerStatus status) {
        var waiting = status.getState() == null ? null : status.getState().getWaiting();
        ContainerStateTerminated terminated = status.getState() == null ? null : status.getState().getTerminated();
        ContainerStateTerminated last = status.getLastState() == null ? null : status.getLastState().getTerminated();
        int restarts = Objects.requireNonNullElse(status.getRestartCount(), 0);
        String lastWords = describe(last != null ? last : terminated);
        if (waiting != null && FAILING_WAITING_REASONS.contains(waiting.getReason())) {
            boolean said = waiting.getMessage() != null && !waiting.getMessage().isBlank();
            return Optional.of(waiting.getReason() + (said ? " (" + cut(waiting.getMessage()) + ")" : "") + lastWords);
        }
        if ((terminated != null && KERNEL_KILL_REASON.equals(terminated.getReason())) || (last != null && KERNEL_KILL_REASON.equals(last.getReason()))) {
            return Optional.of(KERNEL_KILL_REASON + lastWords);
        }
        if (restarts >= MAX_RESTARTS) {
            return Optional.of("restarted " + restarts + " times" + lastWords);
        }
        return Optional.empty();
    }

    private static String describe(ContainerStateTerminated terminated) {
        if (terminated == null) {
            return "";
        }
        return "; last exit code " + terminated.getExitCode() + (terminated.getReason() == null ? "" : " (" + terminated.getReason() + ")")
                + (terminated.getMessage() == null || terminated.getMessage().isBlank() ? "" : ": " + cut(terminated.getMessage()));
    }

    /** The start and the end of a long message: a JVM that refuses an option says so first, an exception says why last. */
    private static String cut(String message) {
        String oneLine = message.strip().replaceAll("\\s+", " ");
        int half = MESSAGE_CHARS / 2;
        return oneLine.length() <= MESSAGE_CHARS ? oneLine : oneLine.substring(0, half) + " ... " + oneLine.substring(oneLine.length() - half);
    }

}
