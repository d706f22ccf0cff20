package dev.jvmtuning.systemtest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jvmtuning.systemtest.support.CheckReport;
import dev.jvmtuning.systemtest.support.Cluster;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.ExtendWith;

/** A check on the real node: the demo's cluster, and the check's report for e2e.sh. */
@ExtendWith(CheckReport.class)
abstract class SystemCheck {

    protected final Cluster cluster = new Cluster();

    @AfterEach
    void closeTheClient() {
        cluster.close();
    }

    /**
     * Room on the node's two CPUs and its memory: the workloads of the checks before are done (the demo's orders-api stays).
     * A crash-looping release or two boosted pods left running slow every JVM that starts after them.
     */
    protected void makeRoom() {
        List.of("refuser", "rebooter", "releaser", "cutter", "oomer", "xmxer", "throttled", "imager17", "blind17", "imager21", "blind21",
                "looper", "limited", "admitted", "synced", "synced-ssa", "synced-recipe", "resized", "scaled", "downgraded", "repushed")
                .forEach(cluster::deleteDeployment);
    }

    /** The profile Ready, with every pod of the tuned template Ready (one replica). */
    protected boolean settledReady(String profile) {
        JsonNode status = cluster.deployment(profile).path("status");
        return cluster.conditionIs(profile, "Ready", "True") && status.path("updatedReplicas").asInt() == 1 && status.path("replicas").asInt() == 1;
    }

    /** The operator has taken the profile's settings back to the Deployment's own template. */
    protected boolean rolledBack(String profile) {
        return "RolledBack".equals(cluster.applied(profile, "reason"));
    }

    /** After a rollback: the template's env as the user wrote it, which is none; said and asserted. */
    protected void assertTemplateWithoutEnv(String deployment) {
        JsonNode env = cluster.templateEnv(deployment);
        say("template env after the rollback: " + (env.isMissingNode() ? "none" : env));
        assertThat(env).as("the template's env after the rollback").isEmpty();
    }

    /** A line of the check's evidence, in the run's log. */
    protected static void say(String line) {
        System.out.println(line);
    }
}
