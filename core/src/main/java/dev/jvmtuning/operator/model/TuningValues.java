package dev.jvmtuning.operator.model;

import dev.jvmtuning.operator.api.v1alpha1.Collector;

/**
 * The planned numbers, runtime-neutral. A null field is left to the server or JVM default.
 * {@code poolAcquisitionTimeoutMillis} is how long a request may wait for a pooled connection;
 * {@code virtualThreadParallelism} the carrier threads of the virtual-thread scheduler; {@code agentPinnedThresholdMillis}
 * the shortest virtual-thread pinning the injected agent records (null: none, and no flight recorder started);
 * {@code mallocArenaMax} glibc's malloc arenas (MALLOC_ARENA_MAX), set only to answer an OOM kill by native memory.
 * {@code heapBytes} is the maximum heap; {@code initialHeapBytes} the initial one (null: left to the collector, which then
 * has {@code softMaxHeapBytes} as its target). {@code resources} is the container's memory and CPU as spec.sizing has the plan size
 * them, {@link PlannedResources#NONE} where the container's own stand.
 */
public record TuningValues(
        Integer maxThreads,
        Integer minSpareThreads,
        Integer acceptCount,
        Integer maxConnections,
        Integer maxQueueSize,
        Integer poolMaxSize,
        Integer poolMinIdle,
        Integer poolAcquisitionTimeoutMillis,
        Integer activeProcessorCount,
        Integer virtualThreadParallelism,
        Long heapBytes,
        Long initialHeapBytes,
        Long softMaxHeapBytes,
        Long youngGenerationBytes,
        Collector collector,
        boolean zGenerational,
        boolean compactObjectHeaders,
        Integer maxPauseMillis,
        Integer parallelGcThreads,
        Integer concGcThreads,
        Integer agentPort,
        Integer agentPinnedThresholdMillis,
        Long reservedCodeCacheBytes,
        Long maxDirectMemoryBytes,
        Integer mallocArenaMax,
        PlannedResources resources) {
}
