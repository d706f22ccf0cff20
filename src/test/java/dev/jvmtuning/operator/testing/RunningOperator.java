package dev.jvmtuning.operator.testing;

import dev.jvmtuning.operator.reconciler.TuningProfileReconciler;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.javaoperatorsdk.operator.Operator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The operator's reconciler in a JOSDK Operator of this test JVM, against the local control plane,
 * through a client that counts the write requests it sends. One per JVM: tests use fresh namespaces.
 */
public final class RunningOperator {
    public static final Duration RESYNC = Duration.ofSeconds(3);
    /** Profiles with this label belong to a test that runs its own operator (under another identity). */
    public static final String OWN_OPERATOR_LABEL = "test.jvmtuning.dev/own-operator";
    private static final Set<String> WRITES = Set.of("POST", "PUT", "PATCH", "DELETE");
    private static final Pattern NAMESPACED = Pattern.compile("/namespaces/([^/]+)/([^/?]+)");
    private static RunningOperator shared;

    private final Map<String, AtomicInteger> writes = new ConcurrentHashMap<>();
    private final KubernetesClient client;

    private RunningOperator(LocalControlPlane controlPlane) throws Exception {
        controlPlane.installCrd();
        Config config = Config.fromKubeconfig(Files.readString(controlPlane.kubeconfig()));
        client = new KubernetesClientBuilder().withConfig(config)
                .withHttpClientBuilderConsumer(b -> b.addOrReplaceInterceptor("count-writes", new Interceptor() {
                    @Override
                    public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
                        countWrite(request);
                    }
                }))
                .build();
        Operator operator = new Operator(o -> o.withKubernetesClient(client).withCloseClientOnStop(false));
        operator.register(TestSettings.reconciler(RESYNC, Optional.empty()),
                o -> o.withLabelSelector("!" + OWN_OPERATOR_LABEL));
        operator.start();
        Runtime.getRuntime().addShutdownHook(new Thread(operator::stop));
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

    private void countWrite(HttpRequest request) {
        if (!WRITES.contains(request.method())) {
            return;
        }
        Matcher m = NAMESPACED.matcher(request.uri().getPath());
        if (m.find()) {
            writes.computeIfAbsent(m.group(1) + "/" + m.group(2), k -> new AtomicInteger()).incrementAndGet();
        }
    }

    /** Write requests the operator sent for a resource type ("deployments", "configmaps") in a namespace. */
    public int writes(String namespace, String resource) {
        AtomicInteger count = writes.get(namespace + "/" + resource);
        return count == null ? 0 : count.get();
    }

    public Path kubeconfig() {
        return LocalControlPlane.shared().kubeconfig();
    }
}
