package dev.jvmtuning.operator.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import dev.jvmtuning.operator.flags.FlagPolicy;
import dev.jvmtuning.operator.model.ContainerFacts;
import dev.jvmtuning.operator.model.Units;
import dev.jvmtuning.operator.planner.Decision;
import dev.jvmtuning.operator.planner.PlanResult;
import dev.jvmtuning.operator.preview.Preview;
import dev.jvmtuning.operator.render.Rendering;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * {@code plan}: previews what the operator would render for a TuningProfile, without a cluster.
 * The container's CPU and memory come from a Deployment in the same files, or from flags.
 * Exit status: 0 a plan, 1 the profile is invalid or infeasible for the container, 2 bad usage or input.
 */
public final class PlanCommand {
    static final String USAGE = """
            usage: plan -f FILE [-f FILE ...] [--cpu CORES] [--memory QUANTITY] [--replicas N] [--java VERSION] [--allow PREFIX ...]
                        [-o text|yaml|json]

            Prints the settings the operator would render for the TuningProfile in FILE, and why.
            The target Deployment may sit in the same or another -f file: its container's resources,
            env, command and replicas are then used. Flags supply or override them:
              --cpu CORES         CPU limit of the container, e.g. 2 or 500m
              --memory QUANTITY   memory limit of the container, e.g. 2Gi
              --replicas N        replicas of the Deployment (for database connection totals)
              --java VERSION      the JVM's feature version, e.g. 21
              --allow PREFIX      a flag prefix the installation allows (its flagPolicy.allow), e.g. -Dfile.encoding=;
                                  once per entry. Without it jvmOptions are judged by the standard policy
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
        Deployment deployment = deployments.stream()
                .filter(d -> d.getMetadata() != null && target.equals(d.getMetadata().getName()))
                .findFirst()
                .map(d -> overridden(d, options))
                .orElseGet(() -> fromFlags(options, target, profile.getSpec().getContainer()));
        // Offline, the guardrail's query cannot be known: the operator's check of it is diff's and export's.
        Preview preview = Preview.of(profile.getMetadata().getName(), profile.getSpec(),
                profile.getStatus() == null ? null : profile.getStatus().getAuto(), deployment, options.java,
                new Preview.Installation(options.flagPolicy(), guardrail -> Optional.empty()));
        if (preview instanceof Preview.NoContainer missing) {
            throw new InputException(missing.problem());
        }
        ContainerFacts facts = preview instanceof Preview.Rendered rendered ? rendered.facts() : ((Preview.Rejected) preview).facts();
        if (options.output != Output.TEXT) {
            out.print(options.output.write(structured(profile, facts, preview)));
            return preview instanceof Preview.Rendered ? 0 : 1;
        }
        out.println("TuningProfile " + profile.getMetadata().getName() + " -> Deployment " + target
                + " (" + profile.getSpec().getRuntime() + ", " + profile.getSpec().getMode() + ")");
        out.println("container: " + describe(facts));
        if (preview instanceof Preview.Rejected rejected) {
            err.println(rejected.reason() + ":");
            rejected.messages().forEach(m -> err.println("  - " + m));
            return 1;
        }
        Preview.Rendered rendered = (Preview.Rendered) preview;
        print(rendered.plan(), rendered.rendering(), out);
        return 0;
    }

    /** The plan as data, for -o yaml and -o json: the same fields the text shows, or the rejection. */
    private static Map<String, Object> structured(TuningProfile profile, ContainerFacts facts, Preview preview) {
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
        if (preview instanceof Preview.Rejected rejected) {
            doc.put("rejected", Map.of("reason", rejected.reason().name(), "messages", rejected.messages()));
            return doc;
        }
        PlanResult.Plan plan = ((Preview.Rendered) preview).plan();
        Rendering rendering = ((Preview.Rendered) preview).rendering();
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

    /** The Deployment with the limits and replicas the flags give; only the target container's limits are read. */
    private static Deployment overridden(Deployment deployment, Options options) {
        Deployment copy = new DeploymentBuilder(deployment).build();
        if (options.replicas != null && copy.getSpec() != null) {
            copy.getSpec().setReplicas(options.replicas);
        }
        Optional.ofNullable(copy.getSpec()).map(d -> d.getTemplate()).map(t -> t.getSpec()).map(p -> p.getContainers()).orElse(List.of()).forEach(c -> {
            ResourceRequirements resources = Objects.requireNonNullElseGet(c.getResources(), ResourceRequirements::new);
            Map<String, Quantity> limits = new LinkedHashMap<>(Objects.requireNonNullElse(resources.getLimits(), Map.of()));
            if (options.cpu != null) {
                limits.put("cpu", options.cpu);
            }
            if (options.memory != null) {
                limits.put("memory", options.memory);
            }
            resources.setLimits(limits);
            c.setResources(resources);
        });
        return copy;
    }

    /** A Deployment of one container with the limits and replicas the flags give, when the files hold none. */
    private static Deployment fromFlags(Options options, String target, String containerName) {
        if (options.cpu == null && options.memory == null) {
            throw new InputException("no Deployment named " + target + " in the given files: pass it with -f, or give --cpu and --memory");
        }
        Map<String, Quantity> limits = new LinkedHashMap<>();
        Optional.ofNullable(options.cpu).ifPresent(cpu -> limits.put("cpu", cpu));
        Optional.ofNullable(options.memory).ifPresent(memory -> limits.put("memory", memory));
        return new DeploymentBuilder().withNewMetadata().withName(target).endMetadata()
                .withNewSpec().withReplicas(options.replicas != null ? options.replicas : 1).withNewTemplate().withNewSpec()
                .addNewContainer().withName(Objects.requireNonNullElse(containerName, target)).withNewResources().withLimits(limits).endResources()
                .endContainer().endSpec().endTemplate().endSpec().build();
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
        Quantity cpu;
        Quantity memory;
        final List<String> allow = new ArrayList<>();
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
                    case "--cpu" -> o.cpu = parseQuantity(value(args, ++i, arg), arg);
                    case "--memory" -> o.memory = parseQuantity(value(args, ++i, arg), arg);
                    case "--allow" -> o.allow.add(value(args, ++i, arg));
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
            o.flagPolicy();
            return o;
        }

        /** The policy the installation's allow-list makes; an entry it could never allow is bad usage. */
        FlagPolicy flagPolicy() {
            return FlagPolicy.bundled(allow);
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
