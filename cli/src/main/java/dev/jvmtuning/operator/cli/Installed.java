package dev.jvmtuning.operator.cli;

import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import dev.jvmtuning.operator.config.PublishedSettings;
import dev.jvmtuning.operator.flags.FlagPolicy;
import dev.jvmtuning.operator.metrics.GuardrailQueries;
import dev.jvmtuning.operator.preview.Preview;
import dev.jvmtuning.operator.render.DeploymentTuning;
import java.util.Objects;
import java.util.Optional;

/** What the operator was installed with, as far as a preview needs it. */
record Installed(Preview.Installation installation, String agentImage, String agentJarPath) {
    /** Without the operator's settings: the standard flag policy, no guardrail check, the default agent image. */
    static final Installed DEFAULTS = new Installed(new Preview.Installation(FlagPolicy.standard(), guardrail -> Optional.empty()),
            PublishedSettings.DEFAULT_AGENT_IMAGE, PublishedSettings.DEFAULT_AGENT_JAR_PATH);

    static Installed from(PublishedSettings published) {
        return new Installed(new Preview.Installation(FlagPolicy.bundled(published.flagPolicyAllow()),
                GuardrailQueries.of(published.guardrailQueries())::refusal), published.agentImage(), published.agentJarPath());
    }

    /** The agent the operator would inject for the profile, in the image --agent-image names if given. */
    DeploymentTuning.Agent agent(TuningProfile profile, String imageOverride) {
        return DeploymentTuning.Agent.ifInjected(profile.getSpec(), Objects.requireNonNullElse(imageOverride, agentImage), agentJarPath);
    }
}
