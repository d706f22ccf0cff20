package dev.jvmtuning.systemtest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jvmtuning.systemtest.support.Manifests;
import dev.jvmtuning.systemtest.support.Wait;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A pod restarting while the operator boosts its CPU (spec.startupBoost): its boost ends at the restart (the kubelet would
 * start it boosted again), and the restarts are judged as any failing rollout's: the kubelet's back-off (CrashLoopBackOff)
 * or a third restart rolls the settings back to the user's template. The JVM is stopped from inside (SIGTERM to the
 * container's process 1, once it is Ready), as a crash would stop it, at most three times.
 */
@Tag("check-3c")
@Order(330)
class RestartDuringBoostTest extends SystemCheck {

    @Test
    @DisplayName("3c. a pod restarting during its start-up boost: the boost ended, the settings rolled back")
    void aPodRestartingDuringItsBoostEndsTheBoostAndRollsTheSettingsBack() {
        cluster.apply(Manifests.workload("rebooter", 1, "resources: {requests: {cpu: 100m, memory: 512Mi}, limits: {cpu: 500m, memory: 512Mi}}"));
        cluster.rolloutStatus("rebooter", 300);
        cluster.apply(Manifests.profile("rebooter", "rebooter", "startupBoost: {cpu: \"2\", warmUp: 5m}"));
        Wait.until(180, "a pod of rebooter boosted to 2 CPU", () -> boostedPod().isPresent());
        String pod = boostedPod().orElseThrow();
        for (int stops = 1; stops <= 3; stops++) {
            Wait.until(180, pod + " Ready, or the settings rolled back", () -> rolledBack("rebooter") || cluster.containerReady(pod));
            if (rolledBack("rebooter")) {
                break;
            }
            say(pod + " Ready at " + cluster.appliedCpu(pod) + " CPU (its limit 500m), " + cluster.restarts(pod) + " restarts: its JVM stopped");
            stopJvm(pod);
            if (stops == 1) {
                Wait.until(120, "the boost of " + pod + " ended at its restart", () -> cluster.profileEvents("rebooter").stream()
                        .anyMatch(event -> event.startsWith("StartupBoostEnded: pod " + pod + " ") && event.contains("restarted")));
            }
        }
        Wait.until(180, "tp/rebooter rolled back", () -> rolledBack("rebooter"));
        String message = cluster.applied("rebooter", "message");
        say(message);
        List<String> events = cluster.profileEvents("rebooter").stream()
                .filter(event -> event.startsWith("StartupBoost") || event.startsWith("RolledBack"))
                .toList();
        events.forEach(SystemCheck::say);
        assertThat(events).as("StartupBoost and RolledBack Events of tp/rebooter").isNotEmpty();
        assertThat(message).as("the rollback's reason").containsPattern("CrashLoopBackOff|restarted");
        cluster.rolloutStatus("rebooter", 180);
        assertTemplateWithoutEnv("rebooter");
    }

    /** A pod of the tuned template running above its own CPU limit. */
    private Optional<String> boostedPod() {
        return cluster.runningPodNames("rebooter").stream().filter(pod -> "2".equals(cluster.appliedCpu(pod))).findFirst();
    }

    /** SIGTERM to the container's process 1, then the restart it causes: until then the kubelet may still say Ready. */
    private void stopJvm(String pod) {
        int before = cluster.restarts(pod);
        cluster.exec(pod, "/bin/sh", "-c", "kill 1");
        Wait.until(90, pod + " restarted", () -> rolledBack("rebooter") || cluster.restarts(pod) != before);
    }
}
