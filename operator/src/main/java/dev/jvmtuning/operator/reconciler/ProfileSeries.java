package dev.jvmtuning.operator.reconciler;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jvmtuning.operator.api.v1alpha1.Recommendation;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfileStatus;
import dev.jvmtuning.operator.decision.Conditions;
import dev.jvmtuning.operator.decision.Observation;
import dev.jvmtuning.operator.model.ConditionStatus;
import dev.jvmtuning.operator.model.ConditionType;
import dev.jvmtuning.operator.model.Reason;
import dev.jvmtuning.operator.model.Setting;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The per-profile series a status stands for on /q/metrics, one per profile and condition (or
 * setting, figure): the labels name the profile and what is measured, never a pod or a value, so
 * the count stays bounded by profiles x condition types. Pure: a profile and its status in, series out.
 */
public final class ProfileSeries {
    public static final String CONDITION = "jvm.tuning.profile.condition";
    public static final String APPLIED = "jvm.tuning.profile.applied";
    public static final String RECOMMENDED = "jvm.tuning.profile.recommended";
    public static final String ROLLOUT = "jvm.tuning.profile.rollout";
    public static final String OBSERVED = "jvm.tuning.profile.observed";
    public static final String TARGET = "jvm.tuning.profile.target";
    /**
     * The settings graphed as applied against recommended, the main knobs a reader compares: each a series of its own, named
     * for its unit, as Prometheus wants one unit per name.
     */
    public static final List<Graphed> MAIN_SETTINGS = List.of(new Graphed(Setting.THREADS_MAX, "max.threads"),
            new Graphed(Setting.HEAP_SIZE, "heap.bytes"), new Graphed(Setting.POOL_MAX_SIZE, "pool.connections"));
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Where a camel-case figure's next word starts: compiled once, as every record names every figure. */
    private static final Pattern WORD_START = Pattern.compile("([a-z0-9])([A-Z])");

    /** A series: the meter name and the labels beyond namespace and profile. */
    public record Key(String name, Map<String, String> labels) {
    }

    /** A main setting and the end of its series' names, its unit last. */
    public record Graphed(Setting setting, String series) {
        String applied() {
            return APPLIED + "." + series;
        }

        String recommended() {
            return RECOMMENDED + "." + series;
        }
    }

    private ProfileSeries() {
    }

    /** Every series of one profile with its value; a series absent here is removed from the registry. */
    public static Map<Key, Double> of(TuningProfile profile, TuningProfileStatus status) {
        Map<Key, Double> series = new LinkedHashMap<>();
        var spec = profile.getSpec();
        series.put(new Key(TARGET, Map.of("target", Observation.targetName(profile),
                "mode", spec == null || spec.getMode() == null ? "" : spec.getMode().name(),
                "runtime", spec == null || spec.getRuntime() == null ? "" : spec.getRuntime().name())), 1.0);
        for (Condition c : status.getConditions()) {
            series.put(new Key(CONDITION, Map.of("condition", c.getType(), "reason", Objects.requireNonNullElse(c.getReason(), ""))),
                    conditionValue(c.getStatus()));
        }
        boolean applied = Conditions.isTrue(status.getConditions(), ConditionType.APPLIED);
        for (Graphed graphed : MAIN_SETTINGS) {
            String key = graphed.setting().key();
            Optional<Double> planned = status.getSettings().stream().filter(s -> key.equals(s.getName())).findFirst()
                    .flatMap(s -> number(s.getValue()));
            if (applied) {
                planned.ifPresent(v -> series.put(new Key(graphed.applied(), Map.of()), v));
            }
            // The closed loop's or the detector's advice where it gives a figure; else the plan is the recommendation.
            status.getRecommendations().stream().filter(r -> key.equals(r.getField())).map(Recommendation::getRecommended)
                    .map(ProfileSeries::number).flatMap(Optional::stream).findFirst().or(() -> planned)
                    .ifPresent(v -> series.put(new Key(graphed.recommended(), Map.of()), v));
        }
        rolloutOutcome(status).ifPresent(outcome -> series.put(new Key(ROLLOUT, Map.of("outcome", outcome)), 1.0));
        if (status.getObserved() != null) {
            Map<?, ?> figures = JSON.convertValue(status.getObserved(), Map.class);
            figures.forEach((figure, value) -> {
                if (value instanceof Number n) {
                    series.put(new Key(observed(figure.toString()), Map.of()), n.doubleValue());
                }
            });
        }
        return series;
    }

    /**
     * The series of one figure of status.observed, named for it: its name ends in its unit (gcTimePercent is
     * jvm.tuning.profile.observed.gc.time.percent), one unit per name.
     */
    static String observed(String figure) {
        return OBSERVED + "." + WORD_START.matcher(figure).replaceAll("$1.$2").toLowerCase(Locale.ROOT);
    }

    /** A series name as /q/metrics shows it: jvm.tuning.profile.condition is jvm_tuning_profile_condition. */
    static String prometheusName(String name) {
        return name.replace('.', '_');
    }

    /** 1 True, 0 False, -1 Unknown: one series per condition whatever its status, so alerts can hold for a while. */
    static double conditionValue(String status) {
        if (ConditionStatus.TRUE.is(status)) {
            return 1;
        }
        return ConditionStatus.FALSE.is(status) ? 0 : -1;
    }

    /** The last rollout's outcome: taken back, or the RolloutComplete condition's reason; none in Recommend mode. */
    static Optional<String> rolloutOutcome(TuningProfileStatus status) {
        if (Conditions.find(status.getConditions(), ConditionType.APPLIED).filter(c -> Reason.ROLLED_BACK.text().equals(c.getReason())).isPresent()) {
            return Optional.of(Reason.ROLLED_BACK.text());
        }
        return Conditions.find(status.getConditions(), ConditionType.ROLLOUT_COMPLETE).map(Condition::getReason);
    }

    /** A count or a Kubernetes quantity (1488Mi) as a plain number; advice such as "+50%" is none. */
    static Optional<Double> number(String value) {
        if (value == null || value.isBlank()) {
            return Optional.empty();
        }
        try {
            return Optional.of(Quantity.getAmountInBytes(Quantity.parse(value)).doubleValue());
        } catch (IllegalArgumentException | ArithmeticException e) {
            return Optional.empty();
        }
    }
}
