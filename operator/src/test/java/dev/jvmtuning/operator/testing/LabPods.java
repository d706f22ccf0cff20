package dev.jvmtuning.operator.testing;

import dev.jvmtuning.lab.harness.Container;
import dev.jvmtuning.lab.harness.LabApp;
import dev.jvmtuning.operator.api.v1alpha1.AutoStatus;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import dev.jvmtuning.operator.model.LabelsAndAnnotations;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The kubelet's part for one Deployment whose pods all stand on one real JVM (the lab's Spring Boot
 * app on loopback): whenever the pod template's settings change, the JVM is restarted with the
 * template's environment (its JVM flags variable and the server properties it reads from the
 * ConfigMap), on the same ports, and only then are the new pods reported Ready. So what the operator
 * applies is what the JVM runs, and a rollout completes when the JVM serves again.
 */
public final class LabPods implements AutoCloseable {
    private final KubernetesClient client;
    private final String namespace;
    private final String deployment;
    private final Path appJar;
    private final Path agentJar;
    private final int port;
    private final int managementPort;
    private final FakeKubelet kubelet;
    private final Thread thread;
    private final List<Map<String, String>> starts = new CopyOnWriteArrayList<>();
    private volatile String runningHash;
    private volatile LabApp app;
    private volatile boolean running = true;
    private volatile RuntimeException failure;

    public LabPods(KubernetesClient client, String namespace, String deployment, Path appJar, Path agentJar) throws IOException {
        this.client = client;
        this.namespace = namespace;
        this.deployment = deployment;
        this.appJar = appJar;
        this.agentJar = agentJar;
        this.port = LabApp.freePort();
        this.managementPort = LabApp.freePort();
        this.kubelet = new FakeKubelet(client);
        this.thread = new Thread(this::run, "lab-pods-" + deployment);
        thread.setDaemon(true);
        thread.start();
    }

    /** The lab's Spring Boot app, built by ./mvnw -f lab/workload-app/pom.xml package. */
    public static Path appJar() {
        Path jar = Path.of(System.getProperty("lab.app"));
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(jar + " is missing: build it with ./mvnw -f lab/workload-app/pom.xml package");
        }
        return jar;
    }

    /** The shared control plane with its controller manager (for real rollouts) and the operator running against it. */
    public static LocalControlPlane controlPlaneWithOperator() {
        LocalControlPlane controlPlane = LocalControlPlane.shared();
        controlPlane.ensureControllerManager();
        RunningOperator.shared();
        return controlPlane;
    }

    /** The status.auto of the profile "orders", the one these tests make; null before its first status or without one. */
    public static AutoStatus autoOfOrders(KubernetesClient client, String namespace) {
        TuningProfile profile = client.resources(TuningProfile.class).inNamespace(namespace).withName("orders").get();
        return profile == null || profile.getStatus() == null ? null : profile.getStatus().getAuto();
    }

    public String url(String pathAndQuery) {
        return "http://127.0.0.1:" + port + pathAndQuery;
    }

    public int managementPort() {
        return managementPort;
    }

    /** The environment of each start of the JVM, in order. */
    public List<Map<String, String>> starts() {
        if (failure != null) {
            throw failure;
        }
        return List.copyOf(starts);
    }

    /** The settings hash the JVM runs now (empty for the user's own template). */
    public String runningHash() {
        return runningHash;
    }

    private void run() {
        while (running) {
            try {
                Deployment d = client.apps().deployments().inNamespace(namespace).withName(deployment).get();
                if (d != null) {
                    String hash = Objects.requireNonNullElse(d.getSpec().getTemplate().getMetadata().getAnnotations(), Map.<String, String>of())
                            .getOrDefault(LabelsAndAnnotations.SETTINGS_HASH_ANNOTATION, "");
                    if (!hash.equals(runningHash)) {
                        restart(environment(d));
                        runningHash = hash;
                    }
                    kubelet.markPodsReady(namespace);
                }
                Thread.sleep(300);
            } catch (InterruptedException e) {
                return;
            } catch (IOException e) {
                failure = new UncheckedIOException(e);
                return;
            } catch (RuntimeException e) {
                failure = e;
                return;
            }
        }
    }

    private void restart(Map<String, String> env) throws IOException, InterruptedException {
        if (app != null) {
            app.close();
        }
        starts.add(env);
        app = LabApp.start(appJar, agentJar, Container.unlimited(), env, 0, Files.createTempFile("lab-pod", ".log"), port, managementPort);
    }

    /** The container's variables as the kubelet would resolve them: values, and keys of ConfigMaps (absent optional ones skipped). */
    private Map<String, String> environment(Deployment d) {
        Map<String, String> env = new TreeMap<>();
        for (EnvVar var : Objects.requireNonNullElse(d.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv(), List.<EnvVar>of())) {
            if (var.getValue() != null) {
                env.put(var.getName(), var.getValue());
            } else if (var.getValueFrom() != null && var.getValueFrom().getConfigMapKeyRef() != null) {
                var ref = var.getValueFrom().getConfigMapKeyRef();
                ConfigMap configMap = client.configMaps().inNamespace(namespace).withName(ref.getName()).get();
                String value = configMap == null || configMap.getData() == null ? null : configMap.getData().get(ref.getKey());
                if (value != null) {
                    env.put(var.getName(), value);
                }
            }
        }
        return env;
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.interrupt();
        thread.join(30_000);
        if (app != null) {
            app.close();
        }
    }
}
