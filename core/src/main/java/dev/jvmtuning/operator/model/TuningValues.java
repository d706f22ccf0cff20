package dev.jvmtuning.operator.model;

import dev.jvmtuning.operator.api.v1alpha1.Collector;

/**
 * The planned numbers, runtime-neutral. A null field is left to the server or JVM default.
 */
public record TuningValues(
        Integer maxThreads,
        Integer minSpareThreads,
        Integer acceptCount,
        Integer maxConnections,
        Integer maxQueueSize,
        Integer poolMaxSize,
        Integer poolMinIdle,
        Integer activeProcessorCount,
        Long heapBytes,
        Long youngGenerationBytes,
        Collector collector,
        boolean zGenerational,
        Integer maxPauseMillis,
        Integer parallelGcThreads,
        Integer concGcThreads,
        Integer agentPort,
        Long reservedCodeCacheBytes,
        Long maxDirectMemoryBytes) {
}
