package dev.jvmtuning.operator.testing;

import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import dev.jvmtuning.operator.config.Leadership;
import dev.jvmtuning.operator.reconciler.TuningProfileReconciler;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheus.PrometheusConfig;
import io.micrometer.prometheus.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;

/**
 * The operator's reconciler in a JOSDK Operator of this test JVM, against the local control plane,
 * through a client that counts the write requests it sends. One per JVM: tests use fresh namespaces.
 * Its meters are served in the Prometheus text format on a loopback port at /q/metrics, as Quarkus serves them.
 */
public final class RunningOperator {
    public static final Duration RESYNC = Duration.ofSeconds(3);
    /** Profiles with this label belong to a test that runs its own operator (under another identity). */
    public static final String OWN_OPERATOR_LABEL = "test.jvmtuning.dev/own-operator";
    private static final Set<String> WRITES = Set.of("POST", "PUT", "PATCH", "DELETE");
    /** Namespace, resource type and, for a write to the status subresource, "/status". */
    private static final Pattern NAMESPACED = Pattern.compile("/namespaces/([^/]+)/([^/?]+)(?:/[^/?]+(/status))?");
    private static RunningOperator shared;

    private final Map<String, AtomicInteger> writes = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> reconciles = new ConcurrentHashMap<>();
    private final Map<String, List<RuntimeException>> failures = new ConcurrentHashMap<>();
    private final Map<String, RuntimeException> injected = new ConcurrentHashMap<>();
    private final KubernetesClient client;
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final HttpServer metricsServer;
    private final String ownNamespace;

    private RunningOperator(LocalControlPlane controlPlane) throws Exception {
        controlPlane.installCrd();
        ownNamespace = controlPlane.newNamespace("shared-operator");
        client = watchedClient(controlPlane.kubeconfig(), this::countWrite);
        Operator operator = new Operator(o -> o.withKubernetesClient(client).withCloseClientOnStop(false));
        operator.register(new CountingReconciler(ownNamespace),
                o -> o.withLabelSelector("!" + OWN_OPERATOR_LABEL));
        operator.start();
        metricsServer = serveMetrics();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            operator.stop();
            metricsServer.stop(0);
        }));
    }

    public static synchronized RunningOperator shared() {
        if (shared == null) {
            try {
                shared = new RunningOperator(LocalControlPlane.shared());
            } catch (Exception e) {
                throw new IllegalStateException("cannot start the operator", e);
            }
        }
        return shared;
    }

    /** A client of the control plane that shows every request it sends to {@code watcher} first. */
    public static KubernetesClient watchedClient(Path kubeconfig, Consumer<HttpRequest> watcher) throws IOException {
        return new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(Files.readString(kubeconfig)))
                .withHttpClientBuilderConsumer(b -> b.addOrReplaceInterceptor("watch-requests", new Interceptor() {
                    @Override
                    public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
                        watcher.accept(request);
                    }
                }))
                .build();
    }

    /** The operator's reconciler, counting the reconciles it finishes per profile and keeping what any of them threw. */
    private final class CountingReconciler extends TuningProfileReconciler {
        CountingReconciler(String ownNamespace) {
            super(TestSettings.of(RESYNC, Optional.empty()).withOwnNamespace(ownNamespace), registry, Leadership.alone("shared-test-operator"));
        }

        @Override
        public UpdateControl<TuningProfile> reconcile(TuningProfile profile, Context<TuningProfile> context) {
            String key = profile.getMetadata().getNamespace() + "/" + profile.getMetadata().getName();
            try {
                RuntimeException failure = injected.get(key);
                if (failure != null) {
                    throw failure;
                }
                return super.reconcile(profile, context);
            } catch (RuntimeException e) {
                failures.computeIfAbsent(key, k -> new CopyOnWriteArrayList<>()).add(e);
                throw e;
            } finally {
                reconciles.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet();
            }
        }
    }

    private void countWrite(HttpRequest request) {
        if (!WRITES.contains(request.method())) {
            return;
        }
        Matcher m = NAMESPACED.matcher(request.uri().getPath());
        if (m.find()) {
            writes.computeIfAbsent(m.group(1) + "/" + m.group(2) + Objects.requireNonNullElse(m.group(3), ""), k -> new AtomicInteger())
                    .incrementAndGet();
        }
    }

    /**
     * Write requests the operator sent for a resource type ("deployments", "configmaps", "events") in a
     * namespace; "tuningprofiles/status" counts the writes of the status subresource, which "tuningprofiles" does not.
     */
    public int writes(String namespace, String resource) {
        AtomicInteger count = writes.get(namespace + "/" + resource);
        return count == null ? 0 : count.get();
    }

    /** Every write request the operator sent into a namespace. */
    public int writes(String namespace) {
        return writes.entrySet().stream().filter(e -> e.getKey().startsWith(namespace + "/")).mapToInt(e -> e.getValue().get()).sum();
    }

    /** Reconciles of one profile that have finished so far. */
    public int reconciles(String namespace, String profile) {
        AtomicInteger count = reconciles.get(namespace + "/" + profile);
        return count == null ? 0 : count.get();
    }

    /** What reconciles of one profile threw (the framework then retries them): none, for a profile the operator handles. */
    public List<RuntimeException> failures(String namespace, String profile) {
        return failures.getOrDefault(namespace + "/" + profile, List.of());
    }

    /** Makes every reconcile of one profile throw {@code failure}, as a bug would, until {@link #stopFailing}. */
    public void failReconciles(String namespace, String profile, RuntimeException failure) {
        injected.put(namespace + "/" + profile, failure);
    }

    public void stopFailing(String namespace, String profile) {
        injected.remove(namespace + "/" + profile);
    }

    /** Waits until a profile has been reconciled {@code more} times after now: resyncs happened, whatever the clock says. */
    public void awaitReconciles(String namespace, String profile, int more) {
        int target = reconciles(namespace, profile) + more;
        Awaitility.await().atMost(RESYNC.multipliedBy(more + 10)).until(() -> reconciles(namespace, profile) >= target);
    }

    private HttpServer serveMetrics() throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/q/metrics", exchange -> {
            byte[] body = registry.scrape().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
        return server;
    }

    /** The operator's /q/metrics as "127.0.0.1:port", for a Prometheus to scrape. */
    public String metricsAddress() {
        return "127.0.0.1:" + metricsServer.getAddress().getPort();
    }

    /** What the operator's /q/metrics shows now. */
    public String scrape() {
        return registry.scrape();
    }

    /** The namespace this operator runs "in": where it records the namespaces it watches and publishes its settings. */
    public String ownNamespace() {
        return ownNamespace;
    }

    public Path kubeconfig() {
        return LocalControlPlane.shared().kubeconfig();
    }

    /** A Deployment of no replicas and a TuningProfile of the same name for it, labelled for an operator a test starts itself. */
    public static void serviceWithProfile(KubernetesClient client, String namespace, String name) {
        client.resource(new DeploymentBuilder().withNewMetadata().withName(name).endMetadata()
                .withNewSpec().withReplicas(0).withNewSelector().addToMatchLabels("app", name).endSelector()
                .withNewTemplate().withNewMetadata().addToLabels("app", name).endMetadata()
                .withNewSpec().addNewContainer().withName("app").withImage("example/svc:1").endContainer().endSpec()
                .endTemplate().endSpec().build()).inNamespace(namespace).create();
        client.resource("""
                apiVersion: jvmtuning.dev/v1alpha1
                kind: TuningProfile
                metadata: {name: %s, labels: {%s: "true"}}
                spec:
                  targetRef: {name: %s}
                  runtime: SpringBootTomcat
                  workload: {requestsPerSecond: 50, meanLatency: 200ms}
                  threads: {}
                """.formatted(name, OWN_OPERATOR_LABEL, name)).inNamespace(namespace).create();
    }
}
