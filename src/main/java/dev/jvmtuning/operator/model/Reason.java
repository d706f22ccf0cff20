package dev.jvmtuning.operator.model;

import java.util.Arrays;
import java.util.Optional;

/**
 * Every reason the operator writes on a condition or an Event. A {@link Kind#STATE} reason says
 * where things stand (rolling out, no pod Ready yet), not that something went wrong, so it raises no Event.
 */
public enum Reason {
    // Applied and Ready
    APPLIED("Applied"),
    RECOMMEND_ONLY("RecommendOnly"),
    INVALID("Invalid"),
    INFEASIBLE("Infeasible"),
    TARGET_NOT_FOUND("TargetNotFound"),
    CONFLICT("Conflict"),
    APPLY_FAILED("ApplyFailed"),
    ROLLED_BACK("RolledBack"),
    READY("Ready"),
    // RolloutComplete
    ROLLOUT_COMPLETE("RolloutComplete"),
    ROLLING_OUT("RollingOut", Kind.STATE),
    DEGRADED("Degraded"),
    // MetricsAvailable
    METRICS_READ("MetricsRead"),
    FIRST_SAMPLE("FirstSample", Kind.STATE),
    NO_READY_PODS("NoReadyPods", Kind.STATE),
    SCRAPE_FAILED("ScrapeFailed"),
    QUERY_FAILED("QueryFailed"),
    // Pressure conditions
    NO_DATA("NoData"),
    GC_TIME_HIGH("GCTimeHigh"),
    HEAP_NEARLY_FULL("HeapNearlyFull"),
    GC_TIME_NORMAL("GCTimeNormal"),
    INVOLUNTARY_SWITCHES_HIGH("InvoluntarySwitchesHigh"),
    INVOLUNTARY_SWITCHES_NORMAL("InvoluntarySwitchesNormal"),
    THROTTLED("Throttled"),
    NOT_THROTTLED("NotThrottled"),
    POOL_SATURATED("PoolSaturated"),
    POOL_HAS_HEADROOM("PoolHasHeadroom"),
    THREADS_WAIT_FOR_CONNECTIONS("ThreadsWaitForConnections"),
    NO_WAITERS("NoWaiters"),
    // Events only
    SETTING_OVERRIDDEN("SettingOverridden"),
    // Mode Auto's loop (Events)
    AUTO_STEP("AutoStep"),
    AUTO_KEPT("AutoKept"),
    AUTO_REVERTED("AutoReverted"),
    AUTO_CONVERGED("AutoConverged"),
    AUTO_RESUMED("AutoResumed");

    /** A fault or an outcome, or merely a state on the way to one. */
    public enum Kind {
        OUTCOME, STATE
    }

    private final String text;
    private final Kind kind;

    Reason(String text) {
        this(text, Kind.OUTCOME);
    }

    Reason(String text, Kind kind) {
        this.text = text;
        this.kind = kind;
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
        return Arrays.stream(values()).filter(v -> v.text.equals(text)).findFirst();
    }

    @Override
    public String toString() {
        return text;
    }
}
