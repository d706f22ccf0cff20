package dev.jvmtuning.operator.api.v1alpha1;

/** Who sizes one of the container's resources. */
public enum SizingPolicy {
    /** The container's own figure, as its template and admission give it: the operator plans within it. */
    Keep,
    /** The operator sizes it with the JVM, within the bounds, and writes it into the template (mode Apply and Auto). */
    Plan
}
