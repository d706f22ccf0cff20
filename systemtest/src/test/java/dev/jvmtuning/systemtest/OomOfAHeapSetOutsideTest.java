package dev.jvmtuning.systemtest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jvmtuning.systemtest.support.Manifests;
import dev.jvmtuning.systemtest.support.Wait;
import java.time.Duration;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * An image whose entrypoint passes its own -Xmx (488m, through a variable only the entrypoint reads, out of the pod spec's
 * sight), above the planned heap and too close to its 512Mi limit (the operator's variable comes first, so the command line
 * wins), its live heap growing slowly past the profile's rollback window: the kernel kills it for memory. The kill is put
 * down to the heap set outside the operator, read from the JVM (HEAP_NOT_PLANNED), and no budget is planned anew: the
 * settings stay as they were, and no OOM answer (R9b) appears.
 */
@Tag("check-4b")
@Order(450)
class OomOfAHeapSetOutsideTest extends SystemCheck {

    @Test
    @DisplayName("4b. an entrypoint -Xmx beyond the plan OOM-killed: put down to the heap set outside, no budget answer")
    void anOomKillOfAHeapSetOutsideThePlanIsPutDownToItAndNotAnswered() {
        cluster.apply(Manifests.workload(17, "xmxer", 1, """
                command: [/bin/sh, -c, 'exec java $IMAGE_OPTS -jar /app/app.jar']
                env:
                - {name: IMAGE_OPTS, value: '-Xmx488m'}
                - {name: LEAK, value: heap}
                - {name: LEAK_MIB, value: '456'}
                - {name: LEAK_RAMP_SECONDS, value: '90'}
                resources: {requests: {cpu: 100m, memory: 512Mi}, limits: {cpu: '1', memory: 512Mi}}"""));
        cluster.rolloutStatus("xmxer", 180);
        cluster.apply(Manifests.profile("xmxer", "xmxer", """
                rollback: {window: 10s}
                metrics: {injectAgent: true, interval: 5s}"""));
        cluster.waitForCondition("xmxer", "RolloutComplete", 240);
        String hash = cluster.settingsHash("xmxer");
        Wait.until(300, "an OOM kill of xmxer in status", () -> !lastOomKill().path("cause").asText().isEmpty());
        String cause = lastOomKill().path("cause").asText();
        String message = lastOomKill().path("message").asText();
        say("lastOomKill: " + cause + ": " + message);
        assertThat(cause).as("cause").isEqualTo("HEAP_NOT_PLANNED");
        assertThat(message).as("the heap the JVM reported named").containsAnyOf("MaxHeapSize", "heap");
        Wait.sleep(Duration.ofSeconds(20));
        long answered = StreamSupport.stream(cluster.profile("xmxer").path("status").path("settings").spliterator(), false)
                .filter(setting -> "R9b".equals(setting.path("rule").asText()))
                .count();
        assertThat(answered).as("no budget answer (R9b): settings of R9b").isZero();
        assertThat(cluster.settingsHash("xmxer")).as("the settings " + hash + " kept").isEqualTo(hash);
    }

    private JsonNode lastOomKill() {
        return cluster.profile("xmxer").path("status").path("lastOomKill");
    }
}
