package dev.jvmtuning.operator.pressure;

import static dev.jvmtuning.operator.model.ConditionType.SCALE_DOWN_BLOCKED;
import static dev.jvmtuning.operator.model.Units.mebibytes;

import dev.jvmtuning.operator.model.ConditionStatus;
import dev.jvmtuning.operator.model.Reason;
import dev.jvmtuning.operator.model.TuningValues;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.autoscaling.v2.MetricSpec;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Whether a HorizontalPodAutoscaler that scales the target on memory can ever scale it down under the plan. A JVM whose heap
 * starts at its maximum (-Xms = -Xmx) commits it for good: the pods' memory never falls below the heap, however little they
 * serve, so a memory target met at peak holds the replicas there. Pure.
 */
public final class ScaleDown {
    private static final String MEMORY = "memory";

    private ScaleDown() {
    }

    /** The finding for the autoscalers of the target; empty when none scales on memory. */
    public static Optional<Finding> judge(List<HorizontalPodAutoscaler> autoscalers, TuningValues values) {
        Optional<HorizontalPodAutoscaler> onMemory = autoscalers.stream().filter(ScaleDown::scalesOnMemory).findFirst();
        if (onMemory.isEmpty()) {
            return Optional.empty();
        }
        String autoscaler = "HorizontalPodAutoscaler " + onMemory.get().getMetadata().getName() + " scales the Deployment on memory";
        if (values.heapBytes() != null && values.initialHeapBytes() != null && values.initialHeapBytes() >= values.heapBytes()) {
            return Optional.of(new Finding(SCALE_DOWN_BLOCKED, ConditionStatus.TRUE, Reason.HEAP_FIXED_AT_START, autoscaler + ", and the plan "
                    + "starts the heap at its maximum (-Xms = -Xmx = " + mebibytes(values.heapBytes()) + "): the JVM keeps it committed, "
                    + "the pods' memory never falls below it, and the autoscaler never scales down. Scale on CPU or requests per second, "
                    + "or size the heap as a share of the limit with a lower start (heap.percentOfLimit)"));
        }
        return Optional.of(new Finding(SCALE_DOWN_BLOCKED, ConditionStatus.FALSE, Reason.HEAP_CAN_SHRINK, autoscaler + "; the plan "
                + (values.heapBytes() == null ? "leaves the heap to the JVM's ergonomics, which start it below its maximum"
                        : "starts the heap below its maximum " + mebibytes(values.heapBytes()))
                + ": the JVM can give memory back after collections"));
    }

    private static boolean scalesOnMemory(HorizontalPodAutoscaler autoscaler) {
        return autoscaler.getSpec() != null && Objects.requireNonNullElse(autoscaler.getSpec().getMetrics(), List.<MetricSpec>of()).stream()
                .anyMatch(m -> m.getResource() != null && MEMORY.equals(m.getResource().getName())
                        || m.getContainerResource() != null && MEMORY.equals(m.getContainerResource().getName()));
    }
}
