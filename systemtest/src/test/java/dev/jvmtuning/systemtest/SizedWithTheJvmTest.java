package dev.jvmtuning.systemtest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jvmtuning.systemtest.support.Cluster;
import dev.jvmtuning.systemtest.support.Manifests;
import dev.jvmtuning.systemtest.support.Wait;
import java.util.OptionalLong;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * spec.sizing on the real node (docs/how-to/size-the-container.md): a template that asks 2Gi for a service whose heap needs
 * three times its 64Mi live set gets the limit that heap and the JVM's memory beside it take; the kubelet runs the pod at it,
 * the JVM reports the planned heap, nothing restarts; deleting the profile gives the template its own resources back.
 */
@Tag("check-15")
@Order(1500)
class SizedWithTheJvmTest extends SystemCheck {
    private static final String RESOURCES = "resources: {requests: {cpu: 100m, memory: 2Gi}, limits: {cpu: '1', memory: 2Gi}}";

    @Test
    @DisplayName("15. a container sized with the JVM: an oversized template's pods run the limit their heap needs, and get their own back")
    void anOversizedContainerRunsTheLimitItsHeapNeeds() {
        makeRoom();
        cluster.apply(Manifests.workload("sized", 1, RESOURCES));
        cluster.rolloutStatus("sized", 180);
        JsonNode before = cluster.deployment("sized").path("spec").path("template").path("spec").path("containers").get(0).path("resources");

        cluster.apply("""
                apiVersion: jvmtuning.dev/v1alpha1
                kind: TuningProfile
                metadata: {name: sized}
                spec:
                  targetRef: {kind: Deployment, name: sized}
                  runtime: SpringBootTomcat
                  threads: {max: 40}
                  workload: {liveHeap: 64Mi}
                  sizing: {memory: {policy: Plan, min: 256Mi, max: 2Gi}}
                """);
        Wait.until(240, "tp/sized Ready on its sized pod", () -> settledReady("sized"));
        String limit = setting("sized", "resources.limits.memory").path("value").asText();
        String heap = setting("sized", "heap.size").path("value").asText();
        say("planned: resources.limits.memory " + limit + " (" + setting("sized", "resources.limits.memory").path("rationale").asText()
                + "); heap.size " + heap);
        assertThat(heap).as("three times the live heap").isEqualTo("192Mi");
        assertThat(Cluster.bytes(limit)).as("well under the template's 2Gi, above the heap").isBetween(Cluster.bytes("384Mi"), Cluster.bytes("768Mi"));
        assertThat(setting("sized", "resources.requests.memory").path("value").asText()).as("the request equals the limit").isEqualTo(limit);

        String pod = cluster.newestPod("sized");
        OptionalLong maxHeap = sizeFlag(cluster.jvmFlags(pod), "MaxHeapSize");
        say(pod + ": limits.memory " + cluster.appliedLimit(pod, "memory") + " as the kubelet runs it; MaxHeapSize "
                + maxHeap.orElse(0) / MIB + "Mi as the JVM reports it");
        assertThat(cluster.podMemoryLimit(pod)).as("the pod's limit as admitted").isEqualTo(Cluster.bytes(limit));
        assertThat(maxHeap).as("the JVM's own MaxHeapSize").hasValue(Cluster.bytes(heap));
        assertHeapFits(pod);

        cluster.deleteProfile("sized", 120);
        cluster.rolloutStatus("sized", 180);
        JsonNode after = cluster.deployment("sized").path("spec").path("template").path("spec").path("containers").get(0).path("resources");
        say("template resources after the profile's delete: " + after);
        assertThat(after).as("the template's own resources, field for field").isEqualTo(before);
    }
}
