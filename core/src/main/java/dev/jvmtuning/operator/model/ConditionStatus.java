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
        return EnumTexts.find(ConditionStatus.class, ConditionStatus::text, text)
                .orElseThrow(() -> new IllegalArgumentException("not a condition status: " + text));
    }

    /** Whether a condition's status, as the API writes it (any kind of condition: ours, a pod's, a Deployment's), is this one. */
    public boolean is(String status) {
        return text.equals(status);
    }

    public String text() {
        return text;
    }

    @Override
    public String toString() {
        return text;
    }
}
