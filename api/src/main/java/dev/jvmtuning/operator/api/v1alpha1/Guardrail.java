package dev.jvmtuning.operator.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import lombok.AllArgsConstructor;
import lombok.Data;
import lombok.NoArgsConstructor;

/**
 * A service level the loop must keep: one of the queries the installation defines, asked for this
 * profile's own namespace and Deployment, whose value must stay at or under a bound. A profile names
 * the query and never writes PromQL: the operator's access to Prometheus is not the profile author's.
 */
@Data
@NoArgsConstructor
@AllArgsConstructor
public class Guardrail {
    @Required
    @Size(max = 63)
    @Pattern(Patterns.DNS_LABEL)
    @JsonPropertyDescription("The name of a guardrail query defined at install time (Helm value metrics.guardrailQueries), e.g. p99-latency. "
            + "The operator fills in the profile's namespace and target Deployment and asks the install-time Prometheus.")
    private String name;

    @Required
    @JsonPropertyDescription("The bound: a change after which the query answers more than this is reverted.")
    private Double max;
}
