package dev.jvmtuning.operator.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code kubectl tp} as a command line, without a cluster or any other process: help, version, completion and the statuses of bad usage. */
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
                "settings", List.of("NAME", "--namespace=NAMESPACE", "--kubeconfig=FILE", "--output=FORMAT", "SettingsEffective",
                        "0   the settings", "1   an error (no such profile", "2   bad usage"),
                "completion", List.of("bash and zsh", "source <(kubectl tp completion)"));
        expected.forEach((verb, lines) -> {
            Tp help = Tp.run(verb, "--help");

            assertThat(help.status()).as(verb).isZero();
            assertThat(help.err()).as(verb).isEmpty();
            assertThat(help.out()).as(verb).startsWith("Usage: kubectl tp " + verb).contains(lines).contains("-h, --help", "-v ");
            assertThat(Tp.run("help", verb).out()).as("help " + verb).isEqualTo(help.out());
        });
        Tp top = Tp.run("--help");
        assertThat(top.status()).isZero();
        assertThat(top.out()).startsWith("Usage: kubectl tp").contains("  plan ", "  diff ", "  export ", "  settings ", "  completion ", "-V, --version",
                "Exit status:");
    }

    @Test
    void versionIsTheBuildsOwn() {
        Tp version = Tp.run("--version");

        assertThat(version.status()).isZero();
        assertThat(version.out().strip()).matches("kubectl-tp \\d+\\.\\d+\\.\\d+.*").doesNotContain("${");
        for (String verb : List.of("plan", "diff", "export", "settings", "completion")) {
            assertThat(Tp.run(verb, "--version").out()).as(verb).isEqualTo(version.out());
        }
    }

    @Test
    void completionPrintsAScriptForBashAndZshOfEveryVerb() {
        Tp completion = Tp.run("completion");

        assertThat(completion.status()).isZero();
        assertThat(completion.err()).isEmpty();
        assertThat(completion.out()).startsWith("#!/usr/bin/env bash").contains("complete -F _complete_kubectl-tp", "ZSH_VERSION",
                "_picocli_kubectl-tp_plan", "_picocli_kubectl-tp_diff", "_picocli_kubectl-tp_export", "_picocli_kubectl-tp_settings", "_picocli_kubectl-tp_completion");
    }

    @Test
    void badUsageExitsTwoWithTheUsageOnStderr() {
        Tp none = Tp.run();
        assertThat(none.status()).isEqualTo(2);
        assertThat(none.out()).isEmpty();
        assertThat(none.err()).contains("Missing a command", "Usage: kubectl tp");

        Tp unknownVerb = Tp.run("nonsense");
        assertThat(unknownVerb.status()).isEqualTo(2);
        assertThat(unknownVerb.err()).contains("Unmatched argument at index 0: 'nonsense'");

        Tp unknownOption = Tp.run("diff", "orders-api", "--colour");
        assertThat(unknownOption.status()).isEqualTo(2);
        assertThat(unknownOption.err()).contains("Unknown option: '--colour'", "Usage: kubectl tp diff");

        Tp neither = Tp.run("diff");
        assertThat(neither.status()).isEqualTo(2);
        assertThat(neither.err()).contains("name the TuningProfile, or give it with -f FILE (one of the two)");
        Tp both = Tp.run("export", "orders-api", "-f", "examples/orders-api.yaml");
        assertThat(both.status()).isEqualTo(2);
        assertThat(both.err()).contains("one of the two");

        Tp settingsOfNone = Tp.run("settings");
        assertThat(settingsOfNone.status()).isEqualTo(2);
        assertThat(settingsOfNone.err()).contains("Missing required parameter: 'NAME'", "Usage: kubectl tp settings");
        assertThat(Tp.run("settings", "orders-api", "-f", "examples/orders-api.yaml").err()).as("the status is the cluster's: no file")
                .contains("Unknown options: '-f'");

        Tp badFormat = Tp.run("export", "orders-api", "--format", "jsonnet");
        assertThat(badFormat.status()).isEqualTo(2);
        assertThat(badFormat.err()).contains("Invalid value for option '--format'", "jsonnet");

        Tp recommendedFromFile = Tp.run("export", "-f", "examples/orders-api.yaml", "--recommended");
        assertThat(recommendedFromFile.status()).isEqualTo(2);
        assertThat(recommendedFromFile.err()).contains("--recommended reads the profile's status: name a profile in the cluster");
    }

    @Test
    void anUnreadableKubeconfigIsBadInputInOneLine() {
        Tp outcome = Tp.run("export", "orders-api", "--kubeconfig", dir.resolve("absent").toString());

        assertThat(outcome.status()).isEqualTo(2);
        assertThat(outcome.err().strip()).startsWith("kubectl tp export: cannot read ").doesNotContain("\n", "Exception");
    }
}
