package dev.jvmtuning.operator.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.ArrayList;
import java.util.List;
import lombok.AllArgsConstructor;
import lombok.Data;
import lombok.NoArgsConstructor;

/**
 * Another manager took back the fields the operator wrote into the Deployment (a GitOps controller re-applying the manifest
 * from Git, a user's kubectl apply): once, the operator writes them again; twice within ten minutes, it stops writing them,
 * so that the two never start pods for each other.
 */
@Data
@NoArgsConstructor
@AllArgsConstructor
public class TakenBack {
    @JsonPropertyDescription("The field manager that last wrote the operator's fields, as the Deployment's managedFields name it.")
    private String manager;

    @JsonPropertyDescription("How it wrote them: Apply (server-side apply) or Update (any other write, client-side apply among them).")
    private String operation;

    @JsonPropertyDescription("The operator's fields it owns, e.g. 'env JAVA_TOOL_OPTIONS'.")
    private List<String> fields = new ArrayList<>();

    @JsonPropertyDescription("When the operator saw each take-back of the last ten minutes.")
    private List<String> times = new ArrayList<>();

    @JsonPropertyDescription("The Deployment's metadata.generation at the last take-back seen: the same generation is the same take-back.")
    private Long deploymentGeneration;

    @JsonPropertyDescription("The profile's generation then: an edit of the profile tries again.")
    private Long profileGeneration;

    @JsonPropertyDescription("The digest of the Deployment's own template then: a new template (a release) tries again.")
    private String templateHash;

    @JsonPropertyDescription("True once the operator stopped writing: Applied is False with reason TakenBack until the profile or "
            + "the Deployment's own template changes.")
    private boolean stopped;
}
