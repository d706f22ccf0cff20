package dev.jvmtuning.operator.cli;

import dev.jvmtuning.operator.decision.Decide;
import dev.jvmtuning.operator.flags.FlagPolicy;
import dev.jvmtuning.operator.installation.GuardrailQueries;
import dev.jvmtuning.operator.installation.PublishedSettings;
import dev.jvmtuning.operator.preview.Preview;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import picocli.CommandLine.Option;

/** The options of the verbs that read the cluster: where to connect, which namespace, where the operator runs. */
final class ClusterOptions {
    static final String DEFAULT_OPERATOR_NAMESPACE = "jvm-tuning-system";
    /** Without the operator's settings: the standard flag policy, no guardrail check, the default agent image. */
    private static final Decide.Installation DEFAULTS = new Decide.Installation(new Preview.Installation(FlagPolicy.standard(),
            guardrail -> Optional.empty()), PublishedSettings.DEFAULT_AGENT_IMAGE, PublishedSettings.DEFAULT_AGENT_JAR_PATH);

    @Option(names = {"-n", "--namespace"}, paramLabel = "NAMESPACE",
            description = "Namespace of the TuningProfile and its Deployment (default: the kubeconfig context's, else default).")
    private String namespace;

    @Option(names = "--kubeconfig", paramLabel = "FILE", description = "The kubeconfig to use (default: $KUBECONFIG, else ~/.kube/config).")
    private Path kubeconfig;

    @Option(names = "--operator-namespace", paramLabel = "NAMESPACE", defaultValue = DEFAULT_OPERATOR_NAMESPACE,
            description = "Namespace the operator runs in, whose ConfigMap " + PublishedSettings.CONFIG_MAP
                    + " gives its flag allow-list, guardrail queries and agent image (default: ${DEFAULT-VALUE}).")
    private String operatorNamespace;

    /** A client for the kubeconfig; the namespace defaults to its context's. */
    KubernetesClient client() {
        try {
            Config config = kubeconfig == null ? Config.autoConfigure(null) : Config.fromKubeconfig(Files.readString(kubeconfig));
            if (namespace == null) {
                namespace = Objects.requireNonNullElse(config.getNamespace(), "default");
            }
            return new KubernetesClientBuilder().withConfig(config).build();
        } catch (IOException e) {
            throw new InputException("cannot read " + kubeconfig + ": " + e.getMessage());
        }
    }

    /** The namespace of the profile; known once {@link #client()} has read the kubeconfig. */
    String namespace() {
        return namespace;
    }

    /**
     * The settings the operator publishes in its namespace; when they cannot be read, the defaults, said on
     * stderr: a preview that silently used other settings than the operator's would show what it never does.
     */
    Decide.Installation installed(KubernetesClient client, PrintWriter err) {
        String why;
        try {
            ConfigMap published = client.configMaps().inNamespace(operatorNamespace).withName(PublishedSettings.CONFIG_MAP).get();
            if (published != null) {
                return installation(PublishedSettings.from(Objects.requireNonNullElse(published.getData(), Map.of())));
            }
            why = "not found";
        } catch (KubernetesClientException e) {
            why = TpCommand.message(e);
        } catch (IllegalArgumentException e) {
            why = e.getMessage();
        }
        err.println("kubectl tp: warning: the operator's settings (ConfigMap " + operatorNamespace + "/" + PublishedSettings.CONFIG_MAP
                + ") cannot be read: " + why + ". Planning with the standard flag policy (no allow-list), no guardrail check and the "
                + "default agent image: what the operator does may differ. --operator-namespace names the namespace the operator runs in.");
        return DEFAULTS;
    }

    /** The installation as the operator decides with it, from what it publishes of its settings. */
    private static Decide.Installation installation(PublishedSettings published) {
        return new Decide.Installation(new Preview.Installation(FlagPolicy.bundled(published.flagPolicyAllow()),
                GuardrailQueries.of(published.guardrailQueries())::refusal), published.agentImage(), published.agentJarPath());
    }
}
