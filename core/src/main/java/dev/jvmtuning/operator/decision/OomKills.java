package dev.jvmtuning.operator.decision;

import dev.jvmtuning.operator.api.v1alpha1.LastOomKill;
import dev.jvmtuning.operator.deployment.TargetPods;
import dev.jvmtuning.operator.model.EffectiveOptions;
import dev.jvmtuning.operator.model.LastReading;
import dev.jvmtuning.operator.model.MemoryUse;
import dev.jvmtuning.operator.model.MetricsReport;
import dev.jvmtuning.operator.model.OomKill;
import dev.jvmtuning.operator.planner.MemoryBudget;
import dev.jvmtuning.operator.planner.OomAnswer;
import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The OOM kills the target's pods show of the tuned container, each attributed by {@link OomKill} from the pod's last
 * memory reading before it. Pure.
 */
final class OomKills {
    private OomKills() {
    }

    /** One kill of one pod's tuned container, with its cause. */
    record Kill(String pod, String settingsHash, Integer restartCount, String at, OomKill.Attribution attribution, Long limitBytes, Long plannedHeapBytes,
            Long budgetBytes) {

        /** The kill in one sentence, its fixed phrase "cause" first: what a rollback's message and the Event say. */
        String sentence() {
            return "pod " + pod + " OOM-killed, cause " + attribution.cause() + ": " + attribution.explanation();
        }

        /** As status records it after the kill it holds: a kill the plan answers counts one more in a row. */
        LastOomKill record(LastOomKill previous) {
            int inARow = previous == null ? 0 : Objects.requireNonNullElse(previous.getAnsweredInARow(), 0);
            String cause = attribution.cause().name();
            return new LastOomKill(pod, settingsHash, restartCount, at, cause, sentence(), limitBytes, plannedHeapBytes,
                    attribution.partBytes(), budgetBytes, OomAnswer.answers(cause) ? inARow + 1 : inARow);
        }

        /**
         * Not the kill status already holds, nor one before it. The kubelet's finishedAt tells one kill from the next: the
         * restart count moves when a killed container starts again, the kill staying the same.
         */
        boolean after(LastOomKill previous) {
            if (previous == null) {
                return true;
            }
            if (at != null && previous.getAt() != null) {
                return Instant.parse(at).isAfter(Instant.parse(previous.getAt()));
            }
            return !(pod.equals(previous.getPod()) && Objects.equals(restartCount, previous.getRestartCount()));
        }
    }

    /** The last kill status records after {@code kills}: the latest of them when it is after the one it holds ({@code known}). */
    static LastOomKill recorded(List<Kill> kills, LastOomKill known) {
        return latest(kills).filter(kill -> kill.after(known)).map(kill -> kill.record(known)).orElse(known);
    }

    /**
     * @param container        the tuned container
     * @param limitBytes       its memory limit, null when none
     * @param hash             the settings hash of the plan in force; null when no pod runs it (mode Recommend), every pod then held
     *                         against its budget as the one Apply would give it
     * @param plannedHeapBytes the heap that plan sets, for the pods of its settings; null when it leaves the heap to the JVM
     * @param budget           that plan's memory budget, null without one
     */
    static List<Kill> of(Observation seen, String container, Long limitBytes, String hash, Long plannedHeapBytes, MemoryBudget budget) {
        Optional<MetricsReport> report = seen.metrics();
        return seen.pods().stream().flatMap(pod -> status(pod, container).flatMap(status -> killed(status).map(terminated -> {
            String name = pod.getMetadata().getName();
            String podHash = TargetPods.settingsHash(pod);
            boolean planned = hash != null && hash.equals(podHash);
            Long heap = planned ? plannedHeapBytes : null;
            Optional<LastReading> last = report.map(r -> r.lastReadings().get(name));
            Instant end = terminated.getFinishedAt() == null ? null : Instant.parse(terminated.getFinishedAt());
            MemoryUse reading = last.filter(r -> r.before(end)).map(LastReading::memory).orElse(MemoryUse.NONE);
            // A restarted JVM runs the options of the one killed: read after the kill, they still name its heap.
            EffectiveOptions options = last.map(LastReading::options).orElse(EffectiveOptions.NONE);
            OomKill.Attribution attribution = OomKill.attribute(new OomKill.Termination(terminated.getReason(), terminated.getExitCode(),
                    terminated.getMessage()), limitBytes, heap, reading, options).orElseThrow();
            Long partBudget = budget != null && (planned || hash == null) && OomAnswer.answers(attribution.cause().name())
                    ? budget.part(attribution.cause()) : null;
            return new Kill(name, podHash, status.getRestartCount(), terminated.getFinishedAt(), attribution, limitBytes, heap, partBudget);
        })).stream()).toList();
    }

    /** The most recent of the kills, by when they ended. */
    static Optional<Kill> latest(List<Kill> kills) {
        return kills.stream().max(Comparator.comparing(k -> k.at() == null ? Instant.MIN : Instant.parse(k.at())));
    }

    /** The container's termination by a kill for memory: the one it is in, else the last before it ran again. */
    private static Optional<ContainerStateTerminated> killed(ContainerStatus status) {
        ContainerStateTerminated now = status.getState() == null ? null : status.getState().getTerminated();
        ContainerStateTerminated last = status.getLastState() == null ? null : status.getLastState().getTerminated();
        return killed(now) ? Optional.of(now) : killed(last) ? Optional.of(last) : Optional.empty();
    }

    /** The kernel's kill, as the kubelet reports it. */
    private static boolean killed(ContainerStateTerminated terminated) {
        return terminated != null && OomKill.KERNEL_KILL_REASON.equals(terminated.getReason());
    }

    private static Optional<ContainerStatus> status(Pod pod, String container) {
        return pod.getStatus() == null ? Optional.empty()
                : Objects.requireNonNullElse(pod.getStatus().getContainerStatuses(), List.<ContainerStatus>of()).stream()
                        .filter(s -> container.equals(s.getName())).findFirst();
    }
}
