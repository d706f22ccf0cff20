package dev.jvmtuning.operator.rollout;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jvmtuning.operator.api.v1alpha1.AppliedSettings;
import dev.jvmtuning.operator.api.v1alpha1.RollBack;
import dev.jvmtuning.operator.api.v1alpha1.TrackedRollout;
import dev.jvmtuning.operator.model.LabelsAndAnnotations;
import dev.jvmtuning.operator.model.Reason;
import dev.jvmtuning.operator.testing.TestProfiles;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.apps.ReplicaSetBuilder;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The rollout judge's paths, table by table, without a cluster: a Deployment and pods in, a step and status facts out. */
class RolloutJudgeTest {
    private static final Instant NOW = Instant.parse("2026-11-25T10:00:00Z");
    private static final long GENERATION = 4;
    private static final AppliedSettings APPLYING = new AppliedSettings("new", "-Xmx512m", "web-jvm-tuning-new", Map.of(), Map.of());
    private static final AppliedSettings HEALTHY = new AppliedSettings("old", "-Xmx256m", "web-jvm-tuning-old", Map.of(), Map.of());
    private static final Duration WINDOW = Duration.ofMinutes(5);
    /** The operator's own write started the rollout a minute ago, over a template that ran healthy. */
    private static final TrackedRollout OURS = new TrackedRollout("new", "release-1", TrackedRollout.CAUSE_SETTINGS,
            NOW.minusSeconds(60).toString(), null);
    /** The Deployment's own template changed a minute ago: a release. */
    private static final TrackedRollout RELEASE = new TrackedRollout("new", "release-2", TrackedRollout.CAUSE_TEMPLATE,
            NOW.minusSeconds(60).toString(), null);

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

    /** A pod of settings {@code hash}, created 50 s ago, whose container {@code app} is as {@code state} leaves it. */
    private static Pod pod(String hash, UnaryOperator<ContainerStatusBuilder> state) {
        return pod(hash, NOW.minusSeconds(50), state);
    }

    private static Pod pod(String hash, Instant created, UnaryOperator<ContainerStatusBuilder> state) {
        ContainerStatus status = state.apply(new ContainerStatusBuilder().withName("app").withRestartCount(0)).build();
        return new PodBuilder().withNewMetadata().withName("web-1").withCreationTimestamp(created.toString())
                .withAnnotations(Map.of(LabelsAndAnnotations.SETTINGS_HASH_ANNOTATION, hash))
                .endMetadata().withNewStatus().withContainerStatuses(status).endStatus().build();
    }

    private static final UnaryOperator<ContainerStatusBuilder> CRASH_LOOPING = c -> c.withRestartCount(2).withNewState().withNewWaiting()
            .withReason("CrashLoopBackOff").withMessage("back-off 20s restarting failed container").endWaiting().endState()
            .withNewLastState().withNewTerminated().withExitCode(1).withMessage("Unrecognized VM option 'UseG2GC'").endTerminated().endLastState();
    /** The application's own error: Spring Boot refusing its arguments, no word of the JVM's. */
    private static final UnaryOperator<ContainerStatusBuilder> APP_CRASH_LOOPING = c -> c.withRestartCount(2).withNewState().withNewWaiting()
            .withReason("CrashLoopBackOff").endWaiting().endState()
            .withNewLastState().withNewTerminated().withExitCode(1).withReason("Error")
            .withMessage("APPLICATION FAILED TO START Description: Failed to bind properties under 'server.port'").endTerminated().endLastState();
    private static final UnaryOperator<ContainerStatusBuilder> OUT_OF_MEMORY = c -> c.withRestartCount(1).withNewState().withNewWaiting()
            .withReason("CrashLoopBackOff").endWaiting().endState().withNewLastState().withNewTerminated().withExitCode(3)
            .withMessage("Terminating due to java.lang.OutOfMemoryError: Java heap space").endTerminated().endLastState();
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
        RolloutJudge.Step step = RolloutJudge.judge(OURS, Rollout.of(deployment), pods, APPLYING, "app", HEALTHY, GENERATION, WINDOW, NOW);

        assertThat(step).isInstanceOfSatisfying(RolloutJudge.Progress.class, p -> {
            assertThat(p.rollout()).isEqualTo(new Rollout(healthy, reason, message));
            assertThat(p.healthy()).isEqualTo(healthy ? APPLYING : null);
        });
    }

    static Stream<Arguments> takeBack() {
        return Stream.of(
                Arguments.of("crash loop", ROLLING, List.of(pod("new", CRASH_LOOPING)), HEALTHY,
                        "pod web-1, container app: CrashLoopBackOff (back-off 20s restarting failed container); last exit code 1: "
                                + "Unrecognized VM option 'UseG2GC'", HEALTHY, "UseG2GC"),
                Arguments.of("OOM kill", ROLLING, List.of(pod("new", OOM_KILLED)), HEALTHY,
                        "pod web-1, container app: OOMKilled; last exit code 137 (OOMKilled)", HEALTHY, null),
                Arguments.of("restarts", ROLLING, List.of(pod("new", RESTARTING)), HEALTHY,
                        "pod web-1, container app: restarted 3 times", HEALTHY, null),
                Arguments.of("progress deadline", deployment(3, 1, 1, 2, "ReplicaSet web-7d has timed out progressing"), List.of(), HEALTHY,
                        "rollout exceeded its progress deadline: ReplicaSet web-7d has timed out progressing", HEALTHY, null),
                Arguments.of("no settings ran healthy yet: the user's template", ROLLING, List.of(pod("new", OOM_KILLED)), null,
                        "pod web-1, container app: OOMKilled; last exit code 137 (OOMKilled)", null, null),
                Arguments.of("the failing settings are the last healthy ones: the user's template", ROLLING, List.of(pod("new", RESTARTING)),
                        APPLYING, "pod web-1, container app: restarted 3 times", null, null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void takeBack(String situation, Deployment deployment, List<Pod> pods, AppliedSettings lastHealthy, String message, AppliedSettings to,
            String refusedVmOption) {
        RolloutJudge.Step step = RolloutJudge.judge(OURS, Rollout.of(deployment), pods, APPLYING, "app", lastHealthy, GENERATION, WINDOW, NOW);

        assertThat(step).isEqualTo(new RolloutJudge.TakeBack(new RollBack("new", GENERATION, "release-1", message, NOW.toString()), to,
                Optional.ofNullable(refusedVmOption).map(o -> new RolloutHealth.RefusedVmOption(o, "Unrecognized VM option '" + o + "'"))));
    }

    static Stream<Arguments> theOptionAJvmRefusedByNameIsToldWithItsLine() {
        return Stream.of(
                Arguments.of("Picked up JAVA_TOOL_OPTIONS: -XX:+UseShenandoahGC\nUnrecognized VM option 'UseShenandoahGC'\n"
                        + "Error: Could not create the Java Virtual Machine.", "UseShenandoahGC", "Unrecognized VM option 'UseShenandoahGC'"),
                Arguments.of("Improperly specified VM option 'MaxRAMPercentage=7O'\nError: Could not create the Java Virtual Machine.",
                        "MaxRAMPercentage", "Improperly specified VM option 'MaxRAMPercentage=7O'"),
                Arguments.of("Error occurred during initialization of VM\nToo small maximum heap", null, null),
                Arguments.of("Terminating due to java.lang.OutOfMemoryError: Java heap space", null, null));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource
    void theOptionAJvmRefusedByNameIsToldWithItsLine(String lastWords, String option, String jvmLine) {
        Pod refused = pod("new", c -> c.withRestartCount(2).withNewState().withNewWaiting().withReason("CrashLoopBackOff").endWaiting()
                .endState().withNewLastState().withNewTerminated().withExitCode(1).withMessage(lastWords).endTerminated().endLastState());

        RolloutJudge.Step step = RolloutJudge.judge(OURS, Rollout.of(ROLLING), List.of(refused), APPLYING, "app", HEALTHY, GENERATION, WINDOW, NOW);

        assertThat(step).isInstanceOfSatisfying(RolloutJudge.TakeBack.class, t -> assertThat(t.refusedVmOption())
                .isEqualTo(Optional.ofNullable(option).map(o -> new RolloutHealth.RefusedVmOption(o, jvmLine))));
    }

    static Stream<Arguments> release() {
        return Stream.of(
                Arguments.of("the JVM refuses an option", ROLLING, List.of(pod("new", CRASH_LOOPING)), true),
                Arguments.of("an OOM kill", ROLLING, List.of(pod("new", OOM_KILLED)), true),
                Arguments.of("an OutOfMemoryError exit", ROLLING, List.of(pod("new", OUT_OF_MEMORY)), true),
                Arguments.of("the application's own error exit", ROLLING, List.of(pod("new", APP_CRASH_LOOPING)), false),
                Arguments.of("restarts without the JVM's word", ROLLING, List.of(pod("new", RESTARTING)), false),
                Arguments.of("the progress deadline", deployment(3, 1, 1, 2, "ReplicaSet web-7d has timed out progressing"), List.of(), false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void release(String situation, Deployment deployment, List<Pod> pods, boolean rolledBack) {
        RolloutJudge.Step step = RolloutJudge.judge(RELEASE, Rollout.of(deployment), pods, APPLYING, "app", HEALTHY, GENERATION, WINDOW, NOW);

        if (rolledBack) {
            assertThat(step).isInstanceOfSatisfying(RolloutJudge.TakeBack.class,
                    t -> assertThat(t.rollBack().getTemplateHash()).as("kept out with this release only").isEqualTo("release-2"));
        } else {
            assertThat(step).isInstanceOfSatisfying(RolloutJudge.Progress.class, p -> assertThat(p.unheld()).hasValueSatisfying(
                    m -> assertThat(m).contains("not rolled back: the Deployment's own template changed")));
        }
    }

    @org.junit.jupiter.api.Test
    void theJvmsOwnLineLeadsWhatALogOfLastLinesSays() {
        String log = "Picked up JAVA_TOOL_OPTIONS: -XX:+UseCompactObjectHeaders -Xmx512m\n" + "x".repeat(600) + "\n"
                + "Unrecognized VM option 'UseCompactObjectHeaders'\nError: Could not create the Java Virtual Machine.\n"
                + "Error: A fatal exception has occurred. Program will exit.";
        Pod pod = pod("new", c -> c.withRestartCount(2).withNewState().withNewWaiting().withReason("CrashLoopBackOff").endWaiting().endState()
                .withNewLastState().withNewTerminated().withExitCode(1).withReason("Error").withMessage(log).endTerminated().endLastState());
        RolloutJudge.Step step = RolloutJudge.judge(RELEASE, Rollout.of(ROLLING), List.of(pod), APPLYING, "app", HEALTHY, GENERATION, WINDOW, NOW);

        assertThat(step).isInstanceOfSatisfying(RolloutJudge.TakeBack.class, t -> assertThat(t.rollBack().getMessage())
                .isEqualTo("pod web-1, container app: CrashLoopBackOff; last exit code 1 (Error): Unrecognized VM option 'UseCompactObjectHeaders'"));
    }

    static Stream<Arguments> afterTheWindow() {
        return Stream.of(
                Arguments.of("a crash loop", CRASH_LOOPING, "CrashLoopBackOff"),
                Arguments.of("an OutOfMemoryError exit", OUT_OF_MEMORY, "java.lang.OutOfMemoryError"),
                Arguments.of("restarts", RESTARTING, "restarted 3 times"));
    }

    @org.junit.jupiter.api.Test
    void aPodAddedAfterTheRolloutCompletedIsNotItsToAnswerForWithinTheWindow() {
        TrackedRollout completed = new TrackedRollout("new", "release-1", TrackedRollout.CAUSE_SETTINGS, NOW.minusSeconds(120).toString(),
                NOW.minusSeconds(60).toString());
        Pod scaledUp = pod("new", NOW.minusSeconds(30), CRASH_LOOPING);
        RolloutJudge.Step step = RolloutJudge.judge(completed, Rollout.of(deployment(3, 2, 1, 2, null)), List.of(scaledUp), APPLYING, "app",
                HEALTHY, GENERATION, WINDOW, NOW);

        assertThat(step).isInstanceOfSatisfying(RolloutJudge.Progress.class, p -> assertThat(p.unheld()).hasValueSatisfying(m -> assertThat(m)
                .contains("CrashLoopBackOff", "not rolled back: not a pod of the rollout of the settings in force")));
    }

    @org.junit.jupiter.api.Test
    void aContainerRestartingIsReportedUntilReadyButRollsNothingBack() {
        Pod restarting = pod("new", c -> c.withRestartCount(1).withReady(false).withNewState().withNewRunning().endRunning().endState()
                .withNewLastState().withNewTerminated().withExitCode(143).endTerminated().endLastState());
        RolloutJudge.Step step = RolloutJudge.judge(OURS, Rollout.of(ROLLING), List.of(restarting), APPLYING, "app", HEALTHY, GENERATION, WINDOW,
                NOW);

        assertThat(step).isInstanceOfSatisfying(RolloutJudge.Progress.class, p -> assertThat(p.unheld()).hasValueSatisfying(m -> assertThat(m)
                .startsWith("pod web-1, container app: restarted 1 time, not Ready again yet; last exit code 143")));
    }

    @org.junit.jupiter.api.Test
    void aContainerReadyAgainAfterItsRestartsFailsNoMore() {
        TrackedRollout completed = new TrackedRollout("new", "release-1", TrackedRollout.CAUSE_SETTINGS, NOW.minusSeconds(900).toString(),
                NOW.minus(WINDOW).minusSeconds(1).toString());
        Pod recovered = pod("new", NOW.minusSeconds(890), c -> RESTARTING.apply(c).withReady(true));
        RolloutJudge.Step step = RolloutJudge.judge(completed, Rollout.of(deployment(3, 2, 2, 2, null)), List.of(recovered), APPLYING, "app",
                HEALTHY, GENERATION, WINDOW, NOW);

        assertThat(step).isInstanceOfSatisfying(RolloutJudge.Progress.class, p -> assertThat(p.unheld()).isEmpty());
    }

    @org.junit.jupiter.api.Test
    void anOomKillAfterTheWindowIsLeftToItsOwnReport() {
        TrackedRollout completed = new TrackedRollout("new", "release-1", TrackedRollout.CAUSE_SETTINGS, NOW.minusSeconds(900).toString(),
                NOW.minus(WINDOW).minusSeconds(1).toString());
        RolloutJudge.Step step = RolloutJudge.judge(completed, Rollout.of(deployment(3, 2, 1, 2, null)),
                List.of(pod("new", NOW.minusSeconds(890), OOM_KILLED)), APPLYING, "app", HEALTHY, GENERATION, WINDOW, NOW);

        assertThat(step).isInstanceOfSatisfying(RolloutJudge.Progress.class, p -> assertThat(p.unheld()).isEmpty());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void afterTheWindow(String situation, UnaryOperator<ContainerStatusBuilder> state, String said) {
        TrackedRollout completed = new TrackedRollout("new", "release-1", TrackedRollout.CAUSE_SETTINGS, NOW.minusSeconds(900).toString(),
                NOW.minus(WINDOW).minusSeconds(1).toString());
        Pod pod = pod("new", NOW.minusSeconds(890), state);
        RolloutJudge.Step step = RolloutJudge.judge(completed, Rollout.of(deployment(3, 2, 1, 2, null)), List.of(pod), APPLYING, "app", HEALTHY,
                GENERATION, WINDOW, NOW);

        assertThat(step).isInstanceOfSatisfying(RolloutJudge.Progress.class, p -> assertThat(p.unheld()).hasValueSatisfying(m -> assertThat(m)
                .contains(said, "not rolled back: the settings' rollout completed at", "more than 300 s (spec.rollback.window)")));

        TrackedRollout justCompleted = new TrackedRollout("new", "release-1", TrackedRollout.CAUSE_SETTINGS, NOW.minusSeconds(900).toString(),
                NOW.minus(WINDOW).plusSeconds(1).toString());
        assertThat(RolloutJudge.judge(justCompleted, Rollout.of(deployment(3, 2, 1, 2, null)), List.of(pod), APPLYING, "app", HEALTHY,
                GENERATION, WINDOW, NOW)).as("within the window").isInstanceOf(RolloutJudge.TakeBack.class);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("afterTheWindow")
    void aPodOlderThanTheRolloutIsNotItsToAnswerFor(String situation, UnaryOperator<ContainerStatusBuilder> state, String said) {
        Pod old = pod("new", NOW.minusSeconds(60).minus(RolloutJudge.SEEN_LATE_BY).minusSeconds(1), state);
        RolloutJudge.Step step = RolloutJudge.judge(OURS, Rollout.of(ROLLING), List.of(old), APPLYING, "app", HEALTHY, GENERATION, WINDOW, NOW);

        assertThat(step).isInstanceOfSatisfying(RolloutJudge.Progress.class, p -> assertThat(p.unheld()).hasValueSatisfying(m -> assertThat(m)
                .contains(said, "not rolled back: not a pod of the rollout of the settings in force")));
    }

    static Stream<Arguments> track() {
        Rollout complete = new Rollout(true, Reason.ROLLOUT_COMPLETE, "");
        Rollout rolling = new Rollout(false, Reason.ROLLING_OUT, "");
        TrackedRollout healthy = new TrackedRollout("old", "release-1", TrackedRollout.CAUSE_SETTINGS, "2026-11-25T09:00:00Z",
                "2026-11-25T09:01:00Z");
        return Stream.of(
                Arguments.of("the operator's first write over a template that ran healthy", null, "new", "release-1", true, complete, rolling,
                        new TrackedRollout("new", "release-1", "Settings", NOW.toString(), null)),
                Arguments.of("the operator's write over a template still rolling out", null, "new", "release-1", true, rolling, rolling,
                        new TrackedRollout("new", "release-1", "Template", NOW.toString(), null)),
                Arguments.of("new settings over the same template", healthy, "new", "release-1", true, complete, rolling,
                        new TrackedRollout("new", "release-1", "Settings", NOW.toString(), null)),
                Arguments.of("new settings with a release", healthy, "new", "release-2", true, complete, rolling,
                        new TrackedRollout("new", "release-2", "Template", NOW.toString(), null)),
                Arguments.of("a release, the settings untouched", healthy, "old", "release-2", false, rolling, rolling,
                        new TrackedRollout("old", "release-2", "Template", NOW.toString(), null)),
                Arguments.of("the same rollout completes", new TrackedRollout("new", "release-1", "Settings", "2026-11-25T09:00:00Z", null),
                        "new", "release-1", false, complete, complete,
                        new TrackedRollout("new", "release-1", "Settings", "2026-11-25T09:00:00Z", NOW.toString())),
                Arguments.of("a completed rollout keeps its time while pods fail", healthy, "old", "release-1", false, rolling, rolling, healthy));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void track(String situation, TrackedRollout previous, String hash, String template, boolean writing, Rollout before, Rollout rollout,
            TrackedRollout tracked) {
        assertThat(RolloutJudge.track(previous, hash, template, writing, before, rollout, NOW)).isEqualTo(tracked);
    }

    static Stream<Arguments> keptOut() {
        RollBack rollBack = new RollBack("new", GENERATION, "release-1", "OOMKilled", "2026-11-25T09:00:00Z");
        RollBack beforeTemplates = new RollBack("new", GENERATION, null, "OOMKilled", "2026-11-25T09:00:00Z");
        return Stream.of(
                Arguments.of("the same settings for the same generation and template stay out", rollBack, "new", "release-1", GENERATION, true),
                Arguments.of("the profile changed", rollBack, "new", "release-1", GENERATION + 1, false),
                Arguments.of("other settings (the Deployment's resources changed)", rollBack, "newer", "release-1", GENERATION, false),
                Arguments.of("a new release of the Deployment's own template", rollBack, "new", "release-2", GENERATION, false),
                Arguments.of("a rollback recorded without a template holds until the profile changes", beforeTemplates, "new", "release-2",
                        GENERATION, true),
                Arguments.of("nothing was rolled back", null, "new", "release-1", GENERATION, false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void keptOut(String situation, RollBack last, String hash, String template, long generation, boolean out) {
        assertThat(RolloutJudge.keptOut(last, hash, template, generation)).isEqualTo(out ? Optional.of(last) : Optional.empty());
    }

    private static Pod createdAt(String name, String created) {
        return new PodBuilder().withNewMetadata().withName(name).withCreationTimestamp(created).endMetadata().build();
    }

    /** A ReplicaSet of {@code template}, as the Deployment controller makes it, and a pod of it. */
    private static ReplicaSet replicaSet(String name, PodTemplateSpec template) {
        return new ReplicaSetBuilder().withNewMetadata().withName(name).endMetadata().withNewSpec()
                .withTemplate(new PodTemplateSpecBuilder(template).editMetadata()
                        .addToLabels(LabelsAndAnnotations.POD_TEMPLATE_HASH_LABEL, name.substring(name.lastIndexOf('-') + 1)).endMetadata().build())
                .endSpec().build();
    }

    private static Pod podOf(ReplicaSet replicaSet) {
        return new PodBuilder().withNewMetadata().withName(replicaSet.getMetadata().getName() + "-x").addNewOwnerReference()
                .withKind("ReplicaSet").withName(replicaSet.getMetadata().getName()).withController(true).endOwnerReference().endMetadata().build();
    }

    @Test
    void whileARolloutIsUnderWayThePodsOfTheDeploymentsOwnTemplateSpeakForItWhateverTheirSettings() {
        Deployment release1 = TestProfiles.labDeployment("orders");
        ReplicaSet untuned = replicaSet("orders-a", release1.getSpec().getTemplate());
        Deployment tuned = new DeploymentBuilder(release1).editSpec().editTemplate().editMetadata()
                .addToAnnotations(LabelsAndAnnotations.SETTINGS_HASH_ANNOTATION, "h1").endMetadata().endTemplate().endSpec().build();
        ReplicaSet ofSettings = replicaSet("orders-b", tuned.getSpec().getTemplate());
        Deployment release2 = new DeploymentBuilder(tuned).editSpec().editTemplate().editSpec().editFirstContainer()
                .withImage("example/orders:2").endContainer().endSpec().endTemplate().endSpec().build();
        ReplicaSet ofRelease2 = replicaSet("orders-c", release2.getSpec().getTemplate());
        List<ReplicaSet> all = List.of(untuned, ofSettings, ofRelease2);
        Rollout rolling = new Rollout(false, Reason.ROLLING_OUT, "1 of 2 replicas updated");

        assertThat(RolloutJudge.ofTemplateInForce(rolling, tuned, all, "orders")).as("the operator's settings rolling over the user's template")
                .accepts(podOf(untuned), podOf(ofSettings)).rejects(podOf(ofRelease2));
        assertThat(RolloutJudge.ofTemplateInForce(rolling, release2, all, "orders")).as("a release rolling")
                .accepts(podOf(ofRelease2)).rejects(podOf(untuned), podOf(ofSettings));
        assertThat(RolloutJudge.ofTemplateInForce(rolling, release2, List.of(untuned, ofSettings), "orders"))
                .as("before the controller made the release's ReplicaSet").rejects(podOf(untuned), podOf(ofSettings));
        assertThat(RolloutJudge.ofTemplateInForce(new Rollout(true, Reason.ROLLOUT_COMPLETE, "2 of 2"), release2, List.of(), "orders"))
                .as("a complete rollout: every pod is of the template").accepts(podOf(untuned), podOf(ofRelease2));
    }
}
