package dev.jvmtuning.operator.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import dev.jvmtuning.operator.model.ContainerFacts;
import dev.jvmtuning.operator.model.Units;
import dev.jvmtuning.operator.planner.Decision;
import dev.jvmtuning.operator.planner.PlanResult;
import dev.jvmtuning.operator.planner.Planner;
import dev.jvmtuning.operator.render.DeploymentTuning;
import dev.jvmtuning.operator.render.Renderer;
import dev.jvmtuning.operator.render.Rendering;
import dev.jvmtuning.operator.target.TargetContainer;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * {@code plan}: previews what the operator would render for a TuningProfile, without a cluster.
 * The container's CPU and memory come from a Deployment in the same files, or from flags.
 * Exit status: 0 a plan, 1 the profile is invalid or infeasible for the container, 2 bad usage or input.
 */
public final class PlanCommand {
    static final String USAGE = """
            usage: plan -f FILE [-f FILE ...] [--cpu CORES] [--memory QUANTITY] [--replicas N] [--java VERSION] [-o text|yaml|json]

            Prints the settings the operator would render for the TuningProfile in FILE, and why.
            The target Deployment may sit in the same or another -f file: its container's resources,
            env, command and replicas are then used. Flags supply or override them:
              --cpu CORES         CPU limit of the container, e.g. 2 or 500m
              --memory QUANTITY   memory limit of the container, e.g. 2Gi
              --replicas N        replicas of the Deployment (for database connection totals)
              --java VERSION      the JVM's feature version, e.g. 21
              -o, --output FORMAT text (default), yaml or json
            Exit status: 0 a plan, 1 invalid or infeasible, 2 bad usage or input.
            """;
    static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory()
            .disable(com.fasterxml.jackson.dataformat.yaml.YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
            .enable(com.fasterxml.jackson.dataformat.yaml.YAMLGenerator.Feature.MINIMIZE_QUOTES)
            // "150" stays a string: an env value read back as a number is refused by the API server
            .enable(com.fasterxml.jackson.dataformat.yaml.YAMLGenerator.Feature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS)
            .disable(com.fasterxml.jackson.dataformat.yaml.YAMLGenerator.Feature.SPLIT_LINES));
    static final ObjectMapper JSON = new ObjectMapper().enable(com.fasterxml.jackson.databind.SerializationFeature.INDENT_OUTPUT);

    private PlanCommand() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        return run("plan", USAGE, args, out, err, PlanCommand::plan);
    }

    /** The body of a command: reads the options, prints, returns the exit status. */
    interface Body {
        int run(Options options, PrintStream out, PrintStream err);
    }

    /** Options, usage and input errors the same way for every command: 2 for bad usage or input. */
    static int run(String command, String usage, String[] args, PrintStream out, PrintStream err, Body body) {
        Options options;
        try {
            options = Options.parse(args);
        } catch (IllegalArgumentException e) {
            err.println(command + ": " + e.getMessage());
            err.print(usage);
            return 2;
        }
        if (options.help) {
            out.print(usage);
            return 0;
        }
        try {
            return body.run(options, out, err);
        } catch (InputException e) {
            err.println(command + ": " + e.getMessage());
            return 2;
        }
    }

    /** A profile, the Deployment it targets when one was given (in the files or from the cluster) and the container's facts. */
    record Input(TuningProfile profile, Deployment deployment, ContainerFacts facts) {
        String target() {
            return profile.getSpec().getTargetRef().getName();
        }
    }

    /** The profile from the files and its container's facts, from the Deployment {@code live} finds, one in the files, or the flags. */
    static Input load(Options options, java.util.function.Function<TuningProfile, java.util.Optional<Deployment>> live) {
        List<TuningProfile> profiles = new ArrayList<>();
        List<Deployment> deployments = new ArrayList<>();
        for (Path file : options.files) {
            readObjects(file, profiles, deployments);
        }
        if (profiles.size() != 1) {
            throw new InputException("expected exactly one TuningProfile in " + options.files + ", found " + profiles.size());
        }
        TuningProfile profile = profiles.get(0);
        if (profile.getSpec() == null || profile.getSpec().getTargetRef() == null || profile.getSpec().getTargetRef().getName() == null) {
            throw new InputException("the TuningProfile has no spec.targetRef.name");
        }
        String target = profile.getSpec().getTargetRef().getName();
        Deployment deployment = live.apply(profile).orElseGet(() -> deployments.stream()
                .filter(d -> d.getMetadata() != null && target.equals(d.getMetadata().getName())).findFirst().orElse(null));
        ContainerFacts facts = deployment != null ? factsFrom(deployment, profile, options) : factsFromFlags(options, target);
        return new Input(profile, deployment, facts);
    }

    /** The plan, or the reasons it was refused on {@code err}. */
    static java.util.Optional<PlanResult.Plan> plan(Input input, PrintStream err) {
        PlanResult result = Planner.plan(input.profile().getSpec(), input.facts());
        if (result instanceof PlanResult.Rejected rejected) {
            err.println(rejected.reason() + ":");
            rejected.messages().forEach(m -> err.println("  - " + m));
            return java.util.Optional.empty();
        }
        return java.util.Optional.of((PlanResult.Plan) result);
    }

    private static int plan(Options options, PrintStream out, PrintStream err) {
        Input input = load(options, p -> java.util.Optional.empty());
        TuningProfile profile = input.profile();
        if (options.output.equals("text")) {
            out.println("TuningProfile " + profile.getMetadata().getName() + " -> Deployment " + input.target()
                    + " (" + profile.getSpec().getRuntime() + ", " + profile.getSpec().getMode() + ")");
            out.println("container: " + describe(input.facts()));
        }
        java.util.Optional<PlanResult.Plan> plan = plan(input, err);
        if (plan.isEmpty()) {
            return 1;
        }
        Rendering rendering = Renderer.render(plan.get().values(), profile.getSpec(), input.facts());
        if (options.output.equals("text")) {
            print(plan.get(), rendering, out);
        } else {
            Map<String, Object> document = structured(input, plan.get(), rendering);
            try {
                out.print((options.output.equals("json") ? JSON : YAML).writeValueAsString(document));
                if (options.output.equals("json")) {
                    out.println();
                }
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
        return 0;
    }

    /** The plan as data, for -o yaml|json: what the text shows, field by field. */
    private static Map<String, Object> structured(Input input, PlanResult.Plan plan, Rendering rendering) {
        Map<String, Object> document = new java.util.LinkedHashMap<>();
        document.put("profile", input.profile().getMetadata().getName());
        document.put("target", input.target());
        document.put("runtime", String.valueOf(input.profile().getSpec().getRuntime()));
        document.put("mode", String.valueOf(input.profile().getSpec().getMode()));
        document.put("container", describe(input.facts()));
        document.put("settings", plan.decisions().stream().map(d -> {
            Map<String, Object> setting = new java.util.LinkedHashMap<>();
            setting.put("name", d.name());
            setting.put("value", d.value());
            setting.put("renderedAs", rendering.renderedAs().get(d.setting()));
            setting.put("rule", d.rule().id());
            setting.put("why", d.rationale());
            return setting;
        }).toList());
        document.put("env", Map.of(rendering.jvmOptionsVariable(), rendering.jvmOptionsValue()));
        document.put("configMap", rendering.serverEnvironment());
        document.put("warnings", Stream.concat(plan.warnings().stream(), rendering.warnings().stream()).toList());
        return document;
    }

    private static void readObjects(Path file, List<TuningProfile> profiles, List<Deployment> deployments) {
        try (var documents = YAML.readerFor(JsonNode.class).<JsonNode>readValues(Files.newBufferedReader(file))) {
            while (documents.hasNext()) {
                JsonNode document = documents.next();
                if (document == null || document.isNull() || document.isMissingNode()) {
                    continue;
                }
                String kind = document.path("kind").asText();
                if (kind.equals("TuningProfile")) {
                    profiles.add(YAML.treeToValue(document, TuningProfile.class));
                } else if (kind.equals("Deployment")) {
                    deployments.add(YAML.treeToValue(document, Deployment.class));
                }
            }
        } catch (IOException e) {
            throw new InputException("cannot read " + file + ": " + e.getMessage().lines().findFirst().orElse(""));
        }
    }

    private static ContainerFacts factsFrom(Deployment deployment, TuningProfile profile, Options options) {
        TargetContainer.Lookup lookup = TargetContainer.find(deployment, profile.getSpec().getContainer());
        if (!lookup.isFound()) {
            throw new InputException(lookup.problem());
        }
        // a Deployment the operator tunes already: planned from what its owner declared, as the operator does
        ContainerFacts read = TargetContainer.facts(deployment,
                DeploymentTuning.userContainer(deployment, lookup.container(), profile.getMetadata().getName()), options.java);
        return new ContainerFacts(
                options.cpu != null ? options.cpu : read.cpuLimitCores(), read.cpuRequestCores(),
                options.memory != null ? options.memory : read.memoryLimitBytes(), read.memoryRequestBytes(),
                read.env(), read.envFromReferences(), read.command(), read.args(), options.java,
                options.replicas != null ? options.replicas : read.replicas());
    }

    private static ContainerFacts factsFromFlags(Options options, String target) {
        if (options.cpu == null && options.memory == null) {
            throw new InputException("no Deployment named " + target + " in the given files: pass it with -f, or give --cpu and --memory");
        }
        return new ContainerFacts(options.cpu, null, options.memory, null, Map.of(), Set.of(), List.of(), List.of(),
                options.java, options.replicas != null ? options.replicas : 1);
    }

    private static String describe(ContainerFacts facts) {
        return "cpu " + (facts.cores() == null ? "unset" : Units.number(facts.cores()))
                + ", memory " + (facts.memoryBudgetBytes() == null ? "unset" : Units.mebibytes(facts.memoryBudgetBytes()))
                + ", " + facts.replicas() + " replica(s)"
                + (facts.javaMajorVersion() == null ? "" : ", JDK " + facts.javaMajorVersion());
    }

    private static void print(PlanResult.Plan plan, Rendering rendering, PrintStream out) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"SETTING", "VALUE", "RENDERED AS", "RULE", "WHY"});
        for (Decision d : plan.decisions()) {
            rows.add(new String[] {d.name(), d.value(), rendering.renderedAs().getOrDefault(d.setting(), "-"), d.rule().id(), d.rationale()});
        }
        int[] widths = new int[4];
        rows.forEach(r -> {
            for (int i = 0; i < widths.length; i++) {
                widths[i] = Math.max(widths[i], r[i].length());
            }
        });
        out.println();
        for (String[] r : rows) {
            out.printf("%-" + widths[0] + "s  %-" + widths[1] + "s  %-" + widths[2] + "s  %-" + widths[3] + "s  %s%n",
                    r[0], r[1], r[2], r[3], r[4]);
        }
        out.println();
        out.println("env " + rendering.jvmOptionsVariable() + "=" + rendering.jvmOptionsValue());
        rendering.serverEnvironment().forEach((k, v) -> out.println("configmap " + k + "=" + v));
        List<String> warnings = Stream.concat(plan.warnings().stream(), rendering.warnings().stream()).toList();
        if (!warnings.isEmpty()) {
            out.println();
            out.println("warnings:");
            warnings.forEach(w -> out.println("  - " + w));
        }
    }

    /** Input the user must fix; printed without a stack trace. */
    static final class InputException extends RuntimeException {
        InputException(String message) {
            super(message);
        }
    }

    static final class Options {
        final List<Path> files = new ArrayList<>();
        String output = "text";
        String format = "kustomize";
        String namespace;
        String kubeconfig;
        Double cpu;
        Long memory;
        Integer replicas;
        Integer java;
        boolean help;

        static Options parse(String[] args) {
            Options o = new Options();
            for (int i = 0; i < args.length; i++) {
                String arg = args[i];
                switch (arg) {
                    case "-h", "--help" -> o.help = true;
                    case "-f", "--file" -> o.files.add(Path.of(value(args, ++i, arg)));
                    case "--cpu" -> o.cpu = Quantity.getAmountInBytes(parseQuantity(value(args, ++i, arg), arg)).doubleValue();
                    case "--memory" -> o.memory = Quantity.getAmountInBytes(parseQuantity(value(args, ++i, arg), arg)).longValue();
                    case "--replicas" -> o.replicas = positive(value(args, ++i, arg), arg);
                    case "--java" -> o.java = positive(value(args, ++i, arg), arg);
                    case "-o", "--output" -> o.output = oneOf(value(args, ++i, arg), arg, "text", "yaml", "json");
                    case "--format" -> o.format = oneOf(value(args, ++i, arg), arg, "kustomize", "helm");
                    case "-n", "--namespace" -> o.namespace = value(args, ++i, arg);
                    case "--kubeconfig" -> o.kubeconfig = value(args, ++i, arg);
                    case "-v", "--verbose" -> {
                        // logging is set up by the launcher before the JVM starts; taken here so that every command accepts it
                    }
                    default -> throw new IllegalArgumentException("unknown argument " + arg);
                }
            }
            if (!o.help && o.files.isEmpty()) {
                throw new IllegalArgumentException("give the profile with -f FILE");
            }
            for (Path file : o.files) {
                if (!Files.isReadable(file)) {
                    throw new IllegalArgumentException("cannot read " + file);
                }
            }
            return o;
        }

        private static String oneOf(String value, String flag, String... allowed) {
            if (!List.of(allowed).contains(value)) {
                throw new IllegalArgumentException(flag + " takes one of " + String.join(", ", allowed) + ", got " + value);
            }
            return value;
        }

        private static String value(String[] args, int i, String flag) {
            if (i >= args.length) {
                throw new IllegalArgumentException(flag + " needs a value");
            }
            return args[i];
        }

        private static Quantity parseQuantity(String value, String flag) {
            try {
                Quantity q = Quantity.parse(value);
                if (Quantity.getAmountInBytes(q).signum() <= 0) {
                    throw new IllegalArgumentException(flag + " must be positive, got " + value);
                }
                return q;
            } catch (IllegalArgumentException | ArithmeticException e) {
                throw new IllegalArgumentException(flag + " takes a Kubernetes quantity such as 2, 500m or 2Gi, got " + value);
            }
        }

        private static int positive(String value, String flag) {
            try {
                int n = Integer.parseInt(value);
                if (n < 1) {
                    throw new NumberFormatException();
                }
                return n;
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(flag + " takes a positive whole number, got " + value);
            }
        }
    }
}
