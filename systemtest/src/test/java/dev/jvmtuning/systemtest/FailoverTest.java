package dev.jvmtuning.systemtest;

import dev.jvmtuning.systemtest.support.Wait;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("check-6")
@Order(600)
class FailoverTest extends SystemCheck {

    @Test
    @DisplayName("6. two operator replicas: the leader's pod deleted, the other takes over")
    void theOtherReplicaTakesTheLeaseAndReconciles() {
        upgradeOperator("replicas=2");
        Wait.until(90, "a live operator pod holding the Lease", () -> cluster.liveLeader().isPresent());
        String leader = cluster.liveLeader().orElseThrow();
        say("leader: " + leader + " (of " + cluster.operatorPods().stream().map(pod -> pod.getMetadata().getName()).collect(Collectors.joining(" ")) + ")");
        long deleted = System.nanoTime();
        cluster.deleteOperatorPod(leader);
        Wait.until(120, "another operator pod holding the Lease", () -> cluster.liveLeader().filter(next -> !next.equals(leader)).isPresent());
        say("new leader after " + (System.nanoTime() - deleted) / 1_000_000_000L + " s: " + cluster.liveLeader().orElse(""));
        // The new leader reconciles: the demo's profile, applied again, becomes Applied.
        cluster.demo();
        cluster.waitForCondition("orders-api", "Applied", 120);
    }
}
