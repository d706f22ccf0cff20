package dev.jvmtuning.systemtest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jvmtuning.systemtest.support.Cluster;
import dev.jvmtuning.systemtest.support.Manifests;
import dev.jvmtuning.systemtest.support.Wait;
import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * An OOM kill answered with memory (docs/how-to/size-the-container.md): a container the operator sizes (spec.sizing.memory
 * Plan, up to a maximum) for a 32Mi live heap, whose service then takes 320 MiB of native memory beside it (the lab workload's
 * cleaner-less buffers, reached over two minutes once the pod is Ready, past the profile's rollback window). The kernel kills it;
 * the kill is put down to that part, read from the JVM's own account (native memory tracking), and answered: the part's budget
 * and the limit around it raised, the heap kept. The pods of the raised limit hold the same demand.
 */
@Tag("check-16")
@Order(1600)
class OomKillAnsweredWithMemoryTest extends SystemCheck {

    private static final int DEMAND_MIB = 320;
    private static final int RAMP_SECONDS = 120;

    @Test
    @DisplayName("16. an OOM kill answered with memory: the sized limit raised for the part that ran over, the heap kept, the demand then held")
    void anOomKillOfASizedContainerRaisesItsLimit() {
        makeRoom();
        cluster.apply(Manifests.workload("raised", 0, """
                env:
                - {name: LEAK, value: direct}
                - {name: LEAK_MIB, value: '%d'}
                - {name: LEAK_RAMP_SECONDS, value: '%d'}
                resources: {requests: {cpu: 100m, memory: 512Mi}, limits: {cpu: '1', memory: 512Mi}}""".formatted(DEMAND_MIB, RAMP_SECONDS)));
        cluster.apply("""
                apiVersion: jvmtuning.dev/v1alpha1
                kind: TuningProfile
                metadata: {name: raised}
                spec:
                  targetRef: {kind: Deployment, name: raised}
                  runtime: SpringBootTomcat
                  threads: {max: 20}
                  workload: {liveHeap: 32Mi}
                  sizing: {memory: {policy: Plan, min: 256Mi, max: 1536Mi}}
                  jvmOptions: ["-XX:NativeMemoryTracking=summary"]
                  metrics: {injectAgent: true, interval: 5s}
                  rollback: {window: 10s}
                """);
        // Tuned before its first pod starts: no pod of the Deployment's own template takes the demand first.
        Wait.until(120, "deployment/raised tuned by its profile", () -> !cluster.settingsHash("raised").isEmpty());
        cluster.patchDeployment("raised", "[{\"op\": \"replace\", \"path\": \"/spec/replicas\", \"value\": 1}]");
        String firstLimit = setting("resources.limits.memory");
        String heap = setting("heap.size");
        say("planned: resources.limits.memory " + firstLimit + ", heap.size " + heap);

        Wait.until(300, "an OOM kill of raised in status", () -> !lastOomKill().path("cause").asText().isEmpty());
        say("status.lastOomKill: " + lastOomKill().path("cause").asText() + ": " + lastOomKill().path("message").asText());
        assertThat(lastOomKill().path("cause").asText()).as("the part that ran over").isIn("DIRECT_MEMORY", "NATIVE_OTHER");
        // Each kill raises the limit again, compounding, up to sizing.memory.max: a few answers at most for a demand of a fixed size.
        String limit = firstLimit;
        for (int answers = 1; ; answers++) {
            String before = limit;
            Wait.until(120, "the limit raised above " + before, () -> Cluster.bytes(setting("resources.limits.memory")) > Cluster.bytes(before));
            limit = setting("resources.limits.memory");
            say("answer " + answers + ": resources.limits.memory " + before + " -> " + limit + " ("
                    + setting("raised", "resources.limits.memory").path("rationale").asText() + ")");
            assertThat(setting("heap.size")).as("the heap kept").isEqualTo(heap);
            assertThat(Cluster.bytes(limit)).as("within sizing.memory.max").isLessThanOrEqualTo(Cluster.bytes("1536Mi"));
            String pod = readyPodOf(cluster.settingsHash("raised"));
            // The demand ramps up over two minutes from Ready; then it holds, or the kernel kills the pod again.
            Wait.sleep(Duration.ofSeconds(RAMP_SECONDS + 30));
            say(pod + ": limit " + cluster.appliedLimit(pod, "memory") + " as the kubelet runs it, restarts " + cluster.restarts(pod)
                    + "; " + cluster.profile("raised").path("status").path("observed").path("memory"));
            if (cluster.restarts(pod) == 0) {
                assertThat(Cluster.bytes(cluster.appliedLimit(pod, "memory"))).as("the pod runs the raised limit").isEqualTo(Cluster.bytes(limit));
                break;
            }
            assertThat(answers).as("answers before the demand held").isLessThan(3);
        }
        assertThat(cluster.applied("raised", "reason")).as("Applied, not rolled back").isEqualTo("Applied");
    }

    /** The pod of these settings once it is Ready, the rollout of them complete. */
    private String readyPodOf(String hash) {
        cluster.rolloutStatus("raised", 240);
        Wait.until(240, "a Ready pod of settings " + hash, () -> cluster.runningPods("raised").stream().anyMatch(pod ->
                hash.equals(pod.getMetadata().getAnnotations().get("jvmtuning.dev/settings-hash")) && cluster.containerReady(pod.getMetadata().getName())));
        return cluster.newestPod("raised");
    }

    private JsonNode lastOomKill() {
        return cluster.profile("raised").path("status").path("lastOomKill");
    }

    private String setting(String name) {
        return setting("raised", name).path("value").asText();
    }
}
