package dev.jvmtuning.operator.model;

/**
 * The figures of the plan in force that the pressure detector judges metrics against and starts its
 * recommendations from; null where the plan leaves a value to the server or the JVM.
 *
 * @param maxThreads  threads.max
 * @param heapBytes   the heap, whoever set it
 * @param poolMaxSize connectionPool.maxSize
 * @param processors  the CPUs the JVM sees
 */
public record CurrentSettings(Integer maxThreads, Long heapBytes, Integer poolMaxSize, Double processors) {
    /** No plan in force (the profile is invalid or does not fit). */
    public static final CurrentSettings UNKNOWN = new CurrentSettings(null, null, null, null);
}
