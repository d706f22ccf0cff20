package dev.jvmtuning.operator.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import lombok.Data;

/** What the loop compares before and after a change, per pod, averaged over its observation windows. */
@Data
public class AutoFigures {
    @JsonPropertyDescription("Metrics windows averaged.")
    private Integer windows;
    @JsonPropertyDescription("Requests served per second, per pod: the load.")
    private Double requestsPerSecond;
    @JsonPropertyDescription("Standard error of requestsPerSecond over the windows: the period's own noise. Absent with one window.")
    private Double requestsPerSecondError;
    @JsonPropertyDescription("Requests per CPU-second, JIT compilation taken out.")
    private Double requestsPerCpuSecond;
    @JsonPropertyDescription("Standard error of requestsPerCpuSecond over the windows. Absent with one window.")
    private Double requestsPerCpuSecondError;
    @JsonPropertyDescription("Mean time a request spent in the server, in milliseconds.")
    private Double meanLatencyMillis;
    @JsonPropertyDescription("Standard error of meanLatencyMillis over the windows. Absent with one window.")
    private Double meanLatencyMillisError;
    @JsonPropertyDescription("99th percentile of the time requests spent in the server, in milliseconds, where the server exposes a histogram.")
    private Double p99LatencyMillis;
    @JsonPropertyDescription("Percent of requests answered with a server error (5xx).")
    private Double errorPercent;
    @JsonPropertyDescription("Percent of wall time spent in GC pauses.")
    private Double gcTimePercent;
    @JsonPropertyDescription("Time waiting for a database connection per request, in milliseconds.")
    private Double connectionWaitMillisPerRequest;
    @JsonPropertyDescription("Time a request waited for a worker thread, in milliseconds, Little's law on the pool included "
            + "(status.observed): more than a millisecond says the pool had more requests than workers.")
    private Double queueWaitMillisPerRequest;
    @JsonPropertyDescription("Percent of the worker pool's threads busy (the windows' mean busy threads over the pool's maximum), where "
            + "the server exposes both: at 95 or more every worker is taken and requests wait for one.")
    private Double busyWorkersPercent;
    @JsonPropertyDescription("The guardrail query's value.")
    private Double guardrail;
}
