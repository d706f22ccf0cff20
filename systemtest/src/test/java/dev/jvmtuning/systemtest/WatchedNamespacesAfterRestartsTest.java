package dev.jvmtuning.systemtest;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jvmtuning.systemtest.support.Cluster;
import dev.jvmtuning.systemtest.support.Wait;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A list of three watched namespaces, as a user installs it: every profile in every namespace is reconciled, and after
 * each of three restarts of the operator every one is back to Ready with fresh metrics within 30 s; a profile created after
 * the last restart is reconciled too.
 */
@Tag("check-7")
@Order(700)
class WatchedNamespacesAfterRestartsTest extends SystemCheck {

    /** The namespaces watched beside the demo's. */
    private static final List<String> OTHERS = List.of("jto-e2e-b", "jto-e2e-c");
    private static final List<String> ALL = List.of(Cluster.NAMESPACE, OTHERS.get(0), OTHERS.get(1));

    @Test
    @DisplayName("7. three watched namespaces: every profile back Ready with fresh metrics within 30 s of each of three restarts")
    void everyWatchedProfileIsBackReadyWithFreshMetricsAfterEachRestart() {
        makeRoom();
        // The chart grants its Role in each listed namespace: they exist before the upgrade, as helm requires.
        OTHERS.forEach(cluster::createNamespace);
        upgradeOperator("watchNamespaces={" + String.join(",", ALL) + "}");
        cluster.demo();
        // The demo's service and profile in the others with one replica each: the node has two CPUs.
        for (String namespace : OTHERS) {
            cluster.demo(namespace, manifest -> manifest.replace("replicas: 2", "replicas: 1"));
        }
        for (String namespace : ALL) {
            cluster.waitForCondition(namespace, "orders-api", "Ready", 300);
        }
        say("Ready in " + String.join(" ", ALL));
        for (int restart = 1; restart <= 3; restart++) {
            Instant since = Instant.now();
            long began = System.nanoTime();
            cluster.operatorPods().forEach(pod -> cluster.deleteOperatorPod(pod.getMetadata().getName()));
            Wait.until(120, "a new operator pod holding the Lease", () -> cluster.liveLeader().isPresent());
            for (String namespace : ALL) {
                Wait.until(30, "tp/orders-api in " + namespace + " Ready with metrics read after restart " + restart,
                        () -> freshSince(namespace, since));
            }
            say("restart " + restart + ": every profile Ready with fresh metrics " + (System.nanoTime() - began) / 1_000_000_000L
                    + " s after the operator's pod was deleted");
        }
        String late = OTHERS.get(1);
        cluster.apply(late, """
                apiVersion: jvmtuning.dev/v1alpha1
                kind: TuningProfile
                metadata: {name: late}
                spec:
                  targetRef: {kind: Deployment, name: orders-api}
                  runtime: SpringBootTomcat
                  mode: Recommend
                """);
        Wait.until(30, "tp/late in " + late + " reconciled",
                () -> !cluster.profile(late, "late").path("status").path("observedGeneration").asText().isEmpty());
    }

    /**
     * The operator back on the demo's one namespace, the others gone, whatever the check found: their profiles first, while
     * the operator still watches them to take its finalizers off; then the namespace list, before the namespaces go, as an
     * operator watching a namespace that no longer exists (its Role gone with it) could not start its informers.
     */
    @AfterEach
    void backToTheDemosNamespace() {
        OTHERS.forEach(namespace -> cluster.deleteProfiles(namespace, 60));
        upgradeOperator("watchNamespaces={" + Cluster.NAMESPACE + "}");
        OTHERS.forEach(cluster::deleteNamespace);
    }

    /** The demo's profile in {@code namespace} Ready, with metrics read after {@code since}. */
    private boolean freshSince(String namespace, Instant since) {
        JsonNode end = cluster.profile(namespace, "orders-api").path("status").path("observed").path("end");
        return "True".equals(cluster.condition(namespace, "orders-api", "Ready").path("status").asText())
                && !end.asText().isEmpty() && Instant.parse(end.asText()).isAfter(since);
    }
}
