package dev.jvmtuning.operator.decision;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jvmtuning.operator.api.v1alpha1.Observed;
import dev.jvmtuning.operator.api.v1alpha1.Recommendation;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfileStatus;
import dev.jvmtuning.operator.model.ConditionStatus;
import dev.jvmtuning.operator.model.ConditionType;
import dev.jvmtuning.operator.model.LabelsAndAnnotations;
import dev.jvmtuning.operator.model.MetricsReport;
import dev.jvmtuning.operator.model.ProfileEvent;
import dev.jvmtuning.operator.model.Reason;
import dev.jvmtuning.operator.pressure.Finding;
import dev.jvmtuning.operator.pressure.Verdict;
import dev.jvmtuning.operator.rollout.Rollout;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** The status builder, the event policy, the rollout judgement and the arbitration between profiles, without an API server. */
class StatusAndEventsTest {
    private static final String T0 = "2026-01-01T00:00:00Z";
    private static final String T1 = "2026-01-01T00:05:00Z";

    static Optional<Condition> condition(TuningProfileStatus status, ConditionType type) {
        return Conditions.find(status.getConditions(), type);
    }

    static TuningProfileStatus applied(Rollout rollout, String now) {
        return new StatusBuilder(new TuningProfileStatus(), 1L, now).applied("settings abc rendered", rollout).build();
    }

    @Nested
    class Status {
        @Test
        void aConditionKeepsItsTransitionTimeUntilItsStatusFlips() {
            TuningProfileStatus first = applied(new Rollout(false, Reason.ROLLING_OUT, "1 of 2 updated"), T0);
            TuningProfileStatus stillRolling = new StatusBuilder(first, 1L, T1)
                    .applied("settings abc rendered", new Rollout(false, Reason.ROLLING_OUT, "2 of 2 updated, 1 available")).build();
            TuningProfileStatus done = new StatusBuilder(stillRolling, 1L, T1)
                    .applied("settings abc rendered", new Rollout(true, Reason.ROLLOUT_COMPLETE, "2 of 2 run")).build();

            assertThat(condition(stillRolling, ConditionType.READY).orElseThrow().getLastTransitionTime()).isEqualTo(T0);
            assertThat(condition(stillRolling, ConditionType.READY).orElseThrow().getMessage()).isEqualTo("2 of 2 updated, 1 available");
            assertThat(condition(done, ConditionType.READY).orElseThrow()).satisfies(c -> {
                assertThat(c.getStatus()).isEqualTo("True");
                assertThat(c.getReason()).isEqualTo("Ready");
                assertThat(c.getLastTransitionTime()).isEqualTo(T1);
            });
            assertThat(condition(done, ConditionType.APPLIED).orElseThrow().getLastTransitionTime()).isEqualTo(T0);
        }

        @Test
        void notAppliedAndRecommendOnlyDropTheRolloutCondition() {
            TuningProfileStatus rolling = applied(new Rollout(false, Reason.ROLLING_OUT, "0 of 2"), T0);

            TuningProfileStatus conflict = new StatusBuilder(rolling, 2L, T1).notApplied(Reason.CONFLICT, "older profile").build();
            TuningProfileStatus recommend = new StatusBuilder(rolling, 2L, T1).recommendOnly().build();

            assertThat(condition(conflict, ConditionType.ROLLOUT_COMPLETE)).isEmpty();
            assertThat(condition(conflict, ConditionType.READY).orElseThrow().getReason()).isEqualTo("Conflict");
            assertThat(conflict.getObservedGeneration()).isEqualTo(2L);
            assertThat(condition(recommend, ConditionType.ROLLOUT_COMPLETE)).isEmpty();
            assertThat(condition(recommend, ConditionType.READY).orElseThrow().getStatus()).isEqualTo("True");
            assertThat(condition(recommend, ConditionType.APPLIED).orElseThrow().getStatus()).isEqualTo("False");
        }

        @Test
        void aFirstSampleKeepsTheLastObservedFiguresAndAVerdictReplacesTheRecommendations() {
            Observed earlier = new Observed().setWindow("30s");
            TuningProfileStatus before = new TuningProfileStatus();
            before.setObserved(earlier);
            before.setRecommendations(List.of(Recommendation.set("threads.max", "200", "100", "old")));

            TuningProfileStatus first = new StatusBuilder(before, 1L, T0)
                    .metrics(new MetricsReport(ConditionStatus.TRUE, Reason.FIRST_SAMPLE, "read 1 of 1", null, null), null, List.of()).build();
            Observed now = new Observed().setWindow("31s").setGcTimePercent(12.0);
            Verdict verdict = new Verdict(List.of(new Finding(ConditionType.GC_PRESSURE, ConditionStatus.TRUE, Reason.GC_TIME_HIGH, "12%")),
                    List.of(Recommendation.set("heap.size", "512Mi", "768Mi", "GC")));
            TuningProfileStatus judged = new StatusBuilder(first, 1L, T1)
                    .metrics(new MetricsReport(ConditionStatus.TRUE, Reason.METRICS_READ, "read 1 of 1", now, earlier), verdict,
                            List.of(Recommendation.set("workload.meanLatency", "300ms", "120ms", "measured")))
                    .build();

            assertThat(first.getObserved()).isSameAs(earlier);
            assertThat(first.getRecommendations()).extracting(Recommendation::getReason).containsExactly("old");
            assertThat(judged.getObserved()).isSameAs(now);
            assertThat(judged.getRecommendations()).extracting(Recommendation::getField).containsExactly("heap.size", "workload.meanLatency");
            assertThat(condition(judged, ConditionType.GC_PRESSURE).orElseThrow().getReason()).isEqualTo("GCTimeHigh");
            assertThat(condition(judged, ConditionType.METRICS_AVAILABLE).orElseThrow().getReason()).isEqualTo("MetricsRead");
        }

        @Test
        void aFirstSampleAfterAWindowWasShownChangesNothing() {
            // what a replica that just took over, or a restarted one, reads first
            TuningProfileStatus shown = new StatusBuilder(new TuningProfileStatus(), 1L, T0)
                    .metrics(new MetricsReport(ConditionStatus.TRUE, Reason.METRICS_READ, "read 2 of 2", new Observed().setWindow("30s"), null),
                            null, List.of()).build();
            TuningProfileStatus after = new StatusBuilder(shown, 1L, T1)
                    .metrics(new MetricsReport(ConditionStatus.TRUE, Reason.FIRST_SAMPLE, "read 2 of 2", null, null), null, List.of()).build();

            assertThat(after).isEqualTo(shown);
            assertThat(EventPolicy.events(shown, after)).isEmpty();
        }
    }

    @Nested
    class Events {
        @Test
        void troubleIsAWarningItsEndIsNormalAndStatesOnTheWayAreSilent() {
            TuningProfileStatus rolling = applied(new Rollout(false, Reason.ROLLING_OUT, "0 of 2"), T0);
            TuningProfileStatus done = new StatusBuilder(rolling, 1L, T1)
                    .applied("settings abc rendered", new Rollout(true, Reason.ROLLOUT_COMPLETE, "2 of 2 run")).build();
            TuningProfileStatus degraded = new StatusBuilder(done, 1L, T1)
                    .applied("settings abc rendered", new Rollout(false, Reason.DEGRADED, "deadline")).build();

            TuningProfileStatus recovered = new StatusBuilder(degraded, 1L, T1)
                    .applied("settings abc rendered", new Rollout(true, Reason.ROLLOUT_COMPLETE, "2 of 2 run again")).build();

            assertThat(EventPolicy.events(new TuningProfileStatus(), rolling)).as("an ordinary first apply").isEmpty();
            assertThat(EventPolicy.events(rolling, done)).as("its rollout completing").isEmpty();
            assertThat(EventPolicy.events(done, degraded)).containsExactly(new ProfileEvent(true, Reason.DEGRADED, "deadline"));
            assertThat(EventPolicy.events(degraded, recovered)).containsExactly(
                    new ProfileEvent(false, Reason.ROLLOUT_COMPLETE, "2 of 2 run again"));
            assertThat(EventPolicy.events(done, done)).isEmpty();
        }

        @Test
        void aFailedReconcileIsAWarningOnceAndTheRecoveryIsSaidByTheOtherConditions() {
            TuningProfileStatus done = new StatusBuilder(applied(new Rollout(false, Reason.ROLLING_OUT, "0 of 2"), T0), 1L, T1)
                    .applied("settings abc rendered", new Rollout(true, Reason.ROLLOUT_COMPLETE, "2 of 2 run")).build();
            TuningProfileStatus failed = new StatusBuilder(done, 1L, T1).reconcileFailed("reconcile failed: NullPointerException").build();
            TuningProfileStatus failedAgain = new StatusBuilder(failed, 1L, T1).reconcileFailed("reconcile failed: NullPointerException").build();
            TuningProfileStatus through = new StatusBuilder(failedAgain, 1L, T1)
                    .applied("settings abc rendered", new Rollout(true, Reason.ROLLOUT_COMPLETE, "2 of 2 run")).build();

            assertThat(EventPolicy.events(done, failed)).containsExactly(
                    new ProfileEvent(true, Reason.RECONCILE_FAILED, "reconcile failed: NullPointerException"));
            assertThat(EventPolicy.events(failed, failedAgain)).as("each retry that fails the same way").isEmpty();
            assertThat(EventPolicy.events(failedAgain, through)).isEmpty();
        }

        @Test
        void aPressureTrueIsAWarningUnknownIsSilentAndNewWarningsAreAnnounced() {
            TuningProfileStatus calm = withFinding(new TuningProfileStatus(), ConditionStatus.FALSE, Reason.GC_TIME_NORMAL);
            TuningProfileStatus pressed = withFinding(calm, ConditionStatus.TRUE, Reason.GC_TIME_HIGH);
            TuningProfileStatus unknown = withFinding(pressed, ConditionStatus.UNKNOWN, Reason.NO_DATA);
            pressed.setWarnings(List.of("the container's env sets SERVER_TOMCAT_THREADS_MAX itself"));

            assertThat(EventPolicy.events(new TuningProfileStatus(), calm)).as("metrics read and a pressure that starts False are no news")
                    .isEmpty();
            assertThat(EventPolicy.events(calm, pressed)).containsExactly(
                    new ProfileEvent(true, Reason.GC_TIME_HIGH, "figures"),
                    new ProfileEvent(true, Reason.SETTING_OVERRIDDEN, "the container's env sets SERVER_TOMCAT_THREADS_MAX itself"));
            assertThat(EventPolicy.events(pressed, withFinding(pressed, ConditionStatus.FALSE, Reason.GC_TIME_NORMAL)))
                    .containsExactly(new ProfileEvent(false, Reason.GC_TIME_NORMAL, "figures"));
            assertThat(EventPolicy.events(pressed, unknown)).isEmpty();
        }

        @Test
        void aConditionSomeoneElseWroteRaisesNoEvent() {
            TuningProfileStatus foreign = new TuningProfileStatus();
            foreign.setConditions(List.of(new Condition(T0, "from another controller", 1L, "SomethingElse", "False", "Custom")));

            assertThat(EventPolicy.events(new TuningProfileStatus(), foreign)).isEmpty();
        }

        private static TuningProfileStatus withFinding(TuningProfileStatus before, ConditionStatus status, Reason reason) {
            return new StatusBuilder(before, 1L, T1).metrics(new MetricsReport(ConditionStatus.TRUE, Reason.METRICS_READ, "read", new Observed(), null),
                    new Verdict(List.of(new Finding(ConditionType.GC_PRESSURE, status, reason, "figures")), List.of()), List.of()).build();
        }
    }

    @Nested
    class Arbitration {
        @Test
        void theOldestLiveProfileTunesTheDeploymentAndTheNameBreaksTies() {
            TuningProfile old = profile("b", "2026-01-01T00:00:00Z", false);
            TuningProfile sameAge = profile("a", "2026-01-01T00:00:00Z", false);
            TuningProfile newer = profile("c", "2026-02-01T00:00:00Z", false);
            TuningProfile deleting = profile("z", "2025-01-01T00:00:00Z", true);

            assertThat(ProfileArbitration.owner(List.of(newer, old, deleting))).contains(old);
            assertThat(ProfileArbitration.owner(List.of(old, sameAge, newer))).contains(sameAge);
            assertThat(ProfileArbitration.owner(List.of(deleting))).isEmpty();
        }

        @Test
        void aProfileSomeoneWroteWinsOverAnOlderOneDiscoveryMade() {
            TuningProfile discovered = profile("svc", "2026-01-01T00:00:00Z", false);
            discovered.getMetadata().setLabels(Map.of(LabelsAndAnnotations.DISCOVERED_LABEL, "true"));
            TuningProfile written = profile("svc-tuning", "2026-03-01T00:00:00Z", false);

            assertThat(ProfileArbitration.owner(List.of(discovered, written))).contains(written);
            assertThat(ProfileArbitration.owner(List.of(discovered))).contains(discovered);
        }

        private static TuningProfile profile(String name, String created, boolean deleting) {
            TuningProfile profile = new TuningProfile();
            profile.setMetadata(new ObjectMetaBuilder().withName(name).withCreationTimestamp(created)
                    .withDeletionTimestamp(deleting ? T1 : null).build());
            return profile;
        }
    }
}
