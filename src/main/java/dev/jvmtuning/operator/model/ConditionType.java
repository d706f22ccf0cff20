package dev.jvmtuning.operator.model;

import java.util.Arrays;
import java.util.Optional;

/** The condition types of a TuningProfile's status. */
public enum ConditionType {
    READY("Ready", Polarity.NORMAL_TRUE),
    APPLIED("Applied", Polarity.NORMAL_TRUE),
    ROLLOUT_COMPLETE("RolloutComplete", Polarity.NORMAL_TRUE),
    METRICS_AVAILABLE("MetricsAvailable", Polarity.NORMAL_TRUE),
    GC_PRESSURE("GCPressure", Polarity.ABNORMAL_TRUE),
    CONTEXT_SWITCH_PRESSURE("ContextSwitchPressure", Polarity.ABNORMAL_TRUE),
    CPU_THROTTLED("CPUThrottled", Polarity.ABNORMAL_TRUE),
    THREAD_POOL_SATURATED("ThreadPoolSaturated", Polarity.ABNORMAL_TRUE),
    CONNECTION_POOL_STARVED("ConnectionPoolStarved", Polarity.ABNORMAL_TRUE);

    /** Whether True is the good state (Ready) or the trouble (a pressure, like a Node's MemoryPressure). */
    public enum Polarity {
        NORMAL_TRUE, ABNORMAL_TRUE
    }

    private final String text;
    private final Polarity polarity;

    ConditionType(String text, Polarity polarity) {
        this.text = text;
        this.polarity = polarity;
    }

    /** The type as written in status. */
    public String text() {
        return text;
    }

    public boolean isPressure() {
        return polarity == Polarity.ABNORMAL_TRUE;
    }

    /** The constant written as {@code text}, if this operator writes it. */
    public static Optional<ConditionType> find(String text) {
        return Arrays.stream(values()).filter(v -> v.text.equals(text)).findFirst();
    }

    @Override
    public String toString() {
        return text;
    }
}
