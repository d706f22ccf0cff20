package dev.jvmtuning.operator.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;

public class TuningProfileSpec {
    @Required
    @JsonPropertyDescription("The Deployment to tune, in the profile's own namespace.")
    private TargetRef targetRef;

    @JsonPropertyDescription("The web server stack of the target container; decides which server properties are rendered.")
    private Runtime runtime = Runtime.Generic;

    public TargetRef getTargetRef() {
        return targetRef;
    }

    public void setTargetRef(TargetRef targetRef) {
        this.targetRef = targetRef;
    }

    public Runtime getRuntime() {
        return runtime;
    }

    public void setRuntime(Runtime runtime) {
        this.runtime = runtime;
    }
}
