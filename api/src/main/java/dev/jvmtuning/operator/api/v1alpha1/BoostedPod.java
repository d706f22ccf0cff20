package dev.jvmtuning.operator.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import lombok.AllArgsConstructor;
import lombok.Data;
import lombok.NoArgsConstructor;

/**
 * A pod the operator raised for spec.startupBoost, kept in the profile's status rather than on the pod: the operator's only
 * write to pods is their resize subresource, which keeps nothing else.
 */
@Data
@NoArgsConstructor
@AllArgsConstructor
public class BoostedPod {
    @JsonPropertyDescription("The pod's name.")
    private String pod;

    @JsonPropertyDescription("The pod's metadata.uid: a pod of the same name created since is not the one raised.")
    private String uid;

    @JsonPropertyDescription("The container raised.")
    private String container;

    @JsonPropertyDescription("The container's own CPU limit before the boost, which it is resized back to.")
    private String from;

    @JsonPropertyDescription("The CPU limit of the boost. A container no longer at it was resized by another hand: the boost is no "
            + "longer the operator's to take back.")
    private String to;

    @JsonPropertyDescription("When the operator raised it.")
    private String at;
}
