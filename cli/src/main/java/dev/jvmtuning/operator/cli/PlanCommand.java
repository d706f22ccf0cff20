package dev.jvmtuning.operator.cli;

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
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code plan}: previews what the operator would render for a TuningProfile, without a cluster.
 * The container's CPU and memory come from a Deployment in the same files, or from flags.
 */
@Command(name = "plan", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"The settings the operator would render for a TuningProfile, and why, without a cluster.",
                "The profile is read from the -f files. Its Deployment may sit in the same or another one: its container's resources, "
                        + "env, command and replicas are then used. The options below supply or override them."},
        exitCodeListHeading = "%nExit status:%n", exitCodeList = {"0:a plan", "1:the profile is invalid or infeasible for the container",
                "2:bad usage or input"})
final class PlanCommand implements Callable<Integer> {
    @Option(names = {"-f", "--file"}, paramLabel = "FILE", required = true,
            description = "A file of YAML documents with the TuningProfile, and perhaps its Deployment; repeat for more files.")
    private List<Path> files;

    @Option(names = "--cpu", paramLabel = "CORES", converter = PositiveQuantity.class, description = "CPU limit of the container, e.g. 2 or 500m.")
    private Quantity cpu;

    @Option(names = "--memory", paramLabel = "QUANTITY", converter = PositiveQuantity.class, description = "Memory limit of the container, e.g. 2Gi.")
    private Quantity memory;

    @Option(names = "--replicas", paramLabel = "N", converter = PositiveNumber.class,
            description = "Replicas of the Deployment (for database connection totals).")
    private Integer replicas;

    @Option(names = "--java", paramLabel = "VERSION", converter = PositiveNumber.class, description = "The JVM's feature version, e.g. 21; over the status.javaVersion a profile file carries.")
    private Integer java;

    @Option(names = "--allow", paramLabel = "PREFIX",
            description = "A flag prefix the installation allows (its flagPolicy.allow), e.g. -Dfile.encoding=; once per entry. "
                    + "Without it jvmOptions are judged by the standard policy.")
    private List<String> allow = new ArrayList<>();

    @Option(names = {"-o", "--output"}, paramLabel = "FORMAT", defaultValue = "text", description = "text (the default), or yaml or json for scripts.")
    private Output output;

    @Spec
    private CommandSpec spec;

    /** How -o prints. */
    enum Output {
        TEXT, YAML, JSON;

        /** As typed on the line, and as help, errors and completion show it. */
        @Override
        public String toString() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    @Override
    public Integer call() {
        FlagPolicy flagPolicy;
        try {
            flagPolicy = FlagPolicy.bundled(allow);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), "--allow: " + e.getMessage());
        }
        return plan(flagPolicy, spec.commandLine().getOut(), spec.commandLine().getErr());
    }

    private int plan(FlagPolicy flagPolicy, PrintWriter out, PrintWriter err) {
        List<TuningProfile> profiles = new ArrayList<>();
        List<Deployment> deployments = new ArrayList<>();
        for (Path file : files) {
            Documents.read(file, profiles, deployments);
        }
        if (profiles.size() != 1) {
            throw new InputException("expected exactly one TuningProfile in " + files + ", found " + profiles.size());
        }
        TuningProfile profile = profiles.get(0);
        if (profile.getSpec() == null || profile.getSpec().getTargetRef() == null || profile.getSpec().getTargetRef().getName() == null) {
            throw new InputException("the TuningProfile has no spec.targetRef.name");
        }
        String target = profile.getSpec().getTargetRef().getName();
        Deployment deployment = deployments.stream()
                .filter(d -> d.getMetadata() != null && target.equals(d.getMetadata().getName()))
                .findFirst()
                .map(this::overridden)
                .orElseGet(() -> fromFlags(target, profile.getSpec().getContainer()));
        // Offline, the guardrail's query cannot be known: the operator's check of it is diff's and export's.
        Preview preview = Preview.of(profile, deployment, Preview.Live.NONE, java, new Preview.Installation(flagPolicy, guardrail -> Optional.empty()));
        if (preview instanceof Preview.NoContainer missing) {
            throw new InputException(missing.problem());
        }
        ContainerFacts facts = preview instanceof Preview.Rendered rendered ? rendered.facts() : ((Preview.Rejected) preview).facts();
        if (output != Output.TEXT) {
            Map<String, Object> document = structured(profile, facts, preview);
            out.print(output == Output.JSON ? Documents.json(document) : Documents.yaml(document));
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

    /** The Deployment with the limits and replicas the flags give; only the target container's limits are read. */
    private Deployment overridden(Deployment deployment) {
        Deployment copy = new DeploymentBuilder(deployment).build();
        if (replicas != null && copy.getSpec() != null) {
            copy.getSpec().setReplicas(replicas);
        }
        Optional.ofNullable(copy.getSpec()).map(d -> d.getTemplate()).map(t -> t.getSpec()).map(p -> p.getContainers()).orElse(List.of()).forEach(c -> {
            ResourceRequirements resources = Objects.requireNonNullElseGet(c.getResources(), ResourceRequirements::new);
            Map<String, Quantity> limits = new LinkedHashMap<>(Objects.requireNonNullElse(resources.getLimits(), Map.of()));
            if (cpu != null) {
                limits.put("cpu", cpu);
            }
            if (memory != null) {
                limits.put("memory", memory);
            }
            resources.setLimits(limits);
            c.setResources(resources);
        });
        return copy;
    }

    /** A Deployment of one container with the limits and replicas the flags give, when the files hold none. */
    private Deployment fromFlags(String target, String containerName) {
        if (cpu == null && memory == null) {
            throw new InputException("no Deployment named " + target + " in the given files: pass it with -f, or give --cpu and --memory");
        }
        Map<String, Quantity> limits = new LinkedHashMap<>();
        Optional.ofNullable(cpu).ifPresent(cpu -> limits.put("cpu", cpu));
        Optional.ofNullable(memory).ifPresent(memory -> limits.put("memory", memory));
        return new DeploymentBuilder().withNewMetadata().withName(target).endMetadata()
                .withNewSpec().withReplicas(replicas != null ? replicas : 1).withNewTemplate().withNewSpec()
                .addNewContainer().withName(Objects.requireNonNullElse(containerName, target)).withNewResources().withLimits(limits).endResources()
                .endContainer().endSpec().endTemplate().endSpec().build();
    }

    private static String describe(ContainerFacts facts) {
        return "cpu " + (facts.cores() == null ? "unset" : Units.number(facts.cores()))
                + ", memory " + (facts.memoryBudgetBytes() == null ? "unset" : Units.mebibytes(facts.memoryBudgetBytes()))
                + ", " + facts.replicas() + " replica(s)"
                + (facts.javaMajorVersion() == null ? "" : ", JDK " + facts.javaMajorVersion());
    }

    private static void print(PlanResult.Plan plan, Rendering rendering, PrintWriter out) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"SETTING", "VALUE", "RENDERED AS", "RULE", "WHY"});
        for (Decision d : plan.decisions()) {
            rows.add(new String[] {d.name(), d.value(), rendering.renderedAs().getOrDefault(d.setting(), "-"), d.rule().id(), d.rationale()});
        }
        out.println();
        Table.print(rows, out);
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

    /** A Kubernetes quantity above zero, such as 2, 500m or 2Gi. */
    static final class PositiveQuantity implements ITypeConverter<Quantity> {
        @Override
        public Quantity convert(String value) {
            try {
                Quantity quantity = Quantity.parse(value);
                if (Quantity.getAmountInBytes(quantity).signum() > 0) {
                    return quantity;
                }
            } catch (IllegalArgumentException | ArithmeticException e) {
                // said below, as for zero
            }
            throw new TypeConversionException("takes a Kubernetes quantity such as 2, 500m or 2Gi, above zero; got " + value);
        }
    }

    /** A whole number above zero. */
    static final class PositiveNumber implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            try {
                int number = Integer.parseInt(value);
                if (number > 0) {
                    return number;
                }
            } catch (NumberFormatException e) {
                // said below, as for zero
            }
            throw new TypeConversionException("takes a positive whole number, got " + value);
        }
    }
}
