package dev.jvmtuning.operator.api.v1alpha1;

public enum Collector {
    /** Chosen from CPUs, heap size, pause goal and JVM version. */
    Auto,
    Serial,
    Parallel,
    G1,
    ZGC,
    Shenandoah
}
