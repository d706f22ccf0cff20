package dev.jvmtuning.operator.model;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jvmtuning.operator.model.EffectiveOptions.Option;
import dev.jvmtuning.operator.model.EffectiveOptions.Origin;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EffectiveOptionsTest {

    /** The agent builds apart from the operator: the core packs the agent's own list of the options it reports, not a copy. */
    @Test
    void theOperatorExpectsTheOptionsTheAgentReads() throws IOException {
        String agents = Files.readString(Path.of("agent/src/main/resources/dev/jvmtuning/agent/vm-options.txt"));
        try (InputStream packed = EffectiveOptions.class.getClassLoader().getResourceAsStream("dev/jvmtuning/agent/vm-options.txt")) {
            assertThat(new String(packed.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo(agents);
        }

        assertThat(EffectiveOptions.READ).hasSize(29).startsWith("MaxHeapSize").contains("UseCompactObjectHeaders").doesNotHaveDuplicates()
                .allMatch(name -> name.matches("[A-Za-z0-9]+"));
        assertThat(EffectiveOptions.ARCHIVES).containsExactly("AOTCache", "SharedArchiveFile");
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
