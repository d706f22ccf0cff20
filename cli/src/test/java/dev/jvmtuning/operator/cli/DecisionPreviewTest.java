package dev.jvmtuning.operator.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jvmtuning.operator.api.v1alpha1.LastOomKill;
import dev.jvmtuning.operator.api.v1alpha1.RollBack;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfileStatus;
import dev.jvmtuning.operator.decision.Decide;
import dev.jvmtuning.operator.decision.StatusBuilder;
import dev.jvmtuning.operator.decision.Write;
import dev.jvmtuning.operator.flags.FlagPolicy;
import dev.jvmtuning.operator.installation.PublishedSettings;
import dev.jvmtuning.operator.model.LabelsAndAnnotations;
import dev.jvmtuning.operator.model.OomKill;
import dev.jvmtuning.operator.model.Reason;
import dev.jvmtuning.operator.planner.OomAnswer;
import dev.jvmtuning.operator.preview.Preview;
import dev.jvmtuning.operator.render.DeploymentTuning;
import dev.jvmtuning.operator.render.Rendering;
import dev.jvmtuning.operator.render.TuningConfigMap;
import dev.jvmtuning.operator.testing.LocalControlPlane;
import dev.jvmtuning.operator.testing.RunningOperator;
import dev.jvmtuning.operator.testing.StartsProcesses;
import dev.jvmtuning.operator.testing.TestProfiles;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code kubectl tp diff} and {@code export} show the operator's own decision on the profile as the cluster holds it. Where it
 * writes nothing (settings rolled back and kept out, OOM kills no budget answers, an older profile owning the Deployment,
 * mode Recommend) diff shows nothing, and export refuses settings the operator keeps out; where it applies them, both show the
 * rendered settings, and export those of a Recommend profile as Apply would write them. No operator runs: each profile's
 * status stands as written here.
 */
@StartsProcesses
class DecisionPreviewTest {
    private static final String USER_FLAGS = "-Dfile.encoding=UTF-8";
    private static final String PLANNED_ENV = "value: " + USER_FLAGS + " -XX:ActiveProcessorCount=2";
    private static final String SPEC = """
            runtime: SpringBootTomcat
            workload: {requestsPerSecond: 400, meanLatency: 300ms, cpuPerRequest: 4ms, dbTimePerRequest: 50ms}
            threads: {}
            connectionPool: {}
            gc: {collector: G1, maxPauseMillis: 100}
            """;
    /** The installation the CLI reads from the published settings: the standard flag policy, no guardrail queries. */
    private static final Decide.Installation INSTALLATION = new Decide.Installation(new Preview.Installation(FlagPolicy.standard(),
            guardrail -> Optional.empty()), PublishedSettings.DEFAULT_AGENT_IMAGE, PublishedSettings.DEFAULT_AGENT_JAR_PATH);

    private static KubernetesClient client;
    private static String namespace;
    private static String[] where;

    @BeforeAll
    static void cluster() {
        LocalControlPlane controlPlane = LocalControlPlane.shared();
        controlPlane.installCrd();
        client = controlPlane.client();
        namespace = controlPlane.newNamespace("tp-decided");
        String operatorNamespace = controlPlane.newNamespace("tp-decided-operator");
        client.configMaps().inNamespace(operatorNamespace).resource(new ConfigMapBuilder().withNewMetadata()
                .withName(PublishedSettings.CONFIG_MAP).endMetadata().withData(new PublishedSettings(List.of(), Map.of(),
                        PublishedSettings.DEFAULT_AGENT_IMAGE, PublishedSettings.DEFAULT_AGENT_JAR_PATH).data()).build()).create();
        where = new String[] {"-n", namespace, "--kubeconfig", controlPlane.kubeconfig().toString(), "--operator-namespace", operatorNamespace};
    }

    @Test
    void settingsRolledBackAndKeptOutShowNoChange() throws IOException {
        Deployment live = deployment("rolled-back");
        TuningProfile profile = profile("rolled-back", "rolled-back", "");
        // As the operator leaves it after taking these settings back: the Deployment on its own template, the settings out
        // for this generation of the profile and this template.
        writeStatus(profile, status -> new StatusBuilder(status, profile.getMetadata().getGeneration(), Instant.now().toString())
                .rolledBack(new RollBack(settingsHash(profile, live), profile.getMetadata().getGeneration(),
                        DeploymentTuning.templateHash(live, "rolled-back"), "pod rolled-back-1 CrashLoopBackOff", Instant.now().toString()), null, null)
                .build());

        assertNoChange("rolled-back", Reason.ROLLED_BACK);
        Path sameSpec = Files.writeString(Files.createTempFile("rolled-back", ".yaml"), manifest("rolled-back", "rolled-back", ""));
        Path edited = Files.writeString(Files.createTempFile("rolled-back", ".yaml"), manifest("rolled-back", "rolled-back",
                "jvmOptions: [\"-XX:+ExitOnOutOfMemoryError\"]\n"));
        assertThat(run("diff", "-f", sameSpec.toString()).out()).as("the file as the cluster holds it: still kept out").isEmpty();
        assertThat(run("diff", "-f", edited.toString()).out()).as("an edit is a new generation, which tries again")
                .contains("+++ planned/deployment/rolled-back", "-XX:+ExitOnOutOfMemoryError");
    }

    @Test
    void oomKillsNoBudgetAnswersShowNoChange() {
        deployment("oom-killed");
        TuningProfile profile = profile("oom-killed", "oom-killed", "");
        LastOomKill fourthInARow = new LastOomKill("oom-killed-1", "abc", 4, Instant.now().toString(), OomKill.Cause.METASPACE.name(),
                "pod oom-killed-1 OOM-killed, cause METASPACE", 2048L << 20, 1488L << 20, 300L << 20, 250L << 20,
                OomAnswer.MAX_ANSWERED_IN_A_ROW + 1);
        writeStatus(profile, status -> status.setObservedGeneration(profile.getMetadata().getGeneration()).setLastOomKill(fourthInARow));

        assertNoChange("oom-killed", Reason.OOM_KILLS_REPEATED);
    }

    @Test
    void aProfileAnOlderOneOverrulesShowsNoChange() {
        deployment("shared");
        // Created first, and first by name too should both come in the same second: the older one tunes the Deployment.
        profile("shared-a-older", "shared", "");
        profile("shared-b-newer", "shared", "");

        assertNoChange("shared-b-newer", Reason.CONFLICT);
    }

    @Test
    void modeRecommendShowsNoChangeWhileExportGivesItsSettings() {
        Verbs verbs = onNewDeployment("recommend", "mode: Recommend\n");
        Tp diff = verbs.diff();
        Tp export = verbs.export();

        assertThat(diff.status()).as(diff.out() + diff.err()).isZero();
        assertThat(diff.out()).isEmpty();
        assertThat(diff.err()).contains(Reason.RECOMMEND_ONLY.text());
        assertThat(export.status()).as("export is how a Recommend profile's settings reach Git: " + export.err()).isZero();
        assertThat(export.out()).contains("- name: JAVA_TOOL_OPTIONS", USER_FLAGS + " -XX:ActiveProcessorCount=2", "SERVER_TOMCAT_THREADS_MAX");
    }

    @Test
    void anApplyProfileShowsTheRenderedEnv() {
        deployment("plain");
        profile("plain", "plain", "");

        Tp diff = run("diff", "plain");

        assertThat(diff.status()).as(diff.err()).isEqualTo(1);
        assertThat(diff.err()).isEmpty();
        assertThat(diff.out()).contains("+++ planned/configmap/plain-jvm-tuning-", "+++ planned/deployment/plain",
                "+    jvmtuning.dev/tuned-by: plain", "-          value: " + USER_FLAGS, "+          " + PLANNED_ENV);
        assertThat(run("export", "plain").out()).contains(USER_FLAGS + " -XX:ActiveProcessorCount=2");
    }

    @Test
    void onceTheOperatorWroteTheSettingsExportGivesTheSameAndDiffNothing() {
        deployment("written");
        profile("written", "written", "");
        Tp before = run("export", "written");
        Planned planned = Planned.of(client.resources(TuningProfile.class).inNamespace(namespace).withName("written").get(), client, namespace,
                INSTALLATION);

        // The decision's writes as the operator makes them: the ConfigMap of values, then its fields of the Deployment.
        for (Write write : planned.decision().writes()) {
            if (write instanceof Write.CreateConfigMap create) {
                client.resource(create.configMap()).inNamespace(namespace).create();
            } else if (write instanceof Write.ApplyDeployment apply) {
                client.resource(apply.desired()).inNamespace(namespace).fieldManager(LabelsAndAnnotations.OPERATOR).forceConflicts().serverSideApply();
            }
        }
        Tp after = run("export", "written");
        Tp diff = run("diff", "written");

        assertThat(planned.decision().writes()).hasAtLeastOneElementOfType(Write.ApplyDeployment.class);
        assertThat(after.status()).as(after.err()).isZero();
        assertThat(after.out()).as("the settings read back from the Deployment and the ConfigMap the operator wrote").isEqualTo(before.out())
                .contains("- name: JAVA_TOOL_OPTIONS", "value: " + USER_FLAGS + " -XX:ActiveProcessorCount=2", "name: SERVER_TOMCAT_THREADS_MAX");
        assertThat(diff.status()).as(diff.out() + diff.err()).isZero();
        assertThat(diff.out()).isEmpty();
        assertThat(diff.err()).isEmpty();
    }

    @Test
    void aProfileTheOperatorRefusesIsAnError() {
        Verbs verbs = onNewDeployment("infeasible", "heap: {size: 4Gi}\n");
        Tp diff = verbs.diff();
        Tp export = verbs.export();

        assertThat(diff.status()).as(diff.out()).isEqualTo(2);
        assertThat(diff.err()).startsWith("kubectl tp diff: " + Reason.INFEASIBLE.text() + ": ");
        assertThat(export.status()).as(export.out()).isEqualTo(1);
        assertThat(export.err()).startsWith("kubectl tp export: " + Reason.INFEASIBLE.text() + ": ");
    }

    /** What diff and export say of one profile. */
    private record Verbs(Tp diff, Tp export) {
    }

    /** diff and export of a profile with this spec added, on a Deployment of its own. */
    private static Verbs onNewDeployment(String name, String more) {
        deployment(name);
        profile(name, name, more);
        return new Verbs(run("diff", name), run("export", name));
    }

    /** diff shows no change and says why on stderr; export refuses to give settings the operator keeps off the Deployment. */
    private static void assertNoChange(String profile, Reason why) {
        Tp diff = run("diff", profile);
        Tp export = run("export", profile);

        assertThat(diff.status()).as(diff.out() + diff.err()).isZero();
        assertThat(diff.out()).isEmpty();
        assertThat(diff.err()).contains(why.text());
        assertThat(export.status()).as(export.out()).isEqualTo(1);
        assertThat(export.out()).isEmpty();
        assertThat(export.err()).startsWith("kubectl tp export: ").contains(why.text());
    }

    private static Tp run(String verb, String... profile) {
        String[] args = new String[1 + profile.length + where.length];
        args[0] = verb;
        System.arraycopy(profile, 0, args, 1, profile.length);
        System.arraycopy(where, 0, args, 1 + profile.length, where.length);
        return Tp.run(args);
    }

    /** A Deployment of one container with limits and a flag of the user's own, as the API server stores it; no pods needed. */
    private static Deployment deployment(String name) {
        return client.resource(new DeploymentBuilder().withNewMetadata().withName(name).endMetadata()
                .withNewSpec().withReplicas(0).withNewSelector().addToMatchLabels("app", name).endSelector()
                .withNewTemplate().withNewMetadata().addToLabels("app", name).endMetadata()
                .withNewSpec().addNewContainer().withName("app").withImage("example/" + name + ":1")
                .addNewEnv().withName("JAVA_TOOL_OPTIONS").withValue(USER_FLAGS).endEnv()
                .withNewResources().addToLimits("cpu", new Quantity("2")).addToLimits("memory", new Quantity("2Gi")).endResources()
                .endContainer().endSpec().endTemplate().endSpec().build()).inNamespace(namespace).create();
    }

    /** A profile no operator of this JVM reconciles, as stored. */
    private static TuningProfile profile(String name, String target, String more) {
        client.resource(manifest(name, target, more)).inNamespace(namespace).create();
        return client.resources(TuningProfile.class).inNamespace(namespace).withName(name).get();
    }

    private static String manifest(String name, String target, String more) {
        return TestProfiles.yaml(name, target, SPEC + more).replace("metadata: {name: " + name + "}",
                "metadata: {name: " + name + ", labels: {" + RunningOperator.OWN_OPERATOR_LABEL + ": none}}");
    }

    private static void writeStatus(TuningProfile profile, UnaryOperator<TuningProfileStatus> status) {
        client.resources(TuningProfile.class).inNamespace(namespace).resource(StatusBuilder.patch(profile, status.apply(new TuningProfileStatus())))
                .patchStatus();
    }

    /** The hash of the settings the operator plans for the profile on this Deployment. */
    private static String settingsHash(TuningProfile profile, Deployment live) {
        Rendering rendering = ((Preview.Rendered) Preview.of(profile, live, Preview.Live.NONE, null, INSTALLATION.preview())).rendering();
        return DeploymentTuning.hash(rendering, TuningConfigMap.name(profile.getMetadata().getName(), rendering));
    }
}
