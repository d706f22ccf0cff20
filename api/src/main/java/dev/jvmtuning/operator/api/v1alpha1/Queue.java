package dev.jvmtuning.operator.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import lombok.Data;

/** Where requests wait when every worker is busy. An omitted value is derived from the workload. */
@Data
public class Queue {
    @Min(1)
    @Max(65_535)
    @JsonPropertyDescription("Listen backlog (Tomcat acceptCount). The kernel caps it at net.core.somaxconn.")
    private Integer acceptCount;

    @Min(1)
    @Max(1_000_000)
    @JsonPropertyDescription("Connections the server keeps open at once.")
    private Integer maxConnections;

    @Min(0)
    @Max(10_000_000)
    @JsonPropertyDescription("Bound of the executor queue; requests beyond it are rejected at once instead of waiting. Omit to derive it from workload.maxQueueWait.")
    private Integer maxQueueSize;
}
