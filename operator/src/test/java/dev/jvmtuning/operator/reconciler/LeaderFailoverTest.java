package dev.jvmtuning.operator.reconciler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import dev.jvmtuning.operator.config.Leadership;
import dev.jvmtuning.operator.model.ConditionStatus;
import dev.jvmtuning.operator.model.ConditionType;
import dev.jvmtuning.operator.model.Reason;
import dev.jvmtuning.operator.testing.FakeKubelet;
import dev.jvmtuning.operator.testing.LocalControlPlane;
import dev.jvmtuning.operator.testing.LoopbackMetrics;
import dev.jvmtuning.operator.testing.RunningOperator;
import dev.jvmtuning.operator.testing.StartsProcesses;
import dev.jvmtuning.operator.testing.TestSettings;
import dev.jvmtuning.operator.testing.WorkloadProcess;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfigurationBuilder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Two replicas of the operator against one API server, electing a leader on a Lease as the chart
 * installs them: only the leader scrapes the pods and writes, the standby costs the pods nothing;
 * when the leader dies without a word (its Lease left to expire), the standby takes over within the
 * Lease's duration and starts scraping.
 */
@StartsProcesses
class LeaderFailoverTest {
    private static final Duration LEASE = Duration.ofSeconds(6);
    private static final Duration RENEW = Duration.ofSeconds(4);
    private static final Duration RETRY = Duration.ofSeconds(1);
    private static final Set<String> WRITES = Set.of("POST", "PUT", "PATCH", "DELETE");

    /** One replica: its own client (counting its writes to objects), leader election and reconciler. */
    private static final class Replica {
        final Leadership leadership;
        final Operator operator;
        final AtomicInteger writes = new AtomicInteger();

        Replica(LocalControlPlane controlPlane, String namespace, String identity) throws Exception {
            leadership = Leadership.elected(identity);
            KubernetesClient client = RunningOperator.watchedClient(controlPlane.kubeconfig(), request -> {
                // writes to the cluster's objects; the Lease is the election's and the access review at start reads
                String path = request.uri().getPath();
                if (WRITES.contains(request.method()) && path.contains("/namespaces/") && !path.contains("/leases")) {
                    writes.incrementAndGet();
                }
            });
            var election = LeaderElectionConfigurationBuilder.aLeaderElectionConfiguration("jvm-tuning-operator")
                    .withLeaseNamespace(namespace).withIdentity(identity)
                    .withLeaseDuration(LEASE).withRenewDeadline(RENEW).withRetryPeriod(RETRY)
                    .withLeaderCallbacks(leadership.callbacks())
                    // a test cannot let the lost Lease end its JVM; the chart's replicas exit
                    .buildForTest(false);
            operator = new Operator(o -> o.withKubernetesClient(client).withLeaderElectionConfiguration(election));
            operator.register(new TuningProfileReconciler(TestSettings.of(RunningOperator.RESYNC, Optional.empty()),
                    new SimpleMeterRegistry(), leadership), o -> o.settingNamespaces(namespace).withLabelSelector(RunningOperator.OWN_OPERATOR_LABEL));
            operator.start();
        }
    }

    @Test
    void onlyTheLeaderScrapesAndTheStandbyTakesOverWhenItDies() throws Exception {
        LocalControlPlane controlPlane = LocalControlPlane.shared();
        controlPlane.ensureControllerManager();
        controlPlane.installCrd();
        KubernetesClient client = controlPlane.client();
        String namespace = controlPlane.newNamespace("failover");
        int port = WorkloadProcess.freePort();
        try (LoopbackMetrics endpoint = LoopbackMetrics.start("127.0.0.1", port, LoopbackMetrics.Behaviour.HEALTHY)) {
            client.resource(new DeploymentBuilder().withNewMetadata().withName("web").endMetadata()
                    .withNewSpec().withReplicas(1).withNewSelector().addToMatchLabels("app", "web").endSelector()
                    .withNewTemplate().withNewMetadata().addToLabels("app", "web").endMetadata()
                    .withNewSpec().addNewContainer().withName("app").withImage("example/web:1").endContainer().endSpec()
                    .endTemplate().endSpec().build()).inNamespace(namespace).create();
            new FakeKubelet(client).awaitRollout(namespace, "web", Duration.ofSeconds(60));

            Replica first = new Replica(controlPlane, namespace, "replica-a");
            await().atMost(Duration.ofSeconds(30)).until(first.leadership::isLeading);
            Replica second = new Replica(controlPlane, namespace, "replica-b");
            client.resource("""
                    apiVersion: jvmtuning.dev/v1alpha1
                    kind: TuningProfile
                    metadata: {name: web, labels: {%s: "true"}}
                    spec:
                      targetRef: {name: web}
                      mode: Recommend
                      metrics: {port: %d, path: %s, interval: 5s}
                    """.formatted(RunningOperator.OWN_OPERATOR_LABEL, port, LoopbackMetrics.PATH)).inNamespace(namespace).create();

            // Generous: on a loaded machine the leader's informers start and its first window closes well after the election.
            await().atMost(Duration.ofSeconds(120)).untilAsserted(() -> assertThat(endpoint.scrapesBy("replica-a") >= 3 && metricsRead(client, namespace))
                    .as("scrapes by the leader %d (of 3), by the standby %d; leading: %s, %s; conditions %s", endpoint.scrapesBy("replica-a"),
                            endpoint.scrapesBy("replica-b"), first.leadership.isLeading(), second.leadership.isLeading(), conditions(client, namespace))
                    .isTrue());
            assertThat(endpoint.scrapesBy("replica-b")).as("scrapes by the standby").isZero();
            assertThat(second.leadership.isLeading()).isFalse();
            assertThat(second.writes.get()).as("writes by the standby").isZero();
            List<String> eventsBefore = events(client, namespace);

            first.operator.stop(); // the Lease is not released: the standby must wait for it to expire, as after a crash
            int scrapesOfTheDead = endpoint.scrapesBy("replica-a");
            long killed = System.nanoTime();
            await().atMost(LEASE.plus(RETRY.multipliedBy(2)).plusSeconds(5)).until(second.leadership::isLeading);
            Duration takeover = Duration.ofNanos(System.nanoTime() - killed);
            await().atMost(Duration.ofSeconds(30)).until(() -> endpoint.scrapesBy("replica-b") >= 3);
            System.out.printf("failover: the standby led %.1f s after the leader died (lease %d s); scrapes by the dead leader %d, by the new %d%n",
                    takeover.toMillis() / 1000.0, LEASE.toSeconds(), scrapesOfTheDead, endpoint.scrapesBy("replica-b"));

            assertThat(takeover).isLessThanOrEqualTo(LEASE.plus(RETRY.multipliedBy(2)));
            assertThat(endpoint.scrapesBy("replica-a")).as("scrapes by the dead leader").isEqualTo(scrapesOfTheDead);
            await().atMost(Duration.ofSeconds(30)).until(() -> metricsRead(client, namespace));
            assertThat(events(client, namespace)).as("no Event twice for one change").isEqualTo(eventsBefore);
            second.operator.stop();
        }
    }

    private static boolean metricsRead(KubernetesClient client, String namespace) {
        TuningProfile profile = client.resources(TuningProfile.class).inNamespace(namespace).withName("web").get();
        return profile.getStatus() != null && profile.getStatus().getConditions() != null && profile.getStatus().getConditions().stream()
                .anyMatch(c -> c.getType().equals(ConditionType.METRICS_AVAILABLE.text()) && c.getStatus().equals(ConditionStatus.TRUE.text())
                        && c.getReason().equals(Reason.METRICS_READ.text()));
    }

    private static List<String> conditions(KubernetesClient client, String namespace) {
        TuningProfile profile = client.resources(TuningProfile.class).inNamespace(namespace).withName("web").get();
        return profile == null || profile.getStatus() == null ? List.of() : profile.getStatus().getConditions().stream()
                .map(c -> c.getType() + "=" + c.getStatus() + " " + c.getReason()).toList();
    }

    /** Each Event as reason and count: an Event repeated by the new leader would raise a count or add one. */
    private static List<String> events(KubernetesClient client, String namespace) {
        return client.v1().events().inNamespace(namespace).list().getItems().stream()
                .map(e -> e.getReason() + " x" + e.getCount()).sorted().toList();
    }
}
