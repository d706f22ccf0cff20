package dev.jvmtuning.operator.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class EffectiveOptionsTest {

    /** The agent builds apart from the operator, so the two lists cannot be one; they must name the same options. */
    @Test
    void theOperatorExpectsTheOptionsTheAgentReads() throws IOException {
        String agent = Files.readString(Path.of("agent/src/main/java/dev/jvmtuning/agent/VmOptionMetrics.java"));
        String list = agent.substring(agent.indexOf("OPTIONS = List.of("), agent.indexOf(");", agent.indexOf("OPTIONS = List.of(")));

        assertThat(list.split("\"")).filteredOn(part -> part.matches("[A-Za-z0-9]+"))
                .containsExactlyElementsOf(EffectiveOptions.READ);
    }

    @Test
    void anOriginALaterJdkAddsIsOther() {
        assertThat(EffectiveOptions.Origin.of("ENVIRON_VAR")).isEqualTo(EffectiveOptions.Origin.ENVIRON_VAR);
        assertThat(EffectiveOptions.Origin.of("SOMETHING_NEW")).isEqualTo(EffectiveOptions.Origin.OTHER);
    }
}
