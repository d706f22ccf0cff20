package dev.jvmtuning.operator.reconciler;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jvmtuning.operator.api.v1alpha1.Mode;
import dev.jvmtuning.operator.api.v1alpha1.Observed;
import dev.jvmtuning.operator.api.v1alpha1.Recommendation;
import dev.jvmtuning.operator.api.v1alpha1.RollBack;
import dev.jvmtuning.operator.api.v1alpha1.Setting;
import dev.jvmtuning.operator.api.v1alpha1.TargetRef;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfileSpec;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfileStatus;
import dev.jvmtuning.operator.model.ConditionStatus;
import dev.jvmtuning.operator.model.Reason;
import dev.jvmtuning.operator.testing.ManualClock;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The per-profile series: what a status becomes on /q/metrics, how series follow it, and that they go with the profile. */
class OperatorMetricsTest {
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final ManualClock clock = new ManualClock();
    private final OperatorMetrics metrics = new OperatorMetrics(registry, "tuningprofile", clock);
    private final TuningProfile profile = profile();

    private static TuningProfile profile() {
        TuningProfile profile = new TuningProfile();
        profile.setMetadata(new ObjectMetaBuilder().withNamespace("shop").withName("orders-api").build());
        profile.setSpec(new TuningProfileSpec().setTargetRef(new TargetRef().setName("orders")).setMode(Mode.Apply));
        return profile;
    }

    private static TuningProfileStatus applied() {
        StatusBuilder status = new StatusBuilder(new TuningProfileStatus(), 1L, "2026-11-23T10:00:00Z")
                .applied("applied", new Rollout(true, Reason.ROLLOUT_COMPLETE, "2 of 2 replicas run the tuned settings"));
        TuningProfileStatus built = status.build();
        built.setSettings(List.of(new Setting("threads.max", "150", "SERVER_TOMCAT_THREADS_MAX", "R1", ""),
                new Setting("heap.size", "1488Mi", "-Xmx1488m", "R9", ""),
                new Setting("connectionPool.maxSize", "25", "SPRING_DATASOURCE_HIKARI_MAXIMUMPOOLSIZE", "R8", "")));
        return built;
    }

    /** name{labels without namespace and profile} = value, for every series of the profile. */
    private Map<String, Double> series() {
        return registry.getMeters().stream().filter(m -> "orders-api".equals(m.getId().getTag("profile")))
                .collect(Collectors.toMap(OperatorMetricsTest::describe, m -> ((Gauge) m).value()));
    }

    private static String describe(Meter m) {
        return m.getId().getName() + m.getId().getTags().stream().filter(t -> !t.getKey().equals("namespace") && !t.getKey().equals("profile"))
                .map(t -> t.getKey() + "=" + t.getValue()).collect(Collectors.joining(",", "{", "}"));
    }

    @Test
    void anAppliedProfileShowsItsConditionsValuesAndRollout() {
        metrics.record(profile, applied());

        assertThat(series()).containsOnly(
                Map.entry("jvm.tuning.profile.target{mode=Apply,runtime=Generic,target=orders}", 1.0),
                Map.entry("jvm.tuning.profile.condition{condition=Applied,reason=Applied}", 1.0),
                Map.entry("jvm.tuning.profile.condition{condition=Ready,reason=Ready}", 1.0),
                Map.entry("jvm.tuning.profile.condition{condition=RolloutComplete,reason=RolloutComplete}", 1.0),
                Map.entry("jvm.tuning.profile.applied{setting=threads.max}", 150.0),
                Map.entry("jvm.tuning.profile.applied{setting=heap.size}", 1488.0 * 1024 * 1024),
                Map.entry("jvm.tuning.profile.applied{setting=connectionPool.maxSize}", 25.0),
                Map.entry("jvm.tuning.profile.recommended{setting=threads.max}", 150.0),
                Map.entry("jvm.tuning.profile.recommended{setting=heap.size}", 1488.0 * 1024 * 1024),
                Map.entry("jvm.tuning.profile.recommended{setting=connectionPool.maxSize}", 25.0),
                Map.entry("jvm.tuning.profile.rollout{outcome=RolloutComplete}", 1.0));
        assertThat(registry.find("jvm.tuning.profiles").tags("condition", "Ready", "status", "True").gauge().value()).isEqualTo(1);
        assertThat(registry.find("jvm.tuning.reconciliations").tags("outcome", "error").counter().count())
                .as("the error counter exists before the first error").isZero();
    }

    @Test
    void aRecommendationWithAFigureIsTheRecommendedValueAndAdviceIsNot() {
        TuningProfileStatus status = applied();
        status.setRecommendations(List.of(new Recommendation("threads.max", "150", "200", "busy"),
                new Recommendation("heap.size", "1488Mi", "investigate a leak", "rising")));
        metrics.record(profile, status);

        assertThat(series()).containsEntry("jvm.tuning.profile.recommended{setting=threads.max}", 200.0)
                .containsEntry("jvm.tuning.profile.applied{setting=threads.max}", 150.0)
                .containsEntry("jvm.tuning.profile.recommended{setting=heap.size}", 1488.0 * 1024 * 1024);
    }

    @Test
    void aRecommendOnlyProfileHasRecommendedValuesButNothingApplied() {
        TuningProfileStatus status = applied();
        status.setConditions(new StatusBuilder(status, 1L, "now").recommendOnly().build().getConditions());
        metrics.record(profile, status);

        assertThat(series()).containsEntry("jvm.tuning.profile.condition{condition=Applied,reason=RecommendOnly}", 0.0)
                .containsEntry("jvm.tuning.profile.recommended{setting=threads.max}", 150.0)
                .doesNotContainKey("jvm.tuning.profile.applied{setting=threads.max}")
                .doesNotContainKey("jvm.tuning.profile.rollout{outcome=RolloutComplete}");
    }

    @Test
    void aChangedReasonOrOutcomeReplacesItsSeriesRatherThanAddingOne() {
        metrics.record(profile, applied());
        TuningProfileStatus rolledBack = new StatusBuilder(applied(), 2L, "later")
                .rolledBack(new RollBack("abc", 2L, "CrashLoopBackOff", "later")).build();
        metrics.record(profile, rolledBack);

        assertThat(series()).containsEntry("jvm.tuning.profile.condition{condition=Ready,reason=RolledBack}", 0.0)
                .containsEntry("jvm.tuning.profile.rollout{outcome=RolledBack}", 1.0)
                .doesNotContainKeys("jvm.tuning.profile.condition{condition=Ready,reason=Ready}",
                        "jvm.tuning.profile.rollout{outcome=RolloutComplete}", "jvm.tuning.profile.applied{setting=threads.max}");
        assertThat(series().keySet().stream().filter(k -> k.startsWith("jvm.tuning.profile.condition{condition=Ready,"))).hasSize(1);
    }

    @Test
    void freshnessMovesOnlyWhenNewFiguresArrive() {
        TuningProfileStatus status = applied();
        Observed observed = new Observed();
        observed.setGcTimePercent(12.5);
        status.setObserved(observed);
        metrics.record(profile, status);
        double first = series().get("jvm.tuning.profile.metrics.updated.timestamp.seconds{}");
        assertThat(first).isEqualTo(clock.millis() / 1000.0);
        assertThat(series()).containsEntry("jvm.tuning.profile.observed{figure=gcTimePercent}", 12.5);

        clock.advance(Duration.ofMinutes(5));
        metrics.record(profile, status);
        assertThat(series()).as("the same figures again: no new window was read")
                .containsEntry("jvm.tuning.profile.metrics.updated.timestamp.seconds{}", first);

        Observed next = new Observed();
        next.setGcTimePercent(3.0);
        status.setObserved(next);
        metrics.record(profile, status);
        assertThat(series()).containsEntry("jvm.tuning.profile.metrics.updated.timestamp.seconds{}", first + 300)
                .containsEntry("jvm.tuning.profile.observed{figure=gcTimePercent}", 3.0);
    }

    @Test
    void aDeletedProfileLeavesNoSeries() {
        metrics.record(profile, applied());
        metrics.forget("shop/orders-api");

        assertThat(series()).isEmpty();
        assertThat(registry.find("jvm.tuning.profiles").tags("condition", "Ready", "status", ConditionStatus.TRUE.text()).gauge().value()).isZero();
    }
}
