package dev.jvmtuning.operator.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;

public class TuningProfileStatus {
    @JsonPropertyDescription("The metadata.generation this status describes.")
    private Long observedGeneration;

    public Long getObservedGeneration() {
        return observedGeneration;
    }

    public void setObservedGeneration(Long observedGeneration) {
        this.observedGeneration = observedGeneration;
    }
}
