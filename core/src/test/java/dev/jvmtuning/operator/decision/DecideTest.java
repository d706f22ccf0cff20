package dev.jvmtuning.operator.decision;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.jvmtuning.operator.api.v1alpha1.AdmittedPod;
import dev.jvmtuning.operator.api.v1alpha1.AdmittedResource;
import dev.jvmtuning.operator.api.v1alpha1.AutoIteration;
import dev.jvmtuning.operator.api.v1alpha1.AutoState;
import dev.jvmtuning.operator.api.v1alpha1.AutoStatus;
import dev.jvmtuning.operator.api.v1alpha1.AutoVerdict;
import dev.jvmtuning.operator.api.v1alpha1.BoostedPod;
import dev.jvmtuning.operator.api.v1alpha1.LastOomKill;
import dev.jvmtuning.operator.api.v1alpha1.Observed;
import dev.jvmtuning.operator.api.v1alpha1.Recommendation;
import dev.jvmtuning.operator.api.v1alpha1.RefusedOption;
import dev.jvmtuning.operator.api.v1alpha1.Setting;
import dev.jvmtuning.operator.api.v1alpha1.ThreadingModel;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfileStatus;
import dev.jvmtuning.operator.api.v1alpha1.VerticalScaling;
import dev.jvmtuning.operator.flags.FlagPolicy;
import dev.jvmtuning.operator.model.Attestation;
import dev.jvmtuning.operator.model.ConditionStatus;
import dev.jvmtuning.operator.model.ConditionType;
import dev.jvmtuning.operator.model.EffectiveOptions;
import dev.jvmtuning.operator.model.RuntimeMetricsOptions;
import dev.jvmtuning.operator.model.LabelsAndAnnotations;
import dev.jvmtuning.operator.model.LastReading;
import dev.jvmtuning.operator.model.MemoryUse;
import dev.jvmtuning.operator.model.NativeMemory;
import dev.jvmtuning.operator.model.MetricsReport;
import dev.jvmtuning.operator.model.Names;
import dev.jvmtuning.operator.model.ThreadingReport;
import dev.jvmtuning.operator.model.Units;
import dev.jvmtuning.operator.model.VirtualThreads;
import dev.jvmtuning.operator.model.VirtualThreads.Pinned;
import dev.jvmtuning.operator.model.ProfileEvent;
import dev.jvmtuning.operator.model.Reason;
import dev.jvmtuning.operator.planner.OomAnswer;
import dev.jvmtuning.operator.preview.Preview;
import dev.jvmtuning.operator.render.DeploymentTuning;
import dev.jvmtuning.operator.rollout.StartupBoosts;
import dev.jvmtuning.operator.testing.ServerSideApply;
import dev.jvmtuning.operator.testing.TestProfiles;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerStateBuilder;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.FieldsV1;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntryBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentStatus;
import io.fabric8.kubernetes.api.model.apps.DeploymentStatusBuilder;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.apps.ReplicaSetBuilder;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscalerBuilder;
import io.fabric8.kubernetes.api.model.autoscaling.v2.MetricSpecBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The decision without a cluster: a small world applies each decision's writes as the API server and the
 * Deployment controller would (ConfigMaps stored, the Deployment's fields merged, a new generation for a new
 * template, pods made by {@link World#rollOut} or {@link World#rollOutFailing}), then reconciles again.
 */
class DecideTest {
    private static final Instant T0 = Instant.parse("2026-11-23T10:00:00Z");
    private static final String NAMESPACE = "shop";
    private static final Decide.Installation INSTALLATION = new Decide.Installation(
            new Preview.Installation(FlagPolicy.bundled(List.of()), guardrail -> Optional.empty()), "example/agent:1", "/agent.jar");

    /** The API server, the Deployment controller and the kubelet, as far as a decision sees them. */
    private static final class World {
        TuningProfile profile;
        Deployment deployment = TestProfiles.labDeployment("orders");
        final Map<String, ConfigMap> configMaps = new LinkedHashMap<>();
        final List<TuningProfile> others = new ArrayList<>();
        final List<HorizontalPodAutoscaler> autoscalers = new ArrayList<>();
        final List<GenericKubernetesResource> verticalScalers = new ArrayList<>();
        List<Pod> pods = new ArrayList<>();
        /** A ReplicaSet for each template its pods were made from, as the Deployment controller keeps them. */
        final Map<String, ReplicaSet> replicaSets = new LinkedHashMap<>();
        /** What admission makes of a pod's spec (a LimitRange default, a mutating policy): nothing unless a test says. */
        UnaryOperator<PodSpec> admission = UnaryOperator.identity();
        /** The env names the operator's last apply set, which its next apply drops when it leaves them out (server-side apply). */
        Set<String> appliedEnv = new HashSet<>();
        Instant now = T0;
        Double meanLatencyMillis;
        /** The heap the pods keep live after a collection, as the window reports it; null when not measured. */
        Double liveHeapMib;
        /** The web server's busy platform threads of its 200, as the window reports them. */
        double busyThreads = 10;
        /** What the pods' JVMs report they run, by pod; null when no metrics are read. */
        Map<String, EffectiveOptions> effectiveOptions;
        /** What the pods' JVMs report of their memory, by pod; null when no metrics are read. */
        Map<String, MemoryUse> memory;
        /** The pods' virtual-thread pinning over the window, by pod; null when no pod reports it. */
        Map<String, VirtualThreads.Pinning> pinning;
        /** With no figures above, a poll that found no Ready pod and remembers these last readings; null for none. */
        Map<String, LastReading> lastReadings;
        /** The Java feature version the pods' JVMs report; null when none does. */
        Integer javaVersion;
        /** Whether the pods' JVMs have run virtual threads; null when none says. */
        ThreadingReport threading;
        Observed lastWindow;
        Decide.Decision last;
        final List<ProfileEvent> events = new ArrayList<>();

        World(String spec) {
            profile = profile("orders", spec, T0);
            deployment.getMetadata().setNamespace(NAMESPACE);
            deployment.getMetadata().setGeneration(1L);
            rollOut();
        }

        Observation observe() {
            List<TuningProfile> targeting = new ArrayList<>(others);
            targeting.add(profile);
            MetricsReport report = null;
            if (meanLatencyMillis != null || effectiveOptions != null || memory != null || javaVersion != null || threading != null) {
                Observed window = null;
                if (meanLatencyMillis != null) {
                    // The figures of AutoRevertTest's pods: 100 req/s on one pod, Tomcat's 200 threads.
                    window = new Observed().setRequestsPerSecond(100.0).setMeanLatencyMillis(meanLatencyMillis).setCpuCores(0.2)
                            .setGcTimePercent(1.0).setErrorPercent(0.0).setMaxThreads(200.0).setBusyThreads(busyThreads).setPods(1)
                            .setLiveHeapMib(liveHeapMib).setWindow("10s").setEnd(now.toString());
                }
                report = new MetricsReport(ConditionStatus.TRUE, Reason.METRICS_READ, "read 1 of 1 Ready pods", window,
                        window == null ? null : lastWindow, Objects.requireNonNullElse(effectiveOptions, Map.of()),
                        Objects.requireNonNullElse(memory, Map.of()), Objects.requireNonNullElse(pinning, Map.of()), javaVersion, threading);
                lastWindow = window;
            } else if (lastReadings != null) {
                report = new MetricsReport(ConditionStatus.FALSE, Reason.NO_READY_PODS, "Deployment has no Ready pod", null, null, Map.of(), Map.of(),
                        Map.of(), null, null, lastReadings);
            }
            return new Observation(profile, Optional.ofNullable(deployment), targeting, pods, List.copyOf(replicaSets.values()), List.copyOf(configMaps.values()),
                    Optional.ofNullable(report), autoscalers, verticalScalers, now);
        }

        /** One reconcile, 10 s after the last: its writes land, its status is stored as the API server keeps it. */
        Decide.Decision reconcile() {
            now = now.plusSeconds(10);
            last = Decide.of(observe(), INSTALLATION);
            perform(last.writes());
            record(last);
            return last;
        }

        void record(Decide.Decision decision) {
            profile.setStatus(Serialization.unmarshal(Serialization.asJson(decision.status()), TuningProfileStatus.class));
            events.addAll(decision.events());
        }

        void perform(List<Write> writes) {
            for (Write write : writes) {
                if (write instanceof Write.CreateConfigMap create) {
                    configMaps.put(create.configMap().getMetadata().getName(), create.configMap());
                } else if (write instanceof Write.ApplyDeployment apply) {
                    assertThat(apply.live()).isSameAs(deployment);
                    deployment = applied(apply.desired());
                } else if (write instanceof Write.RestoreDeployment restore) {
                    appliedEnv = new HashSet<>();
                    deployment = newTemplate(Serialization.clone(restore.restored()));
                } else if (write instanceof Write.PruneConfigMaps prune) {
                    prune.unused().forEach(c -> configMaps.remove(c.getMetadata().getName()));
                } else if (write instanceof Write.DeleteConfigMaps delete) {
                    delete.configMaps().forEach(c -> configMaps.remove(c.getMetadata().getName()));
                }
            }
        }

        /** Server-side apply of the operator's fields: annotations merged, the container's env merged by name, its sized resources. */
        private Deployment applied(Deployment desired) {
            Deployment next = Serialization.clone(deployment);
            Map<String, String> annotations = new LinkedHashMap<>(Objects.requireNonNullElse(next.getMetadata().getAnnotations(), Map.of()));
            annotations.putAll(desired.getMetadata().getAnnotations());
            next.getMetadata().setAnnotations(annotations);
            Map<String, String> template = new LinkedHashMap<>(Objects.requireNonNullElse(next.getSpec().getTemplate().getMetadata().getAnnotations(),
                    Map.of()));
            template.putAll(desired.getSpec().getTemplate().getMetadata().getAnnotations());
            next.getSpec().getTemplate().getMetadata().setAnnotations(template);
            Container wanted = desired.getSpec().getTemplate().getSpec().getContainers().get(0);
            Container container = next.getSpec().getTemplate().getSpec().getContainers().stream()
                    .filter(c -> c.getName().equals(wanted.getName())).findFirst().orElseThrow();
            Set<String> names = new HashSet<>(wanted.getEnv().stream().map(EnvVar::getName).toList());
            List<EnvVar> env = new ArrayList<>(Objects.requireNonNullElse(container.getEnv(), List.<EnvVar>of()).stream()
                    .filter(v -> !names.contains(v.getName()) && !appliedEnv.contains(v.getName())).toList());
            env.addAll(wanted.getEnv());
            container.setEnv(env);
            if (wanted.getTerminationMessagePolicy() != null) {
                container.setTerminationMessagePolicy(wanted.getTerminationMessagePolicy());
            }
            ServerSideApply.resources(deployment, desired, container);
            appliedEnv = names;
            return newTemplate(next);
        }

        private Deployment newTemplate(Deployment next) {
            next.getMetadata().setGeneration(deployment.getMetadata().getGeneration() + 1);
            return next;
        }

        /** The Deployment controller sees the generation and the kubelet runs its template on every replica, Ready. */
        void rollOut() {
            pods = List.of(pod(new ContainerStatusBuilder().withName("app").withReady(true).withRestartCount(0)
                    .withNewState().withNewRunning().withStartedAt(now.toString()).endRunning().endState().build()));
            deployment.setStatus(status(1, 1, 1));
        }

        /** The controller sees the generation, but the new pod crash-loops and the old one still serves. */
        void rollOutFailing() {
            pods = List.of(pod(new ContainerStatusBuilder().withName("app").withReady(false).withRestartCount(4)
                    .withNewState().withNewWaiting().withReason("CrashLoopBackOff").endWaiting().endState().build()));
            deployment.setStatus(status(2, 1, 1));
        }

        /** The controller sees the generation; the new pod's container was OOM-killed once and runs again, not yet Ready. */
        void rollOutOomKilled() {
            pods = List.of(pod(oomKilled(false, 1)));
            deployment.setStatus(status(2, 1, 1));
        }

        /**
         * The kernel kills the running pod's container for memory: it is terminated, not Ready, until the kubelet starts it again,
         * and the Deployment has one replica fewer available.
         */
        void oomKill() {
            var status = pods.get(0).getStatus().getContainerStatuses().get(0);
            status.setReady(false);
            status.setState(new ContainerStateBuilder().withNewTerminated().withReason("OOMKilled").withExitCode(137)
                    .withFinishedAt(now.toString()).endTerminated().build());
            deployment.setStatus(status(1, 1, 0));
        }

        /** The kubelet starts the killed container again: the kill moves to its last state, the restart count grows, the replica is back. */
        void restartKilled() {
            var status = pods.get(0).getStatus().getContainerStatuses().get(0);
            status.setLastState(status.getState());
            status.setRestartCount(status.getRestartCount() + 1);
            status.setReady(true);
            status.setState(new ContainerStateBuilder().withNewRunning().withStartedAt(now.toString()).endRunning().build());
            deployment.setStatus(status(1, 1, 1));
        }

        /**
         * The running pod's application keeps failing on its own (a dependency down, a liveness probe): the kubelet backs off,
         * and the Deployment has one replica fewer available.
         */
        void crashLoop(String lastWords) {
            var status = pods.get(0).getStatus().getContainerStatuses().get(0);
            status.setReady(false);
            status.setRestartCount(status.getRestartCount() + 3);
            status.setState(new ContainerStateBuilder().withNewWaiting().withReason("CrashLoopBackOff").endWaiting().build());
            status.setLastState(new ContainerStateBuilder().withNewTerminated().withExitCode(1).withReason("Error").withMessage(lastWords)
                    .withFinishedAt(now.toString()).endTerminated().build());
            deployment.setStatus(status(1, 1, 0));
        }

        /**
         * A GitOps controller re-applies the manifest from Git, as {@code kubectl apply} does: the container's variables as Git has
         * them (the operator's gone), the manager recorded as the owner of the variables it set.
         */
        void reapplyFromGit(Deployment manifest, String manager, String at) {
            Deployment next = Serialization.clone(deployment);
            Container fromGit = manifest.getSpec().getTemplate().getSpec().getContainers().get(0);
            next.getSpec().getTemplate().getSpec().getContainers().get(0).setEnv(fromGit.getEnv() == null ? null : new ArrayList<>(fromGit.getEnv()));
            Map<String, Object> variables = new LinkedHashMap<>();
            Objects.requireNonNullElse(fromGit.getEnv(), List.<EnvVar>of()).forEach(v -> variables.put("k:{\"name\":\"" + v.getName() + "\"}",
                    Map.of("f:value", Map.of())));
            FieldsV1 fields = new FieldsV1();
            fields.setAdditionalProperty("f:spec", Map.of("f:template", Map.of("f:spec", Map.of("f:containers",
                    Map.of("k:{\"name\":\"app\"}", Map.of("f:env", variables))))));
            List<ManagedFieldsEntry> managed = new ArrayList<>(Objects.requireNonNullElse(next.getMetadata().getManagedFields(), List.of()));
            managed.removeIf(e -> e.getManager().equals(manager));
            managed.add(new ManagedFieldsEntryBuilder().withManager(manager).withOperation("Update").withTime(at).withFieldsV1(fields).build());
            next.getMetadata().setManagedFields(managed);
            deployment = newTemplate(next);
            appliedEnv = new HashSet<>();
        }

        /** The user releases a new image: the Deployment's own template changes, the operator's fields stay as they are. */
        void release(String image) {
            Deployment next = Serialization.clone(deployment);
            next.getSpec().getTemplate().getSpec().getContainers().get(0).setImage(image);
            deployment = newTemplate(next);
            deployment.setStatus(status(1, 0, 1));
        }

        /** The released template's new pod fails as {@code lastWords} say, the old one still serves. */
        void releaseFailing(String lastWords) {
            rollOutFailing(lastWords);
        }

        /** The controller sees the generation, but the new pod crash-loops with {@code lastWords}, and the old one still serves. */
        void rollOutFailing(String lastWords) {
            rollOut();
            crashLoop(lastWords);
            deployment.setStatus(status(2, 1, 1));
        }

        private io.fabric8.kubernetes.api.model.ContainerStatus oomKilled(boolean ready, int restarts) {
            return new ContainerStatusBuilder().withName("app").withReady(ready).withRestartCount(restarts)
                    .withNewState().withNewRunning().withStartedAt(now.plusSeconds(1).toString()).endRunning().endState()
                    .withNewLastState().withNewTerminated().withReason("OOMKilled").withExitCode(137).withFinishedAt(now.toString())
                    .endTerminated().endLastState().build();
        }

        private DeploymentStatus status(int replicas, int updated, int available) {
            return new DeploymentStatusBuilder().withObservedGeneration(deployment.getMetadata().getGeneration()).withReplicas(replicas)
                    .withUpdatedReplicas(updated).withAvailableReplicas(available).withReadyReplicas(available).build();
        }

        private Pod pod(io.fabric8.kubernetes.api.model.ContainerStatus status) {
            String templateHash = Names.digest(Serialization.asJson(deployment.getSpec().getTemplate()), 10);
            Map<String, String> labels = new LinkedHashMap<>(deployment.getSpec().getTemplate().getMetadata().getLabels());
            labels.put(LabelsAndAnnotations.POD_TEMPLATE_HASH_LABEL, templateHash);
            // As the Deployment controller makes it: the Deployment's template and annotations, the template labelled with its hash.
            PodTemplateSpec template = Serialization.clone(deployment.getSpec().getTemplate());
            template.getMetadata().setLabels(labels);
            ReplicaSet replicaSet = replicaSets.computeIfAbsent("orders-" + templateHash, name -> new ReplicaSetBuilder().withNewMetadata()
                    .withName(name).withNamespace(NAMESPACE).withAnnotations(deployment.getMetadata().getAnnotations()).endMetadata()
                    .withNewSpec().withTemplate(template).endSpec().build());
            return new PodBuilder().withNewMetadata().withName("orders-" + deployment.getMetadata().getGeneration()).withNamespace(NAMESPACE)
                    .withCreationTimestamp(now.toString()).addNewOwnerReference().withKind("ReplicaSet").withName(replicaSet.getMetadata().getName())
                    .withController(true).endOwnerReference()
                    .withLabels(labels)
                    .withAnnotations(deployment.getSpec().getTemplate().getMetadata().getAnnotations()).endMetadata()
                    .withSpec(admission.apply(Serialization.clone(deployment.getSpec().getTemplate().getSpec())))
                    .withNewStatus().addNewCondition().withType("Ready").withStatus(String.valueOf(status.getReady()).equals("true") ? "True" : "False")
                    .endCondition().withContainerStatuses(status).endStatus().build();
        }

        /** The user edits the profile: a new generation. */
        void edit(String spec) {
            TuningProfile edited = profile("orders", spec, T0);
            edited.getMetadata().setGeneration(profile.getMetadata().getGeneration() + 1);
            edited.setStatus(profile.getStatus());
            profile = edited;
        }

        String hash() {
            Map<String, String> annotations = deployment.getSpec().getTemplate().getMetadata().getAnnotations();
            return annotations == null ? null : annotations.get(LabelsAndAnnotations.SETTINGS_HASH_ANNOTATION);
        }

        /** The tuned container's memory limit in the template. */
        String memoryLimit() {
            return deployment.getSpec().getTemplate().getSpec().getContainers().get(0).getResources().getLimits().get("memory").toString();
        }

        String jvmOptions() {
            return deployment.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv() == null ? null
                    : deployment.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv().stream()
                            .filter(v -> v.getName().equals("JAVA_TOOL_OPTIONS")).map(EnvVar::getValue).findFirst().orElse(null);
        }

        /** The value the template gives the container's variable {@code name}, from the ConfigMap it refers to where it does. */
        String env(String name) {
            EnvVar variable = deployment.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv().stream()
                    .filter(v -> v.getName().equals(name)).findFirst().orElseThrow();
            if (variable.getValueFrom() == null) {
                return variable.getValue();
            }
            var key = variable.getValueFrom().getConfigMapKeyRef();
            return configMaps.get(key.getName()).getData().get(key.getKey());
        }

        Optional<io.fabric8.kubernetes.api.model.Condition> condition(ConditionType type) {
            return Conditions.find(profile.getStatus().getConditions(), type);
        }

        String reason(ConditionType type) {
            return condition(type).map(io.fabric8.kubernetes.api.model.Condition::getReason).orElse(null);
        }

        String status(ConditionType type) {
            return condition(type).map(io.fabric8.kubernetes.api.model.Condition::getStatus).orElse(null);
        }

        List<Reason> eventReasons() {
            return events.stream().map(ProfileEvent::reason).toList();
        }

        AutoStatus auto() {
            return profile.getStatus().getAuto();
        }
    }

    private static TuningProfile profile(String name, String spec, Instant created) {
        TuningProfile profile = Serialization.unmarshal(TestProfiles.yaml(name, "orders", spec), TuningProfile.class);
        profile.getMetadata().setNamespace(NAMESPACE);
        profile.getMetadata().setUid("uid-" + name);
        profile.getMetadata().setGeneration(1L);
        profile.getMetadata().setCreationTimestamp(created.toString());
        return profile;
    }

    private static final String APPLY = "runtime: SpringBootTomcat\nthreads: {max: 50}";

    /** Applied and rolled out: the world a test starts from. */
    private static World applied(String spec) {
        World world = new World(spec);
        world.reconcile();
        world.rollOut();
        world.reconcile();
        assertThat(world.reason(ConditionType.READY)).isEqualTo("Ready");
        return world;
    }

    /** A LimitRange's default for a container without resources, as the API server's LimitRanger admits the pod. */
    private static PodSpec limitRangeDefault(PodSpec spec) {
        spec.getContainers().get(0).setResources(new ResourceRequirementsBuilder()
                .withLimits(Map.of("memory", new Quantity("512Mi"), "cpu", new Quantity("1")))
                .withRequests(Map.of("memory", new Quantity("512Mi"), "cpu", new Quantity("1"))).build());
        return spec;
    }

    @Test
    void aPodGivenItsLimitsAtAdmissionIsPlannedForThoseLimitsOnceAndSaysSo() {
        World world = new World(APPLY);
        world.deployment.getSpec().getTemplate().getSpec().getContainers().get(0).setResources(null);
        world.admission = DecideTest::limitRangeDefault;
        world.rollOut();

        world.reconcile();
        assertThat(world.jvmOptions()).as("planned for the pod's 512Mi and 1 CPU, not for a template without limits")
                .contains("-XX:ActiveProcessorCount=1").containsPattern("-Xmx\\d+m");
        AdmittedPod admitted = world.profile.getStatus().getAdmitted();
        assertThat(admitted.getPod()).isEqualTo(world.pods.get(0).getMetadata().getName());
        assertThat(admitted.getResources()).extracting(AdmittedResource::getResource, AdmittedResource::getTemplate, AdmittedResource::getPod)
                .contains(tuple("limits.memory", null, "512Mi"), tuple("limits.cpu", null, "1"));
        assertThat(world.events).filteredOn(e -> e.reason() == Reason.PLANNED_FOR_ADMITTED_POD).singleElement()
                .satisfies(e -> assertThat(e.message()).contains("limits.memory 512Mi (the template: none)"));
        String hash = world.hash();

        world.rollOut();
        world.reconcile();
        world.reconcile();
        assertThat(world.last.writes()).as("the tuned pods are admitted the same way: the plan stands").isEmpty();
        assertThat(world.hash()).isEqualTo(hash);
        assertThat(world.status(ConditionType.READY)).isEqualTo("True");
        assertThat(world.events).as("the same admission is not news twice").filteredOn(e -> e.reason() == Reason.PLANNED_FOR_ADMITTED_POD).hasSize(1);
    }

    @Test
    void withoutAPodTheTemplateIsPlannedForAndWithOneItsAdmittedLimitWins() {
        World template = new World(APPLY);
        template.reconcile();
        World lowered = new World(APPLY);
        // A mutating admission policy, or a VerticalPodAutoscaler's admission, gives the 1Gi template's pods 384Mi.
        lowered.admission = spec -> {
            spec.getContainers().get(0).getResources().getLimits().put("memory", new Quantity("384Mi"));
            return spec;
        };
        lowered.rollOut();
        lowered.reconcile();
        long heapFor1Gi = Long.parseLong(template.jvmOptions().replaceAll(".*-Xmx(\\d+)m.*", "$1"));
        long heapFor384Mi = Long.parseLong(lowered.jvmOptions().replaceAll(".*-Xmx(\\d+)m.*", "$1"));
        assertThat(heapFor384Mi).as("the heap for the pod's 384Mi, not the template's 1Gi").isLessThan(heapFor1Gi).isLessThan(384);
        assertThat(lowered.profile.getStatus().getAdmitted().getResources())
                .extracting(AdmittedResource::getResource, AdmittedResource::getTemplate, AdmittedResource::getPod)
                .containsExactly(tuple("limits.memory", "1Gi", "384Mi"));
        assertThat(template.profile.getStatus().getAdmitted()).as("pods as their template says: nothing to say").isNull();
    }

    @Test
    void aReleaseThatLowersTheLimitIsPlannedForAtOnceNotForTheOldPodsStillRunning() {
        World world = applied(APPLY);
        String heapFor1Gi = world.jvmOptions().replaceAll(".*-Xmx(\\d+)m.*", "$1");
        Deployment next = Serialization.clone(world.deployment);
        next.getSpec().getTemplate().getSpec().getContainers().get(0).getResources().getLimits().put("memory", new Quantity("512Mi"));
        world.deployment = next;
        world.deployment.getMetadata().setGeneration(world.deployment.getMetadata().getGeneration() + 1);

        world.reconcile();

        String heapFor512Mi = world.jvmOptions().replaceAll(".*-Xmx(\\d+)m.*", "$1");
        assertThat(Long.parseLong(heapFor512Mi)).as("the pods of the 1Gi template still run, but the release's pods get 512Mi")
                .isLessThan(Long.parseLong(heapFor1Gi));
        assertThat(world.profile.getStatus().getAdmitted()).as("no pod of the template as it is now: nothing to say").isNull();
    }

    @Test
    void besideAVpaMovingMemoryAndCpuTheHeapIsAShareOfEachPodsLimitAndNoCpuCountIsFixed() {
        World world = new World(APPLY);
        world.verticalScalers.add(TestProfiles.vpa("orders-vpa", "orders", "updatePolicy: {updateMode: InPlaceOrRecreate}"));
        // The VPA gave the running pod 700Mi: the plan stays at the template's 1Gi, as a share each JVM applies to its own limit.
        world.admission = spec -> {
            spec.getContainers().get(0).getResources().getLimits().put("memory", new Quantity("700Mi"));
            return spec;
        };
        world.rollOut();
        world.reconcile();

        assertThat(world.jvmOptions()).containsPattern("-XX:InitialRAMPercentage=\\d+\\.\\d -XX:MaxRAMPercentage=\\d+\\.\\d")
                .doesNotContain("-Xmx").doesNotContain("-Xmn").doesNotContain("ActiveProcessorCount").doesNotContain("ParallelGCThreads");
        VerticalScaling scaling = world.profile.getStatus().getVerticalScaling();
        assertThat(scaling.getAutoscaler()).isEqualTo("orders-vpa");
        assertThat(scaling.getControls()).containsExactly("memory", "cpu");
        assertThat(scaling.getJvmFloor()).endsWith("Mi");
        assertThat(world.events).filteredOn(e -> e.reason() == Reason.PLANNED_FOR_ADMITTED_POD).singleElement()
                .satisfies(e -> assertThat(e.message()).as("not planned for this pod's 700Mi: a share of each pod's own limit")
                        .contains("limits.memory 700Mi").contains("a share of each pod's own limit, planned at the VPA's floor of "
                                + scaling.getJvmFloor()).doesNotContain("planned for the pod as admitted"));
        String hash = world.hash();

        world.admission = spec -> {
            spec.getContainers().get(0).getResources().getLimits().put("memory", new Quantity("900Mi"));
            return spec;
        };
        world.rollOut();
        world.reconcile();
        assertThat(world.hash()).as("the VPA moving a pod's memory rolls nothing").isEqualTo(hash);

        World alone = new World(APPLY);
        alone.reconcile();
        long share = Math.round(Double.parseDouble(world.jvmOptions().replaceAll(".*-XX:MaxRAMPercentage=([0-9.]+).*", "$1")) * 1024 / 100);
        long heap = Long.parseLong(alone.jvmOptions().replaceAll(".*-Xmx(\\d+)m.*", "$1"));
        assertThat(share).as("the same heap at the template's 1Gi as without the VPA").isBetween(heap - 1, heap);

        // With a least memory the VPA may give, the share is planned there: at 512Mi, heap and the rest fit.
        World floored = new World(APPLY);
        floored.verticalScalers.add(TestProfiles.vpa("orders-vpa", "orders",
                "resourcePolicy: {containerPolicies: [{containerName: '*', minAllowed: {memory: 512Mi}}]}"));
        floored.reconcile();
        double atFloor = Double.parseDouble(floored.jvmOptions().replaceAll(".*-XX:MaxRAMPercentage=([0-9.]+).*", "$1"));
        assertThat(atFloor).as("a smaller share: the memory beside the heap does not shrink with the limit")
                .isLessThan(Double.parseDouble(world.jvmOptions().replaceAll(".*-XX:MaxRAMPercentage=([0-9.]+).*", "$1")));
        assertThat(floored.profile.getStatus().getVerticalScaling().getJvmFloor()).isIn("511Mi", "512Mi");
    }

    @Test
    void anAgentAnInjectorAppendsAtAdmissionRunsBesideTheTunedFlagsAndIsNoReasonToWriteAgain() {
        World world = new World(APPLY);
        String agent = "-javaagent:/otel-auto-instrumentation/javaagent.jar";
        world.admission = spec -> {
            Container app = spec.getContainers().get(0);
            List<EnvVar> env = new ArrayList<>(Objects.requireNonNullElse(app.getEnv(), List.of()));
            env.removeIf(v -> v.getName().equals("JAVA_TOOL_OPTIONS"));
            String tuned = Objects.requireNonNullElse(app.getEnv(), List.<EnvVar>of()).stream().filter(v -> v.getName().equals("JAVA_TOOL_OPTIONS"))
                    .map(EnvVar::getValue).findFirst().orElse("");
            env.add(new EnvVar("JAVA_TOOL_OPTIONS", (tuned + " " + agent).trim(), null));
            app.setEnv(env);
            return spec;
        };
        world.rollOut();
        world.reconcile();
        String tuned = world.jvmOptions();
        assertThat(tuned).as("the agent is the pod's, not the template's to write").doesNotContain("javaagent");

        world.rollOut();
        world.reconcile();
        world.reconcile();
        assertThat(world.last.writes()).isEmpty();
        assertThat(world.jvmOptions()).isEqualTo(tuned);
        assertThat(world.pods.get(0).getSpec().getContainers().get(0).getEnv()).filteredOn(v -> v.getName().equals("JAVA_TOOL_OPTIONS"))
                .singleElement().satisfies(v -> assertThat(v.getValue()).isEqualTo(tuned + " " + agent));
        assertThat(world.profile.getStatus().getAdmitted().getAddedJvmOptions()).containsExactly(agent);
        assertThat(world.profile.getStatus().getAdmitted().getResources()).isEmpty();
        assertThat(world.status(ConditionType.READY)).isEqualTo("True");
    }

    @Test
    void aManifestReappliedFromGitIsAnsweredOnceThenLeftAloneWithTheManagerNamedUntilTheProfileChanges() {
        World world = new World(APPLY);
        world.deployment.getSpec().getTemplate().getSpec().getContainers().get(0).setEnv(List.of(new EnvVar("JAVA_TOOL_OPTIONS", "-Dfile.encoding=UTF-8", null)));
        Deployment manifest = Serialization.clone(world.deployment);
        world.rollOut();
        world.reconcile();
        world.rollOut();
        world.reconcile();
        assertThat(world.status(ConditionType.READY)).isEqualTo("True");
        long generation = world.deployment.getMetadata().getGeneration();

        world.reapplyFromGit(manifest, "argocd-controller", world.now.toString());
        world.reconcile();
        assertThat(world.last.writes()).as("once: a one-off apply of an old manifest is answered").hasAtLeastOneElementOfType(Write.ApplyDeployment.class);
        assertThat(world.jvmOptions()).contains("-Dfile.encoding=UTF-8").contains("-Xmx");
        assertThat(world.profile.getStatus().getTakenBack().getManager()).isEqualTo("argocd-controller");
        assertThat(world.profile.getStatus().getTakenBack().getFields()).containsExactly("env JAVA_TOOL_OPTIONS");
        world.rollOut();
        world.reconcile();

        world.now = world.now.plusSeconds(20);
        world.reapplyFromGit(manifest, "argocd-controller", world.now.toString());
        world.reconcile();
        assertThat(world.last.writes()).as("twice within ten minutes: no more writes").isEmpty();
        assertThat(world.reason(ConditionType.APPLIED)).isEqualTo("TakenBack");
        assertThat(world.condition(ConditionType.APPLIED).orElseThrow().getMessage()).contains("argocd-controller (Update)")
                .contains("env JAVA_TOOL_OPTIONS").contains("2 times within 10 minutes");
        assertThat(world.eventReasons()).contains(Reason.TAKEN_BACK);
        long stoppedAt = world.deployment.getMetadata().getGeneration();
        for (int i = 0; i < 30; i++) {
            world.now = world.now.plusSeconds(20);
            world.reapplyFromGit(manifest, "argocd-controller", world.now.toString());
            world.rollOut();
            world.reconcile();
            assertThat(world.last.writes()).isEmpty();
        }
        assertThat(world.reason(ConditionType.APPLIED)).as("stopped for good, not only for ten minutes").isEqualTo("TakenBack");
        assertThat(stoppedAt).as("after the operator's first write: a take-back, the one answer, a take-back").isEqualTo(generation + 3);

        world.edit(APPLY.replace("max: 50", "max: 60"));
        world.reconcile();
        assertThat(world.last.writes()).as("an edit of the profile tries again").hasAtLeastOneElementOfType(Write.ApplyDeployment.class);
        assertThat(world.profile.getStatus().getTakenBack()).isNull();
    }

    @Test
    void theOperatorsOwnWritesAndAReleaseThatKeepsItsFieldsAreNoTakeBack() {
        World world = new World(APPLY);
        world.reconcile();
        world.rollOut();
        world.reconcile();
        world.release("example/orders:2");
        world.reconcile();
        world.rollOut();
        world.reconcile();
        world.edit(APPLY.replace("max: 50", "max: 60"));
        world.reconcile();
        world.rollOut();
        world.reconcile();
        assertThat(world.profile.getStatus().getTakenBack()).isNull();
        assertThat(world.status(ConditionType.READY)).isEqualTo("True");
    }

    @Test
    void applyWritesTheValuesBeforeTheTemplateThenRollsOutThenIsReadyThenWritesNothing() {
        World world = new World(APPLY);
        String userTemplate = Serialization.asJson(world.deployment.getSpec().getTemplate());

        Decide.Decision first = world.reconcile();
        assertThat(first.writes()).extracting(w -> (Class) w.getClass())
                .containsExactly(Write.CreateConfigMap.class, Write.ApplyDeployment.class);
        assertThat(world.configMaps).hasSize(1);
        String configMap = world.configMaps.keySet().iterator().next();
        assertThat(world.deployment.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv())
                .anyMatch(v -> v.getValueFrom() != null && v.getValueFrom().getConfigMapKeyRef().getName().equals(configMap));
        assertThat(world.reason(ConditionType.APPLIED)).isEqualTo("Applied");
        assertThat(world.condition(ConditionType.READY).orElseThrow().getMessage())
                .as("judged as written: the controller has yet to see the new generation")
                .isEqualTo("the Deployment controller has not yet seen generation 2");
        assertThat(world.status(ConditionType.ROLLOUT_COMPLETE)).isEqualTo("False");

        world.reconcile();
        assertThat(world.last.writes()).as("the template is there: nothing more to write").isEmpty();
        assertThat(world.reason(ConditionType.READY)).isEqualTo("RollingOut");

        world.rollOut();
        world.reconcile();
        assertThat(world.status(ConditionType.READY)).isEqualTo("True");
        assertThat(world.status(ConditionType.ROLLOUT_COMPLETE)).isEqualTo("True");
        assertThat(world.profile.getStatus().getLastHealthy().getSettingsHash()).isEqualTo(world.hash());

        TuningProfileStatus settled = world.profile.getStatus();
        Decide.Decision again = world.reconcile();
        assertThat(again.writes()).isEmpty();
        assertThat(again.events()).isEmpty();
        assertThat(again.status()).as("no status write either").isEqualTo(settled);
        assertThat(Serialization.asJson(world.deployment.getSpec().getTemplate())).isNotEqualTo(userTemplate);
    }

    @Test
    void statusSaysTheTargetServesOnVirtualThreadsAndWhyThePoolIsNotJudged() {
        World world = new World("runtime: SpringBootTomcat\nmode: Recommend\n"
                + "workload: {requestsPerSecond: 400, meanLatency: 200ms, cpuPerRequest: 5ms, maxQueueWait: 1s}");
        world.deployment.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv()
                .add(new EnvVar("SPRING_THREADS_VIRTUAL_ENABLED", "true", null));
        world.meanLatencyMillis = 200.0;
        world.threading = new ThreadingReport(1, 1);
        world.reconcile();
        world.reconcile();

        TuningProfileStatus status = world.profile.getStatus();
        assertThat(status.getThreading().getModel()).isEqualTo(ThreadingModel.Virtual);
        assertThat(status.getThreading().getSource()).isEqualTo("the container's env sets SPRING_THREADS_VIRTUAL_ENABLED=true");
        assertThat(status.getThreading().getReported()).as("read from the JVMs").isEqualTo("virtual threads seen on 1 of 1 pods read");
        assertThat(status.getSettings()).extracting(Setting::getName).doesNotContain("threads.max").contains("queue.maxConnections");
        assertThat(setting(world, "queue.maxConnections").getRule()).isEqualTo("R18");
        assertThat(world.status(ConditionType.THREAD_POOL_SATURATED)).isEqualTo("False");
        assertThat(world.reason(ConditionType.THREAD_POOL_SATURATED)).isEqualTo("VirtualThreads");

        // the profile overrules the container: platform threads again, and the disagreement is a warning
        world.edit("runtime: SpringBootTomcat\nmode: Recommend\nthreading: {model: Platform}\n"
                + "workload: {requestsPerSecond: 400, meanLatency: 200ms, cpuPerRequest: 5ms, maxQueueWait: 1s}");
        world.reconcile();
        assertThat(world.profile.getStatus().getThreading().getSource()).isEqualTo("spec.threading.model");
        assertThat(world.profile.getStatus().getThreading().getModel()).isEqualTo(ThreadingModel.Platform);
        assertThat(world.profile.getStatus().getThreading().getReported()).as("the JVMs contradict the profile")
                .startsWith("virtual threads seen on 1 of 1 pods read: the plan is for platform threads");
        world.threading = null;
        world.reconcile();
        assertThat(world.profile.getStatus().getThreading().getReported()).as("a poll that says nothing keeps what was read")
                .startsWith("virtual threads seen on 1 of 1 pods read");
        assertThat(setting(world, "threads.max").getRule()).isEqualTo("R1");
        assertThat(world.profile.getStatus().getWarnings()).anyMatch(w -> w.startsWith("spec.threading.model is Platform but the container's env"));
        assertThat(world.reason(ConditionType.THREAD_POOL_SATURATED)).isEqualTo("PoolHasHeadroom");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            Invalid, virtual threads    | jvmOptions: ["-XX:+NoSuchFlag"] | true  | Invalid    | VirtualThreads
            Infeasible, virtual threads | heap: {size: 2Gi}               | true  | Infeasible | VirtualThreads
            Infeasible, platform        | heap: {size: 2Gi}               | false | Infeasible | PoolSaturated
            """)
    void withoutAPlanTheThreadPoolIsJudgedByWhatTheContainerRunsRequestsOn(String label, String problem, boolean virtual, String applied,
            String threadPool) {
        World world = new World("runtime: SpringBootTomcat\nmode: Recommend\n" + problem);
        if (virtual) {
            world.deployment.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv()
                    .add(new EnvVar("SPRING_THREADS_VIRTUAL_ENABLED", "true", null));
        }
        world.meanLatencyMillis = 200.0;
        world.busyThreads = 200;
        world.reconcile();

        assertThat(world.reason(ConditionType.APPLIED)).isEqualTo(applied);
        assertThat(world.reason(ConditionType.THREAD_POOL_SATURATED)).as("the platform pool is all busy").isEqualTo(threadPool);
    }

    @Test
    void aPodOfEarlierSettingsIsNotHeldToTheNextPlansBudgetWhileTheRolloutRuns() {
        World world = applied(APPLY);
        String name = world.pods.get(0).getMetadata().getName();
        Map<String, Double> planned = Attestation.expected(List.of(world.profile.getStatus().getLastHealthy().getJvmOptions().split(" ")));
        world.effectiveOptions = Map.of(name, options(planned));
        world.reconcile();
        assertThat(world.reason(ConditionType.HEAP_OVER_LIMIT)).isEqualTo("HeapFitsLimit");

        // Eight times the threads: their stacks take room from the next heap, not from the heap the running pod started with.
        world.edit(APPLY.replace("max: 50", "max: 400"));
        world.reconcile();
        world.reconcile();

        assertThat(world.status(ConditionType.HEAP_OVER_LIMIT)).as("the old pod runs its own plan, which fits").isNotEqualTo("True");
    }

    @Test
    void aPodResizedInPlaceBelowWhatItsHeapNeedsIsSaidBeforeTheKernelKillsIt() {
        World world = applied(APPLY);
        Pod pod = world.pods.get(0);
        String name = pod.getMetadata().getName();
        Map<String, Double> planned = Attestation.expected(List.of(world.profile.getStatus().getLastHealthy().getJvmOptions().split(" ")));
        world.effectiveOptions = Map.of(name, options(planned));
        world.reconcile();
        assertThat(world.reason(ConditionType.HEAP_OVER_LIMIT)).as("planned for its 1Gi").isEqualTo("HeapFitsLimit");

        // A VerticalPodAutoscaler in place (or anyone with pods/resize) gives the running pod 384Mi: its JVM keeps its heap.
        pod.getStatus().getContainerStatuses().get(0).setResources(new ResourceRequirementsBuilder()
                .withLimits(Map.of("memory", new Quantity("384Mi"), "cpu", new Quantity("2"))).build());
        world.reconcile();

        assertThat(world.status(ConditionType.HEAP_OVER_LIMIT)).isEqualTo("True");
        assertThat(world.condition(ConditionType.HEAP_OVER_LIMIT).orElseThrow().getMessage())
                .startsWith("pod " + name + " runs a " + (long) (planned.get("MaxHeapSize") / (1024 * 1024)) + "Mi heap in a 384Mi limit");
        assertThat(world.eventReasons()).contains(Reason.HEAP_BEYOND_LIMIT);
    }

    @Test
    void theSettingsAreSaidInEffectOnlyWhenTheJvmsReportThem() {
        World world = applied(APPLY);
        assertThat(world.status(ConditionType.SETTINGS_EFFECTIVE)).as("no metrics read: nothing to tell").isEqualTo("Unknown");
        assertThat(world.status(ConditionType.READY)).isEqualTo("True");
        String pod = world.pods.get(0).getMetadata().getName();
        Map<String, Double> planned = Attestation.expected(List.of(world.profile.getStatus().getLastHealthy().getJvmOptions().split(" ")));
        assertThat(planned).as("the plan sets JVM options the agent reports").isNotEmpty();

        world.effectiveOptions = Map.of(pod, options(planned));
        world.reconcile();
        assertThat(world.status(ConditionType.SETTINGS_EFFECTIVE)).isEqualTo("True");
        assertThat(world.condition(ConditionType.SETTINGS_EFFECTIVE).orElseThrow().getMessage()).contains("in effect on 1 of 1 pods");
        assertThat(world.status(ConditionType.READY)).isEqualTo("True");

        // the image's entrypoint puts its own heap (or any option) after the operator's variable
        Map<String, Double> overridden = new LinkedHashMap<>(planned);
        String option = planned.keySet().iterator().next();
        overridden.put(option, planned.get(option) * 3 + 7);
        world.effectiveOptions = Map.of(pod, options(overridden));
        world.reconcile();
        assertThat(world.status(ConditionType.SETTINGS_EFFECTIVE)).isEqualTo("False");
        assertThat(world.reason(ConditionType.READY)).isEqualTo("SettingsNotEffective");
        assertThat(world.condition(ConditionType.READY).orElseThrow().getMessage()).contains(pod + ": " + option + " is ", "VM_CREATION");
        assertThat(world.last.events()).extracting(ProfileEvent::reason).contains(Reason.SETTINGS_NOT_EFFECTIVE);

        world.effectiveOptions = Map.of("orders-0", options(planned));
        world.reconcile();
        assertThat(world.status(ConditionType.SETTINGS_EFFECTIVE)).as("a pod of another template says nothing of these settings")
                .isEqualTo("Unknown");
    }

    @Test
    void virtualThreadPinningIsJudgedOnlyWhileThePodsReportIt() {
        World world = applied(APPLY);
        world.meanLatencyMillis = 100.0;
        world.reconcile();
        assertThat(world.condition(ConditionType.VIRTUAL_THREAD_PINNING)).as("a JDK without virtual threads: no condition").isEmpty();

        // 1.5 s of one carrier's 10 s window, nearly all of it in one class initializer
        world.pinning = Map.of("orders-1", new VirtualThreads.Pinning(10, 1, Map.of("com.example.Codes.<clinit>", new Pinned(3, 1.4),
                VirtualThreads.OTHER, new Pinned(1, 0.1))));
        world.reconcile();
        assertThat(world.status(ConditionType.VIRTUAL_THREAD_PINNING)).isEqualTo("True");
        assertThat(world.condition(ConditionType.VIRTUAL_THREAD_PINNING).orElseThrow().getMessage())
                .contains("15% of the carriers' time over 10s", "com.example.Codes.<clinit> pinned most, 93% of it");
        assertThat(world.last.events()).extracting(ProfileEvent::reason).contains(Reason.PINNED_TIME_HIGH);

        world.pinning = Map.of("orders-1", new VirtualThreads.Pinning(10, 1, Map.of(VirtualThreads.OTHER, new Pinned(0, 0))));
        world.reconcile();
        assertThat(world.reason(ConditionType.VIRTUAL_THREAD_PINNING)).isEqualTo("PinnedTimeNormal");

        world.pinning = null;
        world.reconcile();
        assertThat(world.condition(ConditionType.VIRTUAL_THREAD_PINNING)).as("the pods stopped reporting it").isEmpty();
    }

    @Test
    void eachSettingRenderedAsAReportedFlagSaysWhatItsPodsRunBesideThePlan() {
        World world = applied(APPLY);
        assertThat(setting(world, "heap.size").getEffective()).as("no pod reports: not judged").isNull();
        String pod = world.pods.get(0).getMetadata().getName();
        Map<String, Double> planned = Attestation.expected(List.of(world.profile.getStatus().getLastHealthy().getJvmOptions().split(" ")));

        world.effectiveOptions = Map.of(pod, options(planned));
        world.reconcile();
        Setting heap = setting(world, "heap.size");
        assertThat(heap.getRenderedAs()).startsWith("-Xmx");
        assertThat(heap.getEffective()).isEqualTo(heap.getValue() + " on 1 of 1 pods");
        assertThat(setting(world, "threads.max").getEffective()).as("an environment variable: no JVM option to read").isNull();

        Map<String, Double> overridden = new LinkedHashMap<>(planned);
        overridden.put("MaxHeapSize", 200.0 * 1024 * 1024);
        world.effectiveOptions = Map.of(pod, options(overridden));
        world.reconcile();
        assertThat(setting(world, "heap.size").getEffective()).isEqualTo("200Mi (VM_CREATION) on 1 of 1 pods");

        world.edit("runtime: SpringBootTomcat\nthreads: {max: 80}");
        world.reconcile();
        assertThat(setting(world, "heap.size").getEffective()).as("the new settings are rolling out: not judged yet").isNull();
    }

    @Test
    void withoutTheAgentTheSettingsTheRuntimesMetricsShowAreJudgedAndTheRestNamedNotInEffect() {
        World world = applied(APPLY);
        String pod = world.pods.get(0).getMetadata().getName();
        Map<String, Double> planned = Attestation.expected(List.of(world.profile.getStatus().getLastHealthy().getJvmOptions().split(" ")));
        double maxThreads = Double.parseDouble(setting(world, "threads.max").getValue());
        // Parallel's pools as Micrometer shows them (the plan's collector): they hold the heap less one of the two survivor spaces
        double heap = planned.get("MaxHeapSize");
        double young = planned.get("NewSize");
        Map<String, Double> pools = Map.of("PS Old Gen", heap - young, "PS Eden Space", young * 0.8, "PS Survivor Space", young * 0.1);

        world.effectiveOptions = Map.of(pod, RuntimeMetricsOptions.of(pools, maxThreads, null));
        world.reconcile();
        assertThat(world.status(ConditionType.SETTINGS_EFFECTIVE)).as("what was read holds, the rest is not known").isEqualTo("Unknown");
        assertThat(world.reason(ConditionType.SETTINGS_EFFECTIVE)).isEqualTo(Reason.PARTLY_REPORTED.text());
        assertThat(world.condition(ConditionType.SETTINGS_EFFECTIVE).orElseThrow().getMessage())
                .contains("in effect as far as read on 1 of 1 pods, read from the runtime's metrics: MaxHeapSize, UseParallelGC, threads.max",
                        "not checkable without the agent: UseContainerSupport", "the jvm-tuning agent (metrics.injectAgent) reads every planned");
        assertThat(world.status(ConditionType.READY)).isEqualTo("True");
        assertThat(world.condition(ConditionType.READY).orElseThrow().getMessage()).contains("what their JVMs run is read only in part")
                .doesNotContain("as their JVMs report");
        assertThat(setting(world, "threads.max").getEffective()).isEqualTo(setting(world, "threads.max").getValue() + " on 1 of 1 pods");
        assertThat(setting(world, "heap.size").getEffective()).isEqualTo(setting(world, "heap.size").getValue() + " on 1 of 1 pods");
        assertThat(world.profile.getStatus().getSettings())
                .filteredOn(s -> s.getRenderedAs() != null && s.getRenderedAs().startsWith("-XX:ActiveProcessorCount="))
                .as("not read: not said").singleElement().extracting(Setting::getEffective).isNull();

        world.effectiveOptions = Map.of(pod, RuntimeMetricsOptions.of(pools, maxThreads / 2, null));
        world.reconcile();
        assertThat(world.status(ConditionType.SETTINGS_EFFECTIVE)).isEqualTo("False");
        assertThat(world.condition(ConditionType.READY).orElseThrow().getMessage()).contains(pod + ": threads.max is ", "(runtime metrics)");
    }

    private static Setting setting(World world, String name) {
        return world.profile.getStatus().getSettings().stream().filter(s -> s.getName().equals(name)).findFirst().orElseThrow();
    }

    private static EffectiveOptions options(Map<String, Double> values) {
        Map<String, EffectiveOptions.Option> options = new LinkedHashMap<>();
        values.forEach((name, value) -> options.put(name, new EffectiveOptions.Option(value, EffectiveOptions.Origin.VM_CREATION)));
        return new EffectiveOptions(options);
    }

    @Test
    void theJavaVersionThePodsReportIsPlannedForAndKeptWhenAPollReportsNone() {
        World world = applied(APPLY);
        assertThat(world.profile.getStatus().getJavaVersion()).as("no JVM has said").isNull();
        assertThat(world.profile.getStatus().getSettings()).noneMatch(s -> "R21".equals(s.getRule()));

        world.javaVersion = 21;
        world.reconcile();
        assertThat(world.profile.getStatus().getJavaVersion()).isEqualTo(21);
        assertThat(world.profile.getStatus().getSettings()).as("JDK 21 has no compact headers").noneMatch(s -> "R21".equals(s.getRule()));
        world.rollOut();
        world.reconcile();
        String onJdk21 = world.hash();

        world.javaVersion = 25;
        world.reconcile();
        assertThat(world.profile.getStatus().getJavaVersion()).isEqualTo(25);
        assertThat(world.profile.getStatus().getSettings()).anyMatch(s -> "R21".equals(s.getRule()));
        assertThat(world.hash()).as("the new plan rolls out").isNotEqualTo(onJdk21);
        world.rollOut();
        world.reconcile();
        assertThat(world.reason(ConditionType.READY)).isEqualTo("Ready");

        String onJdk25 = world.hash();
        world.javaVersion = null;
        world.effectiveOptions = Map.of();
        Decide.Decision missed = world.reconcile();
        assertThat(missed.writes()).as("a poll without the version changes no plan").noneMatch(Write.ApplyDeployment.class::isInstance);
        assertThat(world.hash()).isEqualTo(onJdk25);
        assertThat(world.profile.getStatus().getJavaVersion()).isEqualTo(25);
        assertThat(world.profile.getStatus().getSettings()).anyMatch(s -> "R21".equals(s.getRule()));
    }

    /** The image gives the JVM a CDS archive the pod spec does not show; ZGC makes the JVM reject it. */
    @Test
    void anArchiveThePodsReportIsCheckedFromTheFirstPollThatReadsItAndKeptWhenAPollReportsNone() {
        World world = applied(APPLY + "\ngc: {collector: ZGC}");
        assertThat(world.profile.getStatus().getAotCache()).isNull();
        assertThat(world.profile.getStatus().getWarnings()).noneMatch(w -> w.contains("AOT cache"));

        world.effectiveOptions = Map.of("orders-1", options(Map.of("SharedArchiveFile", 1.0)));
        world.reconcile();
        assertThat(world.profile.getStatus().getAotCache()).isEqualTo("-XX:SharedArchiveFile on 1 of 1 pods");
        assertThat(world.profile.getStatus().getWarnings()).anyMatch(w -> w.contains("gc.collector ZGC makes the JVM reject the AOT cache "
                + "-XX:SharedArchiveFile on 1 of 1 pods (reported by their JVMs, set outside the pod spec"));

        world.effectiveOptions = Map.of("orders-1", EffectiveOptions.NONE);
        world.reconcile();
        assertThat(world.profile.getStatus().getAotCache()).as("a pod without the agent's options says nothing of it")
                .isEqualTo("-XX:SharedArchiveFile on 1 of 1 pods");

        world.effectiveOptions = Map.of("orders-1", options(Map.of("SharedArchiveFile", 0.0)));
        world.reconcile();
        assertThat(world.profile.getStatus().getAotCache()).as("the image no longer gives one").isNull();
        assertThat(world.profile.getStatus().getWarnings()).noneMatch(w -> w.contains("AOT cache"));
    }

    @Test
    void aChangedProfileWritesNewValuesAndPrunesTheOldOnes() {
        World world = applied(APPLY);
        String before = world.configMaps.keySet().iterator().next();

        world.edit("runtime: SpringBootTomcat\nthreads: {max: 80}");
        world.reconcile();
        assertThat(world.configMaps.keySet()).as("the last healthy values stay for a rollback").hasSize(2).contains(before);
        world.rollOut();
        world.reconcile();
        world.reconcile();
        assertThat(world.last.writes()).extracting(w -> (Class) w.getClass()).containsExactly(Write.PruneConfigMaps.class);
        assertThat(world.configMaps.keySet()).hasSize(1).doesNotContain(before);
        world.reconcile();
        assertThat(world.last.writes()).isEmpty();
    }

    @Test
    void failingPodsGoBackToTheLastHealthySettingsAndStayOut() {
        World world = applied(APPLY);
        String healthy = world.hash();

        world.edit("runtime: SpringBootTomcat\nthreads: {max: 80}");
        world.reconcile();
        String failing = world.hash();
        assertThat(failing).isNotEqualTo(healthy);
        world.rollOutFailing();
        world.reconcile();

        assertThat(world.hash()).as("back to the last healthy settings").isEqualTo(healthy);
        assertThat(world.reason(ConditionType.APPLIED)).isEqualTo("RolledBack");
        assertThat(world.condition(ConditionType.APPLIED).orElseThrow().getMessage()).contains("the last healthy settings " + healthy)
                .contains("CrashLoopBackOff");
        assertThat(world.profile.getStatus().getRolledBack().getSettingsHash()).isEqualTo(failing);
        assertThat(world.eventReasons()).contains(Reason.ROLLED_BACK);

        world.rollOut();
        for (int i = 0; i < 3; i++) {
            world.reconcile();
            assertThat(world.last.writes()).as("kept out").isEmpty();
            assertThat(world.hash()).isEqualTo(healthy);
            assertThat(world.reason(ConditionType.APPLIED)).isEqualTo("RolledBack");
        }
    }

    @Test
    void failingPodsOfTheFirstSettingsGiveTheUserTheirOwnTemplateBack() {
        World world = new World(APPLY);
        String userTemplate = Serialization.asJson(world.deployment.getSpec().getTemplate());
        world.reconcile();
        world.rollOutFailing();
        world.reconcile();

        assertThat(world.last.writes()).extracting(w -> (Class) w.getClass()).containsExactly(Write.RestoreDeployment.class);
        assertThat(Serialization.asJson(world.deployment.getSpec().getTemplate())).isEqualTo(userTemplate);
        assertThat(world.condition(ConditionType.APPLIED).orElseThrow().getMessage()).contains("the Deployment's own template");

        world.rollOut();
        world.reconcile();
        world.reconcile();
        assertThat(world.last.writes()).as("kept out").isEmpty();
        assertThat(world.hash()).isNull();
    }

    /** spec.rollback.window's default. */
    private static final Duration ROLLBACK_WINDOW = Duration.ofMinutes(5);
    private static final String APP_ERROR = "APPLICATION FAILED TO START\nDescription: Failed to bind properties under 'server.port'";

    @Test
    void aUsersReleaseThatCrashesIsReportedNotRolledBackAndItsFixKeepsTheTuning() {
        World world = applied(APPLY);
        String tuned = world.hash();
        String flags = world.jvmOptions();

        world.release("example/orders:2");
        world.reconcile();
        world.releaseFailing(APP_ERROR);
        for (int i = 0; i < 3; i++) {
            world.reconcile();
            assertThat(world.last.writes()).as("the settings stay").isEmpty();
        }
        assertThat(world.reason(ConditionType.APPLIED)).isEqualTo("Applied");
        assertThat(world.status(ConditionType.PODS_FAILING)).isEqualTo("True");
        assertThat(world.condition(ConditionType.PODS_FAILING).orElseThrow().getMessage()).contains("CrashLoopBackOff", "server.port",
                "not rolled back: the Deployment's own template changed");
        assertThat(world.eventReasons()).contains(Reason.NOT_HELD_TO_SETTINGS).doesNotContain(Reason.ROLLED_BACK);
        assertThat(world.profile.getStatus().getRollout().getCause()).isEqualTo("Template");

        world.release("example/orders:3");
        world.reconcile();
        world.rollOut();
        world.reconcile();
        assertThat(world.hash()).isEqualTo(tuned);
        assertThat(world.jvmOptions()).isEqualTo(flags);
        assertThat(world.reason(ConditionType.READY)).isEqualTo("Ready");
        assertThat(world.status(ConditionType.PODS_FAILING)).isEqualTo("False");
        assertThat(world.last.events()).extracting(ProfileEvent::warning, ProfileEvent::reason).contains(tuple(false, Reason.NO_POD_FAILING));
    }

    @Test
    void aReleaseWhoseJvmRefusesTheSettingsTakesThemBackUntilTheNextRelease() {
        World world = applied(APPLY);
        String tuned = world.hash();
        String release = Serialization.asJson(world.deployment.getSpec().getTemplate().getSpec().getContainers().get(0));

        world.release("example/orders:jdk11");
        world.reconcile();
        world.releaseFailing("Unrecognized VM option 'UseCompactObjectHeaders'\nError: Could not create the Java Virtual Machine.");
        world.reconcile();
        assertThat(world.reason(ConditionType.APPLIED)).isEqualTo("RolledBack");
        assertThat(world.hash()).as("the user's own template, of the new release").isNull();
        assertThat(world.profile.getStatus().getRefusedOption()).as("an option the settings do not carry").isNull();
        world.rollOut();
        world.reconcile();
        assertThat(world.last.writes()).as("kept out while the release stays").isEmpty();

        world.release("example/orders:4");
        world.reconcile();
        assertThat(world.hash()).as("a new release tries the settings again").isEqualTo(tuned);
        assertThat(release).isNotEqualTo(Serialization.asJson(world.deployment.getSpec().getTemplate().getSpec().getContainers().get(0)));
    }

    private static final String SHENANDOAH = APPLY + "\ngc: {collector: Shenandoah}";
    /** What a JDK build without Shenandoah (Oracle's) says of -XX:+UseShenandoahGC. */
    private static final String NO_SHENANDOAH = "Unrecognized VM option 'UseShenandoahGC'\nError: Could not create the Java Virtual Machine.\n"
            + "Error: A fatal exception has occurred. Program will exit.";

    /** The first settings rolled out on a JVM without Shenandoah: refused, taken back, then tried again without it. */
    private static World refusedThenRetried() {
        World world = new World(SHENANDOAH);
        world.reconcile();
        assertThat(world.jvmOptions()).contains("-XX:+UseShenandoahGC");
        world.rollOutFailing(NO_SHENANDOAH);
        world.reconcile();
        world.rollOut();
        world.reconcile();
        return world;
    }

    @Test
    void anOptionTheOperatorRenderedThatTheJvmRefusesIsDroppedAndTheRestRetriedOnce() {
        World world = new World(SHENANDOAH);
        world.reconcile();
        String refused = world.hash();
        world.rollOutFailing(NO_SHENANDOAH);
        world.reconcile();

        assertThat(world.reason(ConditionType.APPLIED)).as("the safety net first").isEqualTo("RolledBack");
        assertThat(world.hash()).as("the user's own template").isNull();
        assertThat(world.condition(ConditionType.APPLIED).orElseThrow().getMessage()).contains("Unrecognized VM option 'UseShenandoahGC'",
                "Their JVM refused -XX:+UseShenandoahGC, which the operator rendered: the settings without it are rolled out next, once");
        assertThat(world.profile.getStatus().getRefusedOption()).extracting(RefusedOption::getOption, RefusedOption::getFlag,
                RefusedOption::getJvmMessage, RefusedOption::getSettingsHash, RefusedOption::getGeneration)
                .containsExactly("UseShenandoahGC", "-XX:+UseShenandoahGC", "Unrecognized VM option 'UseShenandoahGC'", refused, 1L);
        assertThat(world.last.events()).filteredOn(e -> e.reason() == Reason.ROLLED_BACK).singleElement()
                .satisfies(e -> assertThat(e.message()).contains("-XX:+UseShenandoahGC", "Unrecognized VM option 'UseShenandoahGC'"));

        world.rollOut();
        world.reconcile();
        assertThat(world.hash()).as("the settings without the refused option").isNotNull().isNotEqualTo(refused);
        assertThat(world.jvmOptions()).doesNotContain("UseShenandoahGC").contains("-XX:ActiveProcessorCount=", "-Xmx");
        assertThat(world.profile.getStatus().getSettings()).filteredOn(s -> s.getName().equals("gc.collector")).extracting(Setting::getRenderedAs)
                .containsOnlyNulls();
        world.rollOut();
        world.reconcile();
        assertThat(world.reason(ConditionType.READY)).isEqualTo("Ready");
        assertThat(world.condition(ConditionType.APPLIED).orElseThrow()).satisfies(c -> {
            assertThat(c.getReason()).isEqualTo("Applied");
            assertThat(c.getMessage()).contains("without -XX:+UseShenandoahGC, which the JVM refused (Unrecognized VM option 'UseShenandoahGC')");
        });
        assertThat(world.events).filteredOn(e -> e.reason() == Reason.APPLIED).singleElement().satisfies(e -> {
            assertThat(e.warning()).isFalse();
            assertThat(e.message()).contains("-XX:+UseShenandoahGC", "Unrecognized VM option 'UseShenandoahGC'");
        });
        assertThat(world.profile.getStatus().getRolledBack()).as("the settings without it ran healthy").isNull();
        assertThat(world.profile.getStatus().getRefusedOption().getOption()).as("still left out").isEqualTo("UseShenandoahGC");

        world.reconcile();
        assertThat(world.last.writes()).as("settled").isEmpty();
    }

    @Test
    void settingsWithoutTheRefusedOptionThatFailTooAreTakenBackWithNoFurtherTry() {
        World world = refusedThenRetried();
        String retry = world.hash();
        world.rollOutFailing("Improperly specified VM option 'ActiveProcessorCount=1'\nError: Could not create the Java Virtual Machine.");
        world.reconcile();

        assertThat(world.reason(ConditionType.APPLIED)).isEqualTo("RolledBack");
        assertThat(world.hash()).isNull();
        assertThat(world.condition(ConditionType.APPLIED).orElseThrow().getMessage()).contains("pods of settings " + retry + " failed",
                "They are not applied again until the profile or the Deployment's own template changes");
        assertThat(world.profile.getStatus().getRefusedOption().getOption()).as("the one refusal tried, not a second").isEqualTo("UseShenandoahGC");
        world.rollOut();
        for (int i = 0; i < 3; i++) {
            world.reconcile();
            assertThat(world.last.writes()).as("kept out").isEmpty();
            assertThat(world.reason(ConditionType.APPLIED)).isEqualTo("RolledBack");
        }
    }

    @Test
    void aNewReleaseForgetsTheRefusalAndRendersTheOptionAgain() {
        World world = new World(SHENANDOAH);
        world.reconcile();
        String planned = world.hash();
        world.rollOutFailing(NO_SHENANDOAH);
        world.reconcile();
        world.rollOut();
        world.reconcile();
        world.rollOut();
        world.reconcile();
        assertThat(world.jvmOptions()).doesNotContain("UseShenandoahGC");

        world.release("example/orders:with-shenandoah");
        world.reconcile();
        assertThat(world.profile.getStatus().getRefusedOption()).isNull();
        assertThat(world.jvmOptions()).contains("-XX:+UseShenandoahGC");
        assertThat(world.hash()).isEqualTo(planned);
        world.rollOut();
        world.reconcile();
        assertThat(world.reason(ConditionType.READY)).isEqualTo("Ready");
        assertThat(world.condition(ConditionType.APPLIED).orElseThrow().getMessage()).doesNotContain("refused");
    }

    @Test
    void anOptionOfTheUsersOwnThatTheJvmRefusesTakesTheWholeTuningBackAsBefore() {
        World world = new World(APPLY + "\njvmOptions: [\"-XX:+UseStringDeduplication\"]");
        world.reconcile();
        assertThat(world.jvmOptions()).endsWith("-XX:+UseStringDeduplication");
        world.rollOutFailing("Unrecognized VM option 'UseStringDeduplication'\nError: Could not create the Java Virtual Machine.");
        world.reconcile();

        assertThat(world.reason(ConditionType.APPLIED)).isEqualTo("RolledBack");
        assertThat(world.hash()).isNull();
        assertThat(world.profile.getStatus().getRefusedOption()).as("not the operator's to drop").isNull();
        assertThat(world.condition(ConditionType.APPLIED).orElseThrow().getMessage())
                .contains("They are not applied again until the profile or the Deployment's own template changes");
        world.rollOut();
        for (int i = 0; i < 3; i++) {
            world.reconcile();
            assertThat(world.last.writes()).as("kept out").isEmpty();
        }
    }

    @Test
    void aReleaseOfAnotherJdkThatRefusesAnOptionOfTheLastIsPlannedAgainForAnyJdkThenForItsOwn() {
        World world = applied(APPLY);
        world.javaVersion = 25;
        world.reconcile();
        world.rollOut();
        world.reconcile();
        assertThat(world.jvmOptions()).contains("-XX:+UseCompactObjectHeaders");
        assertThat(world.profile.getStatus().getJvmImages()).isEqualTo("example/orders:1");

        world.release("example/orders:jdk21");
        world.reconcile();
        assertThat(world.profile.getStatus().getJavaVersion()).as("the old image's pods still run: nothing learned of the new").isEqualTo(25);
        world.javaVersion = null;
        world.releaseFailing("Picked up JAVA_TOOL_OPTIONS: -XX:+UseCompactObjectHeaders\nUnrecognized VM option 'UseCompactObjectHeaders'\n"
                + "Error: Could not create the Java Virtual Machine.");
        world.reconcile();
        assertThat(world.reason(ConditionType.APPLIED)).isEqualTo("RolledBack");
        assertThat(world.condition(ConditionType.APPLIED).orElseThrow().getMessage()).contains("Unrecognized VM option 'UseCompactObjectHeaders'");
        assertThat(world.profile.getStatus().getJavaVersion()).as("forgotten with the image it was read from").isNull();

        world.rollOut();
        world.reconcile();
        assertThat(world.jvmOptions()).as("planned again for any JDK").isNotNull().doesNotContain("UseCompactObjectHeaders");
        world.rollOut();
        world.javaVersion = 21;
        world.reconcile();
        assertThat(world.profile.getStatus().getJavaVersion()).isEqualTo(21);
        assertThat(world.profile.getStatus().getJvmImages()).isEqualTo("example/orders:jdk21");
    }

    @Test
    void anIncidentAfterTheRolloutWindowIsReportedNotRolledBack() {
        World world = applied(APPLY);
        String tuned = world.hash();
        world.now = world.now.plus(ROLLBACK_WINDOW);

        world.crashLoop("java.net.ConnectException: Connection refused (the database)");
        world.reconcile();
        world.reconcile();
        assertThat(world.hash()).isEqualTo(tuned);
        assertThat(world.reason(ConditionType.APPLIED)).isEqualTo("Applied");
        assertThat(world.condition(ConditionType.PODS_FAILING).orElseThrow().getMessage()).contains("CrashLoopBackOff", "Connection refused",
                "more than 300 s (spec.rollback.window)");
        assertThat(world.eventReasons()).contains(Reason.NOT_HELD_TO_SETTINGS).doesNotContain(Reason.ROLLED_BACK);
    }

    @Test
    void aCrashWithinTheWindowOfTheOperatorsOwnRolloutTakesTheSettingsBack() {
        World world = applied(APPLY);
        world.crashLoop("java.lang.IllegalStateException: too few threads");
        world.reconcile();
        assertThat(world.reason(ConditionType.APPLIED)).isEqualTo("RolledBack");
        assertThat(world.hash()).isNull();
    }

    @Test
    void recommendWritesNothingAndAfterApplyRestoresTheTemplate() {
        World recommending = new World("mode: Recommend\n" + APPLY);
        recommending.reconcile();
        assertThat(recommending.last.writes()).isEmpty();
        assertThat(recommending.reason(ConditionType.READY)).isEqualTo("RecommendOnly");
        assertThat(recommending.profile.getStatus().getSettings()).anyMatch(s -> s.getName().equals("threads.max") && s.getValue().equals("50"));

        World world = applied(APPLY);
        world.edit("mode: Recommend\n" + APPLY);
        world.reconcile();
        assertThat(world.last.writes()).extracting(w -> (Class) w.getClass()).containsExactly(Write.RestoreDeployment.class);
        assertThat(DeploymentTuning.tuned(world.deployment)).isFalse();
        assertThat(world.hash()).isNull();
        assertThat(world.eventReasons()).contains(Reason.RECOMMEND_ONLY);
        world.reconcile();
        assertThat(world.last.writes()).isEmpty();
    }

    @Test
    void theMeasuredWorkloadIsAdvisedOnlyFromWindowsOfJvmsPastTheirWarmUp() {
        World world = new World("mode: Recommend\nruntime: SpringBootTomcat\nworkload: {requestsPerSecond: 100, meanLatency: 500ms}\n"
                + "threads: {}\nmetrics: {warmUp: 30s}");
        world.meanLatencyMillis = 50.0;
        // The pod started at T0; each window is the 10 s before its reconcile: the first to begin 30 s after T0 ends at T0+40s.
        for (int reconcile = 1; reconcile <= 3; reconcile++) {
            world.reconcile();
            assertThat(world.profile.getStatus().getObserved()).as("every window is shown").isNotNull();
            assertThat(measuredAdvice(world)).as("window %d begins %d s after the JVM started", reconcile, 10 * (reconcile - 1)).isEmpty();
        }
        world.reconcile();
        assertThat(measuredAdvice(world)).contains("workload.meanLatency");

        world.rollOut();
        world.reconcile();
        assertThat(measuredAdvice(world)).as("a new JVM is cold again").isEmpty();
        assertThat(world.profile.getStatus().getLastRecommendations().getRecommendations())
                .extracting(Recommendation::getField).contains("workload.meanLatency");
    }

    private static List<String> measuredAdvice(World world) {
        return Objects.requireNonNullElse(world.profile.getStatus().getRecommendations(), List.<Recommendation>of()).stream()
                .map(Recommendation::getField).filter(field -> field.startsWith("workload.")).toList();
    }

    @Test
    void anInvalidOrInfeasibleProfileWritesNothingAndTakesItsSettingsBack() {
        World invalid = new World("container: sidecar\n" + APPLY);
        invalid.reconcile();
        assertThat(invalid.last.writes()).isEmpty();
        assertThat(invalid.reason(ConditionType.APPLIED)).isEqualTo("Invalid");
        assertThat(invalid.condition(ConditionType.APPLIED).orElseThrow().getMessage()).contains("has no container named sidecar");

        World infeasible = new World("heap: {size: 2Gi}");
        infeasible.reconcile();
        assertThat(infeasible.last.writes()).isEmpty();
        assertThat(infeasible.reason(ConditionType.APPLIED)).isEqualTo("Infeasible");
        assertThat(infeasible.condition(ConditionType.APPLIED).orElseThrow().getMessage()).contains("memory limit");
        assertThat(infeasible.eventReasons()).contains(Reason.INFEASIBLE);

        World world = applied(APPLY);
        world.edit("heap: {size: 2Gi}");
        world.reconcile();
        assertThat(world.last.writes()).extracting(w -> (Class) w.getClass()).containsExactly(Write.RestoreDeployment.class);
        assertThat(world.reason(ConditionType.APPLIED)).isEqualTo("Infeasible");
    }

    @Test
    void aMissingTargetIsSaidAndNothingWritten() {
        World world = new World(APPLY);
        world.deployment = null;
        world.reconcile();
        assertThat(world.last.writes()).isEmpty();
        assertThat(world.reason(ConditionType.READY)).isEqualTo("TargetNotFound");
        assertThat(world.condition(ConditionType.READY).orElseThrow().getMessage()).isEqualTo("Deployment orders not found in namespace shop");
    }

    @Test
    void aYoungerProfileOnTheSameDeploymentConflictsAndWritesNothing() {
        World world = new World(APPLY);
        world.others.add(profile("first", "threads: {max: 30}", T0.minusSeconds(60)));
        world.reconcile();
        assertThat(world.last.writes()).isEmpty();
        assertThat(world.reason(ConditionType.APPLIED)).isEqualTo("Conflict");
        assertThat(world.condition(ConditionType.APPLIED).orElseThrow().getMessage()).contains("already tuned by TuningProfile first");

        World older = new World(APPLY);
        older.others.add(profile("second", "threads: {max: 30}", T0.plusSeconds(60)));
        older.reconcile();
        assertThat(older.reason(ConditionType.APPLIED)).isEqualTo("Applied");
    }

    private static final String AUTO = """
            runtime: SpringBootTomcat
            mode: Auto
            workload: {requestsPerSecond: 100}
            metrics: {port: 8080, path: /metrics, interval: 5s}
            auto: {minInterval: 0s, warmUp: 0s, observationWindows: 1}
            """;

    /** An Auto profile whose first settings run on every pod, and the first window after: the loop's step from 200 threads. */
    private static World autoStepped() {
        World world = applied(AUTO);
        String before = world.hash();
        world.meanLatencyMillis = 100.0;
        world.reconcile();
        assertThat(world.auto().getHistory()).hasSize(1);
        AutoIteration step = world.auto().getHistory().get(0);
        assertThat(step.getFrom().getThreads()).as("the server's 200 threads in force").isEqualTo(200);
        assertThat(step.getTo().getThreads()).as(step.getReason()).isEqualTo(100);
        assertThat(step.getVerdict()).isEqualTo(AutoVerdict.Pending);
        assertThat(world.eventReasons()).contains(Reason.AUTO_STEP);
        world.reconcile();
        assertThat(world.hash()).as("the step's template").isNotEqualTo(before);
        world.rollOut();
        world.reconcile();
        return world;
    }

    @Test
    void autoCountsWindowsFromTheRolloutsCompletionAsItsRecordSays() {
        World world = new World(AUTO.replace("warmUp: 0s", "warmUp: 30s"));
        world.reconcile();
        world.rollOut();
        world.reconcile();
        Instant completed = Instant.parse(world.profile.getStatus().getRollout().getCompletedAt());
        assertThat(completed).as("the reconcile that saw every replica run it").isEqualTo(world.now);

        world.meanLatencyMillis = 100.0;
        // Windows of 10 s end at each reconcile: the one from completed+20s to +30s still lies in the warm-up.
        for (int i = 0; i < 3; i++) {
            world.reconcile();
            assertThat(world.auto().getHistory()).as("a window ending at %s", world.now).isEmpty();
        }
        world.reconcile();
        assertThat(world.auto().getHistory()).as("the first window wholly after the warm-up").hasSize(1);
        assertThat(world.auto().getHistory().get(0).getFrom().getThreads()).isEqualTo(200);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            platform: threads from the server's 200           | false |                                        | 200 | 100 | Pending   | false
            virtual threads: no thread count, nothing to step | true  |                                        |     |     | Converged | false
            virtual threads: the heap still steps             | true  | heapPercentOfLimit: {min: 30, max: 40} |     |     | Pending   | true
            """)
    void autoOnVirtualThreadsStepsNoThreadsAndSaysWhy(String label, boolean virtual, String bounds, Integer fromThreads, Integer toThreads,
            AutoVerdict verdict, boolean heapSteps) {
        World world = new World(AUTO.replace("observationWindows: 1", "observationWindows: 1" + (bounds == null ? "" : ", " + bounds)));
        if (virtual) {
            world.deployment.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv()
                    .add(new EnvVar("SPRING_THREADS_VIRTUAL_ENABLED", "true", null));
        }
        world.reconcile();
        world.rollOut();
        world.reconcile();
        world.meanLatencyMillis = 100.0;
        world.reconcile();

        AutoIteration iteration = world.auto().getHistory().get(0);
        assertThat(iteration.getFrom().getThreads()).as("the platform pool's 200 in the window are in force on platform threads only")
                .isEqualTo(fromThreads);
        assertThat(iteration.getTo().getThreads()).as(iteration.getReason()).isEqualTo(toThreads);
        assertThat(iteration.getReason().startsWith("heap.size")).as(iteration.getReason()).isEqualTo(heapSteps);
        assertThat(iteration.getVerdict()).as(iteration.getReason()).isEqualTo(verdict);
        assertThat(iteration.getReason().contains("threads.max is not stepped: requests run on virtual threads (the container's env sets "
                + "SPRING_THREADS_VIRTUAL_ENABLED=true)")).as(iteration.getReason()).isEqualTo(virtual);
    }

    @Test
    void autoStepsThenKeepsAStepThatIsNoWorse() {
        World world = autoStepped();
        world.reconcile();
        world.reconcile();
        assertThat(world.auto().getHistory().get(0).getVerdict()).isEqualTo(AutoVerdict.Kept);
        assertThat(world.eventReasons()).contains(Reason.AUTO_KEPT);
        assertThat(world.auto().getLastGood().getThreads()).as("the step's settings are the ones to come back to").isEqualTo(100);
        assertThat(world.eventReasons()).doesNotContain(Reason.AUTO_REVERTED);
    }

    /** An Auto profile whose loop stepped from 200 threads to 100, then to 34, and converged there. */
    private static World autoConverged() {
        World world = autoStepped();
        for (int i = 0; i < 10 && world.auto().getState() != AutoState.Converged; i++) {
            String template = world.hash();
            world.reconcile();
            if (!Objects.equals(template, world.hash())) {
                world.rollOut();
            }
        }
        assertThat(world.auto().getState()).isEqualTo(AutoState.Converged);
        assertThat(world.env("SERVER_TOMCAT_THREADS_MAX")).isEqualTo("34");
        return world;
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            a max lowered below the 34 threads the loop converged on | {max: 20} | 20
            a min raised above them                                  | {min: 50} | 50
            """)
    void boundsTightenedWhileAutoRestsBindAtTheNextReconcile(String label, String bounds, int threads) {
        World world = autoConverged();

        world.edit(AUTO.replace("observationWindows: 1", "observationWindows: 1, threads: " + bounds));
        world.reconcile();

        assertThat(world.env("SERVER_TOMCAT_THREADS_MAX")).as("rendered").isEqualTo(String.valueOf(threads));
        assertThat(world.auto().getSettings().getThreads()).as("the loop's settings").isEqualTo(threads);
        assertThat(world.auto().getState()).isEqualTo(AutoState.Converged);
        assertThat(world.last.events()).filteredOn(event -> event.reason() == Reason.AUTO_CLAMPED).singleElement()
                .satisfies(event -> assertThat(event.message()).contains("threads.max 34 -> " + threads));
        world.rollOut();
        for (int i = 0; i < 3; i++) {
            world.reconcile();
        }
        assertThat(world.env("SERVER_TOMCAT_THREADS_MAX")).isEqualTo(String.valueOf(threads));
        assertThat(world.auto().getState()).as("still resting, now within the bounds").isEqualTo(AutoState.Converged);
        assertThat(world.eventReasons().stream().filter(Reason.AUTO_CLAMPED::equals)).as("said once").hasSize(1);
    }

    @Test
    void autoRevertsAStepThatIsWorseThenHolds() {
        World world = applied(AUTO);
        String before = world.hash();
        world.meanLatencyMillis = 100.0;
        world.reconcile();
        world.reconcile();
        world.rollOut();
        world.reconcile();
        world.meanLatencyMillis = 300.0;
        world.reconcile();
        world.reconcile();

        assertThat(world.auto().getHistory().get(0).getVerdict()).isEqualTo(AutoVerdict.Reverted);
        assertThat(world.auto().getHistory().get(0).getReason()).contains("mean latency 100 -> 300 ms");
        assertThat(world.auto().getSettings().isNone()).as("the profile's own values again").isTrue();
        assertThat(world.hash()).as("the template before the step").isEqualTo(before);
        assertThat(world.eventReasons().stream().filter(Reason.AUTO_REVERTED::equals)).hasSize(1);

        world.rollOut();
        world.meanLatencyMillis = 100.0;
        for (int i = 0; i < 3; i++) {
            world.reconcile();
        }
        assertThat(world.auto().getState()).as("holding until the workload moves").isEqualTo(AutoState.Holding);
        assertThat(world.auto().getHistory()).hasSize(1);
        assertThat(world.hash()).isEqualTo(before);
        assertThat(world.eventReasons().stream().filter(Reason.AUTO_REVERTED::equals)).as("said once").hasSize(1);
    }

    @Test
    void autoSizesTheContainerForTheMeasuredLiveHeapAStepAtATimeEachStepJudged() {
        World world = new World(AUTO + "sizing: {memory: {policy: Plan, min: 256Mi}}\n");
        world.deployment.getSpec().getTemplate().getSpec().getContainers().get(0).getResources().getLimits().put("memory", new Quantity("4Gi"));
        world.rollOut();
        world.reconcile();
        world.rollOut();
        world.reconcile();
        assertThat(world.memoryLimit()).as("nothing says yet what heap the service needs: the container's memory is kept").isEqualTo("4Gi");
        world.meanLatencyMillis = 100.0;
        world.liveHeapMib = 60.0;

        List<Long> limits = new ArrayList<>();
        for (int i = 0; i < 12 && world.auto().getState() != AutoState.Converged; i++) {
            String template = world.hash();
            world.reconcile();
            if (!Objects.equals(template, world.hash())) {
                limits.add(Units.bytes(world.memoryLimit()));
                world.rollOut();
            }
        }

        assertThat(world.auto().getState()).isEqualTo(AutoState.Converged);
        assertThat(world.auto().getSettings().getLiveHeapMib()).as("the measured live heap, reached").isEqualTo(60);
        assertThat(limits).as("the limit each step rolled out: " + limits).hasSizeGreaterThan(1).isSortedAccordingTo(Comparator.reverseOrder());
        assertThat(limits.get(0)).as("the first step at most halves the live heap the heap in force is sized for")
                .isGreaterThan(limits.get(limits.size() - 1) * 2);
        assertThat(world.jvmOptions()).as("3 x 60Mi of heap").contains("-Xmx180m");
        assertThat(world.auto().getHistory()).filteredOn(it -> it.getVerdict() == AutoVerdict.Kept).isNotEmpty()
                .allSatisfy(it -> assertThat(it.getReason()).contains("workload.liveHeap", "60Mi of heap live after a collection"));
    }

    @Test
    void autoNamesTheAutoscalerOfItsTargetOnly() {
        World world = new World(AUTO);
        world.autoscalers.add(hpa("payments-scaler", "payments", 2, null));
        world.reconcile();
        assertThat(world.auto().getAutoscaler()).as("another Deployment's autoscaler is not the target's").isNull();

        world.autoscalers.add(hpa("orders-scaler", "orders", 3, 3));
        world.reconcile();
        assertThat(world.auto().getAutoscaler()).isEqualTo("scaled by HorizontalPodAutoscaler orders-scaler (3 to 6 replicas), 3 now:"
                + " the loop plans and judges per pod, and a step's verdict waits while the replicas move");
    }

    @Test
    void anAutoscalerOnMemoryBesideAHeapFixedAtStartIsSaidNeverToScaleDown() {
        World world = new World("runtime: SpringBootTomcat\nthreads: {max: 50}\nheap: {size: 512Mi}");
        world.reconcile();
        assertThat(world.condition(ConditionType.SCALE_DOWN_BLOCKED)).as("no autoscaler: nothing to say").isEmpty();
        HorizontalPodAutoscaler onMemory = hpa("orders-scaler", "orders", 2, 2);
        onMemory.getSpec().setMetrics(List.of(new MetricSpecBuilder().withType("Resource").withNewResource().withName("memory")
                .withNewTarget().withType("Utilization").withAverageUtilization(70).endTarget().endResource().build()));
        world.autoscalers.add(onMemory);
        world.reconcile();

        assertThat(world.jvmOptions()).contains("-Xms512m -Xmx512m");
        assertThat(world.status(ConditionType.SCALE_DOWN_BLOCKED)).isEqualTo("True");
        assertThat(world.condition(ConditionType.SCALE_DOWN_BLOCKED).orElseThrow().getMessage())
                .startsWith("HorizontalPodAutoscaler orders-scaler scales the Deployment on memory, and the plan starts the heap at its maximum");
        assertThat(world.eventReasons()).contains(Reason.HEAP_FIXED_AT_START);

        onMemory.getSpec().getMetrics().get(0).getResource().setName("cpu");
        world.reconcile();
        assertThat(world.condition(ConditionType.SCALE_DOWN_BLOCKED)).as("on CPU the heap holds nothing back").isEmpty();
    }

    @Test
    void thePoolAddsUpOverTheMostReplicasTheAutoscalerAllowsWithinTheDatabasesConnections() {
        String spec = "runtime: SpringBootTomcat\nworkload: {requestsPerSecond: 400, dbTimePerRequest: 50ms}\n"
                + "connectionPool: {databaseConnections: 60}";
        World world = new World(spec);
        world.reconcile();
        assertThat(world.env("SPRING_DATASOURCE_HIKARI_MAXIMUMPOOLSIZE")).as("one replica: the demand's 25").isEqualTo("25");

        world.autoscalers.add(hpa("orders-scaler", "orders", 1, 1));
        world.reconcile();
        assertThat(world.env("SPRING_DATASOURCE_HIKARI_MAXIMUMPOOLSIZE")).as("60 connections over the autoscaler's 6 replicas").isEqualTo("10");
        assertThat(world.profile.getStatus().getSettings()).anySatisfy(s -> assertThat(s.getRationale())
                .contains("over the 6 replicas the Deployment may run = 10"));
    }

    private static HorizontalPodAutoscaler hpa(String name, String deployment, int min, Integer current) {
        return new HorizontalPodAutoscalerBuilder().withNewMetadata().withName(name).withNamespace(NAMESPACE).endMetadata()
                .withNewSpec().withNewScaleTargetRef().withApiVersion("apps/v1").withKind("Deployment").withName(deployment).endScaleTargetRef()
                .withMinReplicas(min).withMaxReplicas(6).endSpec()
                .withNewStatus().withCurrentReplicas(current).endStatus().build();
    }

    @Test
    void autosStateIsDroppedOutsideAuto() {
        World world = autoStepped();
        assertThat(world.auto()).isNotNull();
        world.edit(APPLY);
        world.reconcile();
        assertThat(world.auto()).isNull();
        assertThat(world.jvmOptions()).doesNotContain("maxThreads");
    }

    @Test
    void cleanupGivesTheTemplateBackAndDeletesTheProfilesConfigMaps() {
        World world = applied(APPLY);
        ConfigMap foreign = Serialization.clone(world.configMaps.values().iterator().next());
        foreign.getMetadata().setName("someone-elses");
        foreign.getMetadata().setOwnerReferences(List.of());
        world.configMaps.put("someone-elses", foreign);

        List<Write> writes = Decide.cleanup(world.profile, Optional.of(world.deployment), List.copyOf(world.configMaps.values()));
        assertThat(writes).extracting(w -> (Class) w.getClass()).containsExactly(Write.RestoreDeployment.class, Write.DeleteConfigMaps.class);
        world.perform(writes);
        assertThat(DeploymentTuning.tuned(world.deployment)).isFalse();
        assertThat(world.configMaps.keySet()).containsExactly("someone-elses");

        World untouched = new World("container: sidecar\n" + APPLY);
        assertThat(Decide.cleanup(untouched.profile, Optional.of(untouched.deployment), List.of())).extracting(w -> (Class) w.getClass()).containsExactly(Write.DeleteConfigMaps.class);
    }

    @Test
    void aRefusedWriteLeavesNothingOfTheDecisionButApplyFailed() {
        World world = new World(APPLY);
        world.now = world.now.plusSeconds(10);
        Observation seen = world.observe();
        assertThat(Decide.of(seen, INSTALLATION).writes()).isNotEmpty();

        Decide.Decision refused = Decide.writesRefused(seen, "admission webhook denied the request");
        world.record(refused);
        assertThat(refused.writes()).isEmpty();
        assertThat(world.reason(ConditionType.APPLIED)).isEqualTo("ApplyFailed");
        assertThat(world.reason(ConditionType.READY)).isEqualTo("ApplyFailed");
        assertThat(world.condition(ConditionType.APPLIED).orElseThrow().getMessage())
                .isEqualTo("writing to Deployment orders failed: admission webhook denied the request");
        assertThat(world.profile.getStatus().getSettings()).as("the plan was not applied, so not shown").isEmpty();
        assertThat(refused.events()).extracting(ProfileEvent::reason).containsExactly(Reason.APPLY_FAILED);

        world.reconcile();
        assertThat(world.reason(ConditionType.APPLIED)).as("the next reconcile tries again").isEqualTo("Applied");
    }

    /** As the client reports a status patch a loaded API server did not answer within its timeout: no message, its cause. */
    @Test
    void aReconcileFailureWithoutAMessageIsNamedByItsCause() {
        World world = applied(APPLY);
        Decide.Decision failed = Decide.reconcileFailed(world.profile, new RuntimeException(null, new java.util.concurrent.TimeoutException()),
                world.now.plusSeconds(1));
        world.record(failed);
        assertThat(world.condition(ConditionType.READY).orElseThrow().getMessage())
                .isEqualTo("reconcile failed: RuntimeException (caused by TimeoutException)");
    }

    @Test
    void aReconcileFailureSaysSoInReadyAndLeavesTheRest() {
        World world = applied(APPLY);
        Decide.Decision failed = Decide.reconcileFailed(world.profile, new IllegalStateException("informer not synced"), world.now.plusSeconds(1));
        world.record(failed);
        assertThat(failed.writes()).isEmpty();
        assertThat(world.reason(ConditionType.READY)).isEqualTo("ReconcileFailed");
        assertThat(world.condition(ConditionType.READY).orElseThrow().getMessage())
                .isEqualTo("reconcile failed: IllegalStateException: informer not synced");
        assertThat(world.reason(ConditionType.APPLIED)).as("the last reconcile's writes may have gone through").isEqualTo("Applied");
        assertThat(failed.events()).extracting(ProfileEvent::warning, ProfileEvent::reason)
                .containsExactly(tuple(true, Reason.RECONCILE_FAILED));
    }

    private static final long MIB = 1024L * 1024;
    /** A pod that held 300 MiB of heap, little else the JVM accounts for, and 900 MiB resident: native memory beyond the JVM's. */
    private static final MemoryUse NATIVE_LEAK = new MemoryUse(250 * MIB, 300 * MIB, 60 * MIB, 10 * MIB, 30L, 900 * MIB, NativeMemory.NONE);

    @Test
    void aRollbackOfOomKilledPodsSaysTheCauseFromThePodsLastReading() {
        World world = applied(APPLY);
        world.edit("runtime: SpringBootTomcat\nthreads: {max: 80}");
        world.reconcile();
        world.rollOutOomKilled();
        String pod = world.pods.get(0).getMetadata().getName();
        world.memory = Map.of(pod, NATIVE_LEAK, "orders-0", MemoryUse.NONE);
        world.reconcile();

        assertThat(world.reason(ConditionType.APPLIED)).isEqualTo("RolledBack");
        assertThat(world.condition(ConditionType.APPLIED).orElseThrow().getMessage())
                .contains("container app: OOMKilled; last exit code 137")
                .contains("pod " + pod + " OOM-killed, cause NATIVE_OTHER: OOM-killed at limit 1024 MiB: native beyond these 500 MiB "
                        + "(resident 900 MiB) beyond heap committed 300 MiB");
        LastOomKill kill = world.profile.getStatus().getLastOomKill();
        assertThat(kill.getCause()).isEqualTo("NATIVE_OTHER");
        assertThat(kill.getSettingsHash()).isEqualTo(world.profile.getStatus().getRolledBack().getSettingsHash());
        assertThat(kill.getMemoryLimitBytes()).isEqualTo(1024 * MIB);
        assertThat(kill.getPlannedHeapBytes()).as("the plan of the settings the pod ran").isNotNull();
    }

    /**
     * The poll after a kill finds the pod restarting, not Ready, and reads nothing of it: the kill is explained from the
     * pod's last reading before it, never from one of the JVM started after it.
     */
    @Test
    void aKillIsExplainedFromThePodsLastReadingBeforeItWhenThePollAfterItFindsNoReadyPod() {
        World world = applied(APPLY);
        String pod = world.pods.get(0).getMetadata().getName();
        world.now = world.now.plus(ROLLBACK_WINDOW);
        world.reconcile();
        Instant killed = world.now;
        world.oomKill();
        world.lastReadings = Map.of(pod, new LastReading(NATIVE_LEAK, EffectiveOptions.NONE, killed.minusSeconds(5)));
        world.reconcile();
        assertThat(world.profile.getStatus().getLastOomKill().getCause()).isEqualTo("NATIVE_OTHER");

        World later = applied(APPLY);
        later.now = later.now.plus(ROLLBACK_WINDOW);
        later.reconcile();
        Instant killedToo = later.now;
        later.oomKill();
        later.lastReadings = Map.of(later.pods.get(0).getMetadata().getName(), new LastReading(NATIVE_LEAK, EffectiveOptions.NONE, killedToo.plusSeconds(5)));
        later.reconcile();
        assertThat(later.profile.getStatus().getLastOomKill().getMessage()).as("a reading after the kill")
                .contains("no memory reading of the pod before it ended");
    }

    @Test
    void aLaterKillOfAHealthyPodIsRecordedAndAnnouncedOncePerKill() {
        World world = applied(APPLY);
        String pod = world.pods.get(0).getMetadata().getName();
        world.memory = Map.of(pod, NATIVE_LEAK);
        world.now = world.now.plus(ROLLBACK_WINDOW);
        world.reconcile();
        assertThat(world.profile.getStatus().getLastOomKill()).isNull();

        world.oomKill();
        world.reconcile();
        assertThat(world.reason(ConditionType.APPLIED)).as("settings that ran healthy are not taken back").isEqualTo("Applied");
        LastOomKill kill = world.profile.getStatus().getLastOomKill();
        assertThat(kill.getPod()).isEqualTo(pod);
        assertThat(kill.getRestartCount()).isZero();
        assertThat(kill.getCause()).isEqualTo("NATIVE_OTHER");
        assertThat(kill.getMessage()).startsWith("pod " + pod + " OOM-killed, cause NATIVE_OTHER: OOM-killed at limit 1024 MiB");
        assertThat(world.last.events()).extracting(ProfileEvent::warning, ProfileEvent::reason, ProfileEvent::message)
                .containsExactly(tuple(true, Reason.OOM_KILLED, kill.getMessage()));

        world.restartKilled();
        world.reconcile();
        world.reconcile();
        assertThat(world.profile.getStatus().getLastOomKill()).as("the same kill, now the container's last state").isEqualTo(kill);
        assertThat(world.eventReasons().stream().filter(Reason.OOM_KILLED::equals)).as("said once").hasSize(1);

        world.now = world.now.plusSeconds(60);
        world.oomKill();
        world.restartKilled();
        world.reconcile();
        assertThat(world.profile.getStatus().getLastOomKill().getRestartCount()).isEqualTo(2);
        assertThat(world.eventReasons().stream().filter(Reason.OOM_KILLED::equals)).as("the next kill is another").hasSize(2);
    }

    @Test
    void aKillOfAPodWhoseJvmRunsAnotherHeapThanPlannedIsExplainedNotAnsweredWithABudget() {
        World world = applied(APPLY);
        String pod = world.pods.get(0).getMetadata().getName();
        // an -Xmx in the image's entrypoint, after the operator's variable: the JVM runs 900 MiB and holds nearly all of it
        Map<String, Double> entrypointHeap = new LinkedHashMap<>(Attestation.expected(List.of(
                world.profile.getStatus().getLastHealthy().getJvmOptions().split(" "))));
        entrypointHeap.put("MaxHeapSize", 900.0 * MIB);
        world.effectiveOptions = Map.of(pod, options(entrypointHeap));
        world.memory = Map.of(pod, new MemoryUse(800 * MIB, 890 * MIB, 60 * MIB, 5 * MIB, 40L, 1010 * MIB, NativeMemory.NONE));
        world.now = world.now.plus(ROLLBACK_WINDOW);
        world.reconcile();
        assertThat(world.status(ConditionType.SETTINGS_EFFECTIVE)).isEqualTo("False");
        String settings = world.hash();

        world.oomKill();
        world.reconcile();
        LastOomKill kill = world.profile.getStatus().getLastOomKill();
        assertThat(kill.getCause()).isEqualTo("HEAP_NOT_PLANNED");
        assertThat(kill.getMessage()).startsWith("pod " + pod + " OOM-killed, cause HEAP_NOT_PLANNED: OOM-killed at limit 1024 MiB: the JVM runs "
                + "max heap 900 MiB, not the planned " + kill.getPlannedHeapBytes() / MIB + " MiB: its heap is set outside the operator");
        assertThat(kill.getAnsweredInARow()).isZero();
        assertThat(world.last.events()).extracting(ProfileEvent::reason, ProfileEvent::message)
                .containsExactly(tuple(Reason.OOM_KILLED, kill.getMessage()));

        world.restartKilled();
        world.reconcile();
        world.reconcile();
        assertThat(world.last.writes()).as("no new plan").noneMatch(w -> w instanceof Write.ApplyDeployment);
        assertThat(world.hash()).isEqualTo(settings);
        assertThat(world.profile.getStatus().getSettings()).noneMatch(s -> "R9b".equals(s.getRule()));
        assertThat(world.reason(ConditionType.APPLIED)).isEqualTo("Applied");
        assertThat(world.reason(ConditionType.READY)).isEqualTo("SettingsNotEffective");
        assertThat(world.condition(ConditionType.READY).orElseThrow().getMessage()).contains(pod + ": MaxHeapSize is 900Mi (VM_CREATION)");
    }

    @Test
    void aKillWithoutAReadingBeforeItIsUnknownSaidPlainly() {
        World never = applied(APPLY);
        never.oomKill();
        never.reconcile();
        assertThat(never.profile.getStatus().getLastOomKill().getCause()).isEqualTo("UNKNOWN");
        assertThat(never.profile.getStatus().getLastOomKill().getMessage())
                .endsWith("cause UNKNOWN: OOM-killed at limit 1024 MiB: no memory reading of the pod before it ended");

        World late = applied(APPLY);
        late.memory = Map.of(late.pods.get(0).getMetadata().getName(), NATIVE_LEAK);
        late.meanLatencyMillis = 50.0;
        late.oomKill();
        late.reconcile();
        assertThat(late.profile.getStatus().getLastOomKill().getCause()).as("a poll after the kill read the restarted JVM")
                .isEqualTo("UNKNOWN");
    }

    /** A Tomcat pod's memory with native memory tracking: the planned 540Mi heap committed, and its thread stacks as given. */
    private static MemoryUse trackedPod(long stacks, long threads, long resident) {
        Map<String, Long> categories = Map.of("Java Heap", 540 * MIB, "Class", 100 * MIB, "Thread", stacks, "Code", 60 * MIB,
                "Other", 20 * MIB, "GC", 40 * MIB);
        return new MemoryUse(400 * MIB, 540 * MIB, 100 * MIB, 12 * MIB, threads, resident,
                new NativeMemory(categories, categories.values().stream().mapToLong(Long::longValue).sum()));
    }

    @Test
    void nativeMemoryPastItsBudgetNearTheLimitIsPressureAnnouncedOncePerTransition() {
        World world = applied(APPLY);
        String pod = world.pods.get(0).getMetadata().getName();
        world.meanLatencyMillis = 50.0;
        world.memory = Map.of(pod, trackedPod(22 * MIB, 90, 700 * MIB));
        world.reconcile();
        assertThat(world.reason(ConditionType.NATIVE_MEMORY_PRESSURE)).isEqualTo("MemoryHeadroom");
        assertThat(world.condition(ConditionType.NATIVE_MEMORY_PRESSURE).orElseThrow().getMessage())
                .isEqualTo("pod " + pod + " at 700Mi of its 1024Mi limit (68%), 324Mi (32%) below it");
        assertThat(world.profile.getStatus().getObserved().getMemory().getBuckets())
                .extracting(b -> b.getBucket() + " " + b.getUsed() + (b.getCommitted() == null ? "" : " (committed " + b.getCommitted() + ")") + "/"
                        + b.getBudget())
                .contains("heap 400Mi (committed 540Mi)/540Mi", "threadStacks 22Mi/23Mi");

        world.memory = Map.of(pod, trackedPod(250 * MIB, 1000, 1000 * MIB));
        world.reconcile();
        assertThat(world.status(ConditionType.NATIVE_MEMORY_PRESSURE)).isEqualTo("True");
        String message = world.condition(ConditionType.NATIVE_MEMORY_PRESSURE).orElseThrow().getMessage();
        assertThat(message).startsWith("pod " + pod + " at 1000Mi of its 1024Mi limit (98%); thread stacks 250Mi against a budget of 23Mi "
                + "(1000 threads), 226Mi over; heap 540Mi of its 540Mi");
        assertThat(world.last.events()).extracting(ProfileEvent::warning, ProfileEvent::reason, ProfileEvent::message)
                .containsExactly(tuple(true, Reason.NATIVE_MEMORY_OVER_BUDGET, message));

        TuningProfileStatus shown = world.profile.getStatus();
        world.memory = Map.of(pod, trackedPod(251 * MIB, 1003, 1003 * MIB));
        world.reconcile();
        assertThat(world.last.events()).as("still True: no second Warning").isEmpty();
        assertThat(world.last.status()).as("figures within noise of those shown: no status write").isEqualTo(shown);

        world.memory = Map.of(pod, trackedPod(22 * MIB, 90, 700 * MIB));
        world.reconcile();
        assertThat(world.last.events()).extracting(ProfileEvent::warning, ProfileEvent::reason).containsExactly(tuple(false, Reason.MEMORY_HEADROOM));
    }

    /** A pod whose class metadata outgrew its budget: 200 MiB of metaspace beside 400 MiB of heap, 700 MiB resident. */
    private static final MemoryUse METASPACE_GROWTH = new MemoryUse(200 * MIB, 400 * MIB, 200 * MIB, 10 * MIB, 60L, 700 * MIB, NativeMemory.NONE);

    /** New settings roll out and their pod is OOM-killed with metaspace grown past its budget; returns the rolled-back hash. */
    private static String killedInRollout(World world) {
        world.rollOutOomKilled();
        String killed = world.hash();
        world.memory = Map.of(world.pods.get(0).getMetadata().getName(), METASPACE_GROWTH);
        world.reconcile();
        assertThat(world.reason(ConditionType.APPLIED)).isEqualTo("RolledBack");
        return killed;
    }

    @Test
    void anOomKillWithAKnownCauseIsAnsweredByANewBudgetThatRollsOutUnderANewHash() {
        World world = applied(APPLY);
        world.edit("runtime: SpringBootTomcat\nthreads: {max: 80}");
        world.reconcile();
        String killed = killedInRollout(world);
        LastOomKill kill = world.profile.getStatus().getLastOomKill();
        assertThat(kill.getCause()).isEqualTo("METASPACE");
        assertThat(kill.getObservedBytes()).isEqualTo(200 * MIB);
        assertThat(kill.getBudgetBytes()).as("the metaspace budget of the pod's plan").isBetween(104 * MIB, 105 * MIB);
        assertThat(kill.getAnsweredInARow()).isEqualTo(1);
        assertThat(world.eventReasons()).contains(Reason.OOM_KILLED, Reason.ROLLED_BACK);

        Decide.Decision answer = world.reconcile();
        assertThat(answer.writes()).anyMatch(w -> w instanceof Write.ApplyDeployment);
        String answered = world.hash();
        assertThat(answered).isNotEqualTo(killed).isNotNull();
        assertThat(world.profile.getStatus().getRolledBack().getSettingsHash()).as("the killed settings stay out").isEqualTo(killed);
        assertThat(world.reason(ConditionType.APPLIED)).isEqualTo("Applied");
        assertThat(setting(world, "jvm.metaspaceBudget").getValue()).isEqualTo("250Mi");
        assertThat(setting(world, "jvm.metaspaceBudget").getRationale())
                .startsWith("pod " + kill.getPod() + " OOM-killed at 1024Mi, metaspace 200Mi against its 104Mi budget: metaspace budget 104Mi -> 250Mi, heap ");
        assertThat(setting(world, "heap.size").getRationale()).startsWith("pod " + kill.getPod() + " OOM-killed at 1024Mi");

        world.rollOut();
        world.reconcile();
        assertThat(world.reason(ConditionType.READY)).isEqualTo("Ready");
        assertThat(world.profile.getStatus().getLastOomKill().getAnsweredInARow()).as("a healthy rollout ends the kills in a row").isZero();
        assertThat(world.hash()).as("one kill, one answer").isEqualTo(answered);
    }

    @Test
    void aKillOfUnknownCauseStaysRolledBackAndNothingIsReplanned() {
        World world = applied(APPLY);
        world.edit("runtime: SpringBootTomcat\nthreads: {max: 80}");
        world.reconcile();
        world.rollOutOomKilled();
        world.reconcile();
        assertThat(world.profile.getStatus().getLastOomKill().getCause()).isEqualTo("UNKNOWN");
        String back = world.hash();
        world.reconcile();
        assertThat(world.reason(ConditionType.APPLIED)).isEqualTo("RolledBack");
        assertThat(world.hash()).isEqualTo(back);
        assertThat(world.profile.getStatus().getSettings()).noneMatch(s -> "R9b".equals(s.getRule()));
    }

    @Test
    void afterThreeAnsweredKillsInARowTheFourthLeavesTheDeploymentOnItsOwnTemplate() {
        World world = applied(APPLY);
        world.edit("runtime: SpringBootTomcat\nthreads: {max: 80}");
        world.reconcile();
        for (int kill = 1; kill <= OomAnswer.MAX_ANSWERED_IN_A_ROW + 1; kill++) {
            killedInRollout(world);
            assertThat(world.profile.getStatus().getLastOomKill().getAnsweredInARow()).isEqualTo(kill);
            world.reconcile();
        }
        assertThat(world.reason(ConditionType.APPLIED)).isEqualTo("OomKillsRepeated");
        assertThat(world.condition(ConditionType.READY).orElseThrow().getMessage())
                .startsWith("pods were OOM-killed 4 times in a row for METASPACE, the first 3 answered each with a larger budget")
                .contains("the Deployment stays on its own template until the profile changes");
        assertThat(world.hash()).as("the Deployment's own template").isNull();
        assertThat(world.jvmOptions()).isNull();
        world.reconcile();
        assertThat(world.last.writes()).noneMatch(w -> w instanceof Write.ApplyDeployment);
        assertThat(world.eventReasons()).contains(Reason.OOM_KILLS_REPEATED);

        world.edit("runtime: SpringBootTomcat\nthreads: {max: 60}");
        world.reconcile();
        assertThat(world.reason(ConditionType.APPLIED)).as("a changed profile answers the last kill afresh, which no longer fits")
                .isEqualTo("Infeasible");
        assertThat(world.condition(ConditionType.APPLIED).orElseThrow().getMessage()).startsWith("pod ")
                .contains("OOM-killed at 1024Mi, metaspace 200Mi against its ").contains("memory limit leaves");
    }

    @Test
    void withTheMemorySizedUpToAMaximumTheKillsRaiseTheLimitBeyondThreeAnswersAndTheMaximumStopsThem() {
        World world = applied(APPLY);
        world.edit("runtime: SpringBootTomcat\nthreads: {max: 80}\nworkload: {liveHeap: 100Mi}\nsizing: {memory: {policy: Plan, max: 2Gi}}");
        world.reconcile();
        List<String> limits = new ArrayList<>(List.of(setting(world, "resources.limits.memory").getValue()));
        int kills = 0;
        while (!"Infeasible".equals(world.reason(ConditionType.APPLIED)) && kills < 10) {
            killedInRollout(world);
            kills++;
            world.reconcile();
            assertThat(world.reason(ConditionType.APPLIED)).as("kill %d answered: the maximum bounds the answers, not their count", kills)
                    .isNotEqualTo("OomKillsRepeated");
            world.profile.getStatus().getSettings().stream().filter(s -> s.getName().equals("resources.limits.memory")).findFirst()
                    .ifPresent(limit -> limits.add(limit.getValue()));
        }
        // 200Mi of metaspace at each kill, its budget raised 1.5x each time: 664Mi, 835Mi, 982Mi, 1410Mi, 1742Mi, then 2Gi
        assertThat(kills).as("more kills answered than three").isGreaterThan(OomAnswer.MAX_ANSWERED_IN_A_ROW + 1);
        assertThat(limits.stream().map(dev.jvmtuning.operator.model.Units::bytes).toList()).as("the limit raised by each answer: " + limits)
                .isSorted().contains(2048 * MIB);
        assertThat(world.condition(ConditionType.APPLIED).orElseThrow().getMessage()).as("stopped at the maximum, with the figures")
                .contains("OOM-killed", "the 2048Mi memory limit leaves");
    }

    @Test
    void inModeRecommendAKillIsAnsweredByRecommendationsOnly() {
        World world = new World("mode: Recommend\nruntime: SpringBootTomcat\nthreads: {max: 80}");
        world.reconcile();
        String pod = world.pods.get(0).getMetadata().getName();
        world.memory = Map.of(pod, METASPACE_GROWTH);
        world.oomKill();
        world.reconcile();
        LastOomKill kill = world.profile.getStatus().getLastOomKill();
        assertThat(kill.getCause()).isEqualTo("METASPACE");
        assertThat(kill.getBudgetBytes()).as("held against the budget Apply would give it").isBetween(104 * MIB, 105 * MIB);

        world.restartKilled();
        world.meanLatencyMillis = 50.0;
        world.reconcile();
        world.reconcile();
        assertThat(world.last.writes()).noneMatch(w -> w instanceof Write.ApplyDeployment);
        assertThat(world.hash()).isNull();
        assertThat(world.reason(ConditionType.APPLIED)).isEqualTo("RecommendOnly");
        assertThat(world.profile.getStatus().getRecommendations()).filteredOn(r -> r.getField().equals("jvm.metaspaceBudget"))
                .singleElement().satisfies(r -> {
                    assertThat(r.getRecommended()).isEqualTo("250Mi");
                    assertThat(r.getReason()).startsWith("pod " + pod + " OOM-killed at 1024Mi, metaspace 200Mi against its 104Mi budget");
                });
        assertThat(world.profile.getStatus().getRecommendations()).anyMatch(r -> r.getField().equals("heap.size"));
    }

    private static final String BOOSTED = APPLY + "\nstartupBoost: {cpu: '4', warmUp: 30s}";

    /** A pod of the template in force just placed on a node: its JVM is starting, not Ready yet. */
    private static Pod startingPod(World world) {
        return new PodBuilder().withNewMetadata().withName("orders-new").withUid("orders-new-uid").withNamespace(NAMESPACE)
                .withCreationTimestamp(world.now.toString())
                .withAnnotations(world.deployment.getSpec().getTemplate().getMetadata().getAnnotations()).endMetadata()
                .withSpec(Serialization.clone(world.deployment.getSpec().getTemplate().getSpec())).editSpec().withNodeName("node-1").endSpec()
                .withNewStatus().addNewCondition().withType("Ready").withStatus("False").endCondition()
                .addNewContainerStatus().withName("app").withReady(false).withRestartCount(0).endContainerStatus().endStatus().build();
    }

    @Test
    void aStartupBoostRaisesAStartingPodWhileTheJvmKeepsTheSteadyCpuCount() {
        World world = new World(BOOSTED);
        world.reconcile();
        world.rollOut();
        world.reconcile();
        world.pods = List.of(startingPod(world));

        Decide.Decision decision = world.reconcile();

        assertThat(decision.resizes()).singleElement().satisfies(r -> {
            assertThat(r.pod()).isEqualTo("orders-new");
            assertThat(r.limit()).hasToString("4");
        });
        assertThat(world.status(ConditionType.STARTUP_BOOST)).isEqualTo("True");
        assertThat(world.reason(ConditionType.STARTUP_BOOST)).isEqualTo("Boosting");
        assertThat(decision.events()).extracting(ProfileEvent::reason).contains(Reason.STARTUP_BOOST_STARTED);
        assertThat(world.jvmOptions()).as("the template's limit of 2 CPUs, not the boost").contains("-XX:ActiveProcessorCount=2");
        assertThat(world.deployment.getSpec().getTemplate().getSpec().getContainers().get(0).getResources().getLimits().get("cpu"))
                .hasToString("2");
        assertThat(decision.recheckAt()).as("the longest start, as the pod is not Ready").contains(world.now.minusSeconds(10).plus(
                StartupBoosts.LONGEST_START));
    }

    @Test
    void inModeRecommendNoPodIsBoosted() {
        World world = new World("mode: Recommend\n" + BOOSTED);
        world.reconcile();
        world.pods = List.of(startingPod(world));

        Decide.Decision decision = world.reconcile();

        assertThat(decision.resizes()).isEmpty();
        assertThat(world.reason(ConditionType.STARTUP_BOOST)).isEqualTo("BoostNotPossible");
        assertThat(world.condition(ConditionType.STARTUP_BOOST).orElseThrow().getMessage()).contains("mode Recommend");
    }

    @Test
    void aProfileWithoutABoostHasNoStartupBoostCondition() {
        World world = new World(APPLY);
        world.reconcile();
        world.pods = List.of(startingPod(world));

        assertThat(world.reconcile().resizes()).isEmpty();
        assertThat(world.condition(ConditionType.STARTUP_BOOST)).isEmpty();
    }

    /** A world whose starting pod the operator raised: the resize went through, its record in the profile's status. */
    private static World boostedPod() {
        World world = new World(BOOSTED);
        world.reconcile();
        world.rollOut();
        world.reconcile();
        world.pods = List.of(startingPod(world));
        StartupBoosts.Resize raise = world.reconcile().resizes().get(0);
        assertThat(world.profile.getStatus().getStartupBoosts()).containsExactly(new BoostedPod("orders-new", "orders-new-uid", "app",
                "2", "4", world.now.toString()));
        Pod boosted = Serialization.clone(world.pods.get(0));
        boosted.getSpec().getContainers().get(0).getResources().getLimits().put("cpu", raise.limit());
        world.pods = List.of(boosted);
        return world;
    }

    @Test
    void switchingToRecommendBringsABoostedPodBackToItsOwnLimit() {
        World world = boostedPod();
        world.edit("mode: Recommend\n" + BOOSTED);

        Decide.Decision decision = world.reconcile();

        assertThat(decision.resizes()).singleElement().satisfies(r -> {
            assertThat(r.pod()).isEqualTo("orders-new");
            assertThat(r.limit()).hasToString("2");
            assertThat(r.event().message()).contains("back to its own CPU limit 2 from 4", "mode Recommend");
        });
        assertThat(decision.events()).extracting(ProfileEvent::reason).contains(Reason.STARTUP_BOOST_ENDED);
        assertThat(world.reason(ConditionType.STARTUP_BOOST)).isEqualTo("BoostNotPossible");
        assertThat(world.profile.getStatus().getStartupBoosts()).as("lowered: no longer the operator's").isEmpty();
    }

    @Test
    void aBoostedPodGoneOrResizedByAnotherLeavesTheRecords() {
        World replaced = boostedPod();
        replaced.pods = List.of(new PodBuilder(startingPod(replaced)).editMetadata().withUid("another-uid").endMetadata().build());
        assertThat(replaced.reconcile().resizes()).as("a new pod of the same name, starting: raised").singleElement()
                .satisfies(r -> assertThat(r.record().getUid()).isEqualTo("another-uid"));
        assertThat(replaced.profile.getStatus().getStartupBoosts()).extracting(BoostedPod::getUid).containsExactly("another-uid");

        World resized = boostedPod();
        resized.pods.get(0).getSpec().getContainers().get(0).getResources().getLimits().put("cpu", new Quantity("5"));
        assertThat(resized.reconcile().resizes()).isEmpty();
        assertThat(resized.profile.getStatus().getStartupBoosts()).isEmpty();

        World gone = boostedPod();
        gone.pods = List.of();
        gone.reconcile();
        assertThat(gone.profile.getStatus().getStartupBoosts()).isEmpty();
    }

    @Test
    void aForbiddenLoweringSaysThePodStaysBoostedAndUntilWhen() {
        World world = boostedPod();
        world.edit(APPLY);
        Observation seen = world.observe();
        Decide.Decision decision = Decide.of(seen, INSTALLATION);
        assertThat(decision.resizes()).as("without spec.startupBoost the boost comes down").hasSize(1);

        Decide.Decision refused = Decide.resized(seen, decision, List.of(), Optional.of(new Decide.ResizeRefusal(403,
                "pods \"orders-new\" is forbidden: User \"system:serviceaccount:jto:jto\" cannot patch resource \"pods/resize\"")));
        world.record(refused);

        assertThat(world.reason(ConditionType.STARTUP_BOOST)).isEqualTo("ResizeForbidden");
        assertThat(world.condition(ConditionType.STARTUP_BOOST).orElseThrow().getMessage()).contains("these stay boosted until the "
                + "operator may resize them again or they are replaced: orders-new at 4 CPU instead of its own 2");
        assertThat(refused.events()).extracting(ProfileEvent::reason).containsExactly(Reason.RESIZE_FORBIDDEN);
        assertThat(world.profile.getStatus().getStartupBoosts()).as("still the operator's to lower").extracting(BoostedPod::getPod)
                .containsExactly("orders-new");
    }

    @Test
    void aDeletedProfileTakesItsBoostsBackOrSaysWhichStay() {
        World world = boostedPod();
        List<BoostedPod> records = world.profile.getStatus().getStartupBoosts();

        List<StartupBoosts.Resize> resizes = StartupBoosts.takeBack(records, world.pods, "the profile was deleted");

        assertThat(resizes).singleElement().satisfies(r -> {
            assertThat(r.limit()).hasToString("2");
            assertThat(r.event().message()).endsWith(": the profile was deleted");
        });
        assertThat(Decide.boostsTakenBack(records, world.pods, resizes, Optional.empty())).extracting(ProfileEvent::reason)
                .containsExactly(Reason.STARTUP_BOOST_ENDED);
        assertThat(Decide.boostsTakenBack(records, world.pods, List.of(), Optional.of(new Decide.ResizeRefusal(403,
                "cannot patch resource \"pods/resize\"")))).singleElement().satisfies(e -> {
                    assertThat(e.warning()).isTrue();
                    assertThat(e.reason()).isEqualTo(Reason.RESIZE_FORBIDDEN);
                    assertThat(e.message()).contains("stay boosted until the operator may resize them again or they are replaced: "
                            + "orders-new at 4 CPU instead of its own 2");
                });
    }

    @Test
    void aForbiddenResizeSaysSoOnceAndChangesNothingElse() {
        World world = new World(BOOSTED);
        world.reconcile();
        world.rollOut();
        world.reconcile();
        world.pods = List.of(startingPod(world));
        world.now = world.now.plusSeconds(10);
        Observation seen = world.observe();
        Decide.Decision decision = Decide.of(seen, INSTALLATION);

        Decide.ResizeRefusal forbidden = new Decide.ResizeRefusal(403,
                "pods \"orders-new\" is forbidden: User \"system:serviceaccount:jto:jto\" cannot patch resource \"pods/resize\"");
        Decide.Decision refused = Decide.resized(seen, decision, List.of(), Optional.of(forbidden));
        world.record(refused);

        assertThat(refused.resizes()).isEmpty();
        assertThat(refused.writes()).isEqualTo(decision.writes());
        assertThat(world.status(ConditionType.STARTUP_BOOST)).isEqualTo("False");
        assertThat(world.reason(ConditionType.STARTUP_BOOST)).isEqualTo("ResizeForbidden");
        assertThat(world.reason(ConditionType.READY)).as("nothing else changes").isEqualTo("Ready");
        assertThat(refused.events()).extracting(ProfileEvent::reason).containsExactly(Reason.RESIZE_FORBIDDEN);
        assertThat(world.profile.getStatus().getStartupBoosts()).as("a refused raise records nothing").isEmpty();

        world.now = world.now.plusSeconds(10);
        Observation again = world.observe();
        Decide.Decision refusedAgain = Decide.resized(again, Decide.of(again, INSTALLATION), List.of(),
                Optional.of(forbidden));
        assertThat(refusedAgain.events()).as("said once").isEmpty();
        assertThat(refusedAgain.status()).as("nothing new to write").isEqualTo(world.profile.getStatus());
        assertThat(Conditions.find(refusedAgain.status().getConditions(), ConditionType.STARTUP_BOOST).orElseThrow().getLastTransitionTime())
                .isEqualTo(world.condition(ConditionType.STARTUP_BOOST).orElseThrow().getLastTransitionTime());
    }

    @Test
    void aResizeOfAPodGoneMeanwhileIsNotAnnounced() {
        World world = new World(BOOSTED);
        world.reconcile();
        world.rollOut();
        world.reconcile();
        world.pods = List.of(startingPod(world));
        Observation seen = world.observe();
        Decide.Decision decision = Decide.of(seen, INSTALLATION);

        Decide.Decision resized = Decide.resized(seen, decision, List.of(), Optional.empty());

        assertThat(decision.events()).extracting(ProfileEvent::reason).contains(Reason.STARTUP_BOOST_STARTED);
        assertThat(resized.events()).extracting(ProfileEvent::reason).doesNotContain(Reason.STARTUP_BOOST_STARTED);
        assertThat(decision.status().getStartupBoosts()).extracting(BoostedPod::getPod).containsExactly("orders-new");
        assertThat(resized.status().getStartupBoosts()).as("nothing raised, nothing recorded").isEmpty();
        assertThat(resized.status().getConditions()).isEqualTo(decision.status().getConditions());
    }
}
