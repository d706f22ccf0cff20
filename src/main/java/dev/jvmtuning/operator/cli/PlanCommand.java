package dev.jvmtuning.operator.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import dev.jvmtuning.operator.model.ContainerFacts;
import dev.jvmtuning.operator.model.Units;
import dev.jvmtuning.operator.planner.Decision;
import dev.jvmtuning.operator.planner.PlanResult;
import dev.jvmtuning.operator.planner.Planner;
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
import java.util.LinkedHashMap;
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
              -o, --output FORMAT text (default), or yaml or json for scripts
            Exit status: 0 a plan, 1 invalid or infeasible, 2 bad usage or input.
            """;
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory()
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER).enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
            .enable(YAMLGenerator.Feature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS));

    private PlanCommand() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        Options options;
        try {
            options = Options.parse(args);
        } catch (IllegalArgumentException e) {
            err.println("plan: " + e.getMessage());
            err.print(USAGE);
            return 2;
        }
        if (options.help) {
            out.print(USAGE);
            return 0;
        }
        try {
            return plan(options, out, err);
        } catch (InputException e) {
            err.println("plan: " + e.getMessage());
            return 2;
        }
    }

    private static int plan(Options options, PrintStream out, PrintStream err) {
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
        ContainerFacts facts = deployments.stream()
                .filter(d -> d.getMetadata() != null && target.equals(d.getMetadata().getName()))
                .findFirst()
                .map(d -> factsFrom(d, profile, options))
                .orElseGet(() -> factsFromFlags(options, target));

        PlanResult result = Planner.plan(profile.getSpec(), facts);
        if (options.output != Output.TEXT) {
            out.print(options.output.write(structured(profile, facts, result)));
            return result instanceof PlanResult.Plan ? 0 : 1;
        }
        out.println("TuningProfile " + profile.getMetadata().getName() + " -> Deployment " + target
                + " (" + profile.getSpec().getRuntime() + ", " + profile.getSpec().getMode() + ")");
        out.println("container: " + describe(facts));
        if (result instanceof PlanResult.Rejected rejected) {
            err.println(rejected.reason() + ":");
            rejected.messages().forEach(m -> err.println("  - " + m));
            return 1;
        }
        PlanResult.Plan plan = (PlanResult.Plan) result;
        print(plan, Renderer.render(plan.values(), profile.getSpec(), facts), out);
        return 0;
    }

    /** The plan as data, for -o yaml and -o json: the same fields the text shows, or the rejection. */
    private static Map<String, Object> structured(TuningProfile profile, ContainerFacts facts, PlanResult result) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("profile", profile.getMetadata().getName());
        doc.put("target", profile.getSpec().getTargetRef().getName());
        doc.put("runtime", profile.getSpec().getRuntime().name());
        doc.put("mode", profile.getSpec().getMode().name());
        Map<String, Object> container = new LinkedHashMap<>();
        container.put("cpu", facts.cores());
        container.put("memory", facts.memoryBudgetBytes() == null ? null : Units.mebibytes(facts.memoryBudgetBytes()));
        container.put("replicas", facts.replicas());
        container.put("java", facts.javaMajorVersion());
        doc.put("container", container);
        if (result instanceof PlanResult.Rejected rejected) {
            doc.put("rejected", Map.of("reason", rejected.reason().name(), "messages", rejected.messages()));
            return doc;
        }
        PlanResult.Plan plan = (PlanResult.Plan) result;
        Rendering rendering = Renderer.render(plan.values(), profile.getSpec(), facts);
        doc.put("settings", plan.decisions().stream().map(d -> {
            Map<String, String> row = new LinkedHashMap<>();
            row.put("name", d.name());
            row.put("value", d.value());
            row.put("renderedAs", rendering.renderedAs().get(d.setting()));
            row.put("rule", d.rule().id());
            row.put("why", d.rationale());
            return row;
        }).toList());
        doc.put("env", Map.of(rendering.jvmOptionsVariable(), rendering.jvmOptionsValue()));
        doc.put("configMap", rendering.serverEnvironment());
        doc.put("warnings", Stream.concat(plan.warnings().stream(), rendering.warnings().stream()).toList());
        return doc;
    }

    /** How -o prints. */
    enum Output {
        TEXT, YAML, JSON;

        String write(Object document) {
            try {
                return this == JSON ? new ObjectMapper().writerWithDefaultPrettyPrinter().writeValueAsString(document) + "\n"
                        : PlanCommand.YAML.writeValueAsString(document);
            } catch (JsonProcessingException e) {
                throw new IllegalStateException("a plan is plain data", e);
            }
        }

        static Output parse(String value) {
            return switch (value) {
                case "text" -> TEXT;
                case "yaml" -> YAML;
                case "json" -> JSON;
                default -> throw new IllegalArgumentException("-o takes text, yaml or json, got " + value);
            };
        }
    }

    /** The TuningProfiles and Deployments of a file of YAML documents; other kinds are skipped. */
    static void readObjects(Path file, List<TuningProfile> profiles, List<Deployment> deployments) {
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
        ContainerFacts read = TargetContainer.facts(deployment, lookup.container(), options.java);
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

    private static final class Options {
        final List<Path> files = new ArrayList<>();
        Double cpu;
        Long memory;
        Integer replicas;
        Integer java;
        Output output = Output.TEXT;
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
                    case "-o", "--output" -> o.output = Output.parse(value(args, ++i, arg));
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
