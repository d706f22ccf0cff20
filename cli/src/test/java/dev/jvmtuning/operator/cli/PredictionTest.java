package dev.jvmtuning.operator.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.jvmtuning.operator.api.v1alpha1.AutoSettings;
import dev.jvmtuning.operator.api.v1alpha1.AutoState;
import dev.jvmtuning.operator.api.v1alpha1.AutoStatus;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfileStatus;
import dev.jvmtuning.operator.config.Leadership;
import dev.jvmtuning.operator.decision.StatusBuilder;
import dev.jvmtuning.operator.installation.PublishedSettings;
import dev.jvmtuning.operator.model.LabelsAndAnnotations;
import dev.jvmtuning.operator.reconciler.TuningProfileReconciler;
import dev.jvmtuning.operator.testing.LocalControlPlane;
import dev.jvmtuning.operator.testing.RunningOperator;
import dev.jvmtuning.operator.testing.StartsProcesses;
import dev.jvmtuning.operator.testing.TestProfiles;
import dev.jvmtuning.operator.testing.TestSettings;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.Operator;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * {@code kubectl tp diff} predicts what the operator writes: for a plain Apply profile, an Auto profile in the middle
 * of its loop (status.auto sets other values than the profile's own) and a profile whose flag only the
 * installation's allow-list admits, the Deployment and ConfigMap the preview gets from the API server's dry run are
 * the ones the operator then writes, against the real API server and an operator installed with that allow-list.
 */
@StartsProcesses
class PredictionTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(90);
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    /** Before this value the operator of this test does not see a profile; after it, it reconciles it. */
    private static final String WAITING = "waiting";
    private static final String RECONCILE = "prediction";
    private static final String ALLOWED_FLAG = "-Duser.timezone=UTC";
    private static final String REVISION = "deployment.kubernetes.io/revision";

    private static final Map<String, String> PROFILES = profiles();

    private static Map<String, String> profiles() {
        String workload = """
                runtime: SpringBootTomcat
                workload: {requestsPerSecond: 400, meanLatency: 300ms, cpuPerRequest: 4ms, dbTimePerRequest: 50ms}
                threads: {}
                connectionPool: {}
                """;
        Map<String, String> specs = new LinkedHashMap<>();
        specs.put("plain", workload + "gc: {collector: G1, maxPauseMillis: 100}\njvmOptions: [\"-XX:+ExitOnOutOfMemoryError\"]\n");
        specs.put("auto", workload + "mode: Auto\nmetrics: {port: 8080, path: /actuator/prometheus}\n");
        specs.put("allowed", workload + "jvmOptions: [\"" + ALLOWED_FLAG + "\"]\n");
        return specs;
    }

    /** Mode Auto's loop after a step: fewer threads, a smaller pool and heap than the profile plans by itself. */
    private static final AutoSettings LOOP_SETTINGS = new AutoSettings(60, 12, 60);

    @Test
    void diffPredictsTheTemplateAndConfigMapTheOperatorWrites() throws Exception {
        LocalControlPlane controlPlane = LocalControlPlane.shared();
        // The Deployment controller runs as in a cluster: it writes beside the operator, and the comparison must hold anyway.
        controlPlane.ensureControllerManager();
        controlPlane.installCrd();
        KubernetesClient client = controlPlane.client();
        String namespace = controlPlane.newNamespace("tp-predict");
        String operatorNamespace = controlPlane.newNamespace("tp-predict-operator");
        PROFILES.forEach((name, spec) -> {
            client.resource(deployment(name)).inNamespace(namespace).create();
            client.resource(TestProfiles.yaml(name, name, spec).replace("metadata: {name: " + name + "}",
                    "metadata: {name: " + name + ", labels: {" + RunningOperator.OWN_OPERATOR_LABEL + ": " + WAITING + "}}"))
                    .inNamespace(namespace).create();
        });
        TuningProfile auto = client.resources(TuningProfile.class).inNamespace(namespace).withName("auto").get();
        client.resources(TuningProfile.class).inNamespace(namespace).resource(StatusBuilder.patch(auto,
                new TuningProfileStatus().setObservedGeneration(auto.getMetadata().getGeneration())
                        .setAuto(new AutoStatus().setState(AutoState.Observing).setChangedAt(Instant.now().toString()).setSettings(LOOP_SETTINGS))))
                .patchStatus();

        KubernetesClient operatorClient = RunningOperator.watchedClient(controlPlane.kubeconfig(), request -> { });
        Operator operator = new Operator(o -> o.withKubernetesClient(operatorClient));
        operator.register(new TuningProfileReconciler(TestSettings.of(RunningOperator.RESYNC, Optional.empty())
                        .withOwnNamespace(operatorNamespace).withFlagPolicyAllow(List.of("-Duser.timezone=")),
                        new SimpleMeterRegistry(), Leadership.alone("prediction-test")),
                o -> o.settingNamespaces(namespace).withLabelSelector(RunningOperator.OWN_OPERATOR_LABEL + "=" + RECONCILE));
        operator.start();
        try {
            await().atMost(TIMEOUT).until(() -> client.configMaps().inNamespace(operatorNamespace).withName(PublishedSettings.CONFIG_MAP).get() != null);
            String[] where = {"-n", namespace, "--kubeconfig", controlPlane.kubeconfig().toString(), "--operator-namespace", operatorNamespace};

            Map<String, DiffCommand.Prediction> predicted = new LinkedHashMap<>();
            for (String name : PROFILES.keySet()) {
                StringWriter err = new StringWriter();
                predicted.put(name, DiffCommand.predict(arguments(name, where), new PrintWriter(err, true)));
                assertThat(err.toString()).as("the operator's settings were read").isEmpty();
            }
            assertThat(values(predicted.get("auto")).getData()).as("planned with the loop's settings").containsEntry("SERVER_TOMCAT_THREADS_MAX", "60");
            assertThat(jvmOptions(predicted.get("allowed").deployment())).contains(ALLOWED_FLAG);

            PROFILES.keySet().forEach(name -> client.resources(TuningProfile.class).inNamespace(namespace).withName(name).edit(p -> {
                p.getMetadata().getLabels().put(RunningOperator.OWN_OPERATOR_LABEL, RECONCILE);
                return p;
            }));
            for (String name : PROFILES.keySet()) {
                DiffCommand.Prediction prediction = predicted.get(name);
                // The operator writes a profile's Deployment once for settings that do not change: the first write is the one.
                await().atMost(TIMEOUT).until(() -> settingsHash(client.apps().deployments().inNamespace(namespace).withName(name).get()) != null);
                Deployment written = client.apps().deployments().inNamespace(namespace).withName(name).get();
                ConfigMap writtenValues = client.configMaps().inNamespace(namespace).withName(values(prediction).getMetadata().getName()).get();

                assertThat(stored(written)).as(name + ": the Deployment as written").isEqualTo(stored(prediction.deployment()));
                assertThat(stored(writtenValues)).as(name + ": the ConfigMap as written").isEqualTo(stored(values(prediction)));
                Tp after = diff(name, where);
                assertThat(after.status()).as(name + ": " + after.out() + after.err()).isZero();
            }
            assertThat(client.resources(TuningProfile.class).inNamespace(namespace).withName("auto").get().getStatus().getAuto().getSettings())
                    .as("the loop still stands where it stood when predicted").isEqualTo(LOOP_SETTINGS);

            Tp elsewhere = diff("allowed", "-n", namespace, "--kubeconfig", controlPlane.kubeconfig().toString(),
                    "--operator-namespace", namespace);
            assertThat(elsewhere.err()).as("no settings there: said, and the standard policy refuses the flag the installation allows")
                    .contains("warning: the operator's settings (ConfigMap " + namespace + "/" + PublishedSettings.CONFIG_MAP + ") cannot be read",
                            "standard flag policy", "Invalid", ALLOWED_FLAG);
            assertThat(elsewhere.status()).isEqualTo(2);
        } finally {
            operator.stop();
        }
    }

    /** The one ConfigMap a new profile's first write creates: its values. */
    private static ConfigMap values(DiffCommand.Prediction prediction) {
        assertThat(prediction.configMaps()).hasSize(1);
        return prediction.configMaps().get(0);
    }

    private static Tp diff(String name, String... where) {
        String[] args = new String[where.length + 2];
        args[0] = "diff";
        args[1] = name;
        System.arraycopy(where, 0, args, 2, where.length);
        return Tp.run(args);
    }

    private static String[] arguments(String name, String[] where) {
        String[] args = new String[where.length + 1];
        args[0] = name;
        System.arraycopy(where, 0, args, 1, where.length);
        return args;
    }

    /** A Deployment of one container with limits and a flag of the user's own; no replicas, so no pods are needed. */
    private static Deployment deployment(String name) {
        return new DeploymentBuilder().withNewMetadata().withName(name).endMetadata()
                .withNewSpec().withReplicas(0).withNewSelector().addToMatchLabels("app", name).endSelector()
                .withNewTemplate().withNewMetadata().addToLabels("app", name).endMetadata()
                .withNewSpec().addNewContainer().withName("app").withImage("example/" + name + ":1")
                .addNewEnv().withName("JAVA_TOOL_OPTIONS").withValue("-Dfile.encoding=UTF-8").endEnv()
                .withNewResources().addToLimits("cpu", new Quantity("2")).addToLimits("memory", new Quantity("2Gi")).endResources()
                .endContainer().endSpec().endTemplate().endSpec().build();
    }

    private static String settingsHash(Deployment deployment) {
        Map<String, String> annotations = deployment.getSpec().getTemplate().getMetadata().getAnnotations();
        return annotations == null ? null : annotations.get(LabelsAndAnnotations.SETTINGS_HASH_ANNOTATION);
    }

    private static String jvmOptions(Deployment deployment) {
        return deployment.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv().stream()
                .filter(e -> e.getName().equals("JAVA_TOOL_OPTIONS")).findFirst().orElseThrow().getValue();
    }

    /**
     * The object as YAML without what the API server assigns to each write of it (identity, versions, timestamps,
     * the field managers' record), and without what the Deployment controller writes: status, and the revision
     * annotation it counts up for each new template (the prediction carries the live one, before the new template).
     * The rest is what the operator and the preview decide, byte for byte.
     */
    private static String stored(HasMetadata object) throws Exception {
        ObjectNode tree = YAML.valueToTree(object);
        tree.remove("status");
        ObjectNode metadata = (ObjectNode) tree.get("metadata");
        for (String serverOwned : List.of("managedFields", "resourceVersion", "uid", "generation", "creationTimestamp")) {
            metadata.remove(serverOwned);
        }
        if (metadata.get("annotations") instanceof ObjectNode annotations) {
            annotations.remove(REVISION);
        }
        return YAML.writeValueAsString(tree);
    }
}
