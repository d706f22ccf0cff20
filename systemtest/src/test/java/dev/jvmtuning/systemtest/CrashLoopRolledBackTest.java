package dev.jvmtuning.systemtest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jvmtuning.systemtest.support.Manifests;
import dev.jvmtuning.systemtest.support.Wait;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Settings the policy admits but the application cannot start with (a metaspace far too small for Spring Boot): a real
 * CrashLoopBackOff, taken back by the operator to the user's own template. Runs on check 3's Deployment.
 */
@Tag("check-3b")
@Order(320)
class CrashLoopRolledBackTest extends SystemCheck {

    @Test
    @DisplayName("3b. settings the service cannot start with: a real CrashLoopBackOff, rolled back")
    void settingsTheServiceCannotStartWithAreRolledBack() {
        long began = System.nanoTime();
        cluster.apply(Manifests.profile("refuser", "refuser", "jvmOptions: [\"-XX:MaxMetaspaceSize=16m\"]"));
        Wait.until(180, "tp/refuser rolled back", () -> rolledBack("refuser"));
        String message = cluster.applied("refuser", "message");
        say("rolled back " + (System.nanoTime() - began) / 1_000_000_000L + " s after the apply: " + message);
        assertThat(message).as("the rollback's reason").containsPattern("CrashLoopBackOff|restarted|exit code");
        cluster.rolloutStatus("refuser", 180);
        assertTemplateWithoutEnv("refuser");
    }
}
