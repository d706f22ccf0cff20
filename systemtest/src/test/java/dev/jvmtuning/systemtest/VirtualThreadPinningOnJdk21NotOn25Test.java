package dev.jvmtuning.systemtest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jvmtuning.systemtest.support.Load;
import dev.jvmtuning.systemtest.support.Wait;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Spring Boot serving on virtual threads (the container's SPRING_THREADS_VIRTUAL_ENABLED), on JRE 21 and on JRE 25, each
 * request blocking 50 ms inside synchronized. On JDK 21 that pins the carrier: VirtualThreadPinning=True within two metrics
 * intervals of the load, naming the frame; JDK 24 and later (JEP 491) unmount instead: False, through the load.
 */
@Tag("check-9")
@Order(900)
class VirtualThreadPinningOnJdk21NotOn25Test extends SystemCheck {

    private static final int METRICS_INTERVAL_SECONDS = 10;

    @Test
    @DisplayName("9. virtual threads pinned by synchronized: VirtualThreadPinning=True with the frame on JDK 21, False on JDK 25")
    void blockingInsideSynchronizedIsReportedAsPinningOnJdk21AndNotOnJdk25() {
        tunedOnEachJre("pinner", List.of(21, 25), """
                env: [{name: SPRING_THREADS_VIRTUAL_ENABLED, value: 'true'}]
                resources: {requests: {cpu: 10m, memory: 256Mi}, limits: {cpu: '1', memory: 640Mi}}""",
                "metrics: {injectAgent: true, interval: " + METRICS_INTERVAL_SECONDS + "s}");
        for (String name : List.of("pinner21", "pinner25")) {
            String threading = cluster.profile(name).path("status").path("threading").path("model").asText();
            say(name + ": threading " + threading);
            assertThat(threading).as("the threading model of tp/" + name).isEqualTo("Virtual");
        }
        long began = System.nanoTime();
        // 8 clients on each pod for at most 3 minutes.
        try (Load jdk21 = Load.start(cluster, "pinner21", "/pinned?ms=50", 8, Duration.ofSeconds(180));
                Load jdk25 = Load.start(cluster, "pinner25", "/pinned?ms=50", 8, Duration.ofSeconds(180))) {
            Wait.until(2 * METRICS_INTERVAL_SECONDS + 20, "tp/pinner21 VirtualThreadPinning=True",
                    () -> cluster.conditionIs("pinner21", "VirtualThreadPinning", "True"));
            String message = cluster.condition("pinner21", "VirtualThreadPinning").path("message").asText();
            say("JDK 21, " + (System.nanoTime() - began) / 1_000_000_000L + " s into the load: VirtualThreadPinning=True: " + message);
            assertThat(message).as("the pinning frame named").contains("dev.jvmtuning.lab.workload.PinningCall");
            Wait.until(60, "tp/pinner25 VirtualThreadPinning judged",
                    () -> List.of("True", "False").contains(cluster.conditionStatus("pinner25", "VirtualThreadPinning")));
            say("JDK 25: VirtualThreadPinning=" + cluster.conditionStatus("pinner25", "VirtualThreadPinning") + ": "
                    + cluster.condition("pinner25", "VirtualThreadPinning").path("message").asText());
            assertThat(cluster.conditionStatus("pinner25", "VirtualThreadPinning")).as("VirtualThreadPinning of tp/pinner25").isEqualTo("False");
            // The load's rest, and the JDK 25 figure stays under the threshold through it.
            Wait.sleep(Duration.ofSeconds(30));
            assertThat(cluster.conditionStatus("pinner25", "VirtualThreadPinning")).as("VirtualThreadPinning of tp/pinner25 30 s on")
                    .isEqualTo("False");
        }
    }
}
