package dev.jvmtuning.operator.drills;

import dev.jvmtuning.operator.testing.TestSettings;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.javaoperatorsdk.operator.Operator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * The operator's reconciler in a JVM of its own (the test settings, one namespace), so that a drill
 * can give it a heap limit and read its GC log apart from the test's own allocations.
 * Usage: OperatorMain KUBECONFIG NAMESPACE
 */
public final class OperatorMain {
    private OperatorMain() {
    }

    public static void main(String[] args) throws Exception {
        var client = new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(Files.readString(Path.of(args[0])))).build();
        Operator operator = new Operator(o -> o.withKubernetesClient(client));
        operator.register(TestSettings.reconciler(Duration.ofSeconds(30), Optional.empty()), o -> o.settingNamespaces(args[1]));
        operator.start();
        Thread.currentThread().join();
    }
}
