package dev.jvmtuning.operator.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.ArrayList;
import java.util.List;
import lombok.AllArgsConstructor;
import lombok.Data;
import lombok.NoArgsConstructor;

/**
 * The target container as its newest pod runs it, where that differs from the Deployment's template: admission (a LimitRange
 * default, a VerticalPodAutoscaler, a mutating admission policy) or an in-place resize changed it. The settings are planned for
 * the pod, not for the template.
 */
@Data
@NoArgsConstructor
@AllArgsConstructor
public class AdmittedPod {
    @JsonPropertyDescription("The pod read: the newest of the target's pods not on its way out.")
    private String pod;

    @JsonPropertyDescription("Each CPU and memory request and limit the pod runs with other than the template's, with both values.")
    private List<AdmittedResource> resources = new ArrayList<>();

    @JsonPropertyDescription("JVM options admission added to the container's JAVA_TOOL_OPTIONS beyond the template's (an agent "
            + "injector's -javaagent): the pods run them beside the tuned settings, and the plan leaves them be.")
    private List<String> addedJvmOptions = new ArrayList<>();
}
