package dev.jvmtuning.systemtest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jvmtuning.systemtest.support.Autoscalers;
import dev.jvmtuning.systemtest.support.Manifests;
import dev.jvmtuning.systemtest.support.Wait;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A HorizontalPodAutoscaler (docs/how-to/other-controllers.md), the controller manager's own, reading memory utilisation from
 * metrics-server (autoscalers.sh), beside a heap the plan starts at its maximum: ScaleDownBlocked=True names it; the pool is
 * planned for its maxReplicas within the database's connections for the service; every JVM that runs fits its pod.
 */
@Tag("check-14")
@Order(1400)
class HpaBesideAHeapFixedAtStartTest extends SystemCheck {

    private static final String HPA_API = "autoscaling/v2";

    @RegisterExtension
    final Autoscalers autoscalers = new Autoscalers();

    /** Left behind, the autoscaler would go on scaling the check's Deployment. */
    @AfterEach
    void removeTheHpa() {
        cluster.delete(HPA_API, "HorizontalPodAutoscaler", "scaled-hpa");
    }

    @Test
    @DisplayName("14. an HPA reading memory from metrics-server beside a heap fixed at start: ScaleDownBlocked names it; the pool planned for its maxReplicas within the database's connections")
    void anHpaBesideAHeapFixedAtStartIsNamedAndThePoolPlannedForItsMaxReplicas() {
        makeRoom();
        autoscalers.up();
        cluster.apply(Manifests.workload("scaled", 1, "resources: {requests: {cpu: 100m, memory: 512Mi}, limits: {cpu: '1', memory: 512Mi}}"));
        cluster.rolloutStatus("scaled", 180);
        cluster.apply("""
                apiVersion: jvmtuning.dev/v1alpha1
                kind: TuningProfile
                metadata: {name: scaled}
                spec:
                  targetRef: {kind: Deployment, name: scaled}
                  runtime: SpringBootTomcat
                  workload: {requestsPerSecond: 20, meanLatency: 1100ms, cpuPerRequest: 4ms, maxQueueWait: 1s, dbTimePerRequest: 1s}
                  connectionPool: {databaseConnections: 60}
                  gc: {collector: G1}
                """);
        Wait.until(240, "tp/scaled Ready", () -> settledReady("scaled"));
        String alone = poolSize();
        String flags = cluster.tunedFlags("scaled");
        say("alone: pool " + alone + "; " + flags);
        cluster.apply("""
                apiVersion: autoscaling/v2
                kind: HorizontalPodAutoscaler
                metadata: {name: scaled-hpa}
                spec:
                  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: scaled}
                  minReplicas: 1
                  maxReplicas: 3
                  metrics:
                  - type: Resource
                    resource: {name: memory, target: {type: Utilization, averageUtilization: 70}}
                """);
        Wait.until(60, "tp/scaled ScaleDownBlocked=True", () -> cluster.conditionIs("scaled", "ScaleDownBlocked", "True"));
        say("ScaleDownBlocked=True: " + cluster.condition("scaled", "ScaleDownBlocked").path("message").asText());
        assertThat(flags).as("a heap fixed at start (-Xms = -Xmx)").containsPattern("-Xms([0-9]+m) -Xmx\\1");
        Wait.until(60, "the pool planned for 3 replicas within 60 connections", () -> "20".equals(poolSize()));
        say("with the autoscaler's 3 replicas: pool " + poolSize() + " (alone " + alone + ")");
        assertThat(poolSize()).as("a pool of 60 connections over 3 replicas").isEqualTo("20");
        Wait.until(120, "the autoscaler reading the pods' memory from the metrics API",
                () -> hpaStatus().path("currentMetrics").path(0).path("resource").path("current").hasNonNull("averageUtilization"));
        JsonNode status = hpaStatus();
        ObjectNode seen = JsonNodeFactory.instance.objectNode();
        seen.set("currentMetrics", status.get("currentMetrics"));
        seen.set("replicas", status.get("currentReplicas"));
        seen.set("desired", status.get("desiredReplicas"));
        say("the autoscaler: " + seen);
        // The pool planned anew rolls the pods: the JVMs to judge are those the rollout leaves, not a pod it replaces.
        Wait.until(240, "tp/scaled Ready, its rollout for the autoscaler's replicas done", () -> settledReady("scaled"));
        for (String pod : cluster.runningPodNames("scaled")) {
            Wait.until(120, pod + " Ready", () -> cluster.containerReady(pod));
            assertHeapFits(pod);
        }
        List<String> fixed = cluster.profileEvents("scaled").stream().filter(event -> event.startsWith("HeapFixedAtStart")).toList();
        fixed.forEach(SystemCheck::say);
        assertThat(fixed).as("a HeapFixedAtStart Event").isNotEmpty();
        cluster.delete(HPA_API, "HorizontalPodAutoscaler", "scaled-hpa");
        Wait.until(60, "ScaleDownBlocked gone with the autoscaler", () -> cluster.conditionStatus("scaled", "ScaleDownBlocked").isEmpty());
    }

    /** The connection pool's size the operator planned, as its status.settings say it. */
    private String poolSize() {
        for (JsonNode setting : cluster.profile("scaled").path("status").path("settings")) {
            if ("connectionPool.maxSize".equals(setting.path("name").asText())) {
                return setting.path("value").asText();
            }
        }
        return "";
    }

    private JsonNode hpaStatus() {
        return cluster.object(HPA_API, "HorizontalPodAutoscaler", "scaled-hpa").path("status");
    }
}
