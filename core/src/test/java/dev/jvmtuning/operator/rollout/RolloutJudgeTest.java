package dev.jvmtuning.operator.rollout;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jvmtuning.operator.api.v1alpha1.AppliedSettings;
import dev.jvmtuning.operator.api.v1alpha1.RollBack;
import dev.jvmtuning.operator.model.LabelsAndAnnotations;
import dev.jvmtuning.operator.model.Reason;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The rollout judge's paths, table by table, without a cluster: a Deployment and pods in, a step and status facts out. */
class RolloutJudgeTest {
    private static final Instant NOW = Instant.parse("2026-11-25T10:00:00Z");
    private static final long GENERATION = 4;
    private static final AppliedSettings APPLYING = new AppliedSettings("new", "-Xmx512m", "web-jvm-tuning-new", Map.of());
    private static final AppliedSettings HEALTHY = new AppliedSettings("old", "-Xmx256m", "web-jvm-tuning-old", Map.of());

    /** A Deployment of 2 replicas at generation 3, with its controller's view of the rollout. */
    private static Deployment deployment(long observed, int updated, int available, int total, String stalled) {
        var builder = new DeploymentBuilder().withNewMetadata().withName("web").withGeneration(3L).endMetadata()
                .withNewSpec().withReplicas(2).endSpec()
                .withNewStatus().withObservedGeneration(observed).withUpdatedReplicas(updated).withAvailableReplicas(available)
                .withReplicas(total);
        if (stalled != null) {
            builder.addNewCondition().withType("Progressing").withStatus("False").withReason("ProgressDeadlineExceeded")
                    .withMessage(stalled).endCondition();
        }
        return builder.endStatus().build();
    }

    private static final Deployment ROLLING = deployment(3, 1, 1, 2, null);

    /** A pod of settings {@code hash} whose container {@code app} is as {@code state} leaves it. */
    private static Pod pod(String hash, UnaryOperator<ContainerStatusBuilder> state) {
        ContainerStatus status = state.apply(new ContainerStatusBuilder().withName("app").withRestartCount(0)).build();
        return new PodBuilder().withNewMetadata().withName("web-1").withAnnotations(Map.of(LabelsAndAnnotations.SETTINGS_HASH_ANNOTATION, hash))
                .endMetadata().withNewStatus().withContainerStatuses(status).endStatus().build();
    }

    private static final UnaryOperator<ContainerStatusBuilder> CRASH_LOOPING = c -> c.withRestartCount(2).withNewState().withNewWaiting()
            .withReason("CrashLoopBackOff").withMessage("back-off 20s restarting failed container").endWaiting().endState()
            .withNewLastState().withNewTerminated().withExitCode(1).withMessage("Unrecognized VM option 'UseG2GC'").endTerminated().endLastState();
    private static final UnaryOperator<ContainerStatusBuilder> OOM_KILLED = c -> c.withRestartCount(1).withNewState().withNewRunning().endRunning()
            .endState().withNewLastState().withNewTerminated().withExitCode(137).withReason("OOMKilled").endTerminated().endLastState();
    private static final UnaryOperator<ContainerStatusBuilder> RESTARTING = c -> c.withRestartCount(3).withNewState().withNewRunning()
            .endRunning().endState();
    private static final UnaryOperator<ContainerStatusBuilder> RUNNING = c -> c.withNewState().withNewRunning().endRunning().endState();

    static Stream<Arguments> progress() {
        return Stream.of(
                Arguments.of("the controller has not seen the new template", deployment(2, 2, 2, 2, null), List.of(),
                        Reason.ROLLING_OUT, "the Deployment controller has not yet seen generation 3", false),
                Arguments.of("half the replicas updated", ROLLING, List.of(pod("new", RUNNING)),
                        Reason.ROLLING_OUT, "1 of 2 replicas updated, 1 available", false),
                Arguments.of("updated but not yet available", deployment(3, 2, 1, 2, null), List.of(),
                        Reason.ROLLING_OUT, "2 of 2 replicas updated, 1 available", false),
                Arguments.of("old pods still terminating", deployment(3, 2, 2, 3, null), List.of(),
                        Reason.ROLLING_OUT, "2 of 2 replicas updated, 2 available", false),
                Arguments.of("a pod of other settings crash-loops: not this rollout's fault", ROLLING, List.of(pod("old", CRASH_LOOPING)),
                        Reason.ROLLING_OUT, "1 of 2 replicas updated, 1 available", false),
                Arguments.of("every replica runs the new pod template", deployment(3, 2, 2, 2, null), List.of(pod("new", RUNNING)),
                        Reason.ROLLOUT_COMPLETE, "2 of 2 replicas run the tuned pod template", true));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void progress(String situation, Deployment deployment, List<Pod> pods, Reason reason, String message, boolean healthy) {
        RolloutJudge.Step step = RolloutJudge.judge(Rollout.of(deployment), pods, APPLYING, "app", HEALTHY, GENERATION, NOW);

        assertThat(step).isEqualTo(new RolloutJudge.Progress(new Rollout(healthy, reason, message), healthy ? APPLYING : null));
    }

    static Stream<Arguments> takeBack() {
        return Stream.of(
                Arguments.of("crash loop", ROLLING, List.of(pod("new", CRASH_LOOPING)), HEALTHY,
                        "pod web-1, container app: CrashLoopBackOff (back-off 20s restarting failed container); last exit code 1: "
                                + "Unrecognized VM option 'UseG2GC'", HEALTHY),
                Arguments.of("OOM kill", ROLLING, List.of(pod("new", OOM_KILLED)), HEALTHY,
                        "pod web-1, container app: OOMKilled; last exit code 137 (OOMKilled)", HEALTHY),
                Arguments.of("restarts", ROLLING, List.of(pod("new", RESTARTING)), HEALTHY,
                        "pod web-1, container app: restarted 3 times", HEALTHY),
                Arguments.of("progress deadline", deployment(3, 1, 1, 2, "ReplicaSet web-7d has timed out progressing"), List.of(), HEALTHY,
                        "rollout exceeded its progress deadline: ReplicaSet web-7d has timed out progressing", HEALTHY),
                Arguments.of("no settings ran healthy yet: the user's template", ROLLING, List.of(pod("new", OOM_KILLED)), null,
                        "pod web-1, container app: OOMKilled; last exit code 137 (OOMKilled)", null),
                Arguments.of("the failing settings are the last healthy ones: the user's template", ROLLING, List.of(pod("new", RESTARTING)),
                        APPLYING, "pod web-1, container app: restarted 3 times", null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void takeBack(String situation, Deployment deployment, List<Pod> pods, AppliedSettings lastHealthy, String message, AppliedSettings to) {
        RolloutJudge.Step step = RolloutJudge.judge(Rollout.of(deployment), pods, APPLYING, "app", lastHealthy, GENERATION, NOW);

        assertThat(step).isEqualTo(new RolloutJudge.TakeBack(new RollBack("new", GENERATION, message, NOW.toString()), to));
    }

    static Stream<Arguments> keptOut() {
        RollBack rollBack = new RollBack("new", GENERATION, "OOMKilled", "2026-11-25T09:00:00Z");
        return Stream.of(
                Arguments.of("the same settings for the same generation stay out", rollBack, "new", GENERATION, true),
                Arguments.of("the profile changed", rollBack, "new", GENERATION + 1, false),
                Arguments.of("other settings (the Deployment changed)", rollBack, "newer", GENERATION, false),
                Arguments.of("nothing was rolled back", null, "new", GENERATION, false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void keptOut(String situation, RollBack last, String hash, long generation, boolean out) {
        assertThat(RolloutJudge.keptOut(last, hash, generation)).isEqualTo(out ? Optional.of(last) : Optional.empty());
    }
}
