package dev.jvmtuning.operator.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.ValidationRule;
import lombok.Data;

/** The JDBC connection pool (HikariCP in Spring Boot, Agroal in Quarkus). */
@Data
@ValidationRule(value = "!has(self.maxSize) || !has(self.minIdle) || self.minIdle <= self.maxSize",
        message = "connectionPool.minIdle must not exceed connectionPool.maxSize")
public class ConnectionPool {
    @Min(1)
    @Max(10_000)
    @JsonPropertyDescription("Maximum pool size. Omit to derive it from workload.requestsPerSecond x workload.dbTimePerRequest.")
    private Integer maxSize;

    @Min(0)
    @Max(10_000)
    @JsonPropertyDescription("Idle connections kept open.")
    private Integer minIdle;

    @Min(1)
    @Max(1_000_000)
    @JsonPropertyDescription("The database connections this service may hold in all, across every pod it may run: its share of the "
            + "database's max_connections. The pool is capped at this divided by the most replicas the Deployment may run (its "
            + "HorizontalPodAutoscaler's maxReplicas, else spec.replicas), so that a scale-out never exceeds it.")
    private Integer databaseConnections;
}
