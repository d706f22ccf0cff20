package dev.jvmtuning.operator.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import dev.jvmtuning.operator.testing.FakeKubelet;
import dev.jvmtuning.operator.testing.LocalControlPlane;
import dev.jvmtuning.operator.testing.RunningOperator;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code kubectl tp}: output formats, exit codes, diff against a real API server, and quiet output from the plugin itself. */
class TpCommandTest {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final Path EXAMPLE = Path.of("examples/orders-api.yaml");
    @TempDir
    Path dir;

    static PlanCommandTest.Outcome tp(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = TpCommand.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new PlanCommandTest.Outcome(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void planPrintsJsonAndYamlWithTheSameSettingsAsText() throws Exception {
        JsonNode json = new ObjectMapper().readTree(tp("plan", "-f", EXAMPLE.toString(), "-o", "json").out());
        JsonNode yaml = YAML.readTree(tp("plan", "-f", EXAMPLE.toString(), "-o", "yaml").out());

        assertThat(json).isEqualTo(yaml);
        assertThat(json.path("settings").findValuesAsText("name")).contains("threads.max", "heap.size");
        assertThat(json.path("configMap").path("SERVER_TOMCAT_THREADS_MAX").asText()).isEqualTo("150");
        assertThat(json.path("env").path("JAVA_TOOL_OPTIONS").asText()).contains("-Xmx1488m");
        assertThat(tp("plan", "-f", EXAMPLE.toString(), "-o", "xml").status()).isEqualTo(2);
        assertThat(tp("frobnicate").status()).isEqualTo(2);
    }

    @Test
    void exportWritesAKustomizePatchAndHelmValuesWithStringValues() throws Exception {
        PlanCommandTest.Outcome kustomize = tp("export", "-f", EXAMPLE.toString());
        assertThat(kustomize.status()).as(kustomize.err()).isZero();
        Deployment patch = YAML.readValue(kustomize.out(), Deployment.class);
        assertThat(patch.getMetadata().getName()).isEqualTo("orders-api");
        var container = patch.getSpec().getTemplate().getSpec().getContainers().get(0);
        assertThat(container.getName()).isEqualTo("app");
        assertThat(container.getEnv()).anySatisfy(e -> {
            assertThat(e.getName()).isEqualTo("SERVER_TOMCAT_THREADS_MAX");
            assertThat(e.getValue()).isEqualTo("150");
        });
        assertThat(kustomize.out()).contains("value: \"150\"");

        PlanCommandTest.Outcome helm = tp("export", "-f", EXAMPLE.toString(), "--format", "helm");
        JsonNode values = YAML.readTree(helm.out());
        assertThat(values.path("env").findValuesAsText("name")).startsWith("JAVA_TOOL_OPTIONS").contains("SERVER_TOMCAT_THREADS_MAX");
        assertThat(values.path("env").get(0).path("value").asText()).startsWith("-Dfile.encoding=UTF-8 -XX:ActiveProcessorCount=2");

        assertThat(tp("export", "-f", EXAMPLE.toString(), "--memory", "64Mi").status()).as("infeasible").isEqualTo(1);
        assertThat(tp("export", "-f", EXAMPLE.toString(), "--format", "argo").status()).isEqualTo(2);
    }

    @Test
    void diffShowsTheOperatorsChangeAndNothingOnceItIsMade() throws Exception {
        LocalControlPlane controlPlane = LocalControlPlane.shared();
        controlPlane.ensureControllerManager();
        RunningOperator.shared();
        KubernetesClient client = controlPlane.client();
        String namespace = controlPlane.newNamespace("tp-diff");
        String kubeconfig = controlPlane.kubeconfig().toString();
        Path profileFile = dir.resolve("profile.yaml");
        String all = Files.readString(EXAMPLE);
        String profileYaml = all.substring(all.indexOf("apiVersion: jvmtuning.dev"));
        Files.writeString(profileFile, profileYaml);

        assertThat(tp("diff", "-f", profileFile.toString(), "-n", namespace, "--kubeconfig", kubeconfig).status())
                .as("no Deployment yet").isEqualTo(2);
        client.load(Files.newInputStream(EXAMPLE)).items().stream().filter(o -> o.getKind().equals("Deployment"))
                .forEach(d -> client.resource(d).inNamespace(namespace).create());
        new FakeKubelet(client).awaitRollout(namespace, "orders-api", Duration.ofSeconds(60));
        Deployment before = client.apps().deployments().inNamespace(namespace).withName("orders-api").get();

        PlanCommandTest.Outcome diff = tp("diff", "-f", profileFile.toString(), "-n", namespace, "--kubeconfig", kubeconfig);
        assertThat(diff.status()).as(diff.err()).isEqualTo(1);
        assertThat(diff.out()).contains("Deployment " + namespace + "/orders-api, container app:",
                "- env JAVA_TOOL_OPTIONS=-Dfile.encoding=UTF-8", "+ env JAVA_TOOL_OPTIONS=-Dfile.encoding=UTF-8 -XX:ActiveProcessorCount=2",
                "+ env SERVER_TOMCAT_THREADS_MAX=from ConfigMap orders-api-jvm-tuning-", "+ pod template annotation jvmtuning.dev/settings-hash=",
                "(created):", "+ SERVER_TOMCAT_THREADS_MAX=150");
        assertThat(client.apps().deployments().inNamespace(namespace).withName("orders-api").get().getMetadata().getResourceVersion())
                .as("diff writes nothing").isEqualTo(before.getMetadata().getResourceVersion());

        client.resource(profileYaml).inNamespace(namespace).create();
        await().atMost(Duration.ofSeconds(60)).until(() -> {
            TuningProfile p = client.resources(TuningProfile.class).inNamespace(namespace).withName("orders-api").get();
            return p.getStatus() != null && p.getStatus().getConditions().stream()
                    .anyMatch(c -> c.getType().equals("Applied") && c.getStatus().equals("True"));
        });
        PlanCommandTest.Outcome after = tp("diff", "-f", profileFile.toString(), "-n", namespace, "--kubeconfig", kubeconfig);
        assertThat(after.status()).as("the operator made exactly the change diff showed:%n%s%s", after.out(), after.err()).isZero();
        assertThat(after.out()).isEmpty();

        Files.writeString(profileFile, profileYaml.replace("  runtime: SpringBootTomcat\n", "  runtime: SpringBootTomcat\n  mode: Recommend\n"));
        PlanCommandTest.Outcome recommend = tp("diff", "-f", profileFile.toString(), "-n", namespace, "--kubeconfig", kubeconfig);
        assertThat(recommend.status()).as("Recommend puts the user's template back").isEqualTo(1);
        assertThat(recommend.out()).contains("+ env JAVA_TOOL_OPTIONS=-Dfile.encoding=UTF-8\n", "- env SERVER_TOMCAT_THREADS_MAX=");
    }

    @Test
    void thePluginIsQuietUnlessAskedAndExitsLikeKubectlDiff() throws Exception {
        Process plan = plugin("plan", "-f", EXAMPLE.toString());
        String out = new String(plan.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(plan.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(plan.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(plan.exitValue()).as(err).isZero();
        assertThat(out).startsWith("TuningProfile orders-api -> Deployment orders-api");
        assertThat(err).as("no log lines without -v").isEmpty();

        Process usage = plugin("diff");
        usage.getInputStream().readAllBytes();
        assertThat(new String(usage.getErrorStream().readAllBytes(), StandardCharsets.UTF_8)).startsWith("diff: give the profile with -f FILE");
        assertThat(usage.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(usage.exitValue()).isEqualTo(2);
    }

    private static Process plugin(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("deploy/kubectl-tp"));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().put("KUBECTL_TP_CLASSPATH", System.getProperty("java.class.path"));
        return builder.start();
    }
}
