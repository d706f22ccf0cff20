package dev.jvmtuning.operator.rollout;

import static dev.jvmtuning.operator.model.OomKill.KERNEL_KILL_REASON;

import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * Which pods' tuned container fails, and how: it crash-loops, was OOM-killed, cannot be created from its configuration,
 * or keeps restarting. Whether the settings are to blame is {@link RolloutJudge}'s call; what this tells it is whether
 * the container's own last words point at them. Pure.
 */
public final class RolloutHealth {
    /** The kubelet's states of a container that cannot start or keeps dying; image pulls are not the settings' fault. */
    static final Set<String> FAILING_WAITING_REASONS = Set.of("CrashLoopBackOff", "CreateContainerConfigError", "CreateContainerError",
            "RunContainerError");
    /** Restarts of one container that count as a failure even before the kubelet backs off. */
    static final int MAX_RESTARTS = 3;
    /** What of a termination message status keeps: the JVM's first lines say why it refused to start. */
    static final int MESSAGE_CHARS = 400;
    /**
     * What a JVM says when it cannot run with its options or its memory, whatever else changed: HotSpot refusing an option or a
     * heap, the launcher refusing an option, and an OutOfMemoryError (ExitOnOutOfMemoryError's last words among them).
     */
    static final Pattern JVM_REFUSAL = Pattern.compile("Unrecognized VM option|Improperly specified VM option|Unrecognized option:"
            + "|Error occurred during initialization of VM|Could not create the Java Virtual Machine|Could not reserve enough space"
            + "|Invalid (maximum|initial) heap size|Initial heap size set to a larger value|insufficient memory for the Java Runtime"
            + "|java\\.lang\\.OutOfMemoryError");
    /** HotSpot refusing one option by name: "Unrecognized VM option 'UseShenandoahGC'", "Improperly specified VM option 'X=y'". */
    static final Pattern REFUSED_VM_OPTION = Pattern.compile("(?:Unrecognized|Improperly specified) VM option '[+-]?(\\w+)");

    private RolloutHealth() {
    }

    /**
     * A failing pod.
     *
     * @param pod         its name
     * @param description the container's state and last words, as status says them
     * @param jvmRefusal  its container was OOM-killed, or its JVM refused its options or heap or ran out of memory: the settings
     *                    can cause that whatever else changed
     * @param oomKilled   the kernel killed it for memory, which status.lastOomKill and its own Event report
     * @param recovered   the container runs Ready again: only its restarts are left to tell
     * @param restarting  it restarted and is not Ready again yet: too soon to call it a failure of the rollout, but no pod
     *                    that serves either
     * @param refusedVmOption the one VM option its JVM refused by name, if it did
     */
    public record Failure(String pod, String description, boolean jvmRefusal, boolean oomKilled, boolean recovered, boolean restarting,
            Optional<RefusedVmOption> refusedVmOption) {
    }

    /** A VM option a JVM refused by name ({@code UseShenandoahGC}), with its own line saying so. */
    public record RefusedVmOption(String name, String jvmLine) {
    }

    /** The failing pods of those {@code judged}, a JVM's refusal first. */
    public static List<Failure> failures(List<Pod> pods, String container, Predicate<Pod> judged) {
        return pods.stream().filter(p -> p.getStatus() != null && judged.test(p)).flatMap(pod -> failure(pod, container).stream())
                .sorted((a, b) -> Boolean.compare(b.jvmRefusal(), a.jvmRefusal())).toList();
    }

    private static Optional<Failure> failure(Pod pod, String container) {
        return Objects.requireNonNullElse(pod.getStatus().getContainerStatuses(), List.<ContainerStatus>of()).stream()
                .filter(s -> container.equals(s.getName())).findFirst().flatMap(RolloutHealth::failure)
                .map(f -> new Failure(pod.getMetadata().getName(), "pod " + pod.getMetadata().getName() + ", container " + container + ": "
                        + f.description(), f.jvmRefusal(), f.oomKilled(), f.recovered(), f.restarting(), f.refusedVmOption()));
    }

    private static Optional<Failure> failure(ContainerStatus status) {
        var waiting = status.getState() == null ? null : status.getState().getWaiting();
        ContainerStateTerminated terminated = status.getState() == null ? null : status.getState().getTerminated();
        ContainerStateTerminated last = status.getLastState() == null ? null : status.getLastState().getTerminated();
        ContainerStateTerminated ended = last != null ? last : terminated;
        int restarts = Objects.requireNonNullElse(status.getRestartCount(), 0);
        boolean killed = (terminated != null && KERNEL_KILL_REASON.equals(terminated.getReason()))
                || (last != null && KERNEL_KILL_REASON.equals(last.getReason()));
        boolean refusal = killed || refused(terminated) || refused(last);
        String lastWords = describe(ended);
        Optional<RefusedVmOption> refusedVmOption = refusedVmOption(last).or(() -> refusedVmOption(terminated));
        if (waiting != null && FAILING_WAITING_REASONS.contains(waiting.getReason())) {
            boolean said = waiting.getMessage() != null && !waiting.getMessage().isBlank();
            return Optional.of(new Failure(null, waiting.getReason() + (said ? " (" + cut(waiting.getMessage()) + ")" : "") + lastWords, refusal,
                    killed, false, false, refusedVmOption));
        }
        boolean recovered = Boolean.TRUE.equals(status.getReady());
        if (killed) {
            return Optional.of(new Failure(null, KERNEL_KILL_REASON + lastWords, true, true, recovered, false, refusedVmOption));
        }
        if (restarts >= MAX_RESTARTS) {
            return Optional.of(new Failure(null, "restarted " + restarts + " times" + lastWords, refusal, false, recovered, false,
                    refusedVmOption));
        }
        if (restarts > 0 && !recovered) {
            return Optional.of(new Failure(null, "restarted " + restarts + (restarts == 1 ? " time" : " times") + ", not Ready again yet" + lastWords,
                    refusal, false, false, true, refusedVmOption));
        }
        return Optional.empty();
    }

    private static boolean refused(ContainerStateTerminated terminated) {
        return terminated != null && terminated.getMessage() != null && JVM_REFUSAL.matcher(terminated.getMessage()).find();
    }

    private static Optional<RefusedVmOption> refusedVmOption(ContainerStateTerminated terminated) {
        return terminated == null || terminated.getMessage() == null ? Optional.empty()
                : terminated.getMessage().lines().flatMap(line -> REFUSED_VM_OPTION.matcher(line).results()
                        .map(m -> new RefusedVmOption(m.group(1), cut(line)))).findFirst();
    }

    private static String describe(ContainerStateTerminated terminated) {
        if (terminated == null) {
            return "";
        }
        return "; last exit code " + terminated.getExitCode() + (terminated.getReason() == null ? "" : " (" + terminated.getReason() + ")")
                + (terminated.getMessage() == null || terminated.getMessage().isBlank() ? "" : ": " + lastWords(terminated.getMessage()));
    }

    /**
     * What a termination message says of why the container ended: the JVM's own line where it refused its options or ran out
     * of memory (the message may hold the log's last lines, an application's stack trace among them), else its start and end.
     */
    private static String lastWords(String message) {
        return message.lines().filter(line -> JVM_REFUSAL.matcher(line).find()).findFirst().map(RolloutHealth::cut).orElseGet(() -> cut(message));
    }

    /** The start and the end of a long message: a JVM that refuses an option says so first, an exception says why last. */
    private static String cut(String message) {
        String oneLine = message.strip().replaceAll("\\s+", " ");
        int half = MESSAGE_CHARS / 2;
        return oneLine.length() <= MESSAGE_CHARS ? oneLine : oneLine.substring(0, half) + " ... " + oneLine.substring(oneLine.length() - half);
    }
}
