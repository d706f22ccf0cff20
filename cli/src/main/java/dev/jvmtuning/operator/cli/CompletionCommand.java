package dev.jvmtuning.operator.cli;

import picocli.AutoComplete;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** A shell completion script for the plugin's executable, made from the same command model that parses the line. */
@Command(name = "completion", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"Print a completion script for kubectl-tp, for bash and zsh.",
                "Load it in either shell with: source <(kubectl tp completion)",
                "It completes the plugin as its own command, kubectl-tp: kubectl's own completion does not reach into plugins."})
final class CompletionCommand implements Runnable {
    static final String EXECUTABLE = "kubectl-tp";

    @Spec
    private CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().getOut().print(AutoComplete.bash(EXECUTABLE, spec.root().commandLine()));
    }
}
