package dev.jvmtuning.operator.cli;

import dev.jvmtuning.operator.planner.PlanResult;
import dev.jvmtuning.operator.render.Renderer;
import dev.jvmtuning.operator.render.Rendering;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code export}: the planned settings as a file a GitOps repository takes in a pull request, for
 * Deployments no controller may write to: a Kustomize strategic-merge patch of the target container's
 * env, or the same env list as a Helm values fragment. Server properties are plain values there, not
 * ConfigMap references: Git holds the whole change.
 */
final class ExportCommand {
    static final String USAGE = """
            usage: export -f FILE [-f FILE ...] [--format kustomize|helm] [--live [-n NAMESPACE] [--kubeconfig FILE]]
                          [--cpu CORES] [--memory QUANTITY] [--replicas N] [--java VERSION]

            Prints the settings planned for the TuningProfile in FILE as a Kustomize patch of the target
            Deployment (default) or a Helm values fragment (an env list). The container's facts come from
            the Deployment in the files, from the cluster with --live, or from the flags.
            Exit status: 0 exported, 1 the profile is invalid or infeasible for the container, 2 bad usage or input.
            """;

    private ExportCommand() {
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        boolean live = List.of(args).contains("--live");
        String[] rest = List.of(args).stream().filter(a -> !a.equals("--live")).toArray(String[]::new);
        return PlanCommand.run("export", USAGE, rest, out, err, (options, o, e) -> export(options, live, o, e));
    }

    private static int export(PlanCommand.Options options, boolean live, PrintStream out, PrintStream err) {
        PlanCommand.Input input;
        if (live) {
            try (KubernetesClient client = DiffCommand.client(options)) {
                input = PlanCommand.load(options, p -> Optional.of(DiffCommand.liveTarget(client, DiffCommand.namespace(options, p, client), p)));
            }
        } else {
            input = PlanCommand.load(options, p -> Optional.empty());
        }
        Optional<PlanResult.Plan> plan = PlanCommand.plan(input, err);
        if (plan.isEmpty()) {
            return 1;
        }
        Rendering rendering = Renderer.render(plan.get().values(), input.profile().getSpec(), input.facts());
        List<Map<String, String>> env = new ArrayList<>();
        env.add(Map.of("name", rendering.jvmOptionsVariable(), "value", rendering.jvmOptionsValue()));
        rendering.serverEnvironment().forEach((k, v) -> env.add(entry(k, v)));
        String container = input.deployment() == null ? "app" : dev.jvmtuning.operator.target.TargetContainer
                .find(input.deployment(), input.profile().getSpec().getContainer()).container().getName();
        Map<String, Object> document = new LinkedHashMap<>();
        String header;
        if (options.format.equals("helm")) {
            header = "# Helm values: the env of Deployment " + input.target() + " as TuningProfile " + input.profile().getMetadata().getName()
                    + " plans it (merge into your chart's env list)\n";
            document.put("env", env);
        } else {
            header = "# Kustomize patch: the env of Deployment " + input.target() + " as TuningProfile " + input.profile().getMetadata().getName()
                    + " plans it (kustomization.yaml: patches: [{path: this file}])" + (input.deployment() == null
                            ? "\n# no Deployment was given: the container is named app; set its real name" : "") + "\n";
            document.put("apiVersion", "apps/v1");
            document.put("kind", "Deployment");
            document.put("metadata", Map.of("name", input.target()));
            document.put("spec", Map.of("template", Map.of("spec", Map.of("containers",
                    List.of(Map.of("name", container, "env", env))))));
        }
        try {
            out.print(header + PlanCommand.YAML.writeValueAsString(document));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return 0;
    }

    private static Map<String, String> entry(String name, String value) {
        Map<String, String> entry = new LinkedHashMap<>();
        entry.put("name", name);
        entry.put("value", value);
        return entry;
    }
}
