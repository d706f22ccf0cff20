package dev.jvmtuning.operator.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.ValidationRule;

public class TargetRef {
    @Required
    @ValidationRule(value = "self == 'Deployment'", message = "targetRef.kind must be Deployment: only Deployments can be tuned")
    @JsonPropertyDescription("Kind of the target workload. Only Deployment is supported.")
    private String kind = "Deployment";

    @Required
    @Pattern("^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$")
    @JsonPropertyDescription("Name of the target Deployment in the profile's namespace.")
    private String name;

    public String getKind() {
        return kind;
    }

    public void setKind(String kind) {
        this.kind = kind;
    }

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }
}
