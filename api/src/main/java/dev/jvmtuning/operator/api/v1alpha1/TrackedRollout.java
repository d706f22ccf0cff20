package dev.jvmtuning.operator.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import lombok.AllArgsConstructor;
import lombok.Data;
import lombok.NoArgsConstructor;

/** The rollout of the template in force, as the operator first saw it: what started it, and when it completed. */
@Data
@NoArgsConstructor
@AllArgsConstructor
public class TrackedRollout {
    /** The operator's write changed the settings and nothing else, over a template whose pods ran healthy. */
    public static final String CAUSE_SETTINGS = "Settings";
    /** The Deployment's own template changed: a release, a restart, an undo, another manager's write. */
    public static final String CAUSE_TEMPLATE = "Template";

    @JsonPropertyDescription("The settings hash the rolled-out template carries.")
    private String settingsHash;

    @JsonPropertyDescription("A digest of the Deployment's own pod template, the operator's fields left out: it changes with a release.")
    private String templateHash;

    @JsonPropertyDescription("Settings: the operator's write started the rollout; Template: the Deployment's own template changed.")
    private String cause;

    @JsonPropertyDescription("When the operator first saw this template.")
    private String startedAt;

    @JsonPropertyDescription("When every replica first ran it available; absent while the rollout is under way.")
    private String completedAt;
}
