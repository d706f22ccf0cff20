package dev.jvmtuning.operator.drills;

import dev.jvmtuning.operator.api.v1alpha1.Observed;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfileStatus;
import dev.jvmtuning.operator.decision.Decide;
import dev.jvmtuning.operator.decision.Observation;
import dev.jvmtuning.operator.decision.Write;
import dev.jvmtuning.operator.flags.FlagPolicy;
import dev.jvmtuning.operator.model.ConditionStatus;
import dev.jvmtuning.operator.model.EffectiveOptions;
import dev.jvmtuning.operator.model.LabelsAndAnnotations;
import dev.jvmtuning.operator.model.MemoryUse;
import dev.jvmtuning.operator.model.MetricsReport;
import dev.jvmtuning.operator.model.NativeMemory;
import dev.jvmtuning.operator.model.Reason;
import dev.jvmtuning.operator.model.Units;
import dev.jvmtuning.operator.preview.Preview;
import dev.jvmtuning.operator.testing.TestProfiles;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentStatusBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The cost of one reconcile's pure decision ({@code Decide.of}), by the work it does: the reconcile benchmark's first apply (a
 * profile of its shape on a Deployment of no replicas), the same profile at rest, and a profile at rest over 3 Ready pods whose
 * poll reports their memory and JVM options (the memory account, the heap fit and the attestation judged) against the same
 * poll without them. The cases run interleaved, round after round, on one thread: microseconds and bytes allocated per
 * decision, median and range over the rounds; with arguments, only the cases whose names contain one (to profile one). Prints
 * figures only. Run it from the repository root:
 * <pre>
 * ./mvnw -q -B -pl tools -am package -DskipTests
 * java -cp tools/target/classes:$(cat tools/target/classpath.txt) dev.jvmtuning.operator.drills.DecisionBenchmark
 * </pre>
 */
public final class DecisionBenchmark {
    private static final int ROUNDS = 9;
    private static final Duration ROUND = Duration.ofSeconds(2);
    private static final Decide.Installation INSTALLATION = new Decide.Installation(new Preview.Installation(FlagPolicy.standard(),
            guardrail -> Optional.empty()), "example/agent:1", "/agent.jar");
    /** The reconcile benchmark's profile (deploy/local/benchmark.sh), with metrics read. */
    private static final String SPEC = """
            runtime: SpringBootTomcat
            workload: {requestsPerSecond: 250, meanLatency: 200ms, cpuPerRequest: 5ms, dbTimePerRequest: 20ms}
            threads: {}
            connectionPool: {}
            metrics: {port: 8080, path: /actuator/prometheus, interval: 30s}
            """;
    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");
    private static final int PODS = 3;

    private DecisionBenchmark() {
    }

    public static void main(String[] args) {
        Observation fresh = observation(deployment(0), List.of(), List.of(), null, Optional.empty());
        Decide.Decision first = Decide.of(fresh, INSTALLATION);
        Deployment tuned = deployment(PODS);
        List<ConfigMap> configMaps = new ArrayList<>();
        for (Write write : first.writes()) {
            if (write instanceof Write.ApplyDeployment apply) {
                tuned.getSpec().setTemplate(apply.desired().getSpec().getTemplate());
                tuned.getMetadata().setAnnotations(apply.desired().getMetadata().getAnnotations());
            } else if (write instanceof Write.CreateConfigMap create) {
                configMaps.add(create.configMap());
            }
        }
        TuningProfileStatus applied = Serialization.unmarshal(Serialization.asJson(first.status()), TuningProfileStatus.class);
        List<Pod> pods = pods(tuned);
        Map<String, Observation> cases = new LinkedHashMap<>();
        cases.put("first apply, no pods (the reconcile benchmark's)", fresh);
        cases.put("at rest, no pods", observation(deployment(0), List.of(), configMaps, applied, Optional.empty()));
        cases.put("at rest, 3 pods, memory and options reported", observation(tuned, pods, configMaps, applied,
                Optional.of(report(pods, true))));
        cases.put("at rest, 3 pods, neither reported", observation(tuned, pods, configMaps, applied, Optional.of(report(pods, false))));
        if (args.length > 0) {
            cases.keySet().removeIf(name -> Arrays.stream(args).noneMatch(name::contains));
        }
        Map<String, double[]> micros = new LinkedHashMap<>();
        Map<String, double[]> bytes = new LinkedHashMap<>();
        cases.keySet().forEach(name -> {
            micros.put(name, new double[ROUNDS]);
            bytes.put(name, new double[ROUNDS]);
        });
        cases.values().forEach(DecisionBenchmark::measure);
        for (int round = 0; round < ROUNDS; round++) {
            for (Map.Entry<String, Observation> c : cases.entrySet()) {
                double[] figures = measure(c.getValue());
                micros.get(c.getKey())[round] = figures[0];
                bytes.get(c.getKey())[round] = figures[1];
            }
        }
        System.out.printf("Decide.of, %d rounds of %d s per case, interleaved (median [min-max])%n", ROUNDS, ROUND.toSeconds());
        cases.keySet().forEach(name -> System.out.printf("  %-52s %7s us  %9s bytes allocated%n", name, spread(micros.get(name), "%.1f"),
                spread(bytes.get(name), "%.0f")));
    }

    /** One round of a case: microseconds and bytes allocated per decision, the observation read, as a reconcile's, once before. */
    private static double[] measure(Observation observation) {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long thread = Thread.currentThread().getId();
        long end = System.nanoTime() + ROUND.toNanos();
        long decisions = 0;
        long allocatedBefore = threads.getThreadAllocatedBytes(thread);
        long start = System.nanoTime();
        while (System.nanoTime() < end) {
            if (Decide.of(observation, INSTALLATION).status() == null) {
                throw new IllegalStateException("a decision without a status");
            }
            decisions++;
        }
        long took = System.nanoTime() - start;
        return new double[] {took / 1e3 / decisions, (double) (threads.getThreadAllocatedBytes(thread) - allocatedBefore) / decisions};
    }

    private static String spread(double[] values, String format) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return String.format(format, sorted[sorted.length / 2]) + " [" + String.format(format, sorted[0]) + "-"
                + String.format(format, sorted[sorted.length - 1]) + "]";
    }

    private static Observation observation(Deployment deployment, List<Pod> pods, List<ConfigMap> configMaps, TuningProfileStatus status,
            Optional<MetricsReport> report) {
        TuningProfile profile = Serialization.unmarshal(TestProfiles.yaml("svc-1", "svc-1", SPEC), TuningProfile.class);
        profile.getMetadata().setNamespace("bench");
        profile.getMetadata().setUid("uid-svc-1");
        profile.getMetadata().setGeneration(1L);
        profile.getMetadata().setCreationTimestamp(T0.toString());
        profile.setStatus(status);
        return new Observation(profile, Optional.of(deployment), List.of(profile), pods, List.of(), configMaps, report, List.of(), List.of(),
                T0.plusSeconds(60));
    }

    private static Deployment deployment(int replicas) {
        Deployment deployment = TestProfiles.labDeployment("svc-1");
        deployment.getMetadata().setNamespace("bench");
        deployment.getMetadata().setGeneration(1L);
        deployment.getSpec().setReplicas(replicas);
        deployment.setStatus(new DeploymentStatusBuilder().withObservedGeneration(1L).withReplicas(replicas).withUpdatedReplicas(replicas)
                .withReadyReplicas(replicas).withAvailableReplicas(replicas).build());
        return deployment;
    }

    /** The Deployment's pods, Ready, each of its template as tuned. */
    private static List<Pod> pods(Deployment tuned) {
        List<Pod> pods = new ArrayList<>();
        for (int i = 0; i < PODS; i++) {
            pods.add(new PodBuilder().withNewMetadata().withName("svc-1-" + i).withNamespace("bench")
                    .withCreationTimestamp(T0.toString()).withLabels(tuned.getSpec().getTemplate().getMetadata().getLabels())
                    .withAnnotations(Map.of(LabelsAndAnnotations.SETTINGS_HASH_ANNOTATION, tuned.getSpec().getTemplate().getMetadata()
                            .getAnnotations().get(LabelsAndAnnotations.SETTINGS_HASH_ANNOTATION))).endMetadata()
                    .withSpec(tuned.getSpec().getTemplate().getSpec())
                    .withNewStatus().addNewCondition().withType("Ready").withStatus("True").endCondition()
                    .addNewContainerStatus().withName("app").withReady(true).withRestartCount(0).withNewState().withNewRunning()
                    .withStartedAt(T0.toString()).endRunning().endState().endContainerStatus().endStatus().build());
        }
        return pods;
    }

    /** A poll of the pods: a window, and optionally each JVM's memory and options. */
    private static MetricsReport report(List<Pod> pods, boolean memoryAndOptions) {
        Observed window = new Observed().setRequestsPerSecond(250.0).setMeanLatencyMillis(180.0).setCpuCores(0.6).setGcTimePercent(1.0)
                .setErrorPercent(0.0).setMaxThreads(200.0).setBusyThreads(40.0).setPods(PODS).setWindow("30s").setEnd(T0.plusSeconds(50).toString());
        Map<String, MemoryUse> memory = new LinkedHashMap<>();
        Map<String, EffectiveOptions> options = new LinkedHashMap<>();
        if (memoryAndOptions) {
            for (Pod pod : pods) {
                memory.put(pod.getMetadata().getName(), new MemoryUse(300 * Units.MI, 400 * Units.MI, 90 * Units.MI, 8 * Units.MI, 60L,
                        620 * Units.MI, NativeMemory.NONE));
                options.put(pod.getMetadata().getName(), new EffectiveOptions(Map.of("MaxHeapSize",
                        new EffectiveOptions.Option(480 * Units.MI, EffectiveOptions.Origin.ENVIRON_VAR))));
            }
        }
        return new MetricsReport(ConditionStatus.TRUE, Reason.METRICS_READ, "read 3 of 3 Ready pods", window, window, options, memory, Map.of(),
                21);
    }
}
