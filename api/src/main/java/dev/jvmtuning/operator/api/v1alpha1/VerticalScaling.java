package dev.jvmtuning.operator.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.ArrayList;
import java.util.List;
import lombok.AllArgsConstructor;
import lombok.Data;
import lombok.NoArgsConstructor;

/** The target's VerticalPodAutoscaler, as far as it moves the limits a JVM is sized against, and the operator's stance. */
@Data
@NoArgsConstructor
@AllArgsConstructor
public class VerticalScaling {
    @JsonPropertyDescription("The VerticalPodAutoscaler whose targetRef names the Deployment.")
    private String autoscaler;

    @JsonPropertyDescription("Its spec.updatePolicy.updateMode.")
    private String updateMode;

    @JsonPropertyDescription("The container's limits it sets on the pods it admits or resizes: memory, cpu.")
    private List<String> controls = new ArrayList<>();

    @JsonPropertyDescription("What the operator renders beside it: the heap as a share of the memory limit where it moves memory, "
            + "and no count derived from today's CPUs where it moves CPU.")
    private String stance;

    @JsonPropertyDescription("The memory limit the heap's share is planned at (the autoscaler's minAllowed.memory, else the "
            + "template's limit), heap and the rest: below it the share leaves too little for the JVM's memory beside the heap, so "
            + "the autoscaler's minAllowed.memory should be at least this.")
    private String jvmFloor;
}
