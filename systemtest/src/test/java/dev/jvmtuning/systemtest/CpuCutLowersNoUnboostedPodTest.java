package dev.jvmtuning.systemtest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jvmtuning.systemtest.support.Manifests;
import dev.jvmtuning.systemtest.support.Wait;
import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The boost lowers only what it raised: two pods at their own 1-CPU limit, their boosts long ended; the user cuts the
 * template's CPU limit to 500m in a release no node can take (a node selector no node has), so the old pods keep serving.
 * The operator boosted none of them at 1 CPU, so it lowers none: a minute on, each still runs its own limit.
 */
@Tag("check-3e")
@Order(350)
class CpuCutLowersNoUnboostedPodTest extends SystemCheck {

    @Test
    @DisplayName("3e. a CPU limit cut with the boost on: no pod the operator did not boost is lowered")
    void aCpuLimitCutLowersNoPodTheOperatorDidNotBoost() {
        cluster.apply(Manifests.workload("cutter", 2, "resources: {requests: {cpu: 100m, memory: 512Mi}, limits: {cpu: '1', memory: 512Mi}}"));
        cluster.rolloutStatus("cutter", 300);
        cluster.apply(Manifests.profile("cutter", "cutter", "startupBoost: {cpu: \"2\", warmUp: 10s}"));
        cluster.waitForCondition("cutter", "Ready", 300);
        cluster.rolloutStatus("cutter", 300);
        Wait.until(240, "both pods of cutter back at their own 1 CPU, their boosts ended",
                () -> cluster.runningPodNames("cutter").stream().filter(pod -> "1".equals(cluster.appliedCpu(pod))).count() == 2);
        cluster.patchDeployment("cutter", """
                [{"op": "replace", "path": "/spec/template/spec/containers/0/resources/limits/cpu", "value": "500m"},
                 {"op": "add", "path": "/spec/template/spec/nodeSelector", "value": {"jvmtuning.dev/no-node": "has-this"}}]""");
        Wait.sleep(Duration.ofSeconds(60));
        for (String pod : cluster.runningPodNames("cutter")) {
            assertThat(cluster.appliedCpu(pod)).as("pod " + pod + " at its own limit of 1 CPU").isEqualTo("1");
        }
        cluster.profileEvents("cutter").stream().filter(event -> event.startsWith("StartupBoost")).forEach(SystemCheck::say);
    }
}
