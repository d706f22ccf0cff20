package dev.jvmtuning.operator.reconciler;

import static dev.jvmtuning.operator.model.LabelsAndAnnotations.ORIGINAL_JVM_OPTIONS_ANNOTATION;
import static dev.jvmtuning.operator.model.LabelsAndAnnotations.ORIGINAL_RESOURCES_ANNOTATION;
import static dev.jvmtuning.operator.model.LabelsAndAnnotations.PROFILE_LABEL;
import static dev.jvmtuning.operator.model.LabelsAndAnnotations.SETTINGS_HASH_ANNOTATION;
import static dev.jvmtuning.operator.model.LabelsAndAnnotations.TUNED_BY_ANNOTATION;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.jvmtuning.operator.api.v1alpha1.MemorySizing;
import dev.jvmtuning.operator.api.v1alpha1.Sizing;
import dev.jvmtuning.operator.api.v1alpha1.SizingPolicy;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import dev.jvmtuning.operator.model.LabelsAndAnnotations;
import dev.jvmtuning.operator.render.TuningConfigMap;
import dev.jvmtuning.operator.testing.FakeKubelet;
import dev.jvmtuning.operator.testing.LocalControlPlane;
import dev.jvmtuning.operator.testing.RunningOperator;
import dev.jvmtuning.operator.testing.StartsProcesses;
import dev.jvmtuning.operator.testing.TestProfiles;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.LimitRangeBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The reconciler against a real kube-apiserver, etcd and kube-controller-manager. */
@StartsProcesses
class TuningProfileReconcilerTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static LocalControlPlane controlPlane;
    private static RunningOperator operator;
    private static KubernetesClient client;
    private String namespace;

    @BeforeAll
    static void startOperator() {
        controlPlane = LocalControlPlane.shared();
        controlPlane.ensureControllerManager();
        operator = RunningOperator.shared();
        client = controlPlane.client();
    }

    @BeforeEach
    void freshNamespace() {
        namespace = controlPlane.newNamespace("tune");
    }

    static Deployment deployment(String name, String cpu, String memory, EnvVar... env) {
        Map<String, String> labels = Map.of("app", name);
        return new DeploymentBuilder()
                .withNewMetadata().withName(name).endMetadata()
                .withNewSpec().withReplicas(2).withNewSelector().withMatchLabels(labels).endSelector()
                .withNewTemplate().withNewMetadata().withLabels(labels).endMetadata()
                .withNewSpec().addNewContainer().withName("app").withImage("example/" + name + ":1").withEnv(env)
                .withNewResources().addToLimits("cpu", new Quantity(cpu)).addToLimits("memory", new Quantity(memory))
                .addToRequests("cpu", new Quantity(cpu)).addToRequests("memory", new Quantity(memory)).endResources()
                .endContainer().endSpec().endTemplate().endSpec()
                .build();
    }

    private void createProfile(String name, String target, String spec) {
        client.resource(TestProfiles.yaml(name, target, spec)).inNamespace(namespace).create();
    }

    private TuningProfile profile(String name) {
        return client.resources(TuningProfile.class).inNamespace(namespace).withName(name).get();
    }

    private Optional<Condition> condition(String profile, String type) {
        TuningProfile p = profile(profile);
        return p == null || p.getStatus() == null ? Optional.empty() : p.getStatus().getConditions().stream().filter(c -> c.getType().equals(type)).findFirst();
    }

    private void awaitCondition(String profile, String type, String status, String reason) {
        await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> assertThat(condition(profile, type))
                .as("%s of %s", type, profile)
                .hasValueSatisfying(c -> {
                    assertThat(c.getStatus()).as("%s: %s", c.getReason(), c.getMessage()).isEqualTo(status);
                    assertThat(c.getReason()).as(c.getMessage()).isEqualTo(reason);
                }));
    }

    private Deployment liveDeployment(String name) {
        return client.apps().deployments().inNamespace(namespace).withName(name).get();
    }

    private static Map<String, EnvVar> env(Deployment deployment) {
        return deployment.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv().stream()
                .collect(java.util.stream.Collectors.toMap(EnvVar::getName, v -> v));
    }

    /** Edits a profile, again when the operator's status write got in between (the edit carries the resourceVersion it read). */
    private void editProfile(String name, java.util.function.UnaryOperator<TuningProfile> edit) {
        await().atMost(TIMEOUT).ignoreException(io.fabric8.kubernetes.client.KubernetesClientException.class)
                .until(() -> client.resources(TuningProfile.class).inNamespace(namespace).withName(name).edit(edit) != null);
    }

    private static String settingsHash(Deployment deployment) {
        Map<String, String> annotations = deployment.getSpec().getTemplate().getMetadata().getAnnotations();
        return annotations == null ? null : annotations.get(SETTINGS_HASH_ANNOTATION);
    }

    private static String podHash(io.fabric8.kubernetes.api.model.Pod pod) {
        return pod.getMetadata().getAnnotations() == null ? null : pod.getMetadata().getAnnotations().get(SETTINGS_HASH_ANNOTATION);
    }

    private List<ConfigMap> profileConfigMaps(String profile) {
        return client.configMaps().inNamespace(namespace).withLabel(PROFILE_LABEL, profile).list().getItems();
    }

    /** The Events about profiles, not those of the Deployment and ReplicaSet controllers. */
    private List<io.fabric8.kubernetes.api.model.Event> profileEvents() {
        return client.v1().events().inNamespace(namespace).list().getItems().stream()
                .filter(e -> e.getInvolvedObject().getKind().equals(TuningProfile.class.getSimpleName())).toList();
    }

    private Deployment awaitRollout(String name) throws InterruptedException {
        return new FakeKubelet(client).awaitRollout(namespace, name, TIMEOUT);
    }

    /** The planner's worked example: 200Mi live, 600Mi of heap, a 1017Mi limit where the template asks 4Gi. */
    private static final String SIZED = "runtime: SpringBootTomcat\nthreads: {max: 80}\nworkload: {liveHeap: 200Mi}\n"
            + "sizing: {memory: {policy: Plan}}";

    @Test
    void recommendSaysTheSizesAndWritesNothing() throws InterruptedException {
        client.resource(deployment("ledger", "2", "4Gi")).inNamespace(namespace).create();
        awaitRollout("ledger");
        String resourceVersion = liveDeployment("ledger").getMetadata().getResourceVersion();

        createProfile("ledger", "ledger", "mode: Recommend\n" + SIZED);
        awaitCondition("ledger", "Ready", "True", "RecommendOnly");

        assertThat(profile("ledger").getStatus().getSettings())
                .anySatisfy(s -> {
                    assertThat(s.getName()).isEqualTo("resources.limits.memory");
                    assertThat(s.getValue()).isEqualTo("1017Mi");
                    assertThat(s.getRule()).isEqualTo("R9c");
                })
                .anySatisfy(s -> assertThat(s.getName() + "=" + s.getValue()).isEqualTo("resources.requests.memory=1017Mi"))
                .anySatisfy(s -> assertThat(s.getName() + "=" + s.getValue()).isEqualTo("heap.size=600Mi"));
        assertThat(liveDeployment("ledger").getMetadata().getResourceVersion()).isEqualTo(resourceVersion);
    }

    @Test
    void applySizesThePodsAndTheUsersResourcesComeBackWhenSizingStopsAndWhenTheProfileGoes() throws InterruptedException {
        client.resource(deployment("orders", "2", "4Gi")).inNamespace(namespace).create();
        awaitRollout("orders");
        PodTemplateSpec before = liveDeployment("orders").getSpec().getTemplate();

        createProfile("orders", "orders", SIZED);
        awaitCondition("orders", "Applied", "True", "Applied");
        await().atMost(TIMEOUT).untilAsserted(() -> assertThat(resources(liveDeployment("orders")).getLimits())
                .containsEntry("memory", new Quantity("1017Mi")).containsEntry("cpu", new Quantity("2")));
        assertThat(resources(liveDeployment("orders")).getRequests()).containsEntry("memory", new Quantity("1017Mi"))
                .containsEntry("cpu", new Quantity("2"));
        assertThat(jvmOptions(liveDeployment("orders"))).contains("-Xmx600m");
        awaitRollout("orders");
        await().atMost(TIMEOUT).untilAsserted(() -> assertThat(runningPods("orders")).isNotEmpty().allSatisfy(pod -> assertThat(
                pod.getSpec().getContainers().get(0).getResources().getLimits()).containsEntry("memory", new Quantity("1017Mi"))));

        // Sizing off while the profile stays: the template's own 4Gi comes back through the operator's apply, and the heap
        // is planned in it again.
        editProfile("orders", p -> {
            p.getSpec().setSizing(new Sizing());
            return p;
        });
        await().atMost(TIMEOUT).untilAsserted(() -> {
            assertThat(resources(liveDeployment("orders"))).isEqualTo(before.getSpec().getContainers().get(0).getResources());
            assertThat(jvmOptions(liveDeployment("orders"))).doesNotContain("-Xmx600m");
        });

        editProfile("orders", p -> {
            p.getSpec().getSizing().setMemory(new MemorySizing().setPolicy(SizingPolicy.Plan));
            return p;
        });
        await().atMost(TIMEOUT).untilAsserted(() -> assertThat(resources(liveDeployment("orders")).getLimits())
                .containsEntry("memory", new Quantity("1017Mi")));
        client.resources(TuningProfile.class).inNamespace(namespace).withName("orders").delete();
        await().atMost(TIMEOUT).untilAsserted(() -> assertThat(profile("orders")).isNull());

        Deployment after = liveDeployment("orders");
        assertThat(after.getSpec().getTemplate()).isEqualTo(before);
        assertThat(after.getMetadata().getAnnotations()).doesNotContainKeys(TUNED_BY_ANNOTATION, ORIGINAL_RESOURCES_ANNOTATION);
    }

    private List<io.fabric8.kubernetes.api.model.Pod> runningPods(String app) {
        return client.pods().inNamespace(namespace).withLabel("app", app).list().getItems().stream()
                .filter(p -> p.getMetadata().getDeletionTimestamp() == null).toList();
    }

    private static ResourceRequirements resources(Deployment deployment) {
        return deployment.getSpec().getTemplate().getSpec().getContainers().get(0).getResources();
    }

    private static String jvmOptions(Deployment deployment) {
        EnvVar variable = env(deployment).get("JAVA_TOOL_OPTIONS");
        return variable == null ? "" : variable.getValue();
    }

    @Test
    void applyRendersTheSettingsRollsThePodsAndReportsReady() throws Exception {
        client.resource(deployment("orders", "2", "2Gi")).inNamespace(namespace).create();
        createProfile("orders", "orders", """
                runtime: SpringBootTomcat
                workload: {requestsPerSecond: 400, meanLatency: 300ms, cpuPerRequest: 4ms}
                gc: {collector: G1}
                """);

        awaitCondition("orders", "Applied", "True", "Applied");
        Deployment tuned = liveDeployment("orders");
        Map<String, EnvVar> env = env(tuned);
        assertThat(env.get("JAVA_TOOL_OPTIONS").getValue()).contains("-XX:ActiveProcessorCount=2", "-XX:+UseG1GC", "-Xmx");
        String configMap = env.get("SERVER_TOMCAT_THREADS_MAX").getValueFrom().getConfigMapKeyRef().getName();
        assertThat(configMap).startsWith("orders-jvm-tuning-");
        assertThat(client.configMaps().inNamespace(namespace).withName(configMap).get()).satisfies(values -> {
            assertThat(values.getData()).containsEntry("SERVER_TOMCAT_THREADS_MAX", "150");
            assertThat(values.getImmutable()).isTrue();
        });
        assertThat(tuned.getSpec().getTemplate().getMetadata().getAnnotations()).containsKey(SETTINGS_HASH_ANNOTATION);
        assertThat(tuned.getMetadata().getManagedFields()).anyMatch(f -> f.getManager().equals("jvm-tuning-operator") && f.getOperation().equals("Apply"));

        awaitRollout("orders");
        awaitCondition("orders", "Ready", "True", "Ready");
        awaitCondition("orders", "RolloutComplete", "True", "RolloutComplete");
        assertThat(profile("orders").getStatus().getSettings()).anySatisfy(s -> {
            assertThat(s.getName()).isEqualTo("threads.max");
            assertThat(s.getValue()).isEqualTo("150");
            assertThat(s.getRenderedAs()).isEqualTo("SERVER_TOMCAT_THREADS_MAX");
            assertThat(s.getRule()).isEqualTo("R1");
        });
        assertThat(profileEvents()).as("an ordinary apply is told by status alone").isEmpty();

        Process wait = new ProcessBuilder(kubectl(), "--kubeconfig", operator.kubeconfig().toString(), "-n", namespace,
                "wait", "--for=condition=Ready", "tp/orders", "--timeout=30s").redirectErrorStream(true).start();
        assertThat(wait.waitFor(40, TimeUnit.SECONDS)).isTrue();
        assertThat(new String(wait.getInputStream().readAllBytes())).contains("condition met");
        assertThat(wait.exitValue()).isZero();
    }

    @Test
    void anUnexpectedErrorInAReconcileIsSaidInStatusAndAnEventUntilAReconcileGetsThrough() {
        client.resource(deployment("failing", "2", "2Gi")).inNamespace(namespace).create();
        createProfile("failing", "failing", "runtime: Quarkus\nthreads: {max: 64}");
        awaitCondition("failing", "Applied", "True", "Applied");

        operator.failReconciles(namespace, "failing", new IllegalStateException("injected: the plan could not be read"));
        try {
            editProfile("failing", p -> {
                p.getSpec().getThreads().setMax(65);
                return p;
            });
            awaitCondition("failing", "Ready", "False", "ReconcileFailed");
            assertThat(condition("failing", "Ready").orElseThrow().getMessage())
                    .isEqualTo("reconcile failed: IllegalStateException: injected: the plan could not be read");
            assertThat(condition("failing", "Applied")).as("what the last reconcile that got through wrote stays")
                    .hasValueSatisfying(c -> assertThat(c.getStatus()).isEqualTo("True"));
            await().atMost(TIMEOUT).untilAsserted(() -> assertThat(profileEvents())
                    .anySatisfy(e -> {
                        assertThat(e.getType()).isEqualTo("Warning");
                        assertThat(e.getReason()).isEqualTo("ReconcileFailed");
                        assertThat(e.getMessage()).contains("injected: the plan could not be read");
                    }));
        } finally {
            operator.stopFailing(namespace, "failing");
        }

        // The framework's retry gets through: the edit is planned and Ready says where the profile stands again.
        await().atMost(TIMEOUT).untilAsserted(() -> {
            assertThat(condition("failing", "Ready")).hasValueSatisfying(c -> assertThat(c.getReason()).isNotEqualTo("ReconcileFailed"));
            assertThat(profile("failing").getStatus().getSettings()).anySatisfy(setting -> {
                assertThat(setting.getName()).isEqualTo("threads.max");
                assertThat(setting.getValue()).isEqualTo("65");
            });
        });
    }

    @Test
    void deletingTheProfileRestoresThePodTemplateFieldForField() throws Exception {
        client.resource(deployment("billing", "2", "2Gi", new EnvVar("JAVA_TOOL_OPTIONS", "-Dfile.encoding=UTF-8 -Duser.timezone=UTC", null)))
                .inNamespace(namespace).create();
        awaitRollout("billing");
        PodTemplateSpec before = liveDeployment("billing").getSpec().getTemplate();

        createProfile("billing", "billing", "runtime: Quarkus\nthreads: {max: 64}");
        awaitCondition("billing", "Applied", "True", "Applied");
        assertThat(env(liveDeployment("billing")).get("JAVA_TOOL_OPTIONS").getValue())
                .startsWith("-Dfile.encoding=UTF-8 -Duser.timezone=UTC -XX:ActiveProcessorCount=2");
        assertThat(liveDeployment("billing").getSpec().getTemplate()).isNotEqualTo(before);

        client.resources(TuningProfile.class).inNamespace(namespace).withName("billing").delete();
        await().atMost(TIMEOUT).untilAsserted(() -> assertThat(profile("billing")).isNull());

        Deployment after = liveDeployment("billing");
        assertThat(after.getSpec().getTemplate()).isEqualTo(before);
        assertThat(after.getMetadata().getAnnotations()).doesNotContainKeys(TUNED_BY_ANNOTATION, ORIGINAL_JVM_OPTIONS_ANNOTATION);
        assertThat(profileConfigMaps("billing")).isEmpty();
    }

    @Test
    void deletingTheProfileTakesBackTheBoostItsPodRuns() throws Exception {
        client.resource(deployment("boosted", "500m", "1Gi")).inNamespace(namespace).create();
        createProfile("boosted", "boosted", "runtime: Quarkus\nstartupBoost: {cpu: '2', warmUp: 10m}");
        awaitCondition("boosted", "Applied", "True", "Applied");
        String hash = settingsHash(awaitRollout("boosted"));
        String pod = client.pods().inNamespace(namespace).list().getItems().stream().filter(p -> hash.equals(podHash(p))
                && p.getMetadata().getDeletionTimestamp() == null).findFirst().orElseThrow().getMetadata().getName();
        // This control plane has no scheduler or kubelet: the pod is placed on a node and reported starting here.
        new FakeKubelet(client).starting(namespace, pod);
        awaitCondition("boosted", "StartupBoost", "True", "Boosting");
        assertThat(profile("boosted").getStatus().getStartupBoosts()).singleElement().satisfies(b -> {
            assertThat(b.getPod()).isEqualTo(pod);
            assertThat(b.getFrom()).isEqualTo("500m");
            assertThat(b.getTo()).isEqualTo("2");
        });
        assertThat(client.pods().inNamespace(namespace).withName(pod).get().getSpec().getContainers().get(0).getResources().getLimits()
                .get("cpu")).isEqualTo(new Quantity("2"));

        client.resources(TuningProfile.class).inNamespace(namespace).withName("boosted").delete();
        await().atMost(TIMEOUT).untilAsserted(() -> assertThat(profile("boosted")).isNull());

        assertThat(profileEvents()).anySatisfy(e -> {
            assertThat(e.getReason()).isEqualTo("StartupBoostEnded");
            assertThat(e.getMessage()).isEqualTo("pod " + pod + " back to its own CPU limit 500m from 2: the profile was deleted");
        });
    }

    @Test
    void anInjectedAgentComesWithTheProfileAndGoesWithIt() throws Exception {
        client.resource(deployment("agent", "1", "1Gi")).inNamespace(namespace).create();
        awaitRollout("agent");
        PodTemplateSpec before = liveDeployment("agent").getSpec().getTemplate();

        createProfile("agent", "agent", "runtime: SpringBootTomcat\nthreads: {max: 20}\nmetrics: {injectAgent: true}");
        awaitCondition("agent", "Applied", "True", "Applied");

        var pod = liveDeployment("agent").getSpec().getTemplate().getSpec();
        assertThat(pod.getInitContainers()).singleElement().satisfies(init -> {
            assertThat(init.getName()).isEqualTo("jvm-tuning-agent");
            assertThat(init.getImage()).isEqualTo("example/jvm-tuning-agent:test");
            assertThat(init.getCommand()).containsExactly("cp", "/jvm-tuning-agent.jar", "/jvm-tuning-agent/jvm-tuning-agent.jar");
            assertThat(init.getSecurityContext().getAllowPrivilegeEscalation()).isFalse();
        });
        assertThat(pod.getVolumes()).anyMatch(v -> v.getName().equals("jvm-tuning-agent") && v.getEmptyDir() != null);
        assertThat(pod.getContainers().get(0).getVolumeMounts())
                .anyMatch(m -> m.getMountPath().equals("/jvm-tuning-agent") && Boolean.TRUE.equals(m.getReadOnly()));
        assertThat(env(liveDeployment("agent")).get("JAVA_TOOL_OPTIONS").getValue())
                .contains("-javaagent:/jvm-tuning-agent/jvm-tuning-agent.jar=port=9404,host=0.0.0.0");

        client.resources(TuningProfile.class).inNamespace(namespace).withName("agent").delete();
        await().atMost(TIMEOUT).until(() -> profile("agent") == null);
        assertThat(liveDeployment("agent").getSpec().getTemplate()).isEqualTo(before);
    }

    @Test
    void recommendInfeasibleAndInvalidLeaveTheDeploymentUntouched() throws InterruptedException {
        client.resource(deployment("ledger", "2", "2Gi")).inNamespace(namespace).create();
        awaitRollout("ledger");
        String resourceVersion = liveDeployment("ledger").getMetadata().getResourceVersion();

        createProfile("recommend", "ledger", "mode: Recommend\nthreads: {max: 100}\nruntime: SpringBootJetty");
        awaitCondition("recommend", "Ready", "True", "RecommendOnly");
        assertThat(profile("recommend").getStatus().getSettings()).anyMatch(s -> s.getName().equals("threads.max") && s.getValue().equals("100"));
        client.resources(TuningProfile.class).inNamespace(namespace).withName("recommend").delete();
        await().atMost(TIMEOUT).until(() -> profile("recommend") == null);

        createProfile("infeasible", "ledger", "heap: {size: 2Gi}");
        awaitCondition("infeasible", "Applied", "False", "Infeasible");
        assertThat(condition("infeasible", "Applied").orElseThrow().getMessage()).contains("exceeds the 2048Mi memory limit");
        client.resources(TuningProfile.class).inNamespace(namespace).withName("infeasible").delete();
        await().atMost(TIMEOUT).until(() -> profile("infeasible") == null);

        createProfile("invalid", "ledger", "container: sidecar");
        awaitCondition("invalid", "Applied", "False", "Invalid");
        assertThat(condition("invalid", "Applied").orElseThrow().getMessage()).contains("has no container named sidecar");

        assertThat(liveDeployment("ledger").getMetadata().getResourceVersion()).isEqualTo(resourceVersion);
        assertThat(operator.writes(namespace, "deployments")).isZero();
        assertThat(client.v1().events().inNamespace(namespace).list().getItems())
                .anyMatch(e -> e.getReason().equals("Infeasible") && e.getType().equals("Warning"))
                .anyMatch(e -> e.getReason().equals("Invalid") && e.getType().equals("Warning"));
    }

    @Test
    void unchangedReconcilesWriteNothing() throws Exception {
        client.resource(deployment("search", "2", "2Gi")).inNamespace(namespace).create();
        createProfile("search", "search", "runtime: SpringBootTomcat\nthreads: {max: 120}\nqueue: {acceptCount: 300}");
        // The tuned template first: a rollout awaited before it would be the untuned one, and the tuned one would then hang half done.
        awaitCondition("search", "Applied", "True", "Applied");
        awaitRollout("search");
        awaitCondition("search", "Ready", "True", "Ready");
        int deploymentWrites = operator.writes(namespace, "deployments");
        int configMapWrites = operator.writes(namespace, "configmaps");
        String resourceVersion = liveDeployment("search").getMetadata().getResourceVersion();

        // several resync periods: every one reconciles, none may write
        operator.awaitReconciles(namespace, "search", Integer.getInteger("idempotence.reconciles", 5));

        assertThat(operator.writes(namespace, "deployments")).as("Deployment writes after Ready").isEqualTo(deploymentWrites);
        assertThat(operator.writes(namespace, "configmaps")).as("ConfigMap writes after Ready").isEqualTo(configMapWrites);
        assertThat(deploymentWrites).isEqualTo(1);
        assertThat(configMapWrites).isEqualTo(1);
        assertThat(liveDeployment("search").getMetadata().getResourceVersion()).isEqualTo(resourceVersion);
    }

    @Test
    void aFirstApplyCostsOneWriteOfEachKindNoEventAndAnIdleResyncWritesNothing() throws Exception {
        client.resource(deployment("quiet", "2", "2Gi")).inNamespace(namespace).create();
        // Nothing listens on port 1: every poll fails the same way, so after the first one metrics change nothing.
        createProfile("quiet", "quiet", "runtime: SpringBootTomcat\nthreads: {max: 60}\nmetrics: {port: 1, interval: 5s}");
        awaitCondition("quiet", "Applied", "True", "Applied");

        assertThat(operator.writes(namespace, "tuningprofiles")).as("the finalizer").isEqualTo(1);
        assertThat(operator.writes(namespace, "configmaps")).isEqualTo(1);
        assertThat(operator.writes(namespace, "deployments")).isEqualTo(1);
        // The Deployment controller may already have moved the rollout on, and a reconcile said so: one write each at most.
        assertThat(operator.writes(namespace, "tuningprofiles/status")).as("status writes up to the first apply")
                .isBetween(1, operator.reconciles(namespace, "quiet"));
        assertThat(operator.writes(namespace, "events")).as("an ordinary first apply raises no Event").isZero();

        awaitRollout("quiet");
        awaitCondition("quiet", "Ready", "True", "Ready");
        awaitCondition("quiet", "MetricsAvailable", "False", "ScrapeFailed");
        operator.awaitReconciles(namespace, "quiet", 2);
        assertThat(operator.writes(namespace, "tuningprofiles/status")).as("at most one status write per reconcile")
                .isLessThanOrEqualTo(operator.reconciles(namespace, "quiet"));
        int writes = operator.writes(namespace);
        String resourceVersion = profile("quiet").getMetadata().getResourceVersion();

        // Resyncs and polls that find what status already says: not one request that writes.
        operator.awaitReconciles(namespace, "quiet", 4);
        assertThat(operator.writes(namespace)).as("writes of idle resyncs").isEqualTo(writes);
        assertThat(profile("quiet").getMetadata().getResourceVersion()).isEqualTo(resourceVersion);
        assertThat(profileEvents()).extracting(e -> e.getReason()).as("the only Event: the scrape failing").containsExactly("ScrapeFailed");
    }

    @Test
    void aTargetCreatedLateIsPickedUpAndADeletedOneReported() throws Exception {
        createProfile("late", "late", "threads: {max: 10}\nruntime: Quarkus");
        awaitCondition("late", "Applied", "False", "TargetNotFound");

        client.resource(deployment("late", "1", "1Gi")).inNamespace(namespace).create();
        awaitCondition("late", "Applied", "True", "Applied");
        assertThat(env(liveDeployment("late"))).containsKey("QUARKUS_THREAD_POOL_MAX_THREADS");

        client.apps().deployments().inNamespace(namespace).withName("late").withPropagationPolicy(io.fabric8.kubernetes.api.model.DeletionPropagation.BACKGROUND).delete();
        awaitCondition("late", "Applied", "False", "TargetNotFound");
        awaitCondition("late", "Ready", "False", "TargetNotFound");
    }

    @Test
    void changedResourcesArePlannedAgain() {
        client.resource(deployment("resize", "2", "2Gi")).inNamespace(namespace).create();
        createProfile("resize", "resize", "runtime: SpringBootTomcat");
        awaitCondition("resize", "Applied", "True", "Applied");
        String heapBefore = setting("resize", "heap.size");

        // Again when the Deployment controller's status write got in between (the edit carries the resourceVersion it read).
        await().atMost(TIMEOUT).ignoreException(io.fabric8.kubernetes.client.KubernetesClientException.class)
                .until(() -> client.apps().deployments().inNamespace(namespace).withName("resize").edit(d -> {
                    var resources = d.getSpec().getTemplate().getSpec().getContainers().get(0).getResources();
                    resources.getLimits().put("memory", new Quantity("4Gi"));
                    resources.getRequests().put("memory", new Quantity("4Gi"));
                    return d;
                }) != null);

        await().atMost(TIMEOUT).untilAsserted(() -> assertThat(setting("resize", "heap.size")).isNotEqualTo(heapBefore));
        await().atMost(TIMEOUT).untilAsserted(() -> assertThat(env(liveDeployment("resize")).get("JAVA_TOOL_OPTIONS").getValue())
                .contains("-Xmx" + setting("resize", "heap.size").replace("Mi", "m")));
    }

    @Test
    void aLimitRangesDefaultIsPlannedForAsThePodsGetItAndTheOperatorsOwnRolloutKeepsIt() {
        client.resource(new LimitRangeBuilder().withNewMetadata().withName("defaults").endMetadata().withNewSpec().addNewLimit()
                .withType("Container").addToDefault("memory", new Quantity("1Gi")).addToDefaultRequest("memory", new Quantity("1Gi"))
                .endLimit().endSpec().build()).inNamespace(namespace).create();
        Deployment defaulted = deployment("defaulted", "2", "1Gi");
        defaulted.getSpec().getTemplate().getSpec().getContainers().get(0).getResources().getLimits().remove("memory");
        defaulted.getSpec().getTemplate().getSpec().getContainers().get(0).getResources().getRequests().remove("memory");
        client.resource(defaulted).inNamespace(namespace).create();
        client.resource(deployment("declared", "2", "1Gi")).inNamespace(namespace).create();
        createProfile("defaulted", "defaulted", "runtime: SpringBootTomcat");
        createProfile("declared", "declared", "runtime: SpringBootTomcat");

        // Its pods roll from the untuned ReplicaSet to the tuned one and never become ready: the plan is for their 1Gi throughout.
        awaitCondition("defaulted", "Applied", "True", "Applied");
        awaitCondition("declared", "Applied", "True", "Applied");
        await().atMost(TIMEOUT).untilAsserted(() -> assertThat(client.apps().replicaSets().inNamespace(namespace).withLabel("app", "defaulted")
                .list().getItems()).hasSize(2));
        await().atMost(TIMEOUT).ignoreExceptions().untilAsserted(() -> assertThat(setting("defaulted", "heap.size"))
                .isEqualTo(setting("declared", "heap.size")));
        int writes = operator.writes(namespace, "deployments");
        operator.awaitReconciles(namespace, "defaulted", 3);
        assertThat(setting("defaulted", "heap.size")).isEqualTo(setting("declared", "heap.size"));
        assertThat(env(liveDeployment("defaulted")).get("JAVA_TOOL_OPTIONS").getValue())
                .contains("-Xmx" + setting("declared", "heap.size").replace("Mi", "m"));
        assertThat(operator.writes(namespace, "deployments")).as("the plan went back to the template, which has no limit").isEqualTo(writes);
    }

    @Test
    void anotherManagerReApplyingTheDeploymentKeepsTheOperatorsFieldsAndNobodyFights() throws Exception {
        Deployment manifest = deployment("gitops", "2", "2Gi");
        client.resource(manifest).inNamespace(namespace).fieldManager("argocd-controller").serverSideApply();
        createProfile("gitops", "gitops", "runtime: SpringBootTomcat\nthreads: {max: 80}");
        awaitCondition("gitops", "Applied", "True", "Applied");
        int writesBefore = operator.writes(namespace, "deployments");

        Deployment reapplied = deployment("gitops", "2", "2Gi");
        reapplied.getSpec().setReplicas(3);
        client.resource(reapplied).inNamespace(namespace).fieldManager("argocd-controller").serverSideApply();

        await().atMost(TIMEOUT).untilAsserted(() -> assertThat(liveDeployment("gitops").getSpec().getReplicas()).isEqualTo(3));
        operator.awaitReconciles(namespace, "gitops", 3);
        Deployment live = liveDeployment("gitops");
        assertThat(env(live)).containsKeys("JAVA_TOOL_OPTIONS", "SERVER_TOMCAT_THREADS_MAX");
        assertThat(live.getSpec().getTemplate().getMetadata().getAnnotations()).containsKey(SETTINGS_HASH_ANNOTATION);
        assertThat(operator.writes(namespace, "deployments")).as("the operator re-wrote fields it still owned").isEqualTo(writesBefore);
    }

    @Test
    void aSecondProfileOnTheSameDeploymentGetsConflictAndWritesNothing() throws InterruptedException {
        client.resource(deployment("shared", "2", "2Gi")).inNamespace(namespace).create();
        createProfile("first", "shared", "threads: {max: 50}\nruntime: SpringBootJetty");
        awaitCondition("first", "Applied", "True", "Applied");
        awaitRollout("shared");
        awaitCondition("first", "Ready", "True", "Ready");
        String resourceVersion = liveDeployment("shared").getMetadata().getResourceVersion();

        createProfile("second", "shared", "threads: {max: 500}\nruntime: SpringBootJetty");
        awaitCondition("second", "Applied", "False", "Conflict");

        assertThat(condition("second", "Applied").orElseThrow().getMessage()).contains("already tuned by TuningProfile first");
        assertThat(liveDeployment("shared").getMetadata().getResourceVersion()).isEqualTo(resourceVersion);
        assertThat(profileConfigMaps("second")).isEmpty();
    }

    @Test
    void anEditThatNoLongerFitsTheContainerRestoresTheUsersTemplateInsteadOfKeepingStaleFlags() throws InterruptedException {
        client.resource(deployment("shrink", "2", "2Gi", new EnvVar("JAVA_TOOL_OPTIONS", "-Dfile.encoding=UTF-8", null)))
                .inNamespace(namespace).create();
        awaitRollout("shrink");
        PodTemplateSpec before = liveDeployment("shrink").getSpec().getTemplate();
        createProfile("shrink", "shrink", "runtime: SpringBootTomcat\nheap: {size: 1Gi}");
        awaitCondition("shrink", "Applied", "True", "Applied");

        editProfile("shrink", p -> { p.getSpec().getHeap().setSize("4Gi"); return p; });

        awaitCondition("shrink", "Applied", "False", "Infeasible");
        await().atMost(TIMEOUT).untilAsserted(() -> assertThat(liveDeployment("shrink").getSpec().getTemplate()).isEqualTo(before));
        assertThat(liveDeployment("shrink").getMetadata().getAnnotations()).doesNotContainKey(TUNED_BY_ANNOTATION);
    }

    @Test
    void aChangeRollsOutWithItsOwnConfigMapAndTheOldOneGoesOnceNoReplicaSetReadsIt() throws InterruptedException {
        Deployment noHistory = deployment("revisions", "2", "2Gi");
        noHistory.getSpec().setRevisionHistoryLimit(0);
        client.resource(noHistory).inNamespace(namespace).create();
        createProfile("revisions", "revisions", "runtime: SpringBootTomcat\nthreads: {max: 40}");
        awaitCondition("revisions", "Applied", "True", "Applied");
        awaitRollout("revisions");
        String first = env(liveDeployment("revisions")).get("SERVER_TOMCAT_THREADS_MAX").getValueFrom().getConfigMapKeyRef().getName();

        editProfile("revisions", p -> { p.getSpec().getThreads().setMax(80); return p; });
        await().atMost(TIMEOUT).until(() -> !first.equals(env(liveDeployment("revisions")).get("SERVER_TOMCAT_THREADS_MAX")
                .getValueFrom().getConfigMapKeyRef().getName()));
        String second = env(liveDeployment("revisions")).get("SERVER_TOMCAT_THREADS_MAX").getValueFrom().getConfigMapKeyRef().getName();
        assertThat(client.configMaps().inNamespace(namespace).withName(second).get().getData()).containsEntry("SERVER_TOMCAT_THREADS_MAX", "80");
        assertThat(client.configMaps().inNamespace(namespace).withName(first).get().getData())
                .as("the old values stay while the old ReplicaSet may still start pods").containsEntry("SERVER_TOMCAT_THREADS_MAX", "40");

        awaitRollout("revisions");
        await().atMost(TIMEOUT).untilAsserted(() -> assertThat(profileConfigMaps("revisions"))
                .extracting(c -> c.getMetadata().getName()).containsExactly(second));
    }

    @Test
    void aHandDeletedConfigMapIsWrittenAgainAndPodsNeverDependOnIt() {
        client.resource(deployment("handmade", "1", "1Gi")).inNamespace(namespace).create();
        createProfile("handmade", "handmade", "runtime: SpringBootTomcat\nthreads: {max: 30}");
        awaitCondition("handmade", "Applied", "True", "Applied");
        var ref = env(liveDeployment("handmade")).get("SERVER_TOMCAT_THREADS_MAX").getValueFrom().getConfigMapKeyRef();
        assertThat(ref.getOptional()).as("a pod starts even while the ConfigMap is missing").isTrue();

        client.configMaps().inNamespace(namespace).withName(ref.getName()).delete();

        await().atMost(TIMEOUT).untilAsserted(() -> assertThat(client.configMaps().inNamespace(namespace).withName(ref.getName()).get())
                .isNotNull().extracting(c -> c.getData().get("SERVER_TOMCAT_THREADS_MAX")).isEqualTo("30"));
    }

    @Test
    void aProfileNameOfTheLongestLegalLengthWorks() {
        String name = "long-" + "n".repeat(248);
        client.resource(deployment("longname", "1", "1Gi")).inNamespace(namespace).create();
        createProfile(name, "longname", "runtime: SpringBootTomcat\nthreads: {max: 30}\nheap: {size: 4Gi}");
        awaitCondition(name, "Applied", "False", "Infeasible");
        assertThat(client.v1().events().inNamespace(namespace).list().getItems())
                .anyMatch(e -> e.getReason().equals("Infeasible") && e.getInvolvedObject().getName().equals(name));

        editProfile(name, p -> { p.getSpec().setHeap(null); return p; });
        awaitCondition(name, "Applied", "True", "Applied");
        assertThat(profileConfigMaps(TuningConfigMap.profileLabel(name))).singleElement()
                .satisfies(c -> assertThat(c.getMetadata().getName()).hasSizeLessThanOrEqualTo(253));
    }

    @Test
    void aWriteTheApiServerRefusesIsReportedNotSwallowed() {
        String policy = "freeze-" + namespace;
        client.resource("""
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingAdmissionPolicy
                metadata: {name: %s}
                spec:
                  failurePolicy: Fail
                  matchConstraints:
                    resourceRules:
                    - {apiGroups: [apps], apiVersions: [v1], operations: [UPDATE], resources: [deployments]}
                  validations:
                  - expression: "!has(object.metadata.annotations) || !('jvmtuning.dev/tuned-by' in object.metadata.annotations)"
                    message: tuning is frozen in this namespace
                """.formatted(policy)).create();
        client.resource("""
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingAdmissionPolicyBinding
                metadata: {name: %s}
                spec:
                  policyName: %s
                  validationActions: [Deny]
                  matchResources:
                    namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: %s}}
                """.formatted(policy, policy, namespace)).create();
        try {
            client.resource(deployment("frozen", "1", "1Gi")).inNamespace(namespace).create();
            // The policy takes effect a moment after it is created: wait until it refuses a write of the kind the operator makes.
            await().atMost(TIMEOUT).until(() -> {
                try {
                    client.apps().deployments().inNamespace(namespace).withName("frozen")
                            .edit(d -> { d.getMetadata().getAnnotations().put(TUNED_BY_ANNOTATION, "probe"); return d; });
                    client.apps().deployments().inNamespace(namespace).withName("frozen")
                            .edit(d -> { d.getMetadata().getAnnotations().remove(TUNED_BY_ANNOTATION); return d; });
                    return false;
                } catch (io.fabric8.kubernetes.client.KubernetesClientException refused) {
                    // A conflict with the Deployment controller is not the policy speaking: try again.
                    return refused.getMessage().contains("tuning is frozen");
                }
            });
            createProfile("frozen", "frozen", "runtime: SpringBootTomcat\nthreads: {max: 20}");

            awaitCondition("frozen", "Applied", "False", "ApplyFailed");
            assertThat(condition("frozen", "Ready").orElseThrow().getMessage()).contains("tuning is frozen in this namespace");
            assertThat(client.v1().events().inNamespace(namespace).list().getItems())
                    .anyMatch(e -> e.getReason().equals("ApplyFailed") && e.getType().equals("Warning"));
        } finally {
            client.resource("apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicyBinding\nmetadata: {name: " + policy + "}")
                    .delete();
            client.resource("apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\nmetadata: {name: " + policy + "}")
                    .delete();
        }
    }

    @Test
    void aConfigMapTheOperatorDoesNotOwnIsNeverDeleted() {
        client.resource(new io.fabric8.kubernetes.api.model.ConfigMapBuilder().withNewMetadata().withName("mine-jvm-tuning")
                .addToLabels(PROFILE_LABEL, "mine").endMetadata().addToData("team", "payments").build())
                .inNamespace(namespace).create();
        client.resource(deployment("mine", "1", "1Gi")).inNamespace(namespace).create();
        createProfile("mine", "mine", "runtime: SpringBootTomcat\nthreads: {max: 10}");
        awaitCondition("mine", "Applied", "True", "Applied");

        client.resources(TuningProfile.class).inNamespace(namespace).withName("mine").delete();
        await().atMost(TIMEOUT).until(() -> profile("mine") == null);

        assertThat(client.configMaps().inNamespace(namespace).withName("mine-jvm-tuning").get().getData()).containsEntry("team", "payments");
        assertThat(profileConfigMaps("mine")).extracting(c -> c.getMetadata().getName()).containsExactly("mine-jvm-tuning");
    }

    @Test
    void podsThatFailWithNewSettingsGoBackToTheLastHealthyOnesWhichAreNotRetried() throws InterruptedException {
        client.resource(deployment("crash", "2", "2Gi")).inNamespace(namespace).create();
        createProfile("crash", "crash", "runtime: SpringBootTomcat\nthreads: {max: 40}");
        awaitCondition("crash", "Applied", "True", "Applied");
        awaitRollout("crash");
        awaitCondition("crash", "Ready", "True", "Ready");
        await().atMost(TIMEOUT).until(() -> profile("crash").getStatus().getLastHealthy() != null);
        String healthy = settingsHash(liveDeployment("crash"));
        String healthyFlags = env(liveDeployment("crash")).get("JAVA_TOOL_OPTIONS").getValue();

        editProfile("crash", p -> { p.getSpec().getThreads().setMax(80); return p; });
        await().atMost(TIMEOUT).until(() -> !healthy.equals(settingsHash(liveDeployment("crash"))));
        String failing = settingsHash(liveDeployment("crash"));
        // The kubelet's part: the new pods' JVM refuses to start.
        await().atMost(TIMEOUT).until(() -> new FakeKubelet(client).failContainers(namespace, p -> failing.equals(podHash(p)),
                "CrashLoopBackOff", "Error", "Unrecognized VM option 'UseNoSuchThing'\nError: Could not create the Java Virtual Machine.") > 0);

        awaitCondition("crash", "Applied", "False", "RolledBack");
        assertThat(condition("crash", "Applied").orElseThrow().getMessage())
                .contains("CrashLoopBackOff", "Unrecognized VM option 'UseNoSuchThing'", "the last healthy settings " + healthy);
        assertThat(settingsHash(liveDeployment("crash"))).isEqualTo(healthy);
        assertThat(env(liveDeployment("crash")).get("JAVA_TOOL_OPTIONS").getValue()).isEqualTo(healthyFlags);
        assertThat(profile("crash").getStatus().getRolledBack().getSettingsHash()).isEqualTo(failing);
        assertThat(client.v1().events().inNamespace(namespace).list().getItems())
                .anyMatch(e -> e.getReason().equals("RolledBack") && e.getType().equals("Warning"));

        awaitRollout("crash");
        operator.awaitReconciles(namespace, "crash", 3);
        assertThat(settingsHash(liveDeployment("crash"))).as("the failed settings are not tried again").isEqualTo(healthy);
    }

    @ParameterizedTest(name = "{0} after {1}")
    @CsvSource({"CrashLoopBackOff, OOMKilled, ''", "CreateContainerConfigError, , couldn't find key SERVER_TOMCAT_THREADS_MAX"})
    void podsThatFailWithTheFirstSettingsGetTheUsersOwnTemplateBack(String waiting, String lastReason, String message)
            throws InterruptedException {
        String name = waiting.toLowerCase();
        client.resource(deployment(name, "1", "1Gi", new EnvVar("JAVA_TOOL_OPTIONS", "-Dfile.encoding=UTF-8", null)))
                .inNamespace(namespace).create();
        awaitRollout(name);
        PodTemplateSpec before = liveDeployment(name).getSpec().getTemplate();
        createProfile(name, name, "runtime: SpringBootTomcat\nheap: {size: 300Mi}");
        awaitCondition(name, "Applied", "True", "Applied");
        String failing = settingsHash(liveDeployment(name));

        await().atMost(TIMEOUT).until(() -> new FakeKubelet(client).failContainers(namespace, p -> failing.equals(podHash(p)),
                waiting, lastReason, message) > 0);
        long failed = System.nanoTime();

        awaitCondition(name, "Applied", "False", "RolledBack");
        assertThat(condition(name, "Ready").orElseThrow().getMessage())
                .contains(lastReason == null ? waiting : lastReason, message, "the Deployment's own template");
        await().atMost(TIMEOUT).untilAsserted(() -> assertThat(liveDeployment(name).getSpec().getTemplate()).isEqualTo(before));
        System.out.printf("rollback of %s: %d ms from the failing pod to the user's template%n", waiting,
                Duration.ofNanos(System.nanoTime() - failed).toMillis());
    }

    @Test
    void aUsersOwnCrashingReleaseKeepsTheTuningAndItsFixRunsTuned() throws InterruptedException {
        String tuned = tunedAndReady("release");
        String flags = env(liveDeployment("release")).get("JAVA_TOOL_OPTIONS").getValue();

        // The kubelet's part: the release's own application refuses its configuration, the JVM and the settings are fine.
        releaseFailing("release", "example/release:2", "APPLICATION FAILED TO START\nDescription: Failed to bind properties under 'server.port'");
        awaitCondition("release", "PodsFailing", "True", "NotHeldToSettings");
        assertThat(condition("release", "PodsFailing").orElseThrow().getMessage())
                .contains("CrashLoopBackOff", "server.port", "not rolled back: the Deployment's own template changed");
        operator.awaitReconciles(namespace, "release", 3);
        assertThat(condition("release", "Applied").orElseThrow().getReason()).isEqualTo("Applied");
        assertThat(settingsHash(liveDeployment("release"))).as("the tuning stays through the user's failed release").isEqualTo(tuned);
        assertThat(profileEvents()).anyMatch(e -> e.getReason().equals("NotHeldToSettings") && e.getType().equals("Warning"))
                .noneMatch(e -> e.getReason().equals("RolledBack"));

        setImage("release", "example/release:3");
        awaitRollout("release");
        awaitCondition("release", "Ready", "True", "Ready");
        awaitCondition("release", "PodsFailing", "False", "NoPodFailing");
        assertThat(settingsHash(liveDeployment("release"))).isEqualTo(tuned);
        assertThat(env(liveDeployment("release")).get("JAVA_TOOL_OPTIONS").getValue()).isEqualTo(flags);
    }

    @Test
    void aReleaseWhoseJvmRefusesTheSettingsIsRolledBackUntilTheNextRelease() throws InterruptedException {
        String tuned = tunedAndReady("downgrade");

        releaseFailing("downgrade", "example/downgrade:jdk11",
                "Unrecognized VM option 'UseCompactObjectHeaders'\nError: Could not create the Java Virtual Machine.");
        awaitCondition("downgrade", "Applied", "False", "RolledBack");
        await().atMost(TIMEOUT).until(() -> settingsHash(liveDeployment("downgrade")) == null);

        setImage("downgrade", "example/downgrade:3");
        await().atMost(TIMEOUT).until(() -> tuned.equals(settingsHash(liveDeployment("downgrade"))));
        awaitRollout("downgrade");
        awaitCondition("downgrade", "Ready", "True", "Ready");
    }

    /** A Deployment rolled out, then tuned by its profile and rolled out again: the settings hash in force. */
    private String tunedAndReady(String name) throws InterruptedException {
        client.resource(deployment(name, "1", "1Gi")).inNamespace(namespace).create();
        awaitRollout(name);
        createProfile(name, name, "runtime: SpringBootTomcat\nthreads: {max: 40}");
        awaitCondition(name, "Applied", "True", "Applied");
        awaitRollout(name);
        awaitCondition(name, "Ready", "True", "Ready");
        return settingsHash(liveDeployment(name));
    }

    /** The user releases {@code image}, whose pods crash-loop with {@code lastWords}. */
    private void releaseFailing(String deployment, String image, String lastWords) {
        setImage(deployment, image);
        await().atMost(TIMEOUT).until(() -> new FakeKubelet(client).failContainers(namespace, p -> imageOf(p).equals(image),
                "CrashLoopBackOff", "Error", lastWords) > 0);
    }

    private void setImage(String deployment, String image) {
        client.apps().deployments().inNamespace(namespace).withName(deployment)
                .edit(d -> { d.getSpec().getTemplate().getSpec().getContainers().get(0).setImage(image); return d; });
    }

    private static String imageOf(io.fabric8.kubernetes.api.model.Pod pod) {
        return pod.getSpec().getContainers().get(0).getImage();
    }

    @Test
    void aRolloutPastItsProgressDeadlineIsRolledBack() throws InterruptedException {
        client.resource(deployment("stuck", "1", "1Gi")).inNamespace(namespace).create();
        awaitRollout("stuck");
        client.apps().deployments().inNamespace(namespace).withName("stuck").edit(d -> { d.getSpec().setProgressDeadlineSeconds(1); return d; });
        // Rolled out at the new generation: the operator's write, not the edit, starts the rollout that stalls.
        awaitRollout("stuck");
        PodTemplateSpec before = liveDeployment("stuck").getSpec().getTemplate();
        createProfile("stuck", "stuck", "threads: {max: 10}\nruntime: SpringBootTomcat");

        // no kubelet marks these pods Ready: the controller manager declares the deadline exceeded
        awaitCondition("stuck", "Applied", "False", "RolledBack");
        assertThat(condition("stuck", "Applied").orElseThrow().getMessage()).contains("progress deadline");
        awaitCondition("stuck", "Ready", "False", "RolledBack");
        await().atMost(TIMEOUT).untilAsserted(() -> assertThat(liveDeployment("stuck").getSpec().getTemplate()).isEqualTo(before));
    }

    private String setting(String profile, String name) {
        return profile(profile).getStatus().getSettings().stream().filter(s -> s.getName().equals(name)).findFirst().orElseThrow().getValue();
    }

    private static String kubectl() {
        return Path.of(System.getProperty("user.home"), ".cache/jvm-tuning-operator/k8s/v" + System.getProperty("k8s.version", "1.36.3"), "kubectl").toString();
    }
}
