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

    @JsonPropertyDescription("Inject the jvm-tuning agent into the target: an init container copies its jar into a shared volume "
            + "and -javaagent starts it on metrics.port (default 9404), serving /metrics with context switches, run-queue delay, "
            + "CPU throttling and pressure besides the JVM's own metrics. Removed again with the profile.")
    private Boolean injectAgent;

    @Min(1)
    @Max(65_535)
    @JsonPropertyDescription("Port of the pods' metrics endpoint. Defaults to 9404 with injectAgent, else 8080.")
    private Integer port;

    @Size(max = 256)
    @Pattern("^/[A-Za-z0-9/._~-]*$")
    @JsonPropertyDescription("Path of the pods' metrics endpoint. Defaults to /metrics with injectAgent, else by runtime: "
            + "/actuator/prometheus for Spring Boot, /q/metrics for Quarkus, /metrics otherwise.")
    private String path;

    @Default("30s")
    @Size(max = Patterns.DURATION_MAX_LENGTH)
    @Pattern(Patterns.DURATION)
    @ValidationRule(value = "duration(self) >= duration('5s')", message = "metrics.interval must be at least 5s")
    @JsonPropertyDescription("How often the metrics are read, e.g. 30s.")
    private String interval = "30s";

    @Default("1m")
    @Size(max = Patterns.DURATION_MAX_LENGTH)
    @Pattern(Patterns.DURATION)
    @ValidationRule(value = "duration(self) <= duration('" + WARM_UP_MAX + "')", message = "metrics.warmUp must be at most " + WARM_UP_MAX)
    @JsonPropertyDescription("Time after the youngest JVM of the target started before a metrics window counts for the workload the operator "
            + "measures (the workload.* entries of status.recommendations): a cold JVM spends CPU on compiling and filling caches that "
            + "a warm one does not, so its requests read dearer than they are. status.observed shows every window all the same. "
            + "Mode Auto also waits auto.warmUp after each rollout. At most " + WARM_UP_MAX + ".")
    private String warmUp = "1m";

    static final String WARM_UP_MAX = "1h";
    public static final int AGENT_PORT = 9404;
    public static final int SERVER_PORT = 8080;

    public boolean agentInjected() {
        return Boolean.TRUE.equals(injectAgent);
    }

    /** The port to read: the profile's, else the agent's or the server's usual one. */
    public int effectivePort() {
        return port != null ? port : agentInjected() ? AGENT_PORT : SERVER_PORT;
    }
}
