package dev.jvmtuning.operator.reconciler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import dev.jvmtuning.operator.config.Leadership;
import dev.jvmtuning.operator.decision.Conditions;
import dev.jvmtuning.operator.model.ConditionStatus;
import dev.jvmtuning.operator.model.ConditionType;
import dev.jvmtuning.operator.testing.LocalControlPlane;
import dev.jvmtuning.operator.testing.RunningOperator;
import dev.jvmtuning.operator.testing.StartsProcesses;
import dev.jvmtuning.operator.testing.TestSettings;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * An operator that starts where another left off (a restart, an upgrade, a new leader) reads every
 * existing profile once and writes nothing: the existing Deployments and ConfigMaps its informers
 * list at start are not taken for news, and the Deployment controller's status writes for templates
 * the operator never tuned wake nobody.
 */
@StartsProcesses
class OperatorRestartTest {
    private static final int PROFILES = 40;
    private static final Set<String> WRITES = Set.of("POST", "PUT", "PATCH", "DELETE");

    /** An operator on one namespace, counting its reconciles per profile and its writes to the namespace's objects. */
    private static final class CountingOperator {
        final Operator operator;
        final Map<String, AtomicInteger> reconciles = new ConcurrentHashMap<>();
        final AtomicInteger writes = new AtomicInteger();

        CountingOperator(LocalControlPlane controlPlane, String namespace) throws Exception {
            KubernetesClient client = RunningOperator.watchedClient(controlPlane.kubeconfig(), request -> {
                if (WRITES.contains(request.method()) && request.uri().getPath().contains("/namespaces/" + namespace + "/")) {
                    writes.incrementAndGet();
                }
            });
            operator = new Operator(o -> o.withKubernetesClient(client));
            // no resync within the test: every reconcile counted is one an event caused
            operator.register(new TuningProfileReconciler(TestSettings.of(Duration.ofMinutes(30), Optional.empty()), new SimpleMeterRegistry(),
                    Leadership.alone("restart-test")) {
                @Override
                public UpdateControl<TuningProfile> reconcile(TuningProfile profile, Context<TuningProfile> context) {
                    reconciles.computeIfAbsent(profile.getMetadata().getName(), k -> new AtomicInteger()).incrementAndGet();
                    return super.reconcile(profile, context);
                }
            }, o -> o.settingNamespaces(namespace).withLabelSelector(RunningOperator.OWN_OPERATOR_LABEL));
            operator.start();
        }

        boolean reconciledAll() {
            return reconciles.size() == PROFILES;
        }
    }

    @Test
    void aRestartedOperatorReconcilesEachProfileOnceAndWritesNothing() throws Exception {
        LocalControlPlane controlPlane = LocalControlPlane.shared();
        controlPlane.ensureControllerManager();
        controlPlane.installCrd();
        KubernetesClient client = controlPlane.client();
        String namespace = controlPlane.newNamespace("restart");
        IntStream.range(0, PROFILES).forEach(i -> {
            client.resource(new DeploymentBuilder().withNewMetadata().withName("svc-" + i).endMetadata()
                    .withNewSpec().withReplicas(0).withNewSelector().addToMatchLabels("app", "svc-" + i).endSelector()
                    .withNewTemplate().withNewMetadata().addToLabels("app", "svc-" + i).endMetadata()
                    .withNewSpec().addNewContainer().withName("app").withImage("example/svc:1").endContainer().endSpec()
                    .endTemplate().endSpec().build()).inNamespace(namespace).create();
            client.resource("""
                    apiVersion: jvmtuning.dev/v1alpha1
                    kind: TuningProfile
                    metadata: {name: svc-%d, labels: {%s: "true"}}
                    spec:
                      targetRef: {name: svc-%d}
                      runtime: SpringBootTomcat
                      workload: {requestsPerSecond: %d, meanLatency: 200ms}
                      threads: {}
                    """.formatted(i, RunningOperator.OWN_OPERATOR_LABEL, i, 50 + i)).inNamespace(namespace).create();
        });

        CountingOperator first = new CountingOperator(controlPlane, namespace);
        // Ready: applied and the rollout complete, so nothing is left for the next operator to report
        await().atMost(Duration.ofSeconds(120)).until(() -> client.resources(TuningProfile.class).inNamespace(namespace).list().getItems().stream()
                .filter(p -> p.getStatus() != null && Conditions.find(p.getStatus().getConditions(), ConditionType.READY)
                        .filter(c -> ConditionStatus.TRUE.is(c.getStatus())).isPresent()).count() == PROFILES);
        first.operator.stop();

        CountingOperator second = new CountingOperator(controlPlane, namespace);
        try {
            await().atMost(Duration.ofSeconds(60)).until(second::reconciledAll);
            // the informers' first adds arrive after the first reconciles, often seconds later on a loaded machine
            Thread.sleep(5_000);
            Map<String, Integer> twice = new ConcurrentHashMap<>();
            second.reconciles.forEach((profile, count) -> {
                if (count.get() != 1) {
                    twice.put(profile, count.get());
                }
            });
            System.out.printf("restart: %d profiles, %d reconciles, %d writes%n", PROFILES,
                    second.reconciles.values().stream().mapToInt(AtomicInteger::get).sum(), second.writes.get());
            assertThat(twice).as("profiles reconciled more than once after the restart").isEmpty();
            assertThat(second.writes.get()).as("writes after the restart").isZero();
        } finally {
            second.operator.stop();
        }
    }
}
