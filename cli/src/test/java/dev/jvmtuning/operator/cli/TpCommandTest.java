package dev.jvmtuning.operator.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.jvmtuning.operator.api.v1alpha1.Observed;
import dev.jvmtuning.operator.api.v1alpha1.Recommendation;
import dev.jvmtuning.operator.api.v1alpha1.Setting;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfileStatus;
import dev.jvmtuning.operator.decision.StatusBuilder;
import dev.jvmtuning.operator.model.ConditionStatus;
import dev.jvmtuning.operator.model.MetricsReport;
import dev.jvmtuning.operator.model.Reason;
import dev.jvmtuning.operator.pressure.Verdict;
import dev.jvmtuning.operator.testing.FakeKubelet;
import dev.jvmtuning.operator.testing.LocalControlPlane;
import dev.jvmtuning.operator.testing.RunningOperator;
import dev.jvmtuning.operator.testing.StartsProcesses;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@code kubectl tp}: output formats, exit codes, and a diff that agrees with what the operator then writes. */
@StartsProcesses
class TpCommandTest {
    private static final Path EXAMPLE = Path.of("examples/orders-api.yaml");
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static LocalControlPlane controlPlane;
    private static KubernetesClient client;

    @BeforeAll
    static void controlPlane() {
        controlPlane = LocalControlPlane.shared();
        controlPlane.installCrd();
        client = controlPlane.client();
    }

    /** The outputs, for the examples in docs/how-to/kubectl-tp.md. */
    private static void keep(String file, String output) throws java.io.IOException {
        Path dir = Files.createDirectories(Path.of("target/kubectl-tp"));
        Files.writeString(dir.resolve(file), output);
    }

    @Test
    void planPrintsTheSameSettingsAsYamlAndJsonAndRejectsWithStatusOne() throws Exception {
        Tp yaml = Tp.run("plan", "-f", EXAMPLE.toString(), "-o", "yaml");
        Tp json = Tp.run("plan", "-f", EXAMPLE.toString(), "-o", "json");

        assertThat(yaml.status()).as(yaml.err()).isZero();
        assertThat(json.status()).isZero();
        assertThat(yaml.err()).isEmpty();
        JsonNode fromYaml = YAML.readTree(yaml.out());
        assertThat(fromYaml).isEqualTo(new ObjectMapper().readTree(json.out()));
        assertThat(fromYaml.path("settings").findValuesAsText("name")).contains("threads.max", "heap.size", "gc.collector");
        assertThat(fromYaml.path("env").path("JAVA_TOOL_OPTIONS").asText()).contains("-Xmx", "-XX:+UseG1GC");
        assertThat(fromYaml.path("configMap").path("SERVER_TOMCAT_THREADS_MAX").asText()).isEqualTo("150");

        Path tooBig = Files.createTempFile("profile", ".yaml");
        Files.writeString(tooBig, Files.readString(EXAMPLE).replace("gc: {", "heap: {size: 4Gi}\n  gc: {"));
        Tp rejected = Tp.run("plan", "-f", tooBig.toString(), "-o", "json");
        assertThat(rejected.status()).isEqualTo(1);
        assertThat(new ObjectMapper().readTree(rejected.out()).path("rejected").path("reason").asText()).isEqualTo("INFEASIBLE");

        assertThat(Tp.run("plan", "-f", EXAMPLE.toString(), "-v", "-o", "yaml").out()).as("-v, for the launcher, anywhere on the line")
                .isEqualTo(yaml.out());
        assertThat(Tp.run("plan", "-f", EXAMPLE.toString(), "-o", "xml").status()).isEqualTo(2);
        assertThat(Tp.run("nonsense").status()).isEqualTo(2);
        assertThat(Tp.run().status()).isEqualTo(2);
    }

    @Test
    void diffShowsWhatTheOperatorWritesAndNothingOnceItHas() throws Exception {
        String namespace = controlPlane.newNamespace("tp-diff");
        String kubeconfig = controlPlane.kubeconfig().toString();
        controlPlane.ensureControllerManager();
        String operatorNamespace = RunningOperator.shared().ownNamespace();
        List<HasMetadata> objects = client.load(Files.newInputStream(EXAMPLE)).items();
        objects.stream().filter(o -> o.getKind().equals("Deployment")).forEach(o -> client.resource(o).inNamespace(namespace).create());

        Tp before = Tp.run("diff", "-f", EXAMPLE.toString(), "-n", namespace, "--kubeconfig", kubeconfig, "--operator-namespace", operatorNamespace);

        assertThat(before.status()).as(before.err()).isEqualTo(1);
        assertThat(before.out()).contains("+++ planned/configmap/orders-api-jvm-tuning-", "+++ planned/deployment/orders-api",
                "+    jvmtuning.dev/tuned-by: orders-api", "SERVER_TOMCAT_THREADS_MAX");
        assertThat(before.out().lines().filter(l -> l.startsWith("+") && l.contains("value: -Dfile.encoding=UTF-8 -XX:ActiveProcessorCount=2")))
                .as("the user's own flags first, then the planned ones").hasSize(1);
        assertThat(before.err()).isEmpty();
        keep("diff.txt", before.out());

        // The operator applies the same profile; the diff must then be empty: what diff showed is what it wrote.
        new FakeKubelet(client).awaitRollout(namespace, "orders-api", Duration.ofSeconds(90));
        objects.stream().filter(o -> o.getKind().equals("TuningProfile")).forEach(o -> client.resource(o).inNamespace(namespace).create());
        await().atMost(Duration.ofSeconds(90)).untilAsserted(() -> {
            TuningProfile profile = client.resources(TuningProfile.class).inNamespace(namespace).withName("orders-api").get();
            assertThat(profile.getStatus()).isNotNull();
            assertThat(profile.getStatus().getConditions()).anyMatch(c -> c.getType().equals("Applied") && c.getStatus().equals("True"));
        });
        Tp after = Tp.run("diff", "orders-api", "-n", namespace, "--kubeconfig", kubeconfig, "--operator-namespace", operatorNamespace);
        assertThat(after.status()).as(after.out() + after.err()).isZero();
        assertThat(after.out()).isEmpty();

        Tp missing = Tp.run("diff", "no-such-profile", "-n", namespace, "--kubeconfig", kubeconfig, "--operator-namespace", operatorNamespace);
        assertThat(missing.status()).as("an error, as kubectl diff says it: above 1").isEqualTo(2);
        assertThat(missing.err()).isEqualTo("kubectl tp diff: no TuningProfile no-such-profile in namespace " + namespace + "\n");
    }

    @Test
    void exportCarriesTheResourcesAProfileSizes() throws Exception {
        String namespace = controlPlane.newNamespace("tp-export-sized");
        String kubeconfig = controlPlane.kubeconfig().toString();
        client.load(Files.newInputStream(EXAMPLE)).items().stream().filter(o -> o.getKind().equals("Deployment"))
                .forEach(o -> client.resource(o).inNamespace(namespace).create());
        Path sized = Files.createTempFile("sized", ".yaml");
        Files.writeString(sized, Files.readString(EXAMPLE).replace("    maxQueueWait: 2s\n", "    maxQueueWait: 2s\n    liveHeap: 200Mi\n")
                + "  sizing: {memory: {policy: Plan}, cpu: {policy: Plan, max: \"2\"}}\n");

        Tp kustomize = Tp.run("export", "-f", sized.toString(), "-n", namespace, "--kubeconfig", kubeconfig);
        Tp helm = Tp.run("export", "-f", sized.toString(), "-n", namespace, "--kubeconfig", kubeconfig, "--format", "helm");

        assertThat(kustomize.status()).as(kustomize.err()).isZero();
        JsonNode resources = YAML.readTree(kustomize.out()).path("spec").path("template").path("spec").path("containers").get(0).path("resources");
        assertThat(resources.path("limits").path("memory").asText()).endsWith("Mi");
        assertThat(resources.path("requests").path("memory").asText()).isEqualTo(resources.path("limits").path("memory").asText());
        // 400 req/s x 4ms = 1.6 CPU, + 25% = 2, the most the bounds allow
        assertThat(resources.path("requests").path("cpu").asText()).isEqualTo("2000m");
        assertThat(resources.path("limits").has("cpu")).as("the limit stays the container's").isFalse();
        assertThat(YAML.readTree(helm.out()).path("resources")).isEqualTo(resources);
        Files.delete(sized);
    }

    @Test
    void exportWritesLiteralSettingsAsAKustomizePatchOrHelmValues() throws Exception {
        String namespace = controlPlane.newNamespace("tp-export");
        String kubeconfig = controlPlane.kubeconfig().toString();
        client.load(Files.newInputStream(EXAMPLE)).items().stream().filter(o -> o.getKind().equals("Deployment"))
                .forEach(o -> client.resource(o).inNamespace(namespace).create());

        Tp kustomize = Tp.run("export", "-f", EXAMPLE.toString(), "-n", namespace, "--kubeconfig", kubeconfig);
        Tp helm = Tp.run("export", "-f", EXAMPLE.toString(), "-n", namespace, "--kubeconfig", kubeconfig, "--format", "helm");

        assertThat(kustomize.status()).as(kustomize.err()).isZero();
        keep("export-kustomize.yaml", kustomize.out());
        keep("export-helm.yaml", helm.out());
        JsonNode patch = YAML.readTree(kustomize.out());
        assertThat(patch.path("kind").asText()).isEqualTo("Deployment");
        JsonNode container = patch.path("spec").path("template").path("spec").path("containers").get(0);
        assertThat(container.path("name").asText()).isEqualTo("app");
        assertThat(container.path("env").findValuesAsText("name")).contains("JAVA_TOOL_OPTIONS", "SERVER_TOMCAT_THREADS_MAX");
        String jvmOptions = container.path("env").get(0).path("value").asText();
        assertThat(jvmOptions).as("the user's own flags once, then the planned ones").startsWith("-Dfile.encoding=UTF-8 -XX:").contains("-Xmx")
                .containsOnlyOnce("-Dfile.encoding=UTF-8");
        assertThat(YAML.readTree(helm.out()).path("env")).isEqualTo(container.path("env"));
        // applied by the API server as a patch, it yields literal values: no ConfigMap in a GitOps repository
        assertThat(container.path("env").findValues("valueFrom")).isEmpty();

        // What the cluster cannot give is an error (1), said in one line without a stack trace; bad usage stays 2.
        Tp unknown = Tp.run("export", "no-such-profile", "-n", namespace, "--kubeconfig", kubeconfig);
        assertThat(unknown.status()).isEqualTo(1);
        assertThat(unknown.out()).isEmpty();
        assertThat(unknown.err()).endsWith("kubectl tp export: no TuningProfile no-such-profile in namespace " + namespace + "\n")
                .doesNotContain("Exception");
        client.load(Files.newInputStream(EXAMPLE)).items().stream().filter(o -> o.getKind().equals("TuningProfile"))
                .forEach(o -> client.resource(o).inNamespace(namespace).create());
        Tp noStatus = Tp.run("export", "orders-api", "-n", namespace, "--kubeconfig", kubeconfig, "--recommended");
        assertThat(noStatus.status()).isEqualTo(1);
        assertThat(noStatus.err()).contains("kubectl tp export: TuningProfile orders-api has no recommendations in its status yet");
        assertThat(Tp.run("export", "-f", EXAMPLE.toString(), "--recommended").err()).contains("--recommended reads the profile's status");
    }

    @Test
    void exportRecommendedKeepsTheLastAdviceShownOnceTheLoadStops() throws Exception {
        String namespace = controlPlane.newNamespace("tp-idle");
        String kubeconfig = controlPlane.kubeconfig().toString();
        client.load(Files.newInputStream(EXAMPLE)).items().forEach(o -> client.resource(o).inNamespace(namespace).create());
        Recommendation measured = Recommendation.set("workload.meanLatency", "300ms", "120ms",
                "measured over 60s: 120 ms in the server per request; planned with the measured figures: threads.max 150 -> 60");
        // Advice without a value for the profile: exported as comments only, whatever its prose says.
        Recommendation leak = Recommendation.investigate("heap.size", "1024Mi", "heap after GC rose from 72% to 80%");
        Recommendation cpu = Recommendation.scale("resources.limits.cpu", null, 1.5, "throttled");

        // The status as the operator writes it: a window under load gives advice, the next one (the load test is over) gives none.
        // Retried as a whole, exceptions included, as an operator running in this JVM may write the profile's status in between.
        await().atMost(Duration.ofSeconds(60)).ignoreExceptions().untilAsserted(() -> {
            writeStatus(namespace, window("2026-11-24T10:00:00Z", 400.0), List.of(measured, leak, cpu));
            writeStatus(namespace, window("2026-11-24T10:01:00Z", 0.0), List.of());
            TuningProfile idle = client.resources(TuningProfile.class).inNamespace(namespace).withName("orders-api").get();
            assertThat(idle.getStatus().getRecommendations()).as("no advice from an idle window").isEmpty();

            Tp export = Tp.run("export", "orders-api", "-n", namespace, "--kubeconfig", kubeconfig, "--recommended");

            assertThat(export.status()).as(export.err()).isZero();
            assertThat(export.out()).contains("# status.recommendations is empty", "window ending 2026-11-24T10:00:00Z",
                    "# left out, no value for a setting of the profile: heap.size -> investigate: heap after GC rose",
                    "# left out, no value for a setting of the profile: resources.limits.cpu -> x1.5: throttled");
            JsonNode env = YAML.readTree(export.out()).path("spec").path("template").path("spec").path("containers").get(0).path("env");
            assertThat(env.findValues("name").stream().map(JsonNode::asText).toList()).contains("SERVER_TOMCAT_THREADS_MAX");
            env.forEach(e -> {
                if (e.path("name").asText().equals("SERVER_TOMCAT_THREADS_MAX")) {
                    assertThat(e.path("value").asText()).as("threads planned with the measured 120 ms, not the declared 300 ms").isEqualTo("60");
                }
            });
        });
    }

    @Test
    void settingsShowsEachPlannedValueBesideWhatThePodsRunAndTheCondition() throws Exception {
        String namespace = controlPlane.newNamespace("tp-settings");
        String kubeconfig = controlPlane.kubeconfig().toString();
        client.load(Files.newInputStream(EXAMPLE)).items().stream().filter(o -> o.getKind().equals("TuningProfile"))
                .forEach(o -> client.resource(o).inNamespace(namespace).create());
        String differs = "the planned JVM options are in effect on 1 of 2 pods; orders-api-b: MaxHeapSize is 209715200 (VM_CREATION), "
                + "planned 566231040 by -Xmx540m";

        // Retried as a whole, exceptions included, as an operator running in this JVM may write the profile's status in between.
        await().atMost(Duration.ofSeconds(60)).ignoreExceptions().untilAsserted(() -> {
            TuningProfile profile = client.resources(TuningProfile.class).inNamespace(namespace).withName("orders-api").get();
            TuningProfileStatus status = new TuningProfileStatus();
            status.setSettings(List.of(
                    new Setting("heap.size", "540Mi", "-Xmx540m", "R9", "75% of the limit", "200Mi (VM_CREATION) on 1 of 2 pods, 540Mi on 1"),
                    new Setting("threads.max", "150", "SERVER_TOMCAT_THREADS_MAX", "R1", "Little's law", null)));
            status.setConditions(List.of(new ConditionBuilder().withType("SettingsEffective").withStatus("False")
                    .withReason("SettingsNotEffective").withMessage(differs).withLastTransitionTime("2026-11-25T10:00:00Z").build()));
            client.resources(TuningProfile.class).inNamespace(namespace).resource(StatusBuilder.patch(profile, status)).patchStatus();

            Tp text = Tp.run("settings", "orders-api", "-n", namespace, "--kubeconfig", kubeconfig);
            Tp yaml = Tp.run("settings", "orders-api", "-n", namespace, "--kubeconfig", kubeconfig, "-o", "yaml");
            Tp json = Tp.run("settings", "orders-api", "-n", namespace, "--kubeconfig", kubeconfig, "-o", "json");

            assertThat(text.status()).as(text.err()).isZero();
            assertThat(text.err()).isEmpty();
            assertThat(text.out().lines().map(l -> List.of(l.split(" {2,}")))).containsExactly(
                    List.of("SETTING", "PLANNED", "RENDERED AS", "EFFECTIVE", "RULE"),
                    List.of("heap.size", "540Mi", "-Xmx540m", "200Mi (VM_CREATION) on 1 of 2 pods, 540Mi on 1", "R9"),
                    List.of("threads.max", "150", "SERVER_TOMCAT_THREADS_MAX", "-", "R1"),
                    List.of(""),
                    List.of("SettingsEffective: False (SettingsNotEffective): " + differs));
            JsonNode data = YAML.readTree(yaml.out());
            assertThat(yaml.status()).isZero();
            assertThat(data).isEqualTo(new ObjectMapper().readTree(json.out()));
            assertThat(data.path("settings").get(0).path("effective").asText()).isEqualTo("200Mi (VM_CREATION) on 1 of 2 pods, 540Mi on 1");
            assertThat(data.path("settings").get(1).path("planned").asText()).isEqualTo("150");
            assertThat(data.path("settingsEffective").path("status").asText()).isEqualTo("False");
            keep("settings.txt", text.out());
        });

        Tp missing = Tp.run("settings", "no-such-profile", "-n", namespace, "--kubeconfig", kubeconfig);
        assertThat(missing.status()).isEqualTo(1);
        assertThat(missing.out()).isEmpty();
        assertThat(missing.err()).isEqualTo("kubectl tp settings: no TuningProfile no-such-profile in namespace " + namespace + "\n");
    }

    /** One metrics window as the reconciler reports it: its figures, and the advice judged from them. */
    private static void writeStatus(String namespace, Observed window, List<Recommendation> advice) {
        TuningProfile profile = client.resources(TuningProfile.class).inNamespace(namespace).withName("orders-api").get();
        TuningProfileStatus previous = profile.getStatus() == null ? new TuningProfileStatus() : profile.getStatus();
        TuningProfileStatus next = new StatusBuilder(previous, profile.getMetadata().getGeneration(), window.getEnd())
                .metrics(new MetricsReport(ConditionStatus.TRUE, Reason.METRICS_READ, "read", window, null), new Verdict(List.of(), advice),
                        List.of())
                .build();
        client.resources(TuningProfile.class).inNamespace(namespace).resource(StatusBuilder.patch(profile, next)).patchStatus();
    }

    private static Observed window(String end, double requestsPerSecond) {
        Observed observed = new Observed();
        observed.setWindow("60s");
        observed.setEnd(end);
        observed.setPods(1);
        observed.setRequestsPerSecond(requestsPerSecond);
        return observed;
    }
}
