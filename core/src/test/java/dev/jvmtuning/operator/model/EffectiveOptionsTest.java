package dev.jvmtuning.operator.model;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jvmtuning.operator.model.EffectiveOptions.Option;
import dev.jvmtuning.operator.model.EffectiveOptions.Origin;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
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
    void theArchiveThePodsReportIsCountedAmongThePodsThatReportTheAgentsOptions() {
        EffectiveOptions cached = new EffectiveOptions(Map.of("AOTCache", new Option(1, Origin.ENVIRON_VAR),
                "SharedArchiveFile", new Option(0, Origin.DEFAULT)));
        EffectiveOptions plain = new EffectiveOptions(Map.of("AOTCache", new Option(0, Origin.DEFAULT)));
        EffectiveOptions runtimeMetrics = EffectiveOptions.fromRuntimeMetrics(Map.of("MaxHeapSize", new Option(1e9, Origin.RUNTIME_METRICS)));

        assertThat(EffectiveOptions.archiveReported(List.of(cached, cached, plain, EffectiveOptions.NONE, runtimeMetrics)))
                .contains("-XX:AOTCache on 2 of 3 pods");
        assertThat(EffectiveOptions.archiveReported(List.of(plain))).isEmpty();
        assertThat(EffectiveOptions.showArchives(List.of(plain))).isTrue();
        assertThat(EffectiveOptions.showArchives(List.of(EffectiveOptions.NONE, runtimeMetrics))).as("nothing said of archives").isFalse();
    }

    @Test
    void anOriginALaterJdkAddsIsOther() {
        assertThat(EffectiveOptions.Origin.of("ENVIRON_VAR")).isEqualTo(EffectiveOptions.Origin.ENVIRON_VAR);
        assertThat(EffectiveOptions.Origin.of("SOMETHING_NEW")).isEqualTo(EffectiveOptions.Origin.OTHER);
    }
}
