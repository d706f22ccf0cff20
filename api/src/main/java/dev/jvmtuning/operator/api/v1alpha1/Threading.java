package dev.jvmtuning.operator.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import lombok.Data;

/** How the target serves requests; what the operator detects from the container unless the profile says it. */
@Data
public class Threading {
    @JsonPropertyDescription("Platform: requests run on the server's worker pool, which threads.max sizes. Virtual: each request runs on a "
            + "virtual thread (Spring Boot 3.2+ with spring.threads.virtual.enabled, Quarkus @RunOnVirtualThread), so no worker pool "
            + "bounds them and the connection limit, the connection pool and the carrier threads are planned instead. Omit to detect "
            + "it from the container's environment, JVM options and arguments.")
    private ThreadingModel model;
}
