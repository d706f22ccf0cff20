package dev.jvmtuning.operator.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jvmtuning.operator.testing.StartsProcesses;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code kubectl tp completion}'s script in a real bash: what it offers at each point of a line. */
@StartsProcesses
class CompletionScriptTest {
    @TempDir
    Path dir;

    @Test
    void completesVerbsOptionsAndValues() throws Exception {
        Path script = Files.writeString(dir.resolve("kubectl-tp.bash"), Tp.run("completion").out());

        assertThat(complete(script, "kubectl-tp", "")).contains("plan", "diff", "export", "settings", "completion", "help");
        assertThat(complete(script, "kubectl-tp", "di")).containsExactly("diff");
        assertThat(complete(script, "kubectl-tp", "diff", "--")).contains("--namespace", "--kubeconfig", "--operator-namespace", "--agent-image")
                .doesNotContain("--format");
        assertThat(complete(script, "kubectl-tp", "export", "--format", "")).containsExactly("kustomize", "helm");
        assertThat(complete(script, "kubectl-tp", "plan", "-o", "")).containsExactly("text", "yaml", "json");
        assertThat(complete(script, "kubectl-tp", "settings", "-o", "")).containsExactly("text", "yaml", "json");
    }

    /** What bash offers for the last word of the line. */
    private static List<String> complete(Path script, String... words) throws Exception {
        String line = String.join(" ", words);
        String call = "source " + script + " 2>/dev/null; COMP_WORDS=(" + quoted(words) + "); COMP_CWORD=" + (words.length - 1)
                + "; COMP_LINE='" + line + "'; COMP_POINT=" + line.length() + "; _complete_kubectl-tp 2>/dev/null; printf '%s\\n' \"${COMPREPLY[@]}\"";
        Process bash = new ProcessBuilder("bash", "-c", call).redirectErrorStream(true).start();
        assertThat(bash.waitFor(30, TimeUnit.SECONDS)).isTrue();
        return new String(bash.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines().filter(l -> !l.isBlank()).toList();
    }

    private static String quoted(String... words) {
        StringBuilder quoted = new StringBuilder();
        for (String word : words) {
            quoted.append(" '").append(word).append('\'');
        }
        return quoted.toString();
    }
}
