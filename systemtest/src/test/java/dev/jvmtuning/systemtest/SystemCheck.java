package dev.jvmtuning.systemtest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.jvmtuning.systemtest.support.CheckReport;
import dev.jvmtuning.systemtest.support.Cluster;
import dev.jvmtuning.systemtest.support.Command;
import dev.jvmtuning.systemtest.support.Manifests;
import java.util.List;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.ExtendWith;

/** A check on the real node: the demo's cluster, and the check's report for e2e.sh. */
@ExtendWith(CheckReport.class)
abstract class SystemCheck {

    protected static final long MIB = 1024 * 1024;

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
                "looper", "limited", "admitted", "synced", "synced-ssa", "synced-recipe", "resized", "scaled", "downgraded", "repushed", "sized", "raised")
                .forEach(cluster::deleteDeployment);
    }

    /**
     * The profile Ready, with its Deployment's rollout done: every replica its spec asks for (one, or what an autoscaler set)
     * runs the tuned template, Ready, and no other pod is left.
     */
    protected boolean settledReady(String profile) {
        JsonNode deployment = cluster.deployment(profile);
        JsonNode status = deployment.path("status");
        int wanted = deployment.path("spec").path("replicas").asInt(1);
        return cluster.conditionIs(profile, "Ready", "True")
                && status.path("observedGeneration").asLong() >= deployment.path("metadata").path("generation").asLong()
                && status.path("updatedReplicas").asInt() == wanted && status.path("readyReplicas").asInt() == wanted
                && status.path("replicas").asInt() == wanted;
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

    /** helm upgrade of the operator's release with one value changed, the others kept; returns once its pods are ready. */
    protected static void upgradeOperator(String value) {
        Command.run(240, List.of("helm", "upgrade", "jvm-tuning-operator", "charts/jvm-tuning-operator", "-n", Cluster.OPERATOR_NAMESPACE,
                "--reuse-values", "--set", value, "--wait", "--timeout", "180s"));
    }

    /**
     * A Deployment of the lab workload and its profile on each JRE of {@code javas}, named {@code prefix} and the version
     * (the container's and the spec's extra YAML unindented): all applied before any is awaited, so their JVMs start side by
     * side; returns once each profile's rollout is complete and its Deployment rolled out.
     */
    protected void tunedOnEachJre(String prefix, List<Integer> javas, String containerYaml, String specYaml) {
        for (int java : javas) {
            cluster.apply(Manifests.workload(java, prefix + java, 1, containerYaml));
            cluster.apply(Manifests.profile(prefix + java, prefix + java, specYaml));
        }
        for (int java : javas) {
            cluster.waitForCondition(prefix + java, "RolloutComplete", 300);
            cluster.rolloutStatus(prefix + java, 300);
        }
    }

    /** The bytes of a size flag (MaxHeapSize) in a JVM's VM.flags, or none when it does not report it. */
    protected static OptionalLong sizeFlag(String flags, String name) {
        Matcher flag = Pattern.compile("-XX:" + name + "=([0-9]+)").matcher(flags);
        return flag.find() ? OptionalLong.of(Long.parseLong(flag.group(1))) : OptionalLong.empty();
    }

    /** A pod's JVM's maximum heap, as it reports it, within 3/4 of its pod's memory limit (as admitted), and no restart: said and asserted. */
    protected void assertHeapFits(String pod) {
        OptionalLong max = sizeFlag(cluster.jvmFlags(pod), "MaxHeapSize");
        long limit = cluster.podMemoryLimit(pod);
        int restarts = cluster.restarts(pod);
        say(pod + ": MaxHeapSize " + max.orElse(0) / MIB + "Mi in a pod limited to " + limit / MIB + "Mi; restarts " + restarts);
        assertThat(max).as("a MaxHeapSize reported by the JVM of " + pod).isPresent();
        assertThat(max.getAsLong()).as("the heap of " + pod + " at most 3/4 of its pod's limit " + limit).isLessThanOrEqualTo(limit * 3 / 4);
        assertThat(restarts).as("no restart of " + pod).isZero();
    }

    /** What admission changed in a profile's pods, as its status says it (status.admitted), or {} while it says nothing. */
    protected JsonNode admitted(String profile) {
        JsonNode admitted = cluster.profile(profile).path("status").path("admitted");
        return admitted.isMissingNode() ? JsonNodeFactory.instance.objectNode() : admitted;
    }

    /** A setting of a profile's status.settings, by name (its value, its rationale): the check fails when there is none. */
    protected JsonNode setting(String profile, String name) {
        JsonNode settings = cluster.profile(profile).path("status").path("settings");
        return StreamSupport.stream(settings.spliterator(), false).filter(s -> name.equals(s.path("name").asText())).findFirst()
                .orElseThrow(() -> new AssertionError("no " + name + " in status.settings of tp/" + profile + ": " + settings));
    }

    /** A line of the check's evidence, in the run's log. */
    protected static void say(String line) {
        System.out.println(line);
    }
}
