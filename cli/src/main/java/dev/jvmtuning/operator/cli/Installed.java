package dev.jvmtuning.operator.cli;

import dev.jvmtuning.operator.config.PublishedSettings;
import dev.jvmtuning.operator.decision.Decide;
import dev.jvmtuning.operator.flags.FlagPolicy;
import dev.jvmtuning.operator.metrics.GuardrailQueries;
import dev.jvmtuning.operator.preview.Preview;
import java.util.Optional;

/** What the operator was installed with, as its decision takes it. */
final class Installed {
    /** Without the operator's settings: the standard flag policy, no guardrail check, the default agent image. */
    static final Decide.Installation DEFAULTS = new Decide.Installation(new Preview.Installation(FlagPolicy.standard(),
            guardrail -> Optional.empty()), PublishedSettings.DEFAULT_AGENT_IMAGE, PublishedSettings.DEFAULT_AGENT_JAR_PATH);

    private Installed() {
    }

    static Decide.Installation from(PublishedSettings published) {
        return new Decide.Installation(new Preview.Installation(FlagPolicy.bundled(published.flagPolicyAllow()),
                GuardrailQueries.of(published.guardrailQueries())::refusal), published.agentImage(), published.agentJarPath());
    }
}
