package dev.jvmtuning.systemtest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jvmtuning.systemtest.support.Autoscalers;
import dev.jvmtuning.systemtest.support.Cluster;
import dev.jvmtuning.systemtest.support.Load;
import dev.jvmtuning.systemtest.support.Manifests;
import dev.jvmtuning.systemtest.support.Wait;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The real Vertical Pod Autoscaler (docs/how-to/other-controllers.md): its recommender, updater and admission controller and
 * metrics-server (autoscalers.sh), a VPA in mode InPlaceOrRecreate moving the memory of a Deployment the operator tunes,
 * under load that allocates. Once the VPA recommends, the admission controller gives the pod of a user's restart the
 * recommendation instead of the template's 1Gi; someone then resizes that pod in place to 1Gi (an incident's bump), and the
 * updater takes it back to the recommendation in place, the container restarting for memory each time as the pod's
 * resizePolicy asks. The heap is a share of the limit planned at the VPA's minAllowed: every JVM that runs fits the pod it
 * runs in, as the JVM reports it; no OOM kill; the operator rolls nothing after its first rollout.
 */
@Tag("check-13")
@Order(1300)
class HeapFollowsTheVpaTest extends SystemCheck {

    private static final String VPA_API = "autoscaling.k8s.io/v1";

    @RegisterExtension
    final Autoscalers autoscalers = new Autoscalers();

    @AfterEach
    void removeTheVpa() {
        cluster.delete(VPA_API, "VerticalPodAutoscaler", "resized-vpa");
    }

    @Test
    @DisplayName("13. the real VPA (recommender, updater, admission controller) moving a tuned pod's memory under load: every JVM's heap at its share of the limit it runs at, no OOM kill, no rollout of the operator's")
    void everyJvmsHeapIsAtItsShareOfTheLimitTheVpaGivesItsPod() {
        makeRoom();
        autoscalers.up();
        // The operator reads VPAs where their CRD is served when it starts.
        cluster.restartOperator(180);
        cluster.apply(Manifests.workload("resized", 1, """
                resizePolicy: [{resourceName: memory, restartPolicy: RestartContainer}]
                resources: {requests: {cpu: 100m, memory: 1Gi}, limits: {cpu: '1', memory: 1Gi}}"""));
        cluster.apply("""
                apiVersion: autoscaling.k8s.io/v1
                kind: VerticalPodAutoscaler
                metadata: {name: resized-vpa}
                spec:
                  targetRef: {apiVersion: apps/v1, kind: Deployment, name: resized}
                  updatePolicy: {updateMode: InPlaceOrRecreate}
                  resourcePolicy:
                    containerPolicies: [{containerName: app, controlledResources: [memory], minAllowed: {memory: 512Mi}, maxAllowed: {memory: 1Gi}}]
                """);
        cluster.apply(Manifests.profile("resized", "resized", "rollback: {window: 30s}"));
        Wait.until(240, "tp/resized Ready", () -> settledReady("resized"));
        String options = cluster.tunedFlags("resized");
        JsonNode scaling = cluster.profile("resized").path("status").path("verticalScaling");
        say("rendered: " + options + "; status.verticalScaling: " + (scaling.isMissingNode() ? "{}" : scaling));
        String share = Pattern.compile("-XX:MaxRAMPercentage=([0-9.]*)").matcher(options).results().map(match -> match.group(1)).findFirst().orElse("");
        assertThat(share).as("the heap as a share of the limit").isNotEmpty();
        assertThat(options).as("no -Xmx").doesNotContain("-Xmx");
        // The share is planned at the least memory the VPA may give, 512Mi: at any limit above it, heap and the rest fit.
        assertThat(scaling.path("autoscaler").asText()).as("status.verticalScaling naming the VPA").isEqualTo("resized-vpa");
        assertThat(scaling.path("controls").toString()).as("status.verticalScaling naming what the VPA moves").isEqualTo("[\"memory\"]");
        assertThat(scaling.path("jvmFloor").asText()).as("status.verticalScaling: its floor at the VPA's minAllowed").isIn("512Mi", "511Mi");

        // A restart of the user's once the VPA recommends: its pod is admitted with the recommendation, not the template's 1Gi.
        Wait.until(180, "the VPA's first recommendation", () -> recommendation().path("target").hasNonNull("memory"));
        cluster.restartDeployment("resized");
        cluster.rolloutStatus("resized", 180);
        Wait.until(120, "tp/resized Ready after the restart", () -> settledReady("resized"));
        String pod = admittedWithTheRecommendation(cluster.newestPod("resized"));
        String admittedAt = cluster.appliedLimit(pod, "memory");
        say(pod + " admitted at " + admittedAt + ": " + Objects.toString(annotations(pod).get("vpaUpdates"), ""));
        assertThat(admittedAt).as("the restarted pod admitted by the VPA below the template's 1Gi").isNotEqualTo("1Gi");
        assertJvmFitsItsPod(pod, share);
        Wait.until(60, "status.admitted naming " + pod, () -> pod.equals(admitted("resized").path("pod").asText()));
        say("status.admitted: " + admitted("resized"));
        // 4 clients allocating 1 MiB a request, for at most 12 minutes: the heap grows as far as the JVM lets it.
        try (Load load = Load.start(cluster, "resized", "/work?allocKb=1024&cpuMs=2", 4, Duration.ofMinutes(12))) {
            // An incident's bump: the pod resized in place to the template's 1Gi, its container restarting. (The updater may take
            // it back before the JVM is Ready again.)
            cluster.resizePod(pod, "{\"spec\":{\"containers\":[{\"name\":\"app\",\"resources\":{\"limits\":{\"memory\":\"1Gi\"},\"requests\":{\"memory\":\"1Gi\"}}}]}}");
            Wait.until(120, "the kubelet applying 1Gi to " + pod, () -> "1Gi".equals(cluster.appliedLimit(pod, "memory")));
            // The updater takes it back to the recommendation, in place, once the pod is older than its threshold (1 minute here).
            Wait.until(300, "the VPA's updater resizing " + pod + " back to " + admittedAt + " in place",
                    () -> admittedAt.equals(cluster.appliedLimit(pod, "memory")) && cluster.restarts(pod) >= 2 && cluster.containerReady(pod));
            say("the VPA's recommendation: " + fields(recommendation(), "target", "lowerBound", "upperBound"));
            say(pod + ": limit " + cluster.appliedLimit(pod, "memory") + ", restarts " + cluster.restarts(pod) + "; updater's mark: " + vpaMarks(pod));
            assertJvmFitsItsPod(pod, share);
            say(load.answers());
        }
        assertThat(cluster.oomKilledPods("resized")).as("no OOM kill").isEmpty();
        assertThat(cluster.tunedFlags("resized")).as("the operator's settings unchanged: no rollout of its own").isEqualTo(options);
        Wait.until(60, "tp/resized HeapOverLimit=False", () -> cluster.conditionIs("resized", "HeapOverLimit", "False"));
        assertThat(cluster.applied("resized", "reason")).as("Applied, not rolled back").isEqualTo("Applied");
    }

    /**
     * The pod of the user's restart, or its replacement when the VPA's admission controller passed it over. The controller
     * finds a pod's VPA through the pod's ReplicaSet in its own informer cache; a restart's ReplicaSet is created a moment
     * before its pod, and on a busy node the cache may not have it yet: the pod is then admitted unchanged, at the template's
     * 1Gi, with no vpaUpdates mark. Deleted once, the pod is made again by a ReplicaSet the cache now holds.
     */
    private String admittedWithTheRecommendation(String pod) {
        if (!"1Gi".equals(cluster.appliedLimit(pod, "memory")) || annotations(pod).containsKey("vpaUpdates")) {
            return pod;
        }
        say(pod + " admitted at the template's 1Gi with no mark of the VPA's admission controller (its recommendation "
                + recommendation().path("target") + "): its ReplicaSet not yet in the controller's cache; the pod deleted for its ReplicaSet to make another");
        cluster.delete("v1", "Pod", pod);
        // The Deployment's status may still count the deleted pod Ready: the replacement itself must run, Ready.
        Wait.until(180, "tp/resized Ready with the pod that replaces " + pod, () -> settledReady("resized")
                && cluster.runningPodNames("resized").stream().anyMatch(name -> !name.equals(pod) && cluster.containerReady(name)));
        return cluster.newestPod("resized");
    }

    /** The JVM's maximum heap, as it reports it, at the share of the limit the kubelet applied to its pod (within 4 MiB): said and asserted. */
    private void assertJvmFitsItsPod(String pod, String share) {
        OptionalLong max = sizeFlag(cluster.jvmFlags(pod), "MaxHeapSize");
        long limit = Cluster.bytes(cluster.appliedLimit(pod, "memory"));
        long expected = (long) (Double.parseDouble(share) / 100 * limit);
        say(pod + " at " + limit / MIB + "Mi: MaxHeapSize " + max.orElse(0) / MIB + "Mi, the share " + share + "% of it " + expected / MIB + "Mi");
        assertThat(max).as("a MaxHeapSize reported by the JVM of " + pod).isPresent();
        assertThat(max.getAsLong()).as("the heap of " + pod + " at its share of the limit it runs at").isCloseTo(expected, within(4 * MIB));
    }

    private JsonNode recommendation() {
        return cluster.object(VPA_API, "VerticalPodAutoscaler", "resized-vpa").path("status").path("recommendation")
                .path("containerRecommendations").path(0);
    }

    /** The annotations the VPA's admission controller and updater put on a pod. */
    private String vpaMarks(String pod) {
        ObjectNode marks = JsonNodeFactory.instance.objectNode();
        annotations(pod).forEach((key, value) -> {
            if (key.startsWith("vpa")) {
                marks.put(key, value);
            }
        });
        return marks.toString();
    }

    private Map<String, String> annotations(String pod) {
        return Objects.requireNonNullElse(cluster.pod(pod).getMetadata().getAnnotations(), Map.of());
    }

    /** Some fields of an object, null where it has none of them (jq's {A, B}). */
    private static ObjectNode fields(JsonNode object, String... names) {
        ObjectNode picked = JsonNodeFactory.instance.objectNode();
        for (String name : names) {
            picked.set(name, object.get(name));
        }
        return picked;
    }
}
