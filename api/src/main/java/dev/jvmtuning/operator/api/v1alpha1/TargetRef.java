package dev.jvmtuning.operator.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import lombok.Data;

@Data
@ValidationRule(value = "self == oldSelf", message = "targetRef is immutable: delete this profile and create one for the other Deployment")
public class TargetRef {
    @Default("Deployment")
    @Size(max = 63)
    @ValidationRule(value = "self == 'Deployment'", message = "targetRef.kind must be Deployment: only Deployments can be tuned")
    @JsonPropertyDescription("Kind of the target workload. Only Deployment is supported.")
    private String kind = "Deployment";

    @Required
    @Size(max = 253)
    @Pattern(Patterns.DNS_SUBDOMAIN)
    @JsonPropertyDescription("Name of the target Deployment, in the profile's own namespace.")
    private String name;
}
