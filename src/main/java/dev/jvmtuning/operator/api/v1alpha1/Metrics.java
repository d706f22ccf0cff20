package dev.jvmtuning.operator.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import lombok.Data;

/** Where the operator reads the pods' metrics. There is no URL field: metrics come only from the target's own pods or the Prometheus set at install time. */
@Data
public class Metrics {
    @Default("Pod")
    @JsonPropertyDescription("Pod: scrape each ready pod of the target. Prometheus: query the server configured at install time.")
    private MetricsSource source = MetricsSource.Pod;

    @Min(1)
    @Max(65_535)
    @JsonPropertyDescription("Port of the pods' metrics endpoint. Defaults to 8080.")
    private Integer port;

    @Size(max = 256)
    @Pattern("^/[A-Za-z0-9/._~-]*$")
    @JsonPropertyDescription("Path of the pods' metrics endpoint. Defaults by runtime: /actuator/prometheus for Spring Boot, /q/metrics for Quarkus, /metrics otherwise.")
    private String path;

    @Default("30s")
    @Pattern(Patterns.DURATION)
    @ValidationRule(value = "duration(self) >= duration('5s')", message = "metrics.interval must be at least 5s")
    @JsonPropertyDescription("How often the metrics are read, e.g. 30s.")
    private String interval = "30s";
}
