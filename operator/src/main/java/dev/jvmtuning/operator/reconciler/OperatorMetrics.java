package dev.jvmtuning.operator.reconciler;

import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfileStatus;
import io.fabric8.kubernetes.api.model.Condition;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.prometheus.PrometheusMeterRegistry;
import io.prometheus.client.Collector;
import io.prometheus.client.CollectorRegistry;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * The operator's own telemetry on /q/metrics: reconciles by controller and outcome with their
 * durations, {@code jvm_tuning_profiles{condition, status}}, how many profiles stand where, and
 * per profile the series of {@link ProfileSeries} plus when its metrics last brought new figures,
 * exported from the Prometheus registry (the one /q/metrics serves) when it is read.
 */
public final class OperatorMetrics {
    public static final String METRICS_UPDATED = "jvm.tuning.profile.metrics.updated.timestamp.seconds";
    private static final List<String> OUTCOMES = List.of("success", "error");
    private static final Map<String, String> HELP = Map.of(
            ProfileSeries.prometheusName(ProfileSeries.TARGET), "The Deployment a TuningProfile tunes, with its mode and runtime (always 1)",
            ProfileSeries.prometheusName(ProfileSeries.CONDITION), "A TuningProfile's conditions: 1 True, 0 False, -1 Unknown, with the reason",
            ProfileSeries.prometheusName(ProfileSeries.ROLLOUT), "The outcome of the last rollout (1 for the outcome labelled)",
            ProfileSeries.prometheusName(METRICS_UPDATED), "When the profile's metrics last brought new figures");
    private final MeterRegistry registry;
    private final String controller;
    private final Clock clock;
    private final Map<String, Map<String, String>> statusByProfile = new ConcurrentHashMap<>();
    private final Set<String> registered = ConcurrentHashMap.newKeySet();
    private final Map<String, Exported> profiles = new ConcurrentHashMap<>();
    private final AtomicBoolean exporting = new AtomicBoolean();

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
        exportProfileSeries();
        String key = profile.key();
        countConditions(key, status.getConditions());
        Map<ProfileSeries.Key, Double> series = ProfileSeries.of(profile, status);
        profiles.compute(key, (k, before) -> Exported.of(profile, series, status.getObserved(), before, clock));
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
        profiles.remove(profile);
    }

    private long count(String type, String status) {
        return statusByProfile.values().stream().filter(m -> status.equals(m.get(type))).count();
    }

    /**
     * Attaches the per-profile series to the Prometheus registry once there is one: Quarkus adds it to
     * the global registry when the application starts, after the reconciler was built.
     */
    private void exportProfileSeries() {
        if (!exporting.get()) {
            prometheus(registry).filter(prometheus -> exporting.compareAndSet(false, true))
                    .ifPresent(prometheus -> prometheus.register(new ProfileCollector()));
        }
    }

    /** The registry /q/metrics is read from: the Prometheus one itself, or the one inside a composite. */
    private static Optional<CollectorRegistry> prometheus(MeterRegistry registry) {
        if (registry instanceof PrometheusMeterRegistry prometheus) {
            return Optional.of(prometheus.getPrometheusRegistry());
        }
        if (registry instanceof CompositeMeterRegistry composite) {
            return composite.getRegistries().stream().map(OperatorMetrics::prometheus).flatMap(Optional::stream).findFirst();
        }
        return Optional.empty();
    }

    /** One profile's series as last recorded, and since when its metrics figures are what they are. */
    private record Exported(String namespace, String profile, Map<ProfileSeries.Key, Double> series, Object observed, double updatedAt) {
        static Exported of(TuningProfile profile, Map<ProfileSeries.Key, Double> series, Object observed, Exported before, Clock clock) {
            // Freshness: new figures mean a new window was read; the same figures again mean none was.
            Object lastObserved = before == null ? null : before.observed();
            double updatedAt = before == null ? Double.NaN : before.updatedAt();
            if (observed != null && !Objects.equals(observed, lastObserved)) {
                lastObserved = observed;
                updatedAt = clock.millis() / 1000.0;
            }
            Map<ProfileSeries.Key, Double> exported = new HashMap<>(series);
            if (lastObserved != null) {
                exported.put(new ProfileSeries.Key(METRICS_UPDATED, Map.of()), updatedAt);
            }
            return new Exported(profile.getMetadata().getNamespace(), profile.getMetadata().getName(), Map.copyOf(exported), lastObserved,
                    updatedAt);
        }
    }

    /** A series' help: its own, or said from its name for a main setting's and a figure's. */
    private static String help(String name) {
        for (ProfileSeries.Graphed graphed : ProfileSeries.MAIN_SETTINGS) {
            if (name.equals(ProfileSeries.prometheusName(graphed.applied()))) {
                return graphed.setting().key() + " in force, while Applied is True";
            }
            if (name.equals(ProfileSeries.prometheusName(graphed.recommended()))) {
                return graphed.setting().key() + " as the plan or the closed loop recommends it";
            }
        }
        if (name.startsWith(ProfileSeries.prometheusName(ProfileSeries.OBSERVED) + "_")) {
            return "A figure of status.observed, the last metrics window";
        }
        return HELP.getOrDefault(name, "");
    }

    /**
     * The per-profile series, built from the last records when /q/metrics is read: a Micrometer gauge
     * per series (a meter, its id and tags, in the composite and the Prometheus registry) took a large
     * share of the heap at scale (docs/development/benchmarks.md).
     */
    private final class ProfileCollector extends Collector {
        @Override
        public List<MetricFamilySamples> collect() {
            Map<String, List<MetricFamilySamples.Sample>> byName = new TreeMap<>();
            for (Exported exported : profiles.values()) {
                exported.series().forEach((key, value) -> {
                    String name = ProfileSeries.prometheusName(key.name());
                    List<String> names = new ArrayList<>(List.of("namespace", "profile"));
                    List<String> values = new ArrayList<>(List.of(exported.namespace(), exported.profile()));
                    new TreeMap<>(key.labels()).forEach((label, labelValue) -> {
                        names.add(label);
                        values.add(labelValue);
                    });
                    byName.computeIfAbsent(name, n -> new ArrayList<>()).add(new MetricFamilySamples.Sample(name, names, values, value));
                });
            }
            return byName.entrySet().stream()
                    .map(e -> new MetricFamilySamples(e.getKey(), Type.GAUGE, help(e.getKey()), e.getValue())).toList();
        }
    }
}
