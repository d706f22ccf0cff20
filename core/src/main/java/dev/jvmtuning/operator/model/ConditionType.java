package dev.jvmtuning.operator.model;

import java.util.Optional;

/** The condition types of a TuningProfile's status. */
public enum ConditionType {
    READY("Ready", Polarity.NORMAL_TRUE, "the summary: every replica runs the tuned pod template and no "
            + "JVM reports other settings; the message says what the JVMs report (or, in mode Recommend, the settings are planned)"),
    APPLIED("Applied", Polarity.NORMAL_TRUE, "the planned settings are written into the Deployment"),
    ROLLOUT_COMPLETE("RolloutComplete", Polarity.NORMAL_TRUE, "every replica runs the tuned pod template"),
    SETTINGS_EFFECTIVE("SettingsEffective", Polarity.NORMAL_TRUE, "every pod of the settings in force runs the planned JVM options, as "
            + "its own JVM reports them (the jvm-tuning agent's jvmtuning_vm_option series)"),
    METRICS_AVAILABLE("MetricsAvailable", Polarity.NORMAL_TRUE, "the operator reads the pods' metrics"),
    GC_PRESSURE("GCPressure", Polarity.ABNORMAL_TRUE, "garbage collection takes too much of the time, or the heap stays full"),
    CONTEXT_SWITCH_PRESSURE("ContextSwitchPressure", Polarity.ABNORMAL_TRUE, "the CPUs switch between too many runnable threads"),
    CPU_THROTTLED("CPUThrottled", Polarity.ABNORMAL_TRUE, "the container's CPU limit throttles the JVM"),
    THREAD_POOL_SATURATED("ThreadPoolSaturated", Polarity.ABNORMAL_TRUE, "the server's request threads are all busy"),
    CONNECTION_POOL_STARVED("ConnectionPoolStarved", Polarity.ABNORMAL_TRUE, "request threads wait for database connections"),
    NATIVE_MEMORY_PRESSURE("NativeMemoryPressure", Polarity.ABNORMAL_TRUE, "a pod's resident set is near the container's memory limit "
            + "and a part beyond the heap (metaspace, code cache, thread stacks, direct memory, other native memory) has grown past "
            + "its budget: the heap does not explain it, and the next growth is an OOM kill"),
    HEAP_OVER_LIMIT("HeapOverLimit", Polarity.ABNORMAL_TRUE, "a pod's JVM runs a maximum heap that, beside the non-heap memory the "
            + "plan budgets, does not fit the pod's own memory limit (a pod resized in place since its JVM started, an -Xmx set outside "
            + "the operator, a pod admitted otherwise): the kernel kills it once the heap fills; the message names the pod, the heap "
            + "and the limit"),
    SCALE_DOWN_BLOCKED("ScaleDownBlocked", Polarity.ABNORMAL_TRUE, "a HorizontalPodAutoscaler scales the target on memory while the "
            + "plan starts the heap at its maximum (-Xms = -Xmx): the JVM keeps it committed, the pods' memory never falls, and the "
            + "autoscaler never scales down; absent without an autoscaler that scales on memory"),
    VIRTUAL_THREAD_PINNING("VirtualThreadPinning", Polarity.ABNORMAL_TRUE, "virtual threads block while pinned to their carrier "
            + "threads for too much of the carriers' time (the jvm-tuning agent's jvmtuning_virtual_thread_pinned series, JDK 21 on); "
            + "absent while no pod reports such series"),
    PODS_FAILING("PodsFailing", Polarity.ABNORMAL_TRUE, "a pod of the target fails (crash loop, OOM kill, repeated restarts, a stalled "
            + "rollout) for what the settings are not held to account for: a release of the Deployment's own template, an incident "
            + "after spec.rollback.window, a pod of other settings; the message names the pod, what it said and why nothing was rolled "
            + "back. Absent outside mode Apply and Auto"),
    STARTUP_BOOST("StartupBoost", Polarity.NORMAL_TRUE, "pods of the target run above their CPU limit while their JVMs start "
            + "(spec.startupBoost), by an in-place resize that is taken back after Ready and the warm-up; absent without "
            + "spec.startupBoost");

    /** Whether True is the good state (Ready) or the trouble (a pressure, like a Node's MemoryPressure). */
    public enum Polarity {
        NORMAL_TRUE, ABNORMAL_TRUE
    }

    private final String text;
    private final Polarity polarity;
    private final String description;

    ConditionType(String text, Polarity polarity, String description) {
        this.text = text;
        this.polarity = polarity;
        this.description = description;
    }

    /** What True means, as the reference documentation says it. */
    public String description() {
        return description;
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
        return EnumTexts.find(ConditionType.class, ConditionType::text, text);
    }

    @Override
    public String toString() {
        return text;
    }
}
