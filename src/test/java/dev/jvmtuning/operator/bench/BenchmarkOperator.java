package dev.jvmtuning.operator.bench;

import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfileStatus;
import dev.jvmtuning.operator.testing.TestSettings;
import dev.jvmtuning.operator.reconciler.TuningProfileReconciler;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One side of the reconcile benchmark (deploy/local/benchmark.sh): the operator's reconciler, or a
 * baseline that only records observedGeneration, in the same plain JOSDK runtime, restricted to one
 * namespace. Every request its client sends is counted; the counts are printed when it is stopped.
 * Usage: BenchmarkOperator tuning|baseline KUBECONFIG NAMESPACE
 */
public final class BenchmarkOperator {

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        Config config = Config.fromKubeconfig(Files.readString(Path.of(args[1])));
        String namespace = args[2];
        Map<String, AtomicInteger> requests = new ConcurrentHashMap<>();
        KubernetesClient client = new KubernetesClientBuilder().withConfig(config)
                .withHttpClientBuilderConsumer(b -> b.addOrReplaceInterceptor("count", new Interceptor() {
                    @Override
                    public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
                        String verb = request.method() + (request.uri().getQuery() != null && request.uri().getQuery().contains("watch=true") ? " (watch)" : "");
                        requests.computeIfAbsent(verb + " " + resource(request), k -> new AtomicInteger()).incrementAndGet();
                    }
                }))
                .build();
        Operator operator = new Operator(o -> o.withKubernetesClient(client).withCloseClientOnStop(false));
        Reconciler<TuningProfile> reconciler = mode.equals("baseline")
                ? new Baseline()
                : TestSettings.reconciler(Duration.ofMinutes(10), java.util.Optional.empty());
        operator.register(reconciler, o -> o.settingNamespaces(namespace));
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            TreeMap<String, Integer> sorted = new TreeMap<>();
            requests.forEach((k, v) -> sorted.put(k, v.get()));
            sorted.forEach((k, v) -> System.out.println("requests " + v + " " + k));
            System.out.println("requests-total " + sorted.values().stream().mapToInt(Integer::intValue).sum());
            System.out.flush();
        }));
        operator.start();
        Thread.currentThread().join();
    }

    /** The resource type a request addresses: "deployments", "tuningprofiles/status", ... */
    private static String resource(HttpRequest request) {
        java.util.List<String> parts = java.util.List.of(request.uri().getPath().split("/"));
        int namespaces = parts.indexOf("namespaces");
        String type = namespaces >= 0 && parts.size() > namespaces + 2 ? parts.get(namespaces + 2) : parts.get(parts.size() - 1);
        return parts.get(parts.size() - 1).equals("status") ? type + "/status" : type;
    }

    /** The bare framework: records observedGeneration in status, nothing else. */
    @ControllerConfiguration(name = "baseline")
    static final class Baseline implements Reconciler<TuningProfile> {
        @Override
        public UpdateControl<TuningProfile> reconcile(TuningProfile profile, Context<TuningProfile> context) {
            Long generation = profile.getMetadata().getGeneration();
            if (profile.getStatus() != null && Objects.equals(profile.getStatus().getObservedGeneration(), generation)) {
                return UpdateControl.noUpdate();
            }
            TuningProfile patch = new TuningProfile();
            patch.setMetadata(new ObjectMetaBuilder().withName(profile.getMetadata().getName())
                    .withNamespace(profile.getMetadata().getNamespace()).build());
            TuningProfileStatus status = new TuningProfileStatus();
            status.setObservedGeneration(generation);
            patch.setStatus(status);
            return UpdateControl.patchStatus(patch);
        }
    }
}
