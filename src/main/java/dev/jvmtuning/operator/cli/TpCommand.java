package dev.jvmtuning.operator.cli;

import java.io.PrintStream;
import java.util.Arrays;

/** {@code kubectl tp}: the plan, diff and export commands under one name, as a kubectl plugin. */
public final class TpCommand {
    static final String USAGE = """
            usage: kubectl tp plan|diff|export [-v] ...

              plan    what the operator would render for a TuningProfile, and why (no cluster)
              diff    the exact change it would make to the live Deployment (exit 0 none, 1 changes, >1 error)
              export  the planned settings as a Kustomize patch or Helm values, for a GitOps repository
              -v      show the framework's log lines (quiet otherwise)
            kubectl tp COMMAND --help describes each.
            """;

    private TpCommand() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length == 0 || args[0].equals("-h") || args[0].equals("--help")) {
            (args.length == 0 ? err : out).print(USAGE);
            return args.length == 0 ? 2 : 0;
        }
        String[] rest = Arrays.copyOfRange(args, 1, args.length);
        return switch (args[0]) {
            case "plan" -> PlanCommand.run(rest, out, err);
            case "diff" -> DiffCommand.run(rest, out, err);
            case "export" -> ExportCommand.run(rest, out, err);
            default -> {
                err.println("kubectl tp: unknown command " + args[0]);
                err.print(USAGE);
                yield 2;
            }
        };
    }
}
