package dev.jvmtuning.operator.pressure;

import dev.jvmtuning.operator.model.ConditionStatus;
import dev.jvmtuning.operator.model.ConditionType;
import dev.jvmtuning.operator.model.Reason;

/**
 * A condition the detector sets: status True (pressure), False (none) or Unknown (no data), with a
 * reason and a message that carries the measured numbers and the threshold.
 */
public record Finding(ConditionType type, ConditionStatus status, Reason reason, String message) {
}
