package dev.jvmtuning.operator.reconciler;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jvmtuning.operator.drills.HostileDrill;
import dev.jvmtuning.operator.drills.OperatorProcess;
import dev.jvmtuning.operator.testing.LocalControlPlane;
import dev.jvmtuning.operator.testing.StartsProcesses;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The hostile-endpoint drill, short: 20 pods whose metrics endpoints drip, flood, hang, send garbage
 * or redirect, beside healthy ones, scraped by the operator in a JVM of its own with a 128 MiB heap
 * that exits on OutOfMemoryError. For a minute the operator lives and every healthy profile keeps
 * fresh metrics. deploy/local/hostile-drill.sh runs the long version against the real build.
 */
@StartsProcesses
class HostileEndpointsDrillTest {
    private static final String HEAP = "128m";

    @Test
    void hostileEndpointsNeitherExhaustTheHeapNorStarveHealthyProfiles() throws Exception {
        LocalControlPlane controlPlane = LocalControlPlane.shared();
        Path dir = Files.createTempDirectory("hostile-drill");
        try (HostileDrill drill = HostileDrill.prepare(controlPlane);
                OperatorProcess operator = OperatorProcess.plain(controlPlane.kubeconfig(), drill.namespace(), HEAP, dir)) {
            drill.createProfiles();
            HostileDrill.Outcome outcome = drill.observe(operator, Duration.ofSeconds(60), Duration.ofSeconds(20), System.out);
            System.out.println("hostile drill (1 min): " + outcome);

            assertThat(outcome.operatorAlive()).as("operator alive with -Xmx" + HEAP + "; its log: " + operator.output()).isTrue();
            assertThat(outcome.staleSamples()).as("healthy profiles without fresh metrics").isEmpty();
            assertThat(outcome.hostileScrapes()).as("the hostile pods were scraped").isGreaterThanOrEqualTo(20);
        }
    }
}
