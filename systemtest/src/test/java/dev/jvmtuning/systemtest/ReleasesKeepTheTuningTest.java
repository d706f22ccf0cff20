package dev.jvmtuning.systemtest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jvmtuning.systemtest.support.Manifests;
import dev.jvmtuning.systemtest.support.Wait;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The user's own incidents and releases keep the tuning (spec.rollback). Once the operator's own rollout is older than the
 * profile's window, the JVM of its pod is stopped three times (as a failing dependency or a liveness probe would stop it):
 * reported (PodsFailing), never rolled back. Then a release whose application refuses its arguments crash-loops under the
 * tuned settings: reported, not rolled back; its fix runs tuned without an edit of the profile.
 */
@Tag("check-3d")
@Order(340)
class ReleasesKeepTheTuningTest extends SystemCheck {

    @Test
    @DisplayName("3d. an incident after the window and a user's own crashing release keep the tuning; the fixed release runs tuned")
    void incidentsAfterTheWindowAndTheUsersOwnReleasesKeepTheTuning() {
        cluster.apply(Manifests.workload("releaser", 1, "resources: {requests: {cpu: 100m, memory: 512Mi}, limits: {cpu: '1', memory: 512Mi}}"));
        cluster.rolloutStatus("releaser", 180);
        cluster.apply(Manifests.profile("releaser", "releaser", "rollback: {window: 30s}"));
        cluster.waitForCondition("releaser", "Ready", 240);
        String tuned = cluster.settingsHash("releaser");
        String flags = cluster.tunedFlags("releaser");
        assertThat(List.of(tuned, flags)).as("settings rendered into the template: hash and flags").doesNotContain("");

        Wait.until(120, "the operator's rollout older than its 30 s window", () -> pastRollbackWindow(30));
        String pod = cluster.runningPodNames("releaser").get(0);
        for (int stops = 1; stops <= 3; stops++) {
            Wait.until(180, pod + " Ready", () -> cluster.containerReady(pod));
            int before = cluster.restarts(pod);
            say("an incident: the JVM of " + pod + " stopped (" + before + " restarts so far)");
            cluster.exec(pod, "/bin/sh", "-c", "kill 1");
            Wait.until(90, pod + " restarted", () -> cluster.restarts(pod) != before);
        }
        Wait.until(120, "a NotHeldToSettings Event", () -> cluster.profileEvents("releaser").stream().anyMatch(e -> e.startsWith("NotHeldToSettings: ")));
        Wait.until(180, pod + " Ready again, PodsFailing=False", () -> cluster.conditionIs("releaser", "PodsFailing", "False"));
        assertTuningKept(tuned);

        say("the user's release: the application refuses --server.port=not-a-port");
        cluster.patchDeployment("releaser", "[{\"op\": \"add\", \"path\": \"/spec/template/spec/containers/0/args\", \"value\": [\"--server.port=not-a-port\"]}]");
        Wait.until(180, "tp/releaser PodsFailing=True", () -> cluster.conditionIs("releaser", "PodsFailing", "True"));
        say("PodsFailing: " + cluster.condition("releaser", "PodsFailing").path("message").asText());
        // Long enough for the kubelet's back-off and the third restart, which a rollback used to follow.
        Wait.sleep(Duration.ofSeconds(60));
        assertTuningKept(tuned);
        assertThat(cluster.profileEvents("releaser")).as("no RolledBack Event").noneMatch(event -> event.startsWith("RolledBack"));

        say("the fix: the argument removed");
        cluster.patchDeployment("releaser", "[{\"op\": \"remove\", \"path\": \"/spec/template/spec/containers/0/args\"}]");
        cluster.rolloutStatus("releaser", 240);
        Wait.until(120, "tp/releaser Ready=True", () -> cluster.conditionIs("releaser", "Ready", "True"));
        Wait.until(60, "tp/releaser PodsFailing=False", () -> cluster.conditionIs("releaser", "PodsFailing", "False"));
        assertThat(cluster.tunedFlags("releaser")).as("the same tuned flags").isEqualTo(flags);
        List<String> events = cluster.profileEvents("releaser").stream()
                .filter(event -> event.startsWith("NotHeldToSettings") || event.startsWith("NoPodFailing") || event.startsWith("RolledBack"))
                .toList();
        events.forEach(SystemCheck::say);
        assertThat(events).as("NotHeldToSettings, NoPodFailing or RolledBack Events of tp/releaser").isNotEmpty();
    }

    private boolean pastRollbackWindow(int seconds) {
        String completed = cluster.profile("releaser").path("status").path("rollout").path("completedAt").asText();
        return !completed.isEmpty() && Duration.between(Instant.parse(completed), Instant.now()).toSeconds() > seconds;
    }

    private void assertTuningKept(String hash) {
        assertThat(cluster.applied("releaser", "reason")).as("Applied, not rolled back").isEqualTo("Applied");
        assertThat(cluster.settingsHash("releaser")).as("the tuned settings " + hash + " in the template").isEqualTo(hash);
    }
}
