package dev.jvmtuning.operator.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import lombok.AllArgsConstructor;
import lombok.Data;
import lombok.NoArgsConstructor;

/** The threading model the last plan assumed, and what said so. */
@Data
@NoArgsConstructor
@AllArgsConstructor
public class ThreadingStatus {
    @JsonPropertyDescription("Platform or Virtual.")
    private ThreadingModel model;

    @JsonPropertyDescription("Where the model came from: spec.threading.model, or the container's setting that turns virtual threads on "
            + "(or that none was found).")
    private String source;
}
