package dev.jvmtuning.operator.reconciler;

import io.fabric8.kubernetes.api.model.Condition;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The operator's own telemetry on /q/metrics: reconciles by controller and outcome with their
 * durations, and {@code jvm_tuning_profiles{condition, status}}, how many profiles stand where.
 */
public final class OperatorMetrics {
    private final MeterRegistry registry;
    private final String controller;
    private final Map<String, Map<String, String>> statusByProfile = new ConcurrentHashMap<>();
    private final Set<String> registered = ConcurrentHashMap.newKeySet();

    public OperatorMetrics(MeterRegistry registry, String controller) {
        this.registry = registry;
        this.controller = controller;
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
            Counter.builder("jvm.tuning.reconciliations").description("Reconciles by outcome")
                    .tag("controller", controller).tag("outcome", outcome).register(registry).increment();
        }
    }

    public void record(String profile, List<Condition> conditions) {
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

    public void forget(String profile) {
        statusByProfile.remove(profile);
    }

    private long count(String type, String status) {
        return statusByProfile.values().stream().filter(m -> status.equals(m.get(type))).count();
    }
}
