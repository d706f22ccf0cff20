package dev.jvmtuning.operator.model;

/**
 * Every value the planner decides, by the name status shows ({@code status.settings[].name}) and
 * where it goes in the container: a JVM flag, a server property of the runtime, or nowhere (a
 * figure the plan accounts for but does not render). Declared in the order status lists them.
 */
public enum Setting {
    ACTIVE_PROCESSOR_COUNT("jvm.activeProcessorCount", Target.JVM_FLAG),
    THREADS_MAX("threads.max", Target.SERVER_PROPERTY),
    THREADS_MIN_SPARE("threads.minSpare", Target.SERVER_PROPERTY),
    HEAP_SIZE("heap.size", Target.JVM_FLAG),
    HEAP_INITIAL("heap.initial", Target.JVM_FLAG),
    THREAD_STACK_BUDGET("jvm.threadStackBudget", Target.NONE),
    GC_COLLECTOR("gc.collector", Target.JVM_FLAG),
    GC_MAX_PAUSE_MILLIS("gc.maxPauseMillis", Target.JVM_FLAG),
    HEAP_YOUNG("heap.young", Target.JVM_FLAG),
    GC_PARALLEL_THREADS("gc.parallelThreads", Target.JVM_FLAG),
    GC_CONCURRENT_THREADS("gc.concurrentThreads", Target.JVM_FLAG),
    QUEUE_MAX_QUEUE_SIZE("queue.maxQueueSize", Target.SERVER_PROPERTY),
    QUEUE_ACCEPT_COUNT("queue.acceptCount", Target.SERVER_PROPERTY),
    QUEUE_MAX_CONNECTIONS("queue.maxConnections", Target.SERVER_PROPERTY),
    POOL_MAX_SIZE("connectionPool.maxSize", Target.SERVER_PROPERTY),
    POOL_MIN_IDLE("connectionPool.minIdle", Target.SERVER_PROPERTY),
    METRICS_AGENT("metrics.agent", Target.JVM_FLAG);

    /** Where a setting is rendered. */
    public enum Target {
        JVM_FLAG, SERVER_PROPERTY, NONE
    }

    private final String key;
    private final Target target;

    Setting(String key, Target target) {
        this.key = key;
        this.target = target;
    }

    /** The name in status and in the profile's vocabulary, e.g. threads.max. */
    public String key() {
        return key;
    }

    public Target target() {
        return target;
    }

    @Override
    public String toString() {
        return key;
    }
}
