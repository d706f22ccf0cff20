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
import dev.jvmtuning.operator.decision.StatusBuilder;
import dev.jvmtuning.operator.model.ConditionStatus;
import dev.jvmtuning.operator.model.Reason;
import dev.jvmtuning.operator.rollout.Rollout;
import dev.jvmtuning.operator.testing.ManualClock;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import dev.jvmtuning.operator.metrics.PrometheusTextParser;
import dev.jvmtuning.operator.metrics.Sample;
import io.micrometer.prometheus.PrometheusConfig;
import io.micrometer.prometheus.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The per-profile series: what a status becomes on /q/metrics, how series follow it, and that they go with the profile. */
class OperatorMetricsTest {
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
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
                .applied("applied", new Rollout(true, Reason.ROLLOUT_COMPLETE, "2 of 2 replicas run the tuned pod template"));
        TuningProfileStatus built = status.build();
        built.setSettings(List.of(new Setting("threads.max", "150", "SERVER_TOMCAT_THREADS_MAX", "R1", "", null),
                new Setting("heap.size", "1488Mi", "-Xmx1488m", "R9", "", null),
                new Setting("connectionPool.maxSize", "25", "SPRING_DATASOURCE_HIKARI_MAXIMUMPOOLSIZE", "R8", "", null)));
        return built;
    }

    /** name{labels without namespace and profile} = value, for every series of the profile, as /q/metrics shows them. */
    private Map<String, Double> series() {
        return PrometheusTextParser.parse(registry.scrape()).samples().stream().filter(s -> "orders-api".equals(s.label("profile")))
                .collect(Collectors.toMap(OperatorMetricsTest::describe, Sample::value));
    }

    private static String describe(Sample s) {
        return s.name() + new TreeMap<>(s.labels()).entrySet().stream().filter(l -> !l.getKey().equals("namespace") && !l.getKey().equals("profile"))
                .map(l -> l.getKey() + "=" + l.getValue()).collect(Collectors.joining(",", "{", "}"));
    }

    @Test
    void anAppliedProfileShowsItsConditionsValuesAndRollout() {
        metrics.record(profile, applied());

        assertThat(series()).containsOnly(
                Map.entry("jvm_tuning_profile_target{mode=Apply,runtime=Generic,target=orders}", 1.0),
                Map.entry("jvm_tuning_profile_condition{condition=Applied,reason=Applied}", 1.0),
                Map.entry("jvm_tuning_profile_condition{condition=Ready,reason=Ready}", 1.0),
                Map.entry("jvm_tuning_profile_condition{condition=RolloutComplete,reason=RolloutComplete}", 1.0),
                Map.entry("jvm_tuning_profile_applied_max_threads{}", 150.0),
                Map.entry("jvm_tuning_profile_applied_heap_bytes{}", 1488.0 * 1024 * 1024),
                Map.entry("jvm_tuning_profile_applied_pool_connections{}", 25.0),
                Map.entry("jvm_tuning_profile_recommended_max_threads{}", 150.0),
                Map.entry("jvm_tuning_profile_recommended_heap_bytes{}", 1488.0 * 1024 * 1024),
                Map.entry("jvm_tuning_profile_recommended_pool_connections{}", 25.0),
                Map.entry("jvm_tuning_profile_rollout{outcome=RolloutComplete}", 1.0));
        assertThat(registry.find("jvm.tuning.profiles").tags("condition", "Ready", "status", "True").gauge().value()).isEqualTo(1);
        assertThat(registry.find("jvm.tuning.reconciliations").tags("outcome", "error").counter().count())
                .as("the error counter exists before the first error").isZero();
    }

    @Test
    void aRecommendationWithAFigureIsTheRecommendedValueAndAdviceIsNot() {
        TuningProfileStatus status = applied();
        status.setRecommendations(List.of(Recommendation.set("threads.max", "150", "200", "busy"),
                Recommendation.investigate("heap.size", "1488Mi", "rising")));
        metrics.record(profile, status);

        assertThat(series()).containsEntry("jvm_tuning_profile_recommended_max_threads{}", 200.0)
                .containsEntry("jvm_tuning_profile_applied_max_threads{}", 150.0)
                .containsEntry("jvm_tuning_profile_recommended_heap_bytes{}", 1488.0 * 1024 * 1024);
    }

    @Test
    void aRecommendOnlyProfileHasRecommendedValuesButNothingApplied() {
        TuningProfileStatus status = applied();
        status.setConditions(new StatusBuilder(status, 1L, "now").recommendOnly().build().getConditions());
        metrics.record(profile, status);

        assertThat(series()).containsEntry("jvm_tuning_profile_condition{condition=Applied,reason=RecommendOnly}", 0.0)
                .containsEntry("jvm_tuning_profile_recommended_max_threads{}", 150.0)
                .doesNotContainKey("jvm_tuning_profile_applied_max_threads{}")
                .doesNotContainKey("jvm_tuning_profile_rollout{outcome=RolloutComplete}");
    }

    @Test
    void aChangedReasonOrOutcomeReplacesItsSeriesRatherThanAddingOne() {
        metrics.record(profile, applied());
        TuningProfileStatus rolledBack = new StatusBuilder(applied(), 2L, "later")
                .rolledBack(new RollBack("abc", 2L, "release-1", "CrashLoopBackOff", "later"), null, null).build();
        metrics.record(profile, rolledBack);

        assertThat(series()).containsEntry("jvm_tuning_profile_condition{condition=Ready,reason=RolledBack}", 0.0)
                .containsEntry("jvm_tuning_profile_rollout{outcome=RolledBack}", 1.0)
                .doesNotContainKeys("jvm_tuning_profile_condition{condition=Ready,reason=Ready}",
                        "jvm_tuning_profile_rollout{outcome=RolloutComplete}", "jvm_tuning_profile_applied_max_threads{}");
        assertThat(series().keySet().stream().filter(k -> k.startsWith("jvm_tuning_profile_condition{condition=Ready,"))).hasSize(1);
    }

    /**
     * One unit per name: a quantity is never a label value of a series that holds others in other units (threads beside
     * bytes, percents beside milliseconds). Only series of 1, 0 or -1 for a state carry labels.
     */
    @Test
    void eachQuantityIsASeriesOfItsOwnNamedForItsUnit() {
        TuningProfileStatus status = applied();
        status.setObserved(new Observed().setGcTimePercent(12.5).setMeanLatencyMillis(40.0).setLiveHeapMib(96.0).setRequestsPerSecond(100.0));
        metrics.record(profile, status);

        Map<String, List<String>> byName = series().keySet().stream()
                .collect(Collectors.groupingBy(key -> key.substring(0, key.indexOf('{')), TreeMap::new, Collectors.toList()));
        Map<String, List<String>> quantities = new TreeMap<>(byName);
        List.of("jvm_tuning_profile_condition", "jvm_tuning_profile_rollout", "jvm_tuning_profile_target").forEach(quantities::remove);
        assertThat(quantities).allSatisfy((name, keys) -> assertThat(keys).as(name).containsExactly(name + "{}"));
        assertThat(quantities).containsKeys("jvm_tuning_profile_applied_heap_bytes", "jvm_tuning_profile_applied_max_threads",
                "jvm_tuning_profile_observed_gc_time_percent", "jvm_tuning_profile_observed_mean_latency_millis",
                "jvm_tuning_profile_observed_live_heap_mib", "jvm_tuning_profile_observed_requests_per_second");
        assertThat(registry.scrape()).contains("# HELP jvm_tuning_profile_applied_heap_bytes heap.size in force",
                "# HELP jvm_tuning_profile_observed_gc_time_percent A figure of status.observed");
    }

    @Test
    void freshnessMovesOnlyWhenNewFiguresArrive() {
        TuningProfileStatus status = applied();
        Observed observed = new Observed();
        observed.setGcTimePercent(12.5);
        status.setObserved(observed);
        metrics.record(profile, status);
        double first = series().get("jvm_tuning_profile_metrics_updated_timestamp_seconds{}");
        assertThat(first).isEqualTo(clock.millis() / 1000.0);
        assertThat(series()).containsEntry("jvm_tuning_profile_observed_gc_time_percent{}", 12.5);

        clock.advance(Duration.ofMinutes(5));
        metrics.record(profile, status);
        assertThat(series()).as("the same figures again: no new window was read")
                .containsEntry("jvm_tuning_profile_metrics_updated_timestamp_seconds{}", first);

        Observed next = new Observed();
        next.setGcTimePercent(3.0);
        status.setObserved(next);
        metrics.record(profile, status);
        assertThat(series()).containsEntry("jvm_tuning_profile_metrics_updated_timestamp_seconds{}", first + 300)
                .containsEntry("jvm_tuning_profile_observed_gc_time_percent{}", 3.0);
    }

    @Test
    void aDeletedProfileLeavesNoSeries() {
        metrics.record(profile, applied());
        metrics.forget("shop/orders-api");

        assertThat(series()).isEmpty();
        assertThat(registry.find("jvm.tuning.profiles").tags("condition", "Ready", "status", ConditionStatus.TRUE.text()).gauge().value()).isZero();
    }

    @Test
    void moreProfilesAddSeriesButNoMeters() {
        metrics.record(profile, applied());
        int meters = registry.getMeters().size();
        for (int i = 0; i < 100; i++) {
            TuningProfile other = profile();
            other.getMetadata().setName("svc-" + i);
            metrics.record(other, applied());
        }

        assertThat(registry.getMeters()).as("series are built when /q/metrics is read, not kept as meters").hasSize(meters);
        String scrape = registry.scrape();
        assertThat(PrometheusTextParser.parse(scrape).samples()).filteredOn(s -> s.name().equals("jvm_tuning_profile_target")).hasSize(101);
        assertThat(scrape).contains("# TYPE jvm_tuning_profile_condition gauge", "# HELP jvm_tuning_profile_condition A TuningProfile's conditions");
    }
}
