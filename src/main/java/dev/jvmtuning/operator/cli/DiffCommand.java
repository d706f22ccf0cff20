package dev.jvmtuning.operator.cli;

import dev.jvmtuning.operator.api.v1alpha1.Mode;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import dev.jvmtuning.operator.planner.PlanResult;
import dev.jvmtuning.operator.render.DeploymentTuning;
import dev.jvmtuning.operator.render.Renderer;
import dev.jvmtuning.operator.render.Rendering;
import dev.jvmtuning.operator.render.TuningConfigMap;
import dev.jvmtuning.operator.target.TargetContainer;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
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

/**
 * {@code diff}: what the operator would change on the live Deployment if the profile in the file were
 * applied: the target container's env entries, the pod-template and Deployment annotations, and the
 * ConfigMap of server properties. Reads the cluster, writes nothing. Exit status as kubectl diff:
 * 0 no change, 1 changes, 2 bad usage, unreadable input or an unreachable cluster.
 */
final class DiffCommand {
    static final String USAGE = """
            usage: diff -f FILE [-n NAMESPACE] [--kubeconfig FILE] [--java VERSION]

            Shows the exact change the operator would make to the live Deployment for the TuningProfile in FILE:
            env entries of the target container, annotations and the ConfigMap of server properties, as
            '-' (now) and '+' (after) lines. Nothing is written.
              -n, --namespace NS  the profile's namespace (default: the profile's, else the kubeconfig's)
              --kubeconfig FILE   default: $KUBECONFIG, else ~/.kube/config
            Exit status: 0 no change, 1 changes, 2 bad usage, input or cluster error.
            """;

    private DiffCommand() {
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        return PlanCommand.run("diff", USAGE, args, out, err, DiffCommand::diff);
    }

    static KubernetesClient client(PlanCommand.Options options) {
        try {
            String kubeconfig = options.kubeconfig != null ? Files.readString(Path.of(options.kubeconfig)) : null;
            Config config = kubeconfig != null ? Config.fromKubeconfig(kubeconfig) : Config.autoConfigure(null);
            return new KubernetesClientBuilder().withConfig(config).build();
        } catch (IOException e) {
            throw new PlanCommand.InputException("cannot read " + options.kubeconfig + ": " + e.getMessage());
        }
    }

    private static int diff(PlanCommand.Options options, PrintStream out, PrintStream err) {
        try (KubernetesClient client = client(options)) {
            PlanCommand.Input input = PlanCommand.load(options, p -> Optional.of(liveTarget(client, namespace(options, p, client), p)));
            TuningProfile profile = input.profile();
            Deployment live = input.deployment();
            String namespace = live.getMetadata().getNamespace();
            String name = profile.getMetadata().getName();
            String target = input.target();
            Container liveContainer = TargetContainer.find(live, profile.getSpec().getContainer()).container();
            Container userContainer = DeploymentTuning.userContainer(live, liveContainer, name);
            Optional<PlanResult.Plan> plan = profile.getSpec().getMode() == Mode.Recommend ? Optional.empty() : PlanCommand.plan(input, err);
            if (profile.getSpec().getMode() != Mode.Recommend && plan.isEmpty()) {
                err.println("diff: the operator would restore the Deployment's own template, as below");
            }
            List<String> lines = new ArrayList<>();
            Map<String, String> envAfter;
            Map<String, String> annotationsAfter;
            String hashAfter;
            if (plan.isPresent()) {
                Rendering rendering = Renderer.render(plan.get().values(), profile.getSpec(), input.facts());
                ConfigMap values = TuningConfigMap.desired(profile, rendering);
                Deployment desired = DeploymentTuning.desired(live, userContainer, name, rendering, values.getMetadata().getName(), null);
                envAfter = env(userContainer);
                envAfter.putAll(env(desired.getSpec().getTemplate().getSpec().getContainers().get(0)));
                annotationsAfter = new LinkedHashMap<>(Objects.requireNonNullElse(live.getMetadata().getAnnotations(), Map.of()));
                annotationsAfter.putAll(desired.getMetadata().getAnnotations());
                hashAfter = desired.getSpec().getTemplate().getMetadata().getAnnotations().get(DeploymentTuning.SETTINGS_HASH);
                ConfigMap existing = client.configMaps().inNamespace(namespace).withName(values.getMetadata().getName()).get();
                Map<String, String> before = existing == null ? Map.of() : Objects.requireNonNullElse(existing.getData(), Map.of());
                List<String> data = new ArrayList<>();
                compare("", before, values.getData(), data);
                if (!data.isEmpty()) {
                    lines.add("ConfigMap " + namespace + "/" + values.getMetadata().getName() + (existing == null ? " (created)" : "") + ":");
                    lines.addAll(data);
                }
            } else {
                Deployment restored = DeploymentTuning.tunedBy(live, name) ? DeploymentTuning.restored(live, name) : live;
                envAfter = env(TargetContainer.find(restored, profile.getSpec().getContainer()).container());
                annotationsAfter = Objects.requireNonNullElse(restored.getMetadata().getAnnotations(), Map.of());
                hashAfter = annotation(restored);
            }
            List<String> deployment = new ArrayList<>();
            compare("env ", env(liveContainer), envAfter, deployment);
            compare("annotation ", Objects.requireNonNullElse(live.getMetadata().getAnnotations(), Map.of()), annotationsAfter, deployment);
            compare("pod template annotation ", hashMap(annotation(live)), hashMap(hashAfter), deployment);
            if (!deployment.isEmpty()) {
                lines.add(0, "Deployment " + namespace + "/" + target + ", container " + liveContainer.getName() + ":");
                lines.addAll(1, deployment);
            }
            lines.forEach(out::println);
            return lines.isEmpty() ? 0 : 1;
        } catch (KubernetesClientException e) {
            throw new PlanCommand.InputException("cannot read the cluster: " + Objects.requireNonNullElse(
                    e.getStatus() == null ? null : e.getStatus().getMessage(), e.getMessage()));
        }
    }

    static String namespace(PlanCommand.Options options, TuningProfile profile, KubernetesClient client) {
        return Objects.requireNonNullElse(options.namespace, Objects.requireNonNullElse(profile.getMetadata().getNamespace(),
                Objects.requireNonNullElse(client.getNamespace(), "default")));
    }

    static Deployment liveTarget(KubernetesClient client, String namespace, TuningProfile profile) {
        Deployment live = client.apps().deployments().inNamespace(namespace).withName(profile.getSpec().getTargetRef().getName()).get();
        if (live == null) {
            throw new PlanCommand.InputException("Deployment " + namespace + "/" + profile.getSpec().getTargetRef().getName() + " not found");
        }
        return live;
    }

    private static String annotation(Deployment deployment) {
        var metadata = deployment.getSpec().getTemplate().getMetadata();
        return metadata == null || metadata.getAnnotations() == null ? null : metadata.getAnnotations().get(DeploymentTuning.SETTINGS_HASH);
    }

    private static Map<String, String> hashMap(String hash) {
        return hash == null ? Map.of() : Map.of(DeploymentTuning.SETTINGS_HASH, hash);
    }

    /** A container's env entries by name, each as it reads: its value, or where it comes from. */
    private static Map<String, String> env(Container container) {
        Map<String, String> env = new LinkedHashMap<>();
        for (EnvVar var : Objects.requireNonNullElse(container.getEnv(), List.<EnvVar>of())) {
            var from = var.getValueFrom();
            env.put(var.getName(), from == null ? Objects.requireNonNullElse(var.getValue(), "")
                    : from.getConfigMapKeyRef() != null ? "from ConfigMap " + from.getConfigMapKeyRef().getName() + " key "
                            + from.getConfigMapKeyRef().getKey() + (Boolean.TRUE.equals(from.getConfigMapKeyRef().getOptional()) ? " (optional)" : "")
                    : "from " + from);
        }
        return env;
    }

    /** '-' and '+' lines for each key whose value differs. */
    private static void compare(String what, Map<String, String> before, Map<String, String> after, List<String> lines) {
        List<String> keys = new ArrayList<>(before.keySet());
        after.keySet().stream().filter(k -> !before.containsKey(k)).forEach(keys::add);
        for (String key : keys) {
            String was = before.get(key);
            String will = after.get(key);
            if (!Objects.equals(was, will)) {
                if (was != null) {
                    lines.add("- " + what + key + "=" + was);
                }
                if (will != null) {
                    lines.add("+ " + what + key + "=" + will);
                }
            }
        }
    }
}
