package dev.jvmtuning.operator.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jvmtuning.operator.cli.TpCommandTest.Outcome;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code kubectl tp} as a command line, without a cluster: help, version, completion and the statuses of bad usage. */
class TpCommandLineTest {
    @TempDir
    Path dir;

    @Test
    void everyVerbsHelpListsItsOptionsAndExitStatuses() {
        Map<String, List<String>> expected = Map.of(
                "plan", List.of("--file=FILE", "--cpu=CORES", "--memory=QUANTITY", "--replicas=N", "--java=VERSION", "--allow=PREFIX",
                        "--output=FORMAT", "Exit status:", "2   bad usage or input"),
                "diff", List.of("[NAME]", "--file=FILE", "--namespace=NAMESPACE", "--kubeconfig=FILE", "--operator-namespace=NAMESPACE",
                        "--agent-image=IMAGE", "Exit status (as kubectl diff):", "0   no differences", "1   differences", "2   an error"),
                "export", List.of("[NAME]", "--file=FILE", "--namespace=NAMESPACE", "--kubeconfig=FILE", "--operator-namespace=NAMESPACE",
                        "--format=FORMAT", "--recommended", "1   an error"),
                "completion", List.of("bash and zsh", "source <(kubectl tp completion)"));
        expected.forEach((verb, lines) -> {
            Outcome help = TpCommandTest.tp(verb, "--help");

            assertThat(help.status()).as(verb).isZero();
            assertThat(help.err()).as(verb).isEmpty();
            assertThat(help.out()).as(verb).startsWith("Usage: kubectl tp " + verb).contains(lines).contains("-h, --help", "-v ");
            assertThat(TpCommandTest.tp("help", verb).out()).as("help " + verb).isEqualTo(help.out());
        });
        Outcome top = TpCommandTest.tp("--help");
        assertThat(top.status()).isZero();
        assertThat(top.out()).startsWith("Usage: kubectl tp").contains("  plan ", "  diff ", "  export ", "  completion ", "-V, --version",
                "Exit status:");
    }

    @Test
    void versionIsTheBuildsOwn() throws IOException {
        Outcome version = TpCommandTest.tp("--version");

        assertThat(version.status()).isZero();
        assertThat(version.out().strip()).matches("kubectl-tp \\d+\\.\\d+\\.\\d+.*").doesNotContain("${");
        assertThat(TpCommandTest.tp("plan", "--version").out()).isEqualTo(version.out());
    }

    /** The script, loaded into a real bash, offers the verbs and each verb's options and values. */
    @Test
    void completionScriptCompletesVerbsOptionsAndValues() throws Exception {
        Outcome completion = TpCommandTest.tp("completion");
        assertThat(completion.status()).isZero();
        assertThat(completion.out()).startsWith("#!/usr/bin/env bash").contains("complete -F _complete_kubectl-tp", "ZSH_VERSION");
        Path script = Files.writeString(dir.resolve("kubectl-tp.bash"), completion.out());

        assertThat(complete(script, "kubectl-tp", "")).contains("plan", "diff", "export", "completion", "help");
        assertThat(complete(script, "kubectl-tp", "di")).containsExactly("diff");
        assertThat(complete(script, "kubectl-tp", "diff", "--")).contains("--namespace", "--kubeconfig", "--operator-namespace", "--agent-image")
                .doesNotContain("--format");
        assertThat(complete(script, "kubectl-tp", "export", "--format", "")).containsExactly("kustomize", "helm");
        assertThat(complete(script, "kubectl-tp", "plan", "-o", "")).containsExactly("text", "yaml", "json");
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

    @Test
    void badUsageExitsTwoWithTheUsageOnStderr() {
        Outcome none = TpCommandTest.tp();
        assertThat(none.status()).isEqualTo(2);
        assertThat(none.out()).isEmpty();
        assertThat(none.err()).contains("Missing a command", "Usage: kubectl tp");

        Outcome unknownVerb = TpCommandTest.tp("nonsense");
        assertThat(unknownVerb.status()).isEqualTo(2);
        assertThat(unknownVerb.err()).contains("Unmatched argument at index 0: 'nonsense'");

        Outcome unknownOption = TpCommandTest.tp("diff", "orders-api", "--colour");
        assertThat(unknownOption.status()).isEqualTo(2);
        assertThat(unknownOption.err()).contains("Unknown option: '--colour'", "Usage: kubectl tp diff");

        Outcome neither = TpCommandTest.tp("diff");
        assertThat(neither.status()).isEqualTo(2);
        assertThat(neither.err()).contains("name the TuningProfile, or give it with -f FILE (one of the two)");
        Outcome both = TpCommandTest.tp("export", "orders-api", "-f", "examples/orders-api.yaml");
        assertThat(both.status()).isEqualTo(2);
        assertThat(both.err()).contains("one of the two");

        Outcome badFormat = TpCommandTest.tp("export", "orders-api", "--format", "jsonnet");
        assertThat(badFormat.status()).isEqualTo(2);
        assertThat(badFormat.err()).contains("Invalid value for option '--format'", "jsonnet");

        Outcome recommendedFromFile = TpCommandTest.tp("export", "-f", "examples/orders-api.yaml", "--recommended");
        assertThat(recommendedFromFile.status()).isEqualTo(2);
        assertThat(recommendedFromFile.err()).contains("--recommended reads the profile's status: name a profile in the cluster");
    }

    @Test
    void anUnreadableKubeconfigIsBadInputInOneLine() {
        Outcome outcome = TpCommandTest.tp("export", "orders-api", "--kubeconfig", dir.resolve("absent").toString());

        assertThat(outcome.status()).isEqualTo(2);
        assertThat(outcome.err().strip()).startsWith("kubectl tp export: cannot read ").doesNotContain("\n", "Exception");
    }
}
