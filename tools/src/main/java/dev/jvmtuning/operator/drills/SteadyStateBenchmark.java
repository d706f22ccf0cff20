package dev.jvmtuning.operator.drills;

import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import dev.jvmtuning.operator.model.ConditionStatus;
import dev.jvmtuning.operator.model.ConditionType;
import dev.jvmtuning.operator.model.Reason;
import dev.jvmtuning.operator.testing.FakeKubelet;
import dev.jvmtuning.operator.testing.LocalControlPlane;
import dev.jvmtuning.operator.testing.LoopbackMetrics;
import dev.jvmtuning.operator.testing.WorkloadProcess;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.apps.ReplicaSetBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Steady state at scale (deploy/local/steady-state.sh): N profiles, each on a Deployment with P pods
 * whose metrics endpoints are healthy and calm, scraped every 30 s by the real build (leader election
 * on, as installed by the chart; resync every minute). Once every profile shows a window, it counts
 * for M minutes the API requests the API server served for the operator's kinds (by verb), the
 * operator's CPU seconds, the scrapes, and the writes per resync: none of these resyncs has anything
 * to change. The Deployments, ReplicaSets and pods are written directly (no controller manager, whose
 * requests would mix with the operator's); the profiles are in Recommend mode, so nothing rolls.
 * Usage: SteadyStateBenchmark PROFILES PODS MINUTES OPERATOR_JAR MAX_HEAP OUTPUT_DIR
 */
public final class SteadyStateBenchmark {
    private static final Duration RESYNC = Duration.ofMinutes(1);
    private static final Set<String> OPERATOR_KINDS = Set.of("tuningprofiles", "deployments", "pods", "configmaps", "events", "leases");
    private static final Set<String> WRITES = Set.of("POST", "PUT", "PATCH", "DELETE", "APPLY");
    private static final Pattern REQUESTS = Pattern.compile("^apiserver_request_total\\{(.*)} (\\d+)");
    private static final String HASH = "5d8f7c9b6";

    private SteadyStateBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int profiles = Integer.parseInt(args[0]);
        int pods = Integer.parseInt(args[1]);
        Duration window = Duration.ofMinutes(Long.parseLong(args[2]));
        LocalControlPlane controlPlane = LocalControlPlane.shared();
        controlPlane.installCrd();
        KubernetesClient client = controlPlane.client();
        String namespace = controlPlane.newNamespace("steady");
        int port = WorkloadProcess.freePort();
        List<LoopbackMetrics> endpoints = new ArrayList<>();
        long setUp = System.nanoTime();
        ExecutorService writers = Executors.newFixedThreadPool(8);
        List<Future<?>> created = new ArrayList<>();
        for (int i = 0; i < profiles; i++) {
            for (int p = 0; p < pods; p++) {
                endpoints.add(LoopbackMetrics.start(address(i, p), port, LoopbackMetrics.Behaviour.HEALTHY));
            }
            int profile = i;
            created.add(writers.submit(() -> createTarget(client, namespace, "svc-" + profile, profile, pods, port)));
        }
        for (Future<?> f : created) {
            f.get();
        }
        writers.shutdown();
        new FakeKubelet(client).markPodsReady(namespace, pod -> address(Integer.parseInt(pod.getMetadata().getLabels().get("index")),
                Integer.parseInt(pod.getMetadata().getLabels().get("ordinal"))));
        System.out.printf(Locale.ROOT, "steady state: %d profiles x %d pods created in %.0f s%n", profiles, pods, (System.nanoTime() - setUp) / 1e9);

        try (OperatorProcess operator = OperatorProcess.quarkus(Path.of(args[3]), controlPlane.kubeconfig(), namespace, args[4],
                Map.of("JVM_TUNING_RESYNC_PERIOD", RESYNC.toMinutes() + "m", "JVM_TUNING_LEADER_ELECTION_LEASE_NAMESPACE", namespace),
                Path.of(args[5]))) {
            long started = System.nanoTime();
            int shown;
            while ((shown = windowsShown(client, namespace)) < profiles) {
                if (!operator.isAlive() || System.nanoTime() - started > Duration.ofMinutes(15).toNanos()) {
                    throw new IllegalStateException("only " + shown + " of " + profiles + " profiles show a window; see " + operator.output());
                }
                Thread.sleep(10_000);
            }
            System.out.printf(Locale.ROOT, "every profile shows a metrics window %.0f s after the operator started; settling 30 s%n",
                    (System.nanoTime() - started) / 1e9);
            Thread.sleep(30_000);

            Map<String, Long> before = requests(client);
            double cpuBefore = operator.cpuSeconds();
            int scrapesBefore = endpoints.stream().mapToInt(LoopbackMetrics::scrapes).sum();
            Thread.sleep(window.toMillis());
            Map<String, Long> after = requests(client);
            double cpu = operator.cpuSeconds() - cpuBefore;
            int scrapes = endpoints.stream().mapToInt(LoopbackMetrics::scrapes).sum() - scrapesBefore;
            shown = windowsShown(client, namespace);

            double minutes = window.toSeconds() / 60.0;
            Map<String, Long> perVerb = new TreeMap<>();
            Map<String, Long> perRequest = new TreeMap<>();
            after.forEach((key, count) -> {
                long delta = count - before.getOrDefault(key, 0L);
                if (delta > 0) {
                    perVerb.merge(key.substring(0, key.indexOf(' ')), delta, Long::sum);
                    perRequest.put(key, delta);
                }
            });
            long writes = perVerb.entrySet().stream().filter(e -> WRITES.contains(e.getKey())).mapToLong(Map.Entry::getValue).sum();
            long leaseWrites = perRequest.entrySet().stream().filter(e -> e.getKey().endsWith(" leases") && WRITES.contains(e.getKey().split(" ")[0]))
                    .mapToLong(Map.Entry::getValue).sum();
            double resyncs = profiles * minutes / (RESYNC.toSeconds() / 60.0);
            System.out.printf(Locale.ROOT, "window %.0f min, %d profiles x %d pods, metrics every 30 s, resync every %d min, operator -Xmx%s%n",
                    minutes, profiles, pods, RESYNC.toMinutes(), args[4]);
            perRequest.forEach((k, v) -> System.out.printf(Locale.ROOT, "  %-40s %8.1f /min%n", k, v / minutes));
            perVerb.forEach((k, v) -> System.out.printf(Locale.ROOT, "API requests %-6s %8.1f /min%n", k, v / minutes));
            System.out.printf(Locale.ROOT, "API requests total %.1f /min (%.2f per profile per minute)%n",
                    perVerb.values().stream().mapToLong(Long::longValue).sum() / minutes,
                    perVerb.values().stream().mapToLong(Long::longValue).sum() / minutes / profiles);
            System.out.printf(Locale.ROOT, "operator CPU %.2f s per minute (%.1f%% of one core), peak RSS %d MiB, %s%n",
                    cpu / minutes, cpu / window.toSeconds() * 100, operator.peakRssMiB(), operator.gc());
            System.out.printf(Locale.ROOT, "scrapes %.0f /min (expected %d: every pod every 30 s)%n", scrapes / minutes, profiles * pods * 2);
            System.out.printf(Locale.ROOT, "writes other than the Lease's: %d over %.0f resyncs = %.3f per idle resync; profiles still showing a window %d of %d%n",
                    writes - leaseWrites, resyncs, (writes - leaseWrites) / resyncs, shown, profiles);
        } finally {
            endpoints.forEach(LoopbackMetrics::close);
        }
        System.exit(0);
    }

    /** Profile i's pod p listens on its own address: 127.(80 + i / 250).(i % 250).(p + 1). */
    private static String address(int profile, int pod) {
        return "127." + (80 + profile / 250) + "." + (profile % 250) + "." + (pod + 1);
    }

    /** A Deployment, its ReplicaSet and its Ready-to-be pods, owned as the controllers would own them, and its profile. */
    private static void createTarget(KubernetesClient client, String namespace, String name, int index, int pods, int port) {
        Map<String, String> labels = Map.of("app", name);
        Deployment deployment = client.resource(new DeploymentBuilder().withNewMetadata().withName(name).endMetadata()
                .withNewSpec().withReplicas(pods).withNewSelector().withMatchLabels(labels).endSelector()
                .withNewTemplate().withNewMetadata().withLabels(labels).endMetadata()
                .withNewSpec().addNewContainer().withName("app").withImage("example/svc:1").endContainer().endSpec()
                .endTemplate().endSpec().build()).inNamespace(namespace).create();
        ReplicaSet replicaSet = client.resource(new ReplicaSetBuilder().withNewMetadata().withName(name + "-" + HASH)
                .withLabels(Map.of("app", name, "pod-template-hash", HASH)).withOwnerReferences(owner(deployment.getMetadata(), "apps/v1", "Deployment"))
                .endMetadata().withNewSpec().withReplicas(pods).withNewSelector().withMatchLabels(Map.of("app", name, "pod-template-hash", HASH))
                .endSelector().withNewTemplate().withNewMetadata().withLabels(Map.of("app", name, "pod-template-hash", HASH)).endMetadata()
                .withNewSpec().addNewContainer().withName("app").withImage("example/svc:1").endContainer().endSpec().endTemplate()
                .endSpec().build()).inNamespace(namespace).create();
        for (int p = 0; p < pods; p++) {
            client.resource(new PodBuilder().withNewMetadata().withName(name + "-" + HASH + "-" + p)
                    .withLabels(Map.of("app", name, "pod-template-hash", HASH, "index", Integer.toString(index), "ordinal", Integer.toString(p)))
                    .withOwnerReferences(owner(replicaSet.getMetadata(), "apps/v1", "ReplicaSet")).endMetadata()
                    .withNewSpec().addNewContainer().withName("app").withImage("example/svc:1").endContainer().endSpec()
                    .build()).inNamespace(namespace).create();
        }
        client.resource(LoopbackMetrics.profile(name, port, Duration.ofSeconds(30),
                "workload: {requestsPerSecond: %d, meanLatency: 200ms, cpuPerRequest: 5ms}".formatted(50 + index % 400)))
                .inNamespace(namespace).create();
    }

    private static io.fabric8.kubernetes.api.model.OwnerReference owner(ObjectMeta meta, String apiVersion, String kind) {
        return new OwnerReferenceBuilder().withApiVersion(apiVersion).withKind(kind).withName(meta.getName()).withUid(meta.getUid())
                .withController(true).withBlockOwnerDeletion(true).build();
    }

    private static int windowsShown(KubernetesClient client, String namespace) {
        List<TuningProfile> items;
        try {
            items = client.resources(TuningProfile.class).inNamespace(namespace).list().getItems();
        } catch (KubernetesClientException e) {
            // a busy API server may take longer than the client waits for a list of them all; the next look retries
            return 0;
        }
        return (int) items.stream()
                .filter(p -> p.getStatus() != null && p.getStatus().getObserved() != null && p.getStatus().getConditions().stream()
                        .anyMatch(c -> ConditionType.METRICS_AVAILABLE.text().equals(c.getType()) && ConditionStatus.TRUE.is(c.getStatus())
                                && Reason.METRICS_READ.text().equals(c.getReason())))
                .count();
    }

    /** The API server's own count of the requests it served, as "VERB resource[/subresource]", for the kinds the operator uses. */
    private static Map<String, Long> requests(KubernetesClient client) {
        Map<String, Long> counts = new TreeMap<>();
        for (String line : client.raw("/metrics").split("\n")) {
            Matcher m = REQUESTS.matcher(line);
            if (!m.find()) {
                continue;
            }
            Map<String, String> labels = new TreeMap<>();
            for (String pair : m.group(1).split(",")) {
                int eq = pair.indexOf('=');
                labels.put(pair.substring(0, eq), pair.substring(eq + 2, pair.length() - 1));
            }
            String resource = labels.getOrDefault("resource", "");
            if (OPERATOR_KINDS.contains(resource)) {
                String sub = labels.getOrDefault("subresource", "");
                counts.merge(labels.get("verb") + " " + resource + (sub.isEmpty() ? "" : "/" + sub), Long.parseLong(m.group(2)), Long::sum);
            }
        }
        return counts;
    }
}
