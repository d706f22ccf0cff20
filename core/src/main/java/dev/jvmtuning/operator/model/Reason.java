package dev.jvmtuning.operator.model;

import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Every reason the operator writes on a condition or an Event. A {@link Kind#STATE} reason says
 * where things stand (rolling out, no pod Ready yet), not that something went wrong, so it raises no Event.
 */
public enum Reason {
    // Applied and Ready
    APPLIED("Applied", "the planned settings are written into the Deployment", ConditionType.APPLIED),
    RECOMMEND_ONLY("RecommendOnly", "mode Recommend: the settings are planned and shown in status, the Deployment is not touched",
            ConditionType.APPLIED, ConditionType.READY),
    INVALID("Invalid", "the profile asks for something the operator refuses (a flag outside the policy, a value that does not parse); "
            + "the message names the field", ConditionType.APPLIED, ConditionType.READY),
    INFEASIBLE("Infeasible", "the settings cannot fit the container (heap and non-heap memory above the limit, ...); the message says "
            + "what would", ConditionType.APPLIED, ConditionType.READY),
    TARGET_NOT_FOUND("TargetNotFound", "the Deployment spec.targetRef names does not exist in the profile's namespace",
            ConditionType.APPLIED, ConditionType.READY, ConditionType.METRICS_AVAILABLE),
    CONFLICT("Conflict", "another TuningProfile already tunes the same Deployment, or the profile names a garbage collector while the "
            + "container's own JVM flags (its JVM options variables, command or args) select another, and the JVM refuses to start "
            + "with two; the message says where", ConditionType.APPLIED, ConditionType.READY),
    APPLY_FAILED("ApplyFailed", "the write to the Deployment was refused; the message quotes the API server", ConditionType.APPLIED,
            ConditionType.READY),
    ROLLED_BACK("RolledBack", "pods of a rollout the settings answer for failed (crash loop, OOM kill, repeated restarts, stalled rollout), so the "
            + "Deployment went back to the last healthy settings or its own template; not applied again until the profile or the "
            + "Deployment's own template changes, except that where the JVM refused one VM option the operator rendered "
            + "(status.refusedOption), the settings without it are rolled out next, once",
            ConditionType.APPLIED, ConditionType.READY),
    TAKEN_BACK("TakenBack", "another field manager (a GitOps controller re-applying the manifest from Git, a user's kubectl apply) "
            + "took back the fields the operator wrote into the Deployment twice within ten minutes, each time after the operator "
            + "wrote them: it writes them no more, so that the two do not roll the pods for each other, until the profile or the "
            + "Deployment's own template changes; the message names the manager and the fields, status.takenBack keeps them",
            ConditionType.APPLIED, ConditionType.READY),
    OOM_KILLS_REPEATED("OomKillsRepeated", "pods were OOM-killed again after three answered kills in a row, each with a larger "
            + "budget for the part that ran over, and no healthy rollout between: the Deployment stays on its own template until the "
            + "profile changes", ConditionType.APPLIED, ConditionType.READY),
    READY("Ready", "every replica runs the tuned pod template and no JVM reports other settings; the message says whether the JVMs "
            + "report the tuned settings, only some of them, or none, and why", ConditionType.READY),
    RECONCILE_FAILED("ReconcileFailed", "the reconcile failed on an unexpected error, which the message names; the operator retries "
            + "with backoff, and the next reconcile that gets through says again where the profile stands", ConditionType.READY),
    // RolloutComplete
    ROLLOUT_COMPLETE("RolloutComplete", "every replica runs the tuned pod template", ConditionType.ROLLOUT_COMPLETE),
    ROLLING_OUT("RollingOut", Kind.STATE, "the Deployment is rolling the pods onto the tuned pod template", ConditionType.ROLLOUT_COMPLETE,
            ConditionType.READY),
    DEGRADED("Degraded", "the rollout passed its progress deadline", ConditionType.ROLLOUT_COMPLETE, ConditionType.READY),
    // PodsFailing
    NOT_HELD_TO_SETTINGS("NotHeldToSettings", "a pod of the target fails, but not from a rollout the settings answer for: the message "
            + "names the pod, its state and last words, and why the operator did not roll back", ConditionType.PODS_FAILING),
    NO_POD_FAILING("NoPodFailing", "no pod of the target crash-loops, keeps restarting or was OOM-killed", ConditionType.PODS_FAILING),
    // SettingsEffective
    OPTIONS_IN_EFFECT("OptionsInEffect", "every pod of the settings in force reports every planned JVM option, each as planned",
            ConditionType.SETTINGS_EFFECTIVE),
    SETTINGS_NOT_EFFECTIVE("SettingsNotEffective", "a pod's JVM runs another value than planned (a later flag on its command line, "
            + "an image's entrypoint, a JDK without the option); the message names the pod, the option, both values and where the JVM's "
            + "came from", ConditionType.SETTINGS_EFFECTIVE, ConditionType.READY),
    OPTIONS_NOT_REPORTED("OptionsNotReported", Kind.STATE, "no pod of the settings in force has reported its options yet, or its "
            + "pods run no jvm-tuning agent (or an older one)", ConditionType.SETTINGS_EFFECTIVE),
    PARTLY_REPORTED("PartlyReported", Kind.STATE, "every pod reports, and what they report runs as planned, but a pod could not report "
            + "every planned JVM option: one without the jvm-tuning agent shows only the few its runtime's metrics publish (the heap "
            + "maximum, the collector); the message lists the settings read and those not, which the agent (metrics.injectAgent) "
            + "reads", ConditionType.SETTINGS_EFFECTIVE),
    // MetricsAvailable
    METRICS_READ("MetricsRead", "the pods' metrics were read; the message says from how many pods", ConditionType.METRICS_AVAILABLE),
    FIRST_SAMPLE("FirstSample", Kind.STATE, "one sample read: rates need the next one", ConditionType.METRICS_AVAILABLE),
    NO_READY_PODS("NoReadyPods", Kind.STATE, "the Deployment has no Ready pod to read", ConditionType.METRICS_AVAILABLE),
    SCRAPE_FAILED("ScrapeFailed", "no pod's metrics endpoint answered within the bounds; the message names the pods and why",
            ConditionType.METRICS_AVAILABLE),
    QUERY_FAILED("QueryFailed", "the install-time Prometheus did not answer the operator's queries", ConditionType.METRICS_AVAILABLE),
    // Pressure conditions
    NO_DATA("NoData", "the pods publish no series this condition is judged from", ConditionType.GC_PRESSURE,
            ConditionType.CONTEXT_SWITCH_PRESSURE, ConditionType.CPU_THROTTLED, ConditionType.THREAD_POOL_SATURATED,
            ConditionType.CONNECTION_POOL_STARVED, ConditionType.NATIVE_MEMORY_PRESSURE, ConditionType.HEAP_OVER_LIMIT),
    HEAP_BEYOND_LIMIT("HeapBeyondLimit", "a pod's maximum heap and the plan's non-heap budget exceed the pod's own memory limit; the "
            + "message names the pod, the heap, the budget and the limit", ConditionType.HEAP_OVER_LIMIT),
    HEAP_FITS_LIMIT("HeapFitsLimit", "every pod's maximum heap fits its memory limit beside the plan's non-heap budget; the message "
            + "names the tightest", ConditionType.HEAP_OVER_LIMIT),
    HEAP_FIXED_AT_START("HeapFixedAtStart", "a HorizontalPodAutoscaler scales on memory and the plan starts the heap at its maximum: "
            + "the message names the autoscaler, the heap and what to do", ConditionType.SCALE_DOWN_BLOCKED),
    HEAP_CAN_SHRINK("HeapCanShrink", "a HorizontalPodAutoscaler scales on memory and the plan starts the heap below its maximum",
            ConditionType.SCALE_DOWN_BLOCKED),
    GC_TIME_HIGH("GCTimeHigh", "garbage collection took more of the wall time than spec.pressure.gcTimePercent", ConditionType.GC_PRESSURE),
    HEAP_NEARLY_FULL("HeapNearlyFull", "the heap stays nearly full after collections: live data outgrows it", ConditionType.GC_PRESSURE),
    GC_TIME_NORMAL("GCTimeNormal", "garbage collection time is under its threshold", ConditionType.GC_PRESSURE),
    INVOLUNTARY_SWITCHES_HIGH("InvoluntarySwitchesHigh", "more involuntary context switches per CPU per second than "
            + "spec.pressure.involuntarySwitchesPerCorePerSecond: too many runnable threads for the CPUs", ConditionType.CONTEXT_SWITCH_PRESSURE),
    INVOLUNTARY_SWITCHES_NORMAL("InvoluntarySwitchesNormal", "involuntary context switches are under their threshold",
            ConditionType.CONTEXT_SWITCH_PRESSURE),
    THROTTLED("Throttled", "more CFS periods throttled than spec.pressure.cpuThrottlePercent: the CPU limit holds the JVM back",
            ConditionType.CPU_THROTTLED),
    NOT_THROTTLED("NotThrottled", "CFS throttling is under its threshold", ConditionType.CPU_THROTTLED),
    POOL_SATURATED("PoolSaturated", "nearly every request thread is busy: requests queue for a thread", ConditionType.THREAD_POOL_SATURATED),
    POOL_HAS_HEADROOM("PoolHasHeadroom", "the request threads have room", ConditionType.THREAD_POOL_SATURATED),
    VIRTUAL_THREADS("VirtualThreads", "requests run on virtual threads: no worker pool bounds them, so a platform pool's busy threads "
            + "say nothing of their concurrency; the connection limit (R18) and the connection pool bound them instead",
            ConditionType.THREAD_POOL_SATURATED),
    THREADS_WAIT_FOR_CONNECTIONS("ThreadsWaitForConnections", "request threads wait for a database connection: the pool is too small "
            + "for the threads that use it", ConditionType.CONNECTION_POOL_STARVED),
    NO_WAITERS("NoWaiters", "no request waits for a database connection", ConditionType.CONNECTION_POOL_STARVED),
    NATIVE_MEMORY_OVER_BUDGET("NativeMemoryOverBudget", "a pod's resident set is within 10% of the memory limit and a part beyond the "
            + "heap is over its budget; the message names the pod, the part over by the most, its figure, its budget and the others "
            + "over theirs", ConditionType.NATIVE_MEMORY_PRESSURE),
    WITHIN_BUDGET("WithinBudget", "a pod's resident set is within 10% of the memory limit, but every part beyond the heap is within "
            + "its budget: the heap fills the limit as planned", ConditionType.NATIVE_MEMORY_PRESSURE),
    MEMORY_HEADROOM("MemoryHeadroom", "every pod's resident set is more than 10% below the memory limit; the message says by how much, "
            + "and names a part over its budget all the same", ConditionType.NATIVE_MEMORY_PRESSURE),
    PINNED_TIME_HIGH("PinnedTimeHigh", "virtual threads blocked while pinned to their carrier threads for more than 5% of the "
            + "carriers' time: the other virtual threads wait for a carrier; the message names the frame that pins most",
            ConditionType.VIRTUAL_THREAD_PINNING),
    PINNED_TIME_NORMAL("PinnedTimeNormal", "virtual threads pinned their carriers for less than 5% of their time",
            ConditionType.VIRTUAL_THREAD_PINNING),
    // StartupBoost
    BOOSTING("Boosting", Kind.STATE, "pods are resized above their own CPU limit while they start; the message names them, the CPU, "
            + "their own limit and until when", ConditionType.STARTUP_BOOST),
    NOT_BOOSTING("NotBoosting", Kind.STATE, "no pod is starting: every pod runs its own CPU limit, and the next new pod is boosted; "
            + "or, without spec.startupBoost, boosted pods are coming back to their own", ConditionType.STARTUP_BOOST),
    BOOST_NOT_POSSIBLE("BoostNotPossible", "no pod is boosted, and boosted pods come back to their own CPU limit: the profile is "
            + "not applied (mode Recommend, or not Applied), the container has no CPU limit, the boost is not above it, or the "
            + "container's resizePolicy restarts it for a CPU change; the message says which", ConditionType.STARTUP_BOOST),
    RESIZE_FORBIDDEN("ResizeForbidden", "the API server refused the resize as forbidden: the operator's role lacks patch on "
            + "pods/resize (the Helm value startupBoost.allowResize); no new pod is boosted, the message names the pods that stay "
            + "boosted until it may resize them again or they are replaced and quotes the API server, and nothing else changes",
            ConditionType.STARTUP_BOOST),
    RESIZE_REFUSED("ResizeRefused", "the API server refused the resize for another reason (a cluster without the pods/resize "
            + "subresource, before Kubernetes 1.33, its admission, or a value it does not take); the message names the pods that "
            + "stay boosted and quotes it, and nothing else changes", ConditionType.STARTUP_BOOST),
    RESIZE_INFEASIBLE("ResizeInfeasible", "the node cannot resize the pod in place (the kubelet says Infeasible, or its resize "
            + "failed): the pod was put back on its own CPU, and no pod is boosted again until the profile changes; the message "
            + "names the pod and quotes the node", ConditionType.STARTUP_BOOST),
    RESIZE_DEFERRED("ResizeDeferred", "the node has no room for the boost now (the kubelet says Deferred): the pod keeps its "
            + "own CPU until the node makes room or the boost ends; the message names the pod and quotes the node",
            ConditionType.STARTUP_BOOST),
    // Events only
    SETTING_OVERRIDDEN("SettingOverridden", "a rendered setting is overridden by the pod's own command, arguments or environment, so "
            + "the JVM will not run it"),
    OOM_KILLED("OOMKilled", "a pod's tuned container was killed for memory (reason OOMKilled, or exit code 137): the message names "
            + "the pod, the most likely cause (metaspace, direct memory, thread stacks, other native memory, a plan that cannot "
            + "fit the limit, a heap set outside the operator that the JVM runs instead of the planned one, or unknown without a reading "
            + "before the kill) and the figures; status.lastOomKill keeps the last one. "
            + "Once per kill"),
    PLANNED_FOR_ADMITTED_POD("PlannedForAdmittedPod", "the target's newest pod runs other resources than the Deployment's template "
            + "(a LimitRange default, a VerticalPodAutoscaler, a mutating admission policy, an in-place resize), or admission added "
            + "JVM options to its JAVA_TOOL_OPTIONS: the message names the pod and both values, and the settings are planned for the "
            + "pod as admitted (status.admitted), or, where a VPA moves the memory limit, the heap is a share of each pod's own limit "
            + "planned at the VPA's floor (status.verticalScaling). Once per change"),
    RELEASED("Released", "the operator no longer watches the profile's namespace: it took back the boosts of the target's pods and "
            + "restored the Deployment's own template (when it still may; the message says what stays) and removed its finalizer, so "
            + "that deleting the profile or the namespace does not wait for it"),
    STARTUP_BOOST_STARTED("StartupBoostStarted", "starting pods were resized in place above their CPU limit (spec.startupBoost): "
            + "the message names them and the CPU, and until when"),
    STARTUP_BOOST_ENDED("StartupBoostEnded", "boosted pods were resized back to their own CPU limit, as the profile's "
            + "status.startupBoosts records it: Ready and the warm-up passed, the container restarted, the pod took too long to "
            + "start, the boost was removed or is no longer possible, or the profile was deleted"),
    // Mode Auto's loop (Events)
    AUTO_STEP("AutoStep", "mode Auto moved one setting a step towards its plan"),
    AUTO_KEPT("AutoKept", "mode Auto kept its last step: no measure got worse"),
    AUTO_REVERTED("AutoReverted", "mode Auto took its last step back: a measure got worse beyond its tolerance"),
    AUTO_CONVERGED("AutoConverged", "mode Auto stopped moving: no setting would move by a step that counts"),
    AUTO_RESUMED("AutoResumed", "mode Auto started again: the workload moved away from what it converged on"),
    AUTO_CLAMPED("AutoClamped", "mode Auto, resting (Holding or Converged), moved a setting it holds within its bounds at once: "
            + "spec.auto lowered a max below it or raised a min above it since the loop set it; the message names the setting, both "
            + "values and the bound. While the loop steps, its next step brings the setting within them");

    /** A fault or an outcome, or merely a state on the way to one. */
    public enum Kind {
        OUTCOME, STATE
    }

    private final String text;
    private final Kind kind;
    private final String description;
    private final Set<ConditionType> conditions;

    Reason(String text, String description, ConditionType... conditions) {
        this(text, Kind.OUTCOME, description, conditions);
    }

    Reason(String text, Kind kind, String description, ConditionType... conditions) {
        this.text = text;
        this.kind = kind;
        this.description = description;
        this.conditions = conditions.length == 0 ? Set.of() : Collections.unmodifiableSet(EnumSet.copyOf(List.of(conditions)));
    }

    /** What the reason means, as the reference documentation says it. */
    public String description() {
        return description;
    }

    /** The conditions this reason is written on; none for a reason of Events only. */
    public Set<ConditionType> conditions() {
        return conditions;
    }

    /** The reason as written in status and Events (UpperCamelCase, as the API conventions ask). */
    public String text() {
        return text;
    }

    public boolean isState() {
        return kind == Kind.STATE;
    }

    /** The constant written as {@code text}, if this operator writes it. */
    public static Optional<Reason> find(String text) {
        return EnumTexts.find(Reason.class, Reason::text, text);
    }

    @Override
    public String toString() {
        return text;
    }
}
