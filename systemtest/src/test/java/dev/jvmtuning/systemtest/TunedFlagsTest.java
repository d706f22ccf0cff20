package dev.jvmtuning.systemtest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import dev.jvmtuning.systemtest.support.Wait;

@Tag("check-1")
@Order(100)
class TunedFlagsTest extends SystemCheck {

    @Test
    @DisplayName("1. the running JVMs report the tuned flags")
    void theRunningJvmsReportTheTunedFlags() {
        cluster.demo();
        cluster.waitForCondition("orders-api", "Ready", 240);
        cluster.rolloutStatus("orders-api", 120);
        // what the JVMs report of themselves, through the agent, within a metrics interval or two
        Wait.until(120, "tp/orders-api SettingsEffective=True", () -> cluster.conditionIs("orders-api", "SettingsEffective", "True"));
        say("SettingsEffective=True: " + cluster.condition("orders-api", "SettingsEffective").path("message").asText());
        // What the JVMs use, part by part beside the plan's budget, read from the pods; and the threads they serve on.
        Wait.until(120, "tp/orders-api NativeMemoryPressure judged",
                () -> List.of("True", "False").contains(cluster.conditionStatus("orders-api", "NativeMemoryPressure")));
        JsonNode status = cluster.profile("orders-api").path("status");
        JsonNode memory = status.path("observed").path("memory");
        say("memory of " + memory.path("pod").asText() + ": resident " + memory.path("resident").asText() + " of " + memory.path("limit").asText()
                + "; " + StreamSupport.stream(memory.path("buckets").spliterator(), false).map(TunedFlagsTest::bucket).collect(Collectors.joining(", ")));
        JsonNode pressure = cluster.condition("orders-api", "NativeMemoryPressure");
        say("NativeMemoryPressure=" + pressure.path("status").asText() + " " + pressure.path("reason").asText() + ": " + pressure.path("message").asText());
        say("threading: " + status.path("threading").path("model").asText() + " (" + status.path("threading").path("source").asText() + ")");
        assertThat(memory.path("buckets").size()).as("parts of memory read from the pod").isGreaterThanOrEqualTo(5);
        assertThat(memory.path("buckets")).as("the heap's use read from the pod")
                .anyMatch(b -> "heap".equals(b.path("bucket").asText()) && !b.path("used").isMissingNode() && !b.path("used").isNull());
        assertThat(memory.path("resident").asText()).as("the pod's resident memory").endsWith("Mi");
        assertThat(status.path("threading").path("model").asText()).as("threading model").isEqualTo("Platform");
        for (String pod : cluster.runningPodNames("orders-api")) {
            String flags = cluster.jvmFlags(pod);
            say(pod + ": " + Arrays.stream(flags.split("\\s+"))
                    .filter(flag -> flag.matches(".*(UseG1GC|MaxGCPauseMillis|ExitOnOutOfMemoryError|MaxRAMPercentage).*"))
                    .collect(Collectors.joining(" ")));
            assertThat(flags).as("the flags " + pod + "'s JVM reports").contains("-XX:+UseG1GC", "-XX:MaxGCPauseMillis=100", "-XX:+ExitOnOutOfMemoryError");
        }
    }

    private static String bucket(JsonNode bucket) {
        JsonNode used = bucket.path("used");
        String committed = bucket.path("committed").asText();
        return bucket.path("bucket").asText() + " " + (used.isMissingNode() || used.isNull() ? "-" : used.asText())
                + (committed.isEmpty() ? "" : " (committed " + committed + ")") + " of " + bucket.path("budget").asText();
    }
}
