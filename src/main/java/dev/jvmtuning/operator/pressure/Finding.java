package dev.jvmtuning.operator.pressure;

/**
 * A condition the detector sets: status True (pressure), False (none) or Unknown (no data), with a
 * reason and a message that carries the measured numbers and the threshold.
 */
public record Finding(String type, String status, String reason, String message) {
    public static final String TRUE = "True";
    public static final String FALSE = "False";
    public static final String UNKNOWN = "Unknown";
}
