package dev.jvmtuning.operator.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import lombok.AllArgsConstructor;
import lombok.Data;
import lombok.NoArgsConstructor;

/** The threading model the last plan assumed, what said so, and what the JVMs report. */
@Data
@NoArgsConstructor
@AllArgsConstructor
public class ThreadingStatus {
    @JsonPropertyDescription("Platform or Virtual.")
    private ThreadingModel model;

    @JsonPropertyDescription("Where the model came from: spec.threading.model, or the container's setting that turns virtual threads on "
            + "(or that none was found).")
    private String source;

    @JsonPropertyDescription("What the pods' JVMs report beside it: on how many virtual threads were seen running (their scheduler's "
            + "carrier threads, by the jvm-tuning agent), and whether that contradicts the model. Absent while no pod reports it.")
    private String reported;

    public ThreadingStatus(ThreadingModel model, String source) {
        this(model, source, null);
    }
}
