package dev.jvmtuning.systemtest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jvmtuning.systemtest.support.Http;
import dev.jvmtuning.systemtest.support.Manifests;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("check-5")
@Order(500)
class CpuThrottledTest extends SystemCheck {

    @Test
    @DisplayName("5. a CPU quota under load: throttled, CPUThrottled=True")
    void aCpuQuotaUnderLoadIsThrottledAndReported() {
        cluster.apply(Manifests.workload("throttled", 1, "resources: {requests: {cpu: 100m, memory: 512Mi}, limits: {cpu: 200m, memory: 512Mi}}"));
        cluster.rolloutStatus("throttled", 180);
        cluster.apply(Manifests.profile("throttled", "throttled", "metrics: {injectAgent: true, interval: 5s}"));
        cluster.waitForCondition("throttled", "RolloutComplete", 240);
        cluster.rolloutStatus("throttled", 240);
        String pod = cluster.runningPodNames("throttled").get(0);
        String url = "http://" + cluster.pod(pod).getStatus().getPodIP() + ":8080/work?cpuMs=40";
        // Bounded load: at most 60 s, each request burns 40 ms of CPU under a 20 ms-per-100 ms quota.
        Instant deadline = Instant.now().plus(Duration.ofSeconds(60));
        while (Instant.now().isBefore(deadline) && !cluster.conditionIs("throttled", "CPUThrottled", "True")) {
            Http.together(url, 4, 5);
        }
        String stat = cluster.exec(pod, "cat", "/sys/fs/cgroup/cpu/cpu.stat");
        say(pod + " cgroup: " + String.join(" ", stat.lines().toList()));
        var condition = cluster.condition("throttled", "CPUThrottled");
        if (!condition.isMissingNode()) {
            say("CPUThrottled=" + condition.path("status").asText() + ": " + condition.path("message").asText());
        }
        long periods = stat.lines().map(line -> line.split(" ")).filter(field -> field[0].equals("nr_throttled"))
                .mapToLong(field -> Long.parseLong(field[1])).findFirst().orElse(0);
        assertThat(periods).as("throttled periods (nr_throttled) in the cgroup of " + pod).isPositive();
        assertThat(cluster.conditionStatus("throttled", "CPUThrottled")).as("CPUThrottled").isEqualTo("True");
    }
}
