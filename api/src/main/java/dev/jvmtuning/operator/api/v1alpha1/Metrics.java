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
            + "CPU throttling and pressure besides the JVM's own metrics. The runtime's own endpoint (metrics.runtimePort, "
            + "metrics.path) is read beside it, for the connection pool and the requests. Removed again with the profile.")
    private Boolean injectAgent;

    @Min(1)
    @Max(65_535)
    @JsonPropertyDescription("Port of the pods' metrics endpoint: the agent's with injectAgent (default 9404), else the runtime's "
            + "(default 8080).")
    private Integer port;

    @Min(1)
    @Max(65_535)
    @JsonPropertyDescription("With injectAgent, port of the runtime's own metrics endpoint (metrics.path), read besides the agent's: "
            + "the agent serves no connection pool or request figures. Defaults to 8080. Unused without injectAgent, where "
            + "metrics.port is the runtime's.")
    private Integer runtimePort;

    @Size(max = 256)
    @Pattern("^/[A-Za-z0-9/._~-]*$")
    @JsonPropertyDescription("Path of the runtime's own metrics endpoint. Defaults by runtime: /actuator/prometheus for Spring Boot, "
            + "/q/metrics for Quarkus, /metrics otherwise. With injectAgent the agent answers on /metrics, and a Generic runtime's "
            + "endpoint is read only where metrics.path or metrics.runtimePort names one.")
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

    /** The port of the endpoint the profile names: the agent's with injectAgent, else the runtime's; else its usual one. */
    public int effectivePort() {
        return port != null ? port : agentInjected() ? AGENT_PORT : SERVER_PORT;
    }

    /** The port of the runtime's own endpoint. */
    public int effectiveRuntimePort() {
        if (!agentInjected()) {
            return effectivePort();
        }
        return runtimePort != null ? runtimePort : SERVER_PORT;
    }
}
