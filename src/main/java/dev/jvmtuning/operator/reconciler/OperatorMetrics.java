package dev.jvmtuning.operator.reconciler;

import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfileStatus;
import io.fabric8.kubernetes.api.model.Condition;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The operator's own telemetry on /q/metrics: reconciles by controller and outcome with their
 * durations, {@code jvm_tuning_profiles{condition, status}}, how many profiles stand where, and
 * per profile the series of {@link ProfileSeries} plus when its metrics last brought new figures.
 */
public final class OperatorMetrics {
    public static final String METRICS_UPDATED = "jvm.tuning.profile.metrics.updated.timestamp.seconds";
    private static final List<String> OUTCOMES = List.of("success", "error");
    private final MeterRegistry registry;
    private final String controller;
    private final Clock clock;
    private final Map<String, Map<String, String>> statusByProfile = new ConcurrentHashMap<>();
    private final Set<String> registered = ConcurrentHashMap.newKeySet();
    private final Map<String, ProfileGauges> profiles = new ConcurrentHashMap<>();

    public OperatorMetrics(MeterRegistry registry, String controller) {
        this(registry, controller, Clock.systemUTC());
    }

    OperatorMetrics(MeterRegistry registry, String controller, Clock clock) {
        this.registry = registry;
        this.controller = controller;
        this.clock = clock;
        // Both outcomes exist from the start, so a rate of errors reads 0 rather than nothing before the first one.
        OUTCOMES.forEach(outcome -> counter(outcome));
    }

    private Counter counter(String outcome) {
        return Counter.builder("jvm.tuning.reconciliations").description("Reconciles by outcome")
                .tag("controller", controller).tag("outcome", outcome).register(registry);
    }

    /** Runs one reconcile, counting it as success or error and timing it. */
    public <T> T reconcile(Supplier<T> reconcile) {
        Timer.Sample sample = Timer.start(registry);
        String outcome = "error";
        try {
            T result = reconcile.get();
            outcome = "success";
            return result;
        } finally {
            sample.stop(Timer.builder("jvm.tuning.reconcile").description("Reconcile duration")
                    .tag("controller", controller).tag("outcome", outcome).register(registry));
            counter(outcome).increment();
        }
    }

    /** Records a profile's status as it now stands: the fleet counts and the profile's own series. */
    public void record(TuningProfile profile, TuningProfileStatus status) {
        String key = Watches.key(profile);
        countConditions(key, status.getConditions());
        profiles.computeIfAbsent(key, k -> new ProfileGauges(Tags.of("namespace", profile.getMetadata().getNamespace(),
                "profile", profile.getMetadata().getName()))).update(ProfileSeries.of(profile, status), status.getObserved());
    }

    private void countConditions(String profile, List<Condition> conditions) {
        Map<String, String> byType = new ConcurrentHashMap<>();
        conditions.forEach(c -> {
            byType.put(c.getType(), c.getStatus());
            if (registered.add(c.getType() + "/" + c.getStatus())) {
                Gauge.builder("jvm.tuning.profiles", () -> count(c.getType(), c.getStatus()))
                        .description("TuningProfiles by condition and status")
                        .tag("condition", c.getType()).tag("status", c.getStatus())
                        .register(registry);
            }
        });
        statusByProfile.put(profile, byType);
    }

    /** The profile is gone: so are its series. */
    public void forget(String profile) {
        statusByProfile.remove(profile);
        ProfileGauges gauges = profiles.remove(profile);
        if (gauges != null) {
            gauges.removeAll();
        }
    }

    private long count(String type, String status) {
        return statusByProfile.values().stream().filter(m -> status.equals(m.get(type))).count();
    }

    /** One profile's gauges: registered when a series appears, updated in place, removed when it goes. */
    private final class ProfileGauges {
        private final Tags profileTags;
        private final Map<ProfileSeries.Key, Registered> gauges = new HashMap<>();
        private Object lastObserved;
        private double updatedAt;

        private record Registered(Gauge gauge, double[] value) {
        }

        ProfileGauges(Tags profileTags) {
            this.profileTags = profileTags;
        }

        synchronized void update(Map<ProfileSeries.Key, Double> series, Object observed) {
            Map<ProfileSeries.Key, Double> wanted = new HashMap<>(series);
            // Freshness: new figures mean a new window was read; the same figures again mean none was.
            if (observed != null && !Objects.equals(observed, lastObserved)) {
                lastObserved = observed;
                updatedAt = clock.millis() / 1000.0;
            }
            if (lastObserved != null) {
                wanted.put(new ProfileSeries.Key(METRICS_UPDATED, Map.of()), updatedAt);
            }
            gauges.keySet().removeIf(key -> {
                boolean gone = !wanted.containsKey(key);
                if (gone) {
                    registry.remove(gauges.get(key).gauge());
                }
                return gone;
            });
            wanted.forEach((key, value) -> gauges.computeIfAbsent(key, this::register).value()[0] = value);
        }

        private Registered register(ProfileSeries.Key key) {
            double[] value = {Double.NaN};
            Tags tags = profileTags;
            for (var label : key.labels().entrySet()) {
                tags = tags.and(label.getKey(), label.getValue());
            }
            Gauge gauge = Gauge.builder(key.name(), value, v -> v[0]).tags(tags).strongReference(true).register(registry);
            return new Registered(gauge, value);
        }

        synchronized void removeAll() {
            gauges.values().forEach(r -> registry.remove(r.gauge()));
            gauges.clear();
        }
    }
}
