package dev.jvmtuning.operator.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import lombok.AllArgsConstructor;
import lombok.Data;
import lombok.NoArgsConstructor;

/** A service level the loop must keep: a PromQL query whose value must stay at or under a bound. */
@Data
@NoArgsConstructor
@AllArgsConstructor
public class Guardrail {
    @Required
    @Size(min = 1, max = 2048)
    @JsonPropertyDescription("A PromQL instant query returning one number, sent only to the Prometheus configured at install time, "
            + "e.g. histogram_quantile(0.99, sum by (le) (rate(http_server_requests_seconds_bucket{namespace=\"shop\"}[1m]))).")
    private String query;

    @Required
    @JsonPropertyDescription("The bound: a change after which the query answers more than this is reverted.")
    private Double max;
}
