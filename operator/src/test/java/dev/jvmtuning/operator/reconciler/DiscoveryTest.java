package dev.jvmtuning.operator.reconciler;

import static dev.jvmtuning.operator.model.LabelsAndAnnotations.DISCOVERED_BECAUSE_ANNOTATION;
import static dev.jvmtuning.operator.model.LabelsAndAnnotations.DISCOVERED_LABEL;
import static dev.jvmtuning.operator.model.LabelsAndAnnotations.DISCOVER_NAMESPACE_LABEL;
import static dev.jvmtuning.operator.model.LabelsAndAnnotations.DISCOVER_RECOMMEND;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.jvmtuning.operator.api.v1alpha1.Mode;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import dev.jvmtuning.operator.model.LabelsAndAnnotations;
import dev.jvmtuning.operator.testing.LocalControlPlane;
import dev.jvmtuning.operator.testing.StartsProcesses;
import dev.jvmtuning.operator.testing.TestSettings;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.Operator;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Discovery on the local control plane: a labelled namespace gets Recommend profiles for its JVMs, and loses them with the label. */
@StartsProcesses
class DiscoveryTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static LocalControlPlane controlPlane;
    private static KubernetesClient client;
    private static Operator operator;

    @BeforeAll
    static void start() {
        controlPlane = LocalControlPlane.shared();
        controlPlane.installCrd();
        client = controlPlane.client();
        TestSettings defaults = TestSettings.of(Duration.ofMinutes(5), Optional.empty());
        TestSettings settings = new TestSettings(defaults.resyncPeriod(), defaults.ownNamespace(), defaults.metrics(), defaults.agent(), defaults.flagPolicy(),
                new TestSettings.TestDiscovery(50, Duration.ofSeconds(2), Optional.empty()));
        operator = new Operator(o -> o.withKubernetesClient(client).withCloseClientOnStop(false));
        operator.register(new DiscoveryReconciler(settings));
        operator.start();
    }

    @AfterAll
    static void stop() {
        operator.stop();
    }

    @Test
    void aLabelledNamespaceGetsARecommendProfilePerJvmDeploymentAndNoneOnceTheLabelGoes() {
        String namespace = controlPlane.newNamespace("discover");
        String unlabelled = controlPlane.newNamespace("no-discover");
        create(namespace, "orders", "eclipse-temurin:21-jre", List.of("java", "-jar", "/app/orders.jar"), Map.of());
        create(namespace, "cart", "example/cart:3", List.of(), Map.of("JAVA_TOOL_OPTIONS", "-XX:+ExitOnOutOfMemoryError"));
        create(namespace, "web", "nginx:1.27", List.of("nginx", "-g", "daemon off;"), Map.of());
        create(unlabelled, "billing", "eclipse-temurin:21-jre", List.of("java", "-jar", "/app/billing.jar"), Map.of());
        Map<String, String> before = versions(namespace);

        label(namespace, DISCOVER_RECOMMEND);
        await().atMost(TIMEOUT).untilAsserted(() -> assertThat(profiles(namespace)).extracting(p -> p.getMetadata().getName())
                .containsExactlyInAnyOrder("cart", "orders"));

        List<TuningProfile> discovered = profiles(namespace);
        assertThat(discovered).allSatisfy(p -> {
            assertThat(p.getSpec().getMode()).isEqualTo(Mode.Recommend);
            assertThat(p.getSpec().getTargetRef().getName()).isEqualTo(p.getMetadata().getName());
            assertThat(p.getMetadata().getLabels()).containsEntry(DISCOVERED_LABEL, "true");
        });
        assertThat(discovered).filteredOn(p -> p.getMetadata().getName().equals("cart")).singleElement()
                .extracting(p -> p.getMetadata().getAnnotations().get(DISCOVERED_BECAUSE_ANNOTATION)).isEqualTo("it sets JAVA_TOOL_OPTIONS");
        // A JVM Deployment added later is found at the next look.
        create(namespace, "search", "docker.io/library/tomcat:10.1", List.of(), Map.of());
        await().atMost(TIMEOUT).untilAsserted(() -> assertThat(profiles(namespace)).hasSize(3));
        assertThat(profiles(unlabelled)).as("no label, no discovery").isEmpty();

        label(namespace, null);
        await().atMost(TIMEOUT).untilAsserted(() -> assertThat(profiles(namespace)).isEmpty());
        before.put("search", versions(namespace).get("search"));
        assertThat(versions(namespace)).as("discovery never writes to a Deployment").isEqualTo(before);
    }

    private static void create(String namespace, String name, String image, List<String> command, Map<String, String> env) {
        client.resource(new DeploymentBuilder().withNewMetadata().withName(name).endMetadata()
                .withNewSpec().withReplicas(0).withNewSelector().addToMatchLabels("app", name).endSelector()
                .withNewTemplate().withNewMetadata().addToLabels("app", name).endMetadata()
                .withNewSpec().addNewContainer().withName("app").withImage(image).withCommand(command)
                .withEnv(env.entrySet().stream().map(e -> new EnvVar(e.getKey(), e.getValue(), null)).toList())
                .endContainer().endSpec().endTemplate().endSpec().build()).inNamespace(namespace).create();
    }

    private static void label(String namespace, String value) {
        client.namespaces().withName(namespace).edit(ns -> {
            if (value == null) {
                ns.getMetadata().getLabels().remove(DISCOVER_NAMESPACE_LABEL);
            } else {
                ns.getMetadata().getLabels().put(DISCOVER_NAMESPACE_LABEL, value);
            }
            return ns;
        });
    }

    private static List<TuningProfile> profiles(String namespace) {
        return client.resources(TuningProfile.class).inNamespace(namespace).list().getItems();
    }

    /** What a writer other than the Deployment controller would change: the spec (its generation), annotations and labels. */
    private static Map<String, String> versions(String namespace) {
        return client.apps().deployments().inNamespace(namespace).list().getItems().stream()
                .collect(Collectors.toMap(d -> d.getMetadata().getName(), d -> d.getMetadata().getGeneration() + " "
                        + ownAnnotations(d.getMetadata().getAnnotations()) + " " + d.getMetadata().getLabels()));
    }

    /** Without the controller's revision annotation, which it sets when it gets round to the Deployment. */
    private static Map<String, String> ownAnnotations(Map<String, String> annotations) {
        return annotations == null ? Map.of() : annotations.entrySet().stream().filter(e -> !e.getKey().startsWith("deployment.kubernetes.io/"))
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
    }
}
