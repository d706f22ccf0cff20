package dev.jvmtuning.operator.api.v1alpha1;

/** What runs a request: a worker of the server's platform thread pool, or a virtual thread of its own. */
public enum ThreadingModel {
    Platform,
    Virtual
}
