package dev.jvmtuning.operator.model;

/**
 * The figures of the plan in force that the pressure detector judges metrics against and starts its
 * recommendations from; null where the plan leaves a value to the server or the JVM.
 *
 * @param maxThreads  threads.max
 * @param heapBytes   the heap, whoever set it
 * @param poolMaxSize connectionPool.maxSize
 * @param processors  the CPUs the JVM sees
 * @param threading   what runs the requests, or null when unknown
 */
public record CurrentSettings(Integer maxThreads, Long heapBytes, Integer poolMaxSize, Double processors, RequestThreading threading) {
    /** No plan in force (the profile is invalid or does not fit), nor what runs the requests. */
    public static final CurrentSettings UNKNOWN = noPlan(null);

    /**
     * No plan in force, but what runs the requests, which the container says without one: on virtual threads a
     * platform pool's series must not raise a saturation even while the profile is refused.
     */
    public static CurrentSettings noPlan(RequestThreading threading) {
        return new CurrentSettings(null, null, null, null, threading);
    }

    /** Whether requests run on virtual threads, so no platform pool bounds them. */
    public boolean virtualThreads() {
        return threading != null && threading.virtual();
    }
}
