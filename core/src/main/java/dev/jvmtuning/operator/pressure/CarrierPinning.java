package dev.jvmtuning.operator.pressure;

import static dev.jvmtuning.operator.model.ConditionType.VIRTUAL_THREAD_PINNING;

import dev.jvmtuning.operator.model.ConditionStatus;
import dev.jvmtuning.operator.model.Reason;
import dev.jvmtuning.operator.model.VirtualThreads;
import dev.jvmtuning.operator.model.VirtualThreads.Pinning;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Judges the virtual threads' pinning over a window: the share of the carriers' time that virtual threads held them
 * while blocked, pinned (a native frame or a class initializer on the stack; on JDK 21 to 23 also synchronized), and the
 * frame that pinned most. Pure: the pods' pinning in, the VirtualThreadPinning finding out, none for pods that report
 * no pinning series.
 */
public final class CarrierPinning {
    /**
     * Of the carriers' time (the window times the carriers, summed over the pods). A carrier held by a blocked virtual
     * thread runs no other one, so this much of them lost is as much CPU capacity the virtual threads cannot use: the
     * same order as the time garbage collection may take before it is pressure. Pinnings shorter than the agent's
     * threshold (20 ms) are not counted, so the share is a floor.
     */
    static final double PINNED_SHARE_PERCENT = 5;

    private CarrierPinning() {
    }

    /** @param window the window's length as status shows it */
    public static Optional<Finding> judge(Map<String, Pinning> pods, String window) {
        if (pods.isEmpty()) {
            return Optional.empty();
        }
        double carrierSeconds = pods.values().stream().mapToDouble(Pinning::carrierSeconds).sum();
        Map<String, Double> secondsByFrame = new LinkedHashMap<>();
        pods.values().forEach(pod -> pod.frames().forEach((frame, pinned) -> secondsByFrame.merge(frame, pinned.seconds(), Double::sum)));
        double pinnedSeconds = secondsByFrame.values().stream().mapToDouble(Double::doubleValue).sum();
        double share = 100 * pinnedSeconds / carrierSeconds;
        // Whole percents, down, so that a share under the threshold never reads as the threshold itself.
        String measured = "virtual threads blocked pinned to their carriers " + percent(Math.floor(share)) + " of the carriers' time over "
                + window + " (threshold " + percent(PINNED_SHARE_PERCENT) + ")";
        if (share < PINNED_SHARE_PERCENT) {
            return Optional.of(new Finding(VIRTUAL_THREAD_PINNING, ConditionStatus.FALSE, Reason.PINNED_TIME_NORMAL, measured));
        }
        Map.Entry<String, Double> most = secondsByFrame.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow();
        String frame = most.getKey().equals(VirtualThreads.OTHER) ? "frames the agent does not name" : most.getKey();
        return Optional.of(new Finding(VIRTUAL_THREAD_PINNING, ConditionStatus.TRUE, Reason.PINNED_TIME_HIGH,
                measured + "; " + frame + " pinned most, " + percent(100 * most.getValue() / pinnedSeconds) + " of it"));
    }

    /** Whole percents: finer figures would rewrite the condition's message at every poll. */
    private static String percent(double value) {
        return Math.round(value) + "%";
    }
}
