package dev.jvmtuning.operator.testing;

import dev.jvmtuning.operator.model.ConditionStatus;
import io.fabric8.kubeapitest.KubeAPIServer;
import io.fabric8.kubeapitest.KubeAPIServerConfigBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * A real kube-apiserver and etcd (fabric8 kube-api-test, offline, binaries from
 * deploy/local/install-tools.sh), shared by all tests of one JVM, plus an optional real
 * kube-controller-manager for tests that need Deployments to roll out.
 */
public final class LocalControlPlane {
    public static final Path CRD_FILE = Path.of(System.getProperty("crd.file", "crds/tuningprofiles.jvmtuning.dev-v1.yml"));
    private static final String K8S_VERSION = System.getProperty("k8s.version", "1.36.3");
    private static final Path K8S_BIN = Path.of(System.getProperty("user.home"),
            ".cache/jvm-tuning-operator/k8s/v" + K8S_VERSION);

    private static LocalControlPlane shared;

    private final KubeAPIServer apiServer;
    private final KubernetesClient client;
    private final Path kubeconfig;
    private Process controllerManager;

    private LocalControlPlane() {
        // Booleans and integers are set in code: kube-api-test up to 7.8 crashes reading them from the environment.
        apiServer = new KubeAPIServer(KubeAPIServerConfigBuilder.anAPIServerConfig()
                .withApiServerVersion(K8S_VERSION)
                .withOfflineMode(true)
                .withWaitForEtcdHealthCheckOnStartup(true)
                .withStartupTimeout(120_000)
                .build());
        apiServer.start();
        String kubeconfigYaml = apiServer.getKubeConfigYaml();
        try {
            kubeconfig = Files.createTempFile("local-control-plane", ".kubeconfig");
            Files.writeString(kubeconfig, kubeconfigYaml);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        client = new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(kubeconfigYaml)).build();
    }

    /** The control plane of this test JVM, started on first use and stopped when the JVM exits. */
    public static synchronized LocalControlPlane shared() {
        if (shared == null) {
            shared = new LocalControlPlane();
            Runtime.getRuntime().addShutdownHook(new Thread(shared::stop));
        }
        return shared;
    }

    public KubernetesClient client() {
        return client;
    }

    /** A kubeconfig file for this control plane, with cluster-admin rights. */
    public Path kubeconfig() {
        return kubeconfig;
    }

    /** A fresh namespace: the bare API server runs no namespace controller, so none is ever reused. */
    public String newNamespace(String prefix) {
        String name = prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(name).endMetadata().build()).create();
        return name;
    }

    /** Installs the committed CRD (what users install) and waits until it is served. */
    public synchronized void installCrd() {
        List<HasMetadata> loaded;
        try (var in = Files.newInputStream(CRD_FILE)) {
            loaded = client.load(in).items();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        for (HasMetadata crd : loaded) {
            client.resource(crd).forceConflicts().serverSideApply();
            client.resources(CustomResourceDefinition.class).withName(crd.getMetadata().getName())
                    .waitUntilCondition(LocalControlPlane::established, 60, TimeUnit.SECONDS);
        }
    }

    private static boolean established(CustomResourceDefinition crd) {
        // Just after the apply the status may have no conditions yet.
        return crd != null && crd.getStatus() != null && crd.getStatus().getConditions() != null && crd.getStatus().getConditions().stream()
                .anyMatch(c -> "Established".equals(c.getType()) && ConditionStatus.TRUE.is(c.getStatus()));
    }

    /** Starts kube-controller-manager once, so Deployments get ReplicaSets, Pods and status. */
    public synchronized void ensureControllerManager() {
        if (controllerManager != null && controllerManager.isAlive()) {
            return;
        }
        Path binary = K8S_BIN.resolve("kube-controller-manager");
        try {
            Path log = Files.createTempFile("kube-controller-manager", ".log");
            controllerManager = new ProcessBuilder(binary.toString(),
                    "--kubeconfig", kubeconfig.toString(),
                    "--use-service-account-credentials=false",
                    "--leader-elect=false",
                    "--secure-port", "0",
                    // token controller needs a signing key; tests never use service-account tokens
                    "--controllers", "*,-serviceaccount-token")
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + binary + " (run deploy/local/install-tools.sh)", e);
        }
    }

    private synchronized void stop() {
        if (controllerManager != null) {
            controllerManager.destroy();
            try {
                controllerManager.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            controllerManager.destroyForcibly();
        }
        client.close();
        apiServer.stop();
    }
}
