package dev.jvmtuning.operator.model;

/**
 * Every value the planner decides, by the name status shows ({@code status.settings[].name}). Where
 * one goes in the container (a JVM flag, a server property of the runtime, or nowhere: a figure the
 * plan accounts for but does not render) is the renderer's to say, per runtime. Declared in the order
 * status lists them.
 */
public enum Setting {
    MEMORY_LIMIT("resources.limits.memory"),
    MEMORY_REQUEST("resources.requests.memory"),
    CPU_REQUEST("resources.requests.cpu"),
    ACTIVE_PROCESSOR_COUNT("jvm.activeProcessorCount"),
    THREADS_MAX("threads.max"),
    THREADS_MIN_SPARE("threads.minSpare"),
    VIRTUAL_THREAD_PARALLELISM("jvm.virtualThreadParallelism"),
    HEAP_SIZE("heap.size"),
    HEAP_INITIAL("heap.initial"),
    HEAP_SOFT_MAX("heap.softMax"),
    COMPACT_OBJECT_HEADERS("jvm.compactObjectHeaders"),
    THREAD_STACK_BUDGET("jvm.threadStackBudget"),
    METASPACE_BUDGET("jvm.metaspaceBudget"),
    MAX_DIRECT_MEMORY("jvm.maxDirectMemorySize"),
    NATIVE_OVERHEAD_BUDGET("jvm.nativeOverheadBudget"),
    MALLOC_ARENA_MAX("jvm.mallocArenaMax"),
    GC_COLLECTOR("gc.collector"),
    GC_MAX_PAUSE_MILLIS("gc.maxPauseMillis"),
    HEAP_YOUNG("heap.young"),
    GC_PARALLEL_THREADS("gc.parallelThreads"),
    GC_CONCURRENT_THREADS("gc.concurrentThreads"),
    QUEUE_MAX_QUEUE_SIZE("queue.maxQueueSize"),
    QUEUE_ACCEPT_COUNT("queue.acceptCount"),
    QUEUE_MAX_CONNECTIONS("queue.maxConnections"),
    POOL_MAX_SIZE("connectionPool.maxSize"),
    POOL_MIN_IDLE("connectionPool.minIdle"),
    POOL_ACQUISITION_TIMEOUT("connectionPool.acquisitionTimeout"),
    METRICS_AGENT("metrics.agent");

    private final String key;

    Setting(String key) {
        this.key = key;
    }

    /** The name in status and in the profile's vocabulary, e.g. threads.max. */
    public String key() {
        return key;
    }

    @Override
    public String toString() {
        return key;
    }
}
