package dev.jvmtuning.operator.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import lombok.Data;

/** The load one pod must carry; the figures that omitted thread, queue and pool values are derived from. */
@Data
@ValidationRule(value = "!has(self.cpuPerRequest) || !has(self.meanLatency) || duration(self.cpuPerRequest) <= duration(self.meanLatency)",
        message = "workload.cpuPerRequest cannot exceed workload.meanLatency: a request cannot burn more CPU time than it takes")
@ValidationRule(value = "!has(self.dbTimePerRequest) || !has(self.meanLatency) || duration(self.dbTimePerRequest) <= duration(self.meanLatency)",
        message = "workload.dbTimePerRequest cannot exceed workload.meanLatency: the database call is part of the request")
public class Workload {
    @Min(0.001)
    @Max(1_000_000)
    // kube-apiserver compares an integer value against the truncated minimum, so 0 would pass @Min alone.
    @ValidationRule(value = "self > 0.0", message = "workload.requestsPerSecond must be positive")
    @JsonPropertyDescription("Target requests per second that one pod must serve.")
    private Double requestsPerSecond;

    @Size(max = Patterns.DURATION_MAX_LENGTH)
    @Pattern(Patterns.DURATION)
    @ValidationRule(value = "duration(self) > duration('0s')", message = "workload.meanLatency must be positive")
    @JsonPropertyDescription("Mean time a request spends in the server (wall time), e.g. 300ms.")
    private String meanLatency;

    @Size(max = Patterns.DURATION_MAX_LENGTH)
    @Pattern(Patterns.DURATION)
    @ValidationRule(value = "duration(self) > duration('0s')", message = "workload.cpuPerRequest must be positive")
    @JsonPropertyDescription("CPU time one request consumes, e.g. 4ms. Caps the threads at the point where the CPUs saturate.")
    private String cpuPerRequest;

    @Size(max = Patterns.DURATION_MAX_LENGTH)
    @Pattern(Patterns.DURATION)
    @JsonPropertyDescription("Longest a request may wait in the executor queue before it is better rejected, e.g. 2s.")
    private String maxQueueWait;

    @Size(max = Patterns.DURATION_MAX_LENGTH)
    @Pattern(Patterns.DURATION)
    @JsonPropertyDescription("Time one request holds a database connection, e.g. 50ms. Sizes the connection pool.")
    private String dbTimePerRequest;

    @Size(max = Patterns.MEMORY_MAX_LENGTH)
    @Pattern(Patterns.MEMORY)
    // Whole KiB, as the operator measures and recommends it; less would round to no allocation at all.
    @ValidationRule(value = "quantity(self).compareTo(quantity('1Ki')) >= 0", message = "workload.allocationPerRequest must be at least 1Ki")
    @ValidationRule(value = "quantity(self).compareTo(quantity('" + Patterns.MEMORY_MAX + "')) <= 0",
            message = "workload.allocationPerRequest must be at most " + Patterns.MEMORY_MAX)
    @JsonPropertyDescription("Heap one request allocates, e.g. 2Mi (the JVM's allocated bytes over the requests served). Caps derived "
            + "threads so the garbage of the requests in flight fits a survivor space (R12a).")
    private String allocationPerRequest;

    @Size(max = Patterns.MEMORY_MAX_LENGTH)
    @Pattern(Patterns.MEMORY)
    @ValidationRule(value = "quantity(self).compareTo(quantity('1Mi')) >= 0", message = "workload.liveHeap must be at least 1Mi")
    @ValidationRule(value = "quantity(self).compareTo(quantity('" + Patterns.MEMORY_MAX + "')) <= 0",
            message = "workload.liveHeap must be at most " + Patterns.MEMORY_MAX)
    @JsonPropertyDescription("Heap the service keeps live: the old generation's occupancy right after a collection, e.g. 300Mi "
            + "(status.observed.liveHeapMib). With sizing.memory Plan and no heap.size, the heap is three times this (R9c).")
    private String liveHeap;

    @Min(100)
    @Max(10_000_000)
    @JsonPropertyDescription("Classes the service loads when warm (the JVM's loaded-classes metric). Sizes the metaspace budget (R9) "
            + "instead of the runtime's typical count.")
    private Integer loadedClasses;
}
