package dev.jvmtuning.operator.cli;

import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

/**
 * {@code kubectl tp}: the operator's planner and renderer at a user's terminal. {@code plan} previews a
 * profile from files; {@code diff} shows what the operator would change in the live Deployment, as the
 * API server itself would merge it (a server-side dry run); {@code export} writes the settings as a
 * Kustomize patch or Helm values for a Git repository that no controller may write to; {@code settings} shows
 * each planned setting beside what the pods' JVMs report they run.
 */
@Command(name = "kubectl tp", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = "What the jvm-tuning operator would render for a TuningProfile, what it would change in the cluster, "
                + "its settings for a Git repository, and what the pods' JVMs run of them.",
        subcommands = {PlanCommand.class, DiffCommand.class, ExportCommand.class, SettingsCommand.class, CompletionCommand.class,
                HelpCommand.class},
        exitCodeListHeading = "%nExit status:%n", exitCodeList = {"0:done; for diff, no differences", "1:an error (no such profile, the "
                + "cluster unreachable); for diff, differences; for plan, a profile invalid or infeasible", "2:bad usage; for diff, an error"})
public final class TpCommand implements Callable<Integer> {
    /** Read by the kubectl-tp launcher, which turns the client's logging on; accepted anywhere on the line. */
    @Option(names = "-v", scope = ScopeType.INHERIT, description = "Print the Kubernetes client's log lines on stderr.")
    private boolean verbose;

    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() {
        throw new ParameterException(spec.commandLine(), "Missing a command: plan, diff, export, settings or completion");
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        PrintWriter outWriter = new PrintWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), true);
        PrintWriter errWriter = new PrintWriter(new OutputStreamWriter(err, StandardCharsets.UTF_8), true);
        try {
            return new CommandLine(new TpCommand()).setCaseInsensitiveEnumValuesAllowed(true).setExecutionExceptionHandler(TpCommand::failed)
                    .setOut(outWriter).setErr(errWriter).execute(args);
        } finally {
            outWriter.flush();
            errWriter.flush();
        }
    }

    /**
     * A failure the user can act on, said in one line with the status the verb gives it: bad input as bad usage, what the
     * cluster or profile cannot give as the verb's error. Anything else is a bug, and picocli prints its stack trace.
     */
    private static int failed(Exception e, CommandLine verb, ParseResult parsed) throws Exception {
        int status;
        if (e instanceof InputException) {
            status = verb.getCommandSpec().exitCodeOnInvalidInput();
        } else if (e instanceof Refusal || e instanceof KubernetesClientException) {
            status = verb.getCommandSpec().exitCodeOnExecutionException();
        } else {
            throw e;
        }
        verb.getErr().println(verb.getCommandSpec().qualifiedName() + ": " + message(e));
        return status;
    }

    /** The API server's own words where it gave any, else the client's with the cause (a refused connection, a timeout). */
    static String message(Exception e) {
        if (e instanceof KubernetesClientException k && k.getStatus() != null && k.getStatus().getMessage() != null) {
            return k.getStatus().getMessage();
        }
        Throwable cause = e.getCause();
        return cause == null || cause.getMessage() == null ? e.getMessage() : e.getMessage() + ": " + cause.getMessage();
    }
}
