package dev.jvmtuning.operator.testing;

import com.sun.net.httpserver.HttpServer;
import dev.jvmtuning.operator.model.LabelsAndAnnotations;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The kubelet's part and the metrics endpoint of a Deployment's pods that run a calm Spring Boot service on Tomcat without
 * the agent: pods are marked Ready as they come, and the endpoint serves Micrometer's series only, 100 req/s at 100 ms
 * (300 ms while told to be slow under other settings than some), with Tomcat's configured thread maximum as the pod
 * template renders it (Tomcat's 200 while it renders none), unless told to report another. No JVM option shows: no heap
 * pools, no agent series.
 */
public final class TomcatPods implements AutoCloseable {
    public static final String THREADS_MAX = "SERVER_TOMCAT_THREADS_MAX";
    /** Tomcat's own maximum. */
    public static final int TOMCAT_DEFAULT = 200;
    private static final double REQUESTS_PER_SECOND = 100;

    private final KubernetesClient client;
    private final String namespace;
    private final String deployment;
    private final HttpServer server;
    private final ScheduledExecutorService kubelet = Executors.newSingleThreadScheduledExecutor();
    private volatile int rendered = TOMCAT_DEFAULT;
    private volatile Integer reported;
    private volatile String fastSettings;
    private volatile boolean slow;
    private volatile Long liveHeapBytes;
    private long lastNanos = System.nanoTime();
    private double requests;
    private double requestSeconds;
    private double cpuSeconds;

    public TomcatPods(KubernetesClient client, String namespace, String deployment) {
        this.client = client;
        this.namespace = namespace;
        this.deployment = deployment;
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/metrics", exchange -> {
            byte[] body = scrape().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "text/plain; version=0.0.4");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
        kubelet.scheduleWithFixedDelay(this::tick, 0, 300, TimeUnit.MILLISECONDS);
    }

    /** The port of the metrics endpoint, at /metrics. */
    public int port() {
        return server.getAddress().getPort();
    }

    /** Makes the pods report this thread maximum, as a server whose own configuration overrides the template's would. */
    public void reportThreadsMax(int threads) {
        reported = threads;
    }

    /** Makes the pods report this heap live after each collection, as Micrometer's jvm_gc_live_data_size_bytes says it. */
    public void reportLiveHeap(long bytes) {
        liveHeapBytes = bytes;
    }

    /** Makes the pods answer three times slower whenever the template runs other settings than these (a settings hash). */
    public void slowWhenNot(String settingsHash) {
        fastSettings = settingsHash;
    }

    /**
     * The value the Deployment's template gives the variable in its first container, as the kubelet resolves it (a value,
     * or a key of a ConfigMap); empty when it sets none.
     */
    public static Optional<String> rendered(KubernetesClient client, String namespace, String deployment, String variable) {
        Deployment d = client.apps().deployments().inNamespace(namespace).withName(deployment).get();
        List<EnvVar> env = d == null ? List.of()
                : Objects.requireNonNullElse(d.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv(), List.of());
        return env.stream().filter(var -> var.getName().equals(variable)).findFirst().map(var -> {
            if (var.getValueFrom() == null || var.getValueFrom().getConfigMapKeyRef() == null) {
                return var.getValue();
            }
            var ref = var.getValueFrom().getConfigMapKeyRef();
            ConfigMap values = client.configMaps().inNamespace(namespace).withName(ref.getName()).get();
            return values == null || values.getData() == null ? null : values.getData().get(ref.getKey());
        });
    }

    private void tick() {
        try {
            new FakeKubelet(client).markPodsReady(namespace);
            rendered = rendered(client, namespace, deployment, THREADS_MAX).map(Integer::parseInt).orElse(TOMCAT_DEFAULT);
            Map<String, String> annotations = client.apps().deployments().inNamespace(namespace).withName(deployment).get()
                    .getSpec().getTemplate().getMetadata().getAnnotations();
            String hash = annotations == null ? null : annotations.get(LabelsAndAnnotations.SETTINGS_HASH_ANNOTATION);
            slow = fastSettings != null && !Objects.equals(fastSettings, hash);
        } catch (RuntimeException e) {
            // The next tick tries again.
        }
    }

    private synchronized String scrape() {
        long now = System.nanoTime();
        double served = REQUESTS_PER_SECOND * (now - lastNanos) / 1e9;
        lastNanos = now;
        requests += served;
        requestSeconds += served * (slow ? 0.3 : 0.1);
        cpuSeconds += served * 0.002;
        return String.format(Locale.ROOT, """
                # TYPE http_server_requests_seconds summary
                http_server_requests_seconds_count{method="GET",status="200",uri="/orders"} %f
                http_server_requests_seconds_sum{method="GET",status="200",uri="/orders"} %f
                # TYPE process_cpu_seconds_total counter
                process_cpu_seconds_total %f
                # TYPE tomcat_threads_config_max_threads gauge
                tomcat_threads_config_max_threads{name="http-nio-8080"} %d
                # TYPE tomcat_threads_busy_threads gauge
                tomcat_threads_busy_threads{name="http-nio-8080"} 10
                """, requests, requestSeconds, cpuSeconds, reported != null ? reported : rendered)
                + (liveHeapBytes == null ? "" : "# TYPE jvm_gc_live_data_size_bytes gauge\njvm_gc_live_data_size_bytes " + liveHeapBytes + "\n");
    }

    @Override
    public void close() {
        kubelet.shutdownNow();
        server.stop(0);
    }
}
