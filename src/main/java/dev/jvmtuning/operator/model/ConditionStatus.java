package dev.jvmtuning.operator.model;

/** A condition's status as the Kubernetes API writes it. */
public enum ConditionStatus {
    TRUE("True"), FALSE("False"), UNKNOWN("Unknown");

    private final String text;

    ConditionStatus(String text) {
        this.text = text;
    }

    public static ConditionStatus of(boolean value) {
        return value ? TRUE : FALSE;
    }

    public static ConditionStatus of(String text) {
        for (ConditionStatus status : values()) {
            if (status.text.equals(text)) {
                return status;
            }
        }
        throw new IllegalArgumentException("not a condition status: " + text);
    }

    public String text() {
        return text;
    }

    @Override
    public String toString() {
        return text;
    }
}
