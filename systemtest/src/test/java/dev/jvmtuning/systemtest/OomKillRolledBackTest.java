package dev.jvmtuning.systemtest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jvmtuning.systemtest.support.Manifests;
import dev.jvmtuning.systemtest.support.Wait;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Settings the planner's memory budget admits but the process does not fit: the profile says the service loads 500 classes
 * (Spring Boot loads thousands, their metaspace is not budgeted) and touches its whole heap at start. The kernel OOM-kills
 * the new pod; the operator takes the Deployment back.
 */
@Tag("check-4")
@Order(400)
class OomKillRolledBackTest extends SystemCheck {

    @Test
    @DisplayName("4. settings the pods do not fit in: a real OOM kill, rolled back")
    void settingsThePodsDoNotFitInAreOomKilledAndRolledBack() {
        cluster.apply(Manifests.workload("oomer", 1, "resources: {requests: {cpu: 100m, memory: 384Mi}, limits: {cpu: '1', memory: 384Mi}}"));
        cluster.rolloutStatus("oomer", 180);
        cluster.apply(Manifests.profile("oomer", "oomer", """
                threads: {max: 4}
                heap: {size: 280Mi}
                jvmOptions: ["-XX:+AlwaysPreTouch", "-XX:ReservedCodeCacheSize=16m", "-XX:MaxDirectMemorySize=1m"]"""));
        cluster.patchProfile("oomer", "{\"spec\": {\"workload\": {\"loadedClasses\": 500}}}");
        Wait.until(180, "tp/oomer rolled back", () -> rolledBack("oomer"));
        String message = cluster.applied("oomer", "message");
        say("Applied=RolledBack: " + message);
        // Seen as the OOM kill itself, not only later as a crash loop.
        assertThat(message).as("the rollback's reason").contains("container app: OOMKilled");
        // And explained, from whatever the operator read of the pod before the kill (at start usually nothing, so the plan
        // and the limit; on a fast node a reading of the starting JVM).
        String cause = cluster.profile("oomer").path("status").path("lastOomKill").path("cause").asText();
        say("status.lastOomKill: " + cause + ": " + cluster.profile("oomer").path("status").path("lastOomKill").path("message").asText());
        assertThat(message).as("the kill explained").containsPattern("OOM-killed, cause [A-Z_]+: .+");
        assertThat(cause).as("status.lastOomKill.cause").isNotEmpty();
        cluster.rolloutStatus("oomer", 180);
        assertTemplateWithoutEnv("oomer");
    }
}
