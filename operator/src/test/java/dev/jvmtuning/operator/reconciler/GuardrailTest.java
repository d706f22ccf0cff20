package dev.jvmtuning.operator.reconciler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import dev.jvmtuning.operator.config.Leadership;
import dev.jvmtuning.operator.decision.Conditions;
import dev.jvmtuning.operator.model.ConditionType;
import dev.jvmtuning.operator.testing.FakeKubelet;
import dev.jvmtuning.operator.testing.LocalControlPlane;
import dev.jvmtuning.operator.testing.LocalPrometheus;
import dev.jvmtuning.operator.testing.LoopbackMetrics;
import dev.jvmtuning.operator.testing.RunningOperator;
import dev.jvmtuning.operator.testing.StartsProcesses;
import dev.jvmtuning.operator.testing.TestSettings;
import dev.jvmtuning.operator.testing.WorkloadProcess;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.Operator;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Mode Auto's guardrail through the whole operator, against a real Prometheus that holds the same
 * series for two namespaces: a profile reads its own namespace's number, and a profile naming a query
 * the installation does not define is Invalid, with a Warning, and no number in its status.
 */
@StartsProcesses
class GuardrailTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(90);

    /** A loopback endpoint serving one series, as a service's own metrics would. */
    private static HttpServer probe(double value) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        byte[] body = ("# TYPE service_level gauge\nservice_level " + value + "\n").getBytes(StandardCharsets.UTF_8);
        server.createContext("/metrics", exchange -> {
            try (exchange) {
                exchange.sendResponseHeaders(200, body.length);
                exchange.getResponseBody().write(body);
            }
        });
        server.start();
        return server;
    }

    private static void deployment(KubernetesClient client, String namespace, String name) {
        client.resource(new DeploymentBuilder().withNewMetadata().withName(name).endMetadata()
                .withNewSpec().withReplicas(1).withNewSelector().addToMatchLabels("app", name).endSelector()
                .withNewTemplate().withNewMetadata().addToLabels("app", name).endMetadata()
                .withNewSpec().addNewContainer().withName("app").withImage("example/" + name + ":1").endContainer().endSpec()
                .endTemplate().endSpec().build()).inNamespace(namespace).create();
    }

    private static String autoProfile(String name, int port, String guardrail) {
        return """
                apiVersion: jvmtuning.dev/v1alpha1
                kind: TuningProfile
                metadata: {name: %s, labels: {%s: "true"}}
                spec:
                  targetRef: {name: %s}
                  mode: Auto
                  auto: {guardrail: {name: %s, max: 0.5}}
                  metrics: {port: %d, path: %s, interval: 5s}
                """.formatted(name, RunningOperator.OWN_OPERATOR_LABEL, name, guardrail, port, LoopbackMetrics.PATH);
    }

    @Test
    void aProfileReadsItsOwnNamespacesNumberAndAnUnknownNameIsInvalidWithNoNumber() throws Exception {
        LocalControlPlane controlPlane = LocalControlPlane.shared();
        controlPlane.ensureControllerManager();
        controlPlane.installCrd();
        KubernetesClient client = controlPlane.client();
        String namespace = controlPlane.newNamespace("guard");
        String other = controlPlane.newNamespace("guard-other");
        HttpServer own = probe(0.25);
        HttpServer others = probe(0.75);
        int port = WorkloadProcess.freePort();
        try (LoopbackMetrics pods = LoopbackMetrics.start("127.0.0.1", port, LoopbackMetrics.Behaviour.HEALTHY);
             LocalPrometheus prometheus = LocalPrometheus.start(Map.of(
                     "127.0.0.1:" + own.getAddress().getPort(), Map.of("namespace", namespace, "deployment", "web"),
                     "127.0.0.1:" + others.getAddress().getPort(), Map.of("namespace", other, "deployment", "web")))) {
            KubernetesClient operatorClient = RunningOperator.watchedClient(controlPlane.kubeconfig(), request -> { });
            Operator operator = new Operator(o -> o.withKubernetesClient(operatorClient));
            operator.register(new TuningProfileReconciler(TestSettings.of(RunningOperator.RESYNC, Optional.of(prometheus.url()),
                            Map.of("service-level", "max(service_level{namespace=\"{{namespace}}\",deployment=\"{{deployment}}\"})")),
                    new SimpleMeterRegistry(), Leadership.alone("guardrail-test")),
                    o -> o.settingNamespaces(namespace).withLabelSelector(RunningOperator.OWN_OPERATOR_LABEL));
            operator.start();
            try {
                deployment(client, namespace, "web");
                deployment(client, namespace, "api");
                FakeKubelet kubelet = new FakeKubelet(client);
                kubelet.awaitRollout(namespace, "web", TIMEOUT);
                kubelet.awaitRollout(namespace, "api", TIMEOUT);
                client.resource(autoProfile("web", port, "service-level")).inNamespace(namespace).create();
                client.resource(autoProfile("api", port, "p95-latency")).inNamespace(namespace).create();

                await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
                    kubelet.markPodsReady(namespace);
                    TuningProfile web = profile(client, namespace, "web");
                    assertThat(web.getStatus()).isNotNull();
                    assertThat(web.getStatus().getObserved()).isNotNull();
                    assertThat(web.getStatus().getObserved().getGuardrail()).as("the number of the profile's own namespace").isEqualTo(0.25);
                });

                await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
                    TuningProfile api = profile(client, namespace, "api");
                    assertThat(api.getStatus()).isNotNull();
                    assertThat(Conditions.find(api.getStatus().getConditions(), ConditionType.APPLIED)).hasValueSatisfying(applied -> {
                        assertThat(applied.getStatus()).isEqualTo("False");
                        assertThat(applied.getReason()).isEqualTo("Invalid");
                        assertThat(applied.getMessage()).isEqualTo("spec.auto.guardrail.name 'p95-latency' is not a guardrail query of this "
                                + "installation; this installation defines: service-level");
                    });
                    assertThat(Conditions.find(api.getStatus().getConditions(), ConditionType.METRICS_AVAILABLE))
                            .hasValueSatisfying(metrics -> assertThat(metrics.getReason()).isEqualTo("MetricsRead"));
                    assertThat(api.getStatus().getObserved().getGuardrail()).as("no number from a refused guardrail").isNull();
                });
                assertThat(client.v1().events().inNamespace(namespace).list().getItems()).anySatisfy(event -> {
                    assertThat(event.getInvolvedObject().getName()).isEqualTo("api");
                    assertThat(event.getType()).isEqualTo("Warning");
                    assertThat(event.getReason()).isEqualTo("Invalid");
                    assertThat(event.getMessage()).contains("spec.auto.guardrail.name 'p95-latency'", "service-level");
                });
            } finally {
                operator.stop();
            }
        } finally {
            own.stop(0);
            others.stop(0);
        }
    }

    private static TuningProfile profile(KubernetesClient client, String namespace, String name) {
        return client.resources(TuningProfile.class).inNamespace(namespace).withName(name).get();
    }
}
