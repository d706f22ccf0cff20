package dev.jvmtuning.operator.discovery;

import static dev.jvmtuning.operator.model.LabelsAndAnnotations.DISCOVERED_BECAUSE_ANNOTATION;
import static dev.jvmtuning.operator.model.LabelsAndAnnotations.DISCOVERED_LABEL;
import static dev.jvmtuning.operator.model.LabelsAndAnnotations.DISCOVER_EXCLUDE_ANNOTATION;
import static org.assertj.core.api.Assertions.assertThat;

import dev.jvmtuning.operator.api.v1alpha1.Mode;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import dev.jvmtuning.operator.model.LabelsAndAnnotations;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DiscoveryPlanTest {

    static Deployment deployment(String name, Map<String, String> annotations, Container... containers) {
        return new DeploymentBuilder().withNewMetadata().withName(name).withNamespace("shop").withAnnotations(annotations).endMetadata()
                .withNewSpec().withNewTemplate().withNewSpec().withContainers(containers).endSpec().endTemplate().endSpec().build();
    }

    static Container container(String name, String image, List<String> command, String... env) {
        ContainerBuilder builder = new ContainerBuilder().withName(name).withImage(image).withCommand(command);
        for (String variable : env) {
            builder.addNewEnv().withName(variable).withValue("x").endEnv();
        }
        return builder.build();
    }

    static Deployment jvm(String name) {
        return deployment(name, Map.of(), container("app", "example/" + name + ":1", List.of("java", "-jar", "/app.jar")));
    }

    static Deployment nginx(String name) {
        return deployment(name, Map.of(), container("web", "nginx:1.27", List.of()));
    }

    @ParameterizedTest(name = "{0} {1} {2}: {3}")
    @CsvSource(delimiter = '|', value = {
            "example/orders:1          | java -jar /app.jar        |                   | its command runs 'java'",
            "example/orders:1          | /opt/java/openjdk/bin/java |                  | its command runs '/opt/java/openjdk/bin/java'",
            "example/orders:1          | sh;-c;exec java -Xss1m $OPTS -jar app.jar | | its command runs 'java'",
            "example/orders:1          | /entrypoint.sh;--config;/etc/app.yaml;app.jar |  | its command runs 'app.jar'",
            "example/orders:1          |                           | JAVA_TOOL_OPTIONS | it sets JAVA_TOOL_OPTIONS",
            "example/orders:1          |                           | CATALINA_OPTS     | it sets CATALINA_OPTS",
            "eclipse-temurin:21-jre    |                           |                   | its image eclipse-temurin:21-jre is a JVM image",
            "docker.io/library/tomcat:10.1 |                       |                   | its image docker.io/library/tomcat:10.1 is a JVM image",
            "registry.access.redhat.com/ubi9/openjdk-21-runtime:1.20 | |                | its image registry.access.redhat.com/ubi9/openjdk-21-runtime:1.20 is a JVM image",
            "gcr.io/distroless/java17-debian12 |                   |                   | its image gcr.io/distroless/java17-debian12 is a JVM image",
            "localhost:5000/jetty@sha256:abc |                     |                   | its image localhost:5000/jetty@sha256:abc is a JVM image",
    })
    void aJvmIsRecognisedByCommandEnvironmentOrImage(String image, String command, String env, String evidence) {
        List<String> words = command == null ? List.of() : List.of(command.split(command.contains(";") ? ";" : " "));
        Container c = env == null ? container("app", image, words) : container("app", image, words, env);

        assertThat(JvmDetection.evidence(c)).contains(evidence);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"nginx:1.27 | nginx -g daemon", "python:3.12 | python -m javalin", "example/javascript-app:1 | node server.js",
            "example/tomcat-exporter-config:1 | /bin/exporter", "postgres:16 | postgres"})
    void otherWorkloadsAreNot(String image, String command) {
        Container c = container("app", image, List.of(command.split(" ")), "PATH", "HOME");

        assertThat(JvmDetection.evidence(c)).as(image).isEmpty();
    }

    @Test
    void eachJvmDeploymentGetsARecommendProfileForItsJvmContainer() {
        Deployment sidecar = deployment("cart", Map.of(), container("proxy", "envoy:1.30", List.of()),
                container("app", "eclipse-temurin:21", List.of()));

        DiscoveryPlan plan = DiscoveryPlan.of(true, List.of(jvm("orders"), nginx("web"), sidecar), List.of(), 50);

        assertThat(plan.create()).extracting(p -> p.getMetadata().getName()).containsExactly("cart", "orders");
        TuningProfile cart = plan.create().get(0);
        assertThat(cart.getSpec().getMode()).isEqualTo(Mode.Recommend);
        assertThat(cart.getSpec().getContainer()).as("two containers: the JVM's is named").isEqualTo("app");
        assertThat(plan.create().get(1).getSpec().getContainer()).as("one container: none named").isNull();
        assertThat(cart.getMetadata().getLabels()).containsEntry(DISCOVERED_LABEL, "true");
        assertThat(cart.getMetadata().getAnnotations()).containsEntry(DISCOVERED_BECAUSE_ANNOTATION,
                "its image eclipse-temurin:21 is a JVM image");
        assertThat(plan.delete()).isEmpty();
    }

    @Test
    void anExcludedDeploymentAndOneSomeoneTunesAreLeftAloneAndTheirDiscoveredProfilesGo() {
        Deployment excluded = deployment("batch", Map.of(DISCOVER_EXCLUDE_ANNOTATION, "false"),
                container("app", "eclipse-temurin:21", List.of()));
        TuningProfile usersOwn = DiscoveryPlan.profileFor(jvm("orders"));
        usersOwn.getMetadata().setName("orders-tuning");
        usersOwn.getMetadata().setLabels(Map.of());
        TuningProfile discoveredForOrders = DiscoveryPlan.profileFor(jvm("orders"));
        TuningProfile discoveredForBatch = DiscoveryPlan.profileFor(deployment("batch", Map.of(), container("app", "eclipse-temurin:21", List.of())));

        DiscoveryPlan plan = DiscoveryPlan.of(true, List.of(jvm("orders"), excluded),
                List.of(usersOwn, discoveredForOrders, discoveredForBatch), 50);

        assertThat(plan.create()).isEmpty();
        assertThat(plan.delete()).containsExactlyInAnyOrder("orders", "batch");
    }

    @Test
    void theBoundKeepsTheFirstByNameAndCountsTheRest() {
        DiscoveryPlan plan = DiscoveryPlan.of(true, List.of(jvm("c"), jvm("a"), jvm("b"), jvm("d")), List.of(), 2);

        assertThat(plan.create()).extracting(p -> p.getMetadata().getName()).containsExactly("a", "b");
        assertThat(plan.overLimit()).isEqualTo(2);
    }

    @Test
    void existingDiscoveredProfilesStayEvenWhenTheirUserEditedThemAndAllGoWhenDiscoveryIsOff() {
        TuningProfile edited = DiscoveryPlan.profileFor(jvm("orders"));
        edited.getSpec().setJvmOptions(List.of("-XX:+ExitOnOutOfMemoryError"));
        TuningProfile usersOwn = DiscoveryPlan.profileFor(jvm("cart"));
        usersOwn.getMetadata().setLabels(Map.of());

        DiscoveryPlan on = DiscoveryPlan.of(true, List.of(jvm("orders")), List.of(edited, usersOwn), 50);
        DiscoveryPlan off = DiscoveryPlan.of(false, List.of(jvm("orders")), List.of(edited, usersOwn), 50);

        assertThat(on.create()).isEmpty();
        assertThat(on.delete()).isEmpty();
        assertThat(off.delete()).as("only discovery's own").containsExactly("orders");
    }

    @Test
    void aJvmThatMovedToAnotherContainerLosesItsProfileFirstAndGetsANewOneAfter() {
        TuningProfile old = DiscoveryPlan.profileFor(deployment("cart", Map.of(), container("app", "eclipse-temurin:21", List.of()),
                container("proxy", "envoy:1.30", List.of())));
        old.getSpec().setContainer("app");
        Deployment moved = deployment("cart", Map.of(), container("proxy", "envoy:1.30", List.of()),
                container("server", "eclipse-temurin:21", List.of()));

        DiscoveryPlan plan = DiscoveryPlan.of(true, List.of(moved), List.of(old), 50);

        assertThat(plan.delete()).containsExactly("cart");
        assertThat(plan.create()).isEmpty();
        assertThat(DiscoveryPlan.of(true, List.of(moved), List.of(), 50).create().get(0).getSpec().getContainer()).isEqualTo("server");
    }
}
