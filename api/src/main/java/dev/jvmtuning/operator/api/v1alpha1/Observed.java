package dev.jvmtuning.operator.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.List;
import lombok.AccessLevel;
import lombok.AllArgsConstructor;
import lombok.Data;
import lombok.NoArgsConstructor;
import lombok.With;

/** Figures of one metrics window, averaged over the target's ready pods, and the memory of one of them. */
@Data
@NoArgsConstructor
@AllArgsConstructor(access = AccessLevel.PRIVATE)
public class Observed {
    @JsonPropertyDescription("Length of the window the rates are computed over, e.g. 30s.")
    private String window;
    @JsonPropertyDescription("When the window shown ended: a later window whose figures are all within 1% (or 0.01) of these leaves status as it is.")
    private String end;
    @JsonPropertyDescription("Number of pods whose metrics were read.")
    private Integer pods;
    @JsonPropertyDescription("The pods' endpoints the window's figures were read from, each as its role, port and path "
            + "(agent :9404/metrics, runtime :8080/actuator/prometheus), with the pods it answered on at both ends of the window "
            + "where not all: the agent's (metrics.injectAgent) serves the JVM's and the container's figures, the runtime's own "
            + "the connection pool's and the requests'. Where both serve a series of the same name, the agent's is read. "
            + "Absent with metrics.source Prometheus.")
    private List<String> sources;
    @JsonPropertyDescription("Percent of wall time spent in GC pauses.")
    private Double gcTimePercent;
    @JsonPropertyDescription("Heap occupancy after the last GC, percent of the maximum heap.")
    private Double heapAfterGcPercent;
    @JsonPropertyDescription("Heap live after the last collection, MiB: the old generation's occupancy right after it, which "
            + "workload.liveHeap declares and sizing.memory sizes the heap from (R9c).")
    private Double liveHeapMib;
        @JsonPropertyDescription("Involuntary context switches per CPU per second.")
    private Double involuntarySwitchesPerCorePerSecond;
    @JsonPropertyDescription("Percent of CFS periods throttled.")
    private Double cpuThrottlePercent;
    @JsonPropertyDescription("CPU used, in cores.")
    private Double cpuCores;
    @JsonPropertyDescription("Busy request worker threads: the window's mean where the pods' agent sums them over time, else the "
            + "count the window's last scrape read.")
    private Double busyThreads;
    @JsonPropertyDescription("True when busyThreads is the window's mean on every pod that reports it (their agent sums the busy "
            + "threads over time), false when it is a reading at the window's end. The closed loop takes Little's law on the pool "
            + "(each worker held a request busyThreads / requestsPerSecond) from a mean, or from a pool saturated either way.")
    private Boolean busyThreadsAveraged;
    @JsonPropertyDescription("Configured maximum request worker threads.")
    private Double maxThreads;
    @JsonPropertyDescription("Requests waiting for a database connection.")
    private Double pendingConnections;
    @JsonPropertyDescription("Requests served per second, per pod (management endpoints excluded).")
    private Double requestsPerSecond;
    @JsonPropertyDescription("Mean time a request took, in milliseconds: the time it waited for a worker thread (queueWaitMillisPerRequest) "
            + "and its time in the server, or its time in the server only where latencyIncludesQueueWait is false.")
    private Double meanLatencyMillis;
    @JsonPropertyDescription("99th percentile of the time requests spent in the server over the window, in milliseconds, from the "
            + "server's request-duration histogram over all the target's pods, plus the mean queue wait where one is measured; "
            + "absent when the server exposes no histogram.")
    private Double p99LatencyMillis;
    @JsonPropertyDescription("Whether the latency figures include the time requests waited for a worker thread. False: server-side "
            + "only, timed from when a worker took the request, because the runtime exposes no queue (Tomcat: none of its executor, "
            + "and connections past maxConnections wait in the kernel's accept backlog): under overload the clients wait far longer "
            + "than these figures say.")
    private Boolean latencyIncludesQueueWait;
    @JsonPropertyDescription("Time a request waited for a worker thread before the server started on it, in milliseconds: the runtime's "
            + "own queue-delay timer (Quarkus), else the queued requests by Little's law (wait = queued / rate; Jetty, executors).")
    private Double queueWaitMillisPerRequest;
    @JsonPropertyDescription("Requests waiting for a worker thread, per pod, on average over the window.")
    private Double queuedRequests;
    @JsonPropertyDescription("CPU time the process used per request, in milliseconds.")
    private Double cpuMillisPerRequest;
    @JsonPropertyDescription("Of that CPU time, the time the JIT compilers spent, per request, in milliseconds: warm-up work that "
            + "fades, which the closed loop takes out of the CPU a request costs.")
    private Double compilationMillisPerRequest;
    @JsonPropertyDescription("Of that CPU time, the time the garbage collector's threads spent, per request, in milliseconds (this "
            + "project's agent): a cost of the current settings as much as of the requests, as every collection scans every thread's "
            + "stack, which the closed loop takes out of the CPU a request costs when it sizes threads.")
    private Double gcCpuMillisPerRequest;
    @JsonPropertyDescription("Time the JVM's threads waited for a CPU per request, in milliseconds: CPU contention, not work.")
    private Double runQueueMillisPerRequest;
    @JsonPropertyDescription("Time spent waiting for a database connection per request, in milliseconds.")
    private Double connectionWaitMillisPerRequest;
    @JsonPropertyDescription("Time a database connection was held per request served, in milliseconds (requests answered 5xx, most "
            + "often ones that timed out waiting for a connection, held none and are left out).")
    private Double connectionHoldMillisPerRequest;
    @JsonPropertyDescription("Heap allocated per request, in KiB (R12a).")
    private Double allocatedKibPerRequest;
    @JsonPropertyDescription("Classes loaded in the JVM (R9's metaspace budget).")
    private Integer loadedClasses;
    @JsonPropertyDescription("Percent of requests answered with a server error (5xx).")
    private Double errorPercent;
    @JsonPropertyDescription("The value of spec.auto.guardrail's query, from the install-time Prometheus.")
    private Double guardrail;
    @JsonPropertyDescription("One pod's memory part by part beside the plan's budget for each part (R9), with the container's limit and "
            + "the pod's resident set: what NativeMemoryPressure judges. A reading of the same pod whose figures are all within 1% of "
            + "the limit (or 1Mi) of these, with the same verdict, leaves it as it is.")
    @With
    private ObservedMemory memory;
}
