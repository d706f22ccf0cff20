package dev.jvmtuning.operator.api.v1alpha1;

/** What a recommendation asks for, so tools act on it without reading its prose. */
public enum RecommendedAction {
    /** Set the field to {@code recommended}, written as the spec writes that field. */
    Set,
    /** Change the field by {@code factor} times its value: the detector did not know the value in force. */
    Scale,
    /** Keep the field as it is and add capacity elsewhere (replicas, CPU): more of it would make things worse. */
    Keep,
    /** No new value: the figures point at a fault of the application (a leak) that sizing only delays. */
    Investigate
}
