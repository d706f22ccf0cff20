package dev.jvmtuning.operator.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.difflib.DiffUtils;
import com.github.difflib.UnifiedDiffUtils;
import dev.jvmtuning.operator.decision.Decide;
import dev.jvmtuning.operator.decision.Write;
import dev.jvmtuning.operator.model.LabelsAndAnnotations;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** What the operator would write: the live Deployment and ConfigMap before, and after its decision's writes as the API server stores them. */
@Command(name = "diff", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class, exitCodeOnExecutionException = 2,
        description = {"The change the operator would make to the live Deployment, as a unified diff.",
                "With the ConfigMap of values it would create. The operator's own decision on what the cluster shows (the profile and "
                        + "its status, the Deployment, its pods, the other profiles that target it) gives the writes, and the API "
                        + "server merges them as the operator applies them (a server-side dry run with its field manager), so what diff "
                        + "shows is what the operator then writes. Where it writes nothing (settings rolled back, OOM kills no budget "
                        + "answers, an older profile tuning the Deployment, mode Recommend) diff is empty, and says why on stderr.",
                "Plans as the operator does: mode Auto's settings in status.auto are laid over the profile, and the installation's flag "
                        + "allow-list and guardrail queries apply."},
        exitCodeListHeading = "%nExit status (as kubectl diff):%n", exitCodeList = {"0:no differences", "1:differences", "2:an error"})
final class DiffCommand implements Callable<Integer> {
    private static final int CONTEXT_LINES = 3;

    @Mixin
    private ProfileArgument profile;

    @Mixin
    private ClusterOptions cluster;

    @Option(names = "--agent-image", paramLabel = "IMAGE", description = "The agent image to inject instead of the one the operator publishes.")
    private String agentImage;

    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() {
        List<String> diff = diff(predict(spec.commandLine().getErr()));
        diff.forEach(spec.commandLine().getOut()::println);
        return diff.isEmpty() ? 0 : 1;
    }

    /**
     * What the operator would write, as the API server would store it: the Deployment (null when it would write none) and the
     * ConfigMaps it would create, beside the live Deployment.
     */
    record Prediction(Deployment live, Deployment deployment, List<ConfigMap> configMaps) {
    }

    /** diff's prediction for its arguments (the verb's own, without "diff"), as objects. */
    static Prediction predict(String[] arguments, PrintWriter err) {
        DiffCommand diff = new DiffCommand();
        new CommandLine(diff).parseArgs(arguments);
        return diff.predict(err);
    }

    private Prediction predict(PrintWriter err) {
        profile.requireOne();
        try (KubernetesClient client = cluster.client()) {
            String namespace = cluster.namespace();
            Decide.Installation installed = cluster.installed(client, err);
            Decide.Installation installation = agentImage == null ? installed
                    : new Decide.Installation(installed.preview(), agentImage, installed.agentJarPath());
            Planned planned = Planned.of(profile.load(client, namespace), client, namespace, installation);
            String name = planned.profile().getMetadata().getName();
            planned.notApplied().ifPresent(why -> err.println("kubectl tp diff: TuningProfile " + name + " is not applied: " + why));
            Deployment deployment = null;
            List<ConfigMap> configMaps = new ArrayList<>();
            // Pruning the ConfigMaps that no template names any more changes nothing that runs: not shown.
            for (Write write : planned.decision().writes()) {
                if (write instanceof Write.CreateConfigMap create) {
                    ConfigMap values = create.configMap();
                    if (planned.profile().getMetadata().getUid() == null) {
                        // A profile from a file that is not in the cluster yet: nothing to own the ConfigMap so far.
                        values.getMetadata().setOwnerReferences(null);
                    }
                    configMaps.add(client.resource(values).inNamespace(namespace).dryRun().create());
                } else if (write instanceof Write.ApplyDeployment apply) {
                    deployment = client.resource(apply.desired()).inNamespace(namespace).dryRun().fieldManager(LabelsAndAnnotations.OPERATOR)
                            .forceConflicts().serverSideApply();
                } else if (write instanceof Write.RestoreDeployment restore) {
                    deployment = restore.restored();
                }
            }
            return new Prediction(planned.live(), deployment, configMaps);
        }
    }

    private static List<String> diff(Prediction prediction) {
        List<String> diff = new ArrayList<>();
        prediction.configMaps().forEach(created -> diff.addAll(unified("configmap/" + created.getMetadata().getName(), null, created)));
        if (prediction.deployment() != null) {
            diff.addAll(unified("deployment/" + prediction.live().getMetadata().getName(), prediction.live(), prediction.deployment()));
        }
        return diff;
    }

    /** A unified diff of two objects as YAML, without the fields the server owns; empty when they are the same. */
    private static List<String> unified(String name, HasMetadata before, HasMetadata after) {
        List<String> beforeLines = before == null ? List.of() : yaml(before);
        List<String> afterLines = yaml(after);
        return UnifiedDiffUtils.generateUnifiedDiff("live/" + name, "planned/" + name, beforeLines, DiffUtils.diff(beforeLines, afterLines),
                CONTEXT_LINES);
    }

    private static List<String> yaml(HasMetadata object) {
        ObjectNode tree = Documents.YAML.valueToTree(object);
        tree.remove("status");
        ObjectNode metadata = (ObjectNode) tree.get("metadata");
        for (String serverOwned : List.of("managedFields", "resourceVersion", "uid", "generation", "creationTimestamp")) {
            metadata.remove(serverOwned);
        }
        return Documents.yaml(tree).lines().toList();
    }
}
