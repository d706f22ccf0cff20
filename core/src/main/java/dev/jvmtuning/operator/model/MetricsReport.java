package dev.jvmtuning.operator.model;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jvmtuning.operator.api.v1alpha1.Observed;
import dev.jvmtuning.operator.model.ConditionStatus;
import dev.jvmtuning.operator.model.EffectiveOptions;
import dev.jvmtuning.operator.model.MemoryUse;
import dev.jvmtuning.operator.model.Reason;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * One metrics poll of a profile: whether metrics could be read (the MetricsAvailable condition), the
 * window's figures (null until two samples exist), the window before it, for trends, and the HotSpot
 * options each pod read reports running with (EffectiveOptions.NONE for a pod without the agent's series), and each
 * pod's memory by kind, native memory tracking's categories included (MemoryUse.NONE for a pod that reports none): the
 * last account of a pod before an OOM kill (OomKill). And each pod's virtual-thread pinning over the window, for the pods
 * that report it (the VirtualThreadPinning condition). And the Java feature version the pods' JVMs report (javaVersion,
 * null when none says), which the planner's JDK-specific rules and the flag policy take, and whether their JVMs have run
 * virtual threads (threading, null when no pod reports it). And each existing pod's last reading (lastReadings): this
 * poll's, or for a pod this poll did not read (restarting after a kill, not Ready) the one before.
 * A report that differs from the last one triggers a reconcile, which judges it against the plan in force.
 */
public record MetricsReport(ConditionStatus availableStatus, Reason availableReason, String availableMessage, Observed observed,
        Observed previous, Map<String, EffectiveOptions> effectiveOptions, Map<String, MemoryUse> memory,
        Map<String, VirtualThreads.Pinning> virtualThreads, Integer javaVersion, ThreadingReport threading,
        Map<String, LastReading> lastReadings) {

    public MetricsReport {
        effectiveOptions = Map.copyOf(effectiveOptions);
        memory = Map.copyOf(memory);
        virtualThreads = Map.copyOf(virtualThreads);
        lastReadings = Map.copyOf(lastReadings);
    }

    /** A report whose last readings are its own, read when its window ended. */
    public MetricsReport(ConditionStatus availableStatus, Reason availableReason, String availableMessage, Observed observed,
            Observed previous, Map<String, EffectiveOptions> effectiveOptions, Map<String, MemoryUse> memory,
            Map<String, VirtualThreads.Pinning> virtualThreads, Integer javaVersion, ThreadingReport threading) {
        this(availableStatus, availableReason, availableMessage, observed, previous, effectiveOptions, memory, virtualThreads, javaVersion,
                threading, readings(effectiveOptions, memory, observed == null || observed.getEnd() == null ? null : Instant.parse(observed.getEnd())));
    }

    /** A report whose pods say nothing of virtual threads' use. */
    public MetricsReport(ConditionStatus availableStatus, Reason availableReason, String availableMessage, Observed observed,
            Observed previous, Map<String, EffectiveOptions> effectiveOptions, Map<String, MemoryUse> memory,
            Map<String, VirtualThreads.Pinning> virtualThreads, Integer javaVersion) {
        this(availableStatus, availableReason, availableMessage, observed, previous, effectiveOptions, memory, virtualThreads, javaVersion, null);
    }

    /** A report whose pods say no Java version. */
    public MetricsReport(ConditionStatus availableStatus, Reason availableReason, String availableMessage, Observed observed,
            Observed previous, Map<String, EffectiveOptions> effectiveOptions, Map<String, MemoryUse> memory,
            Map<String, VirtualThreads.Pinning> virtualThreads) {
        this(availableStatus, availableReason, availableMessage, observed, previous, effectiveOptions, memory, virtualThreads, null);
    }

    /** A report without virtual threads: no pod reports them, or no window exists yet. */
    public MetricsReport(ConditionStatus availableStatus, Reason availableReason, String availableMessage, Observed observed,
            Observed previous, Map<String, EffectiveOptions> effectiveOptions, Map<String, MemoryUse> memory) {
        this(availableStatus, availableReason, availableMessage, observed, previous, effectiveOptions, memory, Map.of());
    }

    /** A report without memory: none was read. */
    public MetricsReport(ConditionStatus availableStatus, Reason availableReason, String availableMessage, Observed observed,
            Observed previous, Map<String, EffectiveOptions> effectiveOptions) {
        this(availableStatus, availableReason, availableMessage, observed, previous, effectiveOptions, Map.of());
    }

    /** A report without options or memory: none were read. */
    public MetricsReport(ConditionStatus availableStatus, Reason availableReason, String availableMessage, Observed observed,
            Observed previous) {
        this(availableStatus, availableReason, availableMessage, observed, previous, Map.of());
    }

    /** How far a figure may move, relative to the one shown (or 0.01 absolute), and still be measurement noise. */
    static final double NOISE = 0.01;
    private static final double ROUNDING_SLACK = 1e-9;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<Map<String, Object>> FIGURES = new TypeReference<>() { };

    /**
     * This poll as a reconcile judges it: a window whose figures are all within noise of the window
     * status shows (polls a little late count 10 switches a second as 10.01) is judged as that window,
     * so a calm pod's status, its conditions' messages included, is not rewritten every poll.
     * A figure that drifts moves away from the shown one until it is shown anew.
     */
    public MetricsReport steadied(Observed shown) {
        return observed == null || shown == null || !withinNoise(shown, observed) ? this
                : new MetricsReport(availableStatus, availableReason, availableMessage, shown, previous, effectiveOptions, memory, virtualThreads,
                        javaVersion, threading, lastReadings);
    }

    /**
     * This report with the last readings of the pods in {@code existing}: this poll's, read {@code at}, and for a pod it did
     * not read, the one {@code before} held.
     */
    public MetricsReport remembering(MetricsReport before, Set<String> existing, Instant at) {
        Map<String, LastReading> readings = new HashMap<>(readings(effectiveOptions, memory, at));
        if (before != null) {
            before.lastReadings.forEach((pod, reading) -> {
                if (existing.contains(pod)) {
                    readings.putIfAbsent(pod, reading);
                }
            });
        }
        return new MetricsReport(availableStatus, availableReason, availableMessage, observed, previous, effectiveOptions, memory, virtualThreads,
                javaVersion, threading, readings);
    }

    private static Map<String, LastReading> readings(Map<String, EffectiveOptions> options, Map<String, MemoryUse> memory, Instant at) {
        Map<String, LastReading> readings = new HashMap<>();
        memory.forEach((pod, use) -> readings.put(pod, new LastReading(use, options.getOrDefault(pod, EffectiveOptions.NONE), at)));
        options.forEach((pod, read) -> readings.putIfAbsent(pod, new LastReading(MemoryUse.NONE, read, at)));
        return readings;
    }

    private static boolean withinNoise(Observed shown, Observed polled) {
        Map<String, Object> before = JSON.convertValue(shown, FIGURES);
        Map<String, Object> now = JSON.convertValue(polled, FIGURES);
        // The memory beside the window is the decision's, judged against the plan with its own noise (MemoryAccount).
        for (String own : new String[] {"end", "memory"}) {
            before.remove(own);
            now.remove(own);
        }
        return before.keySet().equals(now.keySet()) && before.entrySet().stream().allMatch(e -> close(e.getValue(), now.get(e.getKey())));
    }

    private static boolean close(Object shown, Object polled) {
        if (shown instanceof Number a && polled instanceof Number b) {
            double x = a.doubleValue();
            double y = b.doubleValue();
            // Figures are rounded to 0.01, whose difference in doubles can exceed 0.01 by a hair (1.0 - 0.99).
            return Math.abs(x - y) <= Math.max(NOISE, NOISE * Math.max(Math.abs(x), Math.abs(y))) + ROUNDING_SLACK;
        }
        return Objects.equals(shown, polled);
    }

    public static MetricsReport unavailable(Reason reason, String message) {
        return new MetricsReport(ConditionStatus.FALSE, reason, message, null, null);
    }
}
