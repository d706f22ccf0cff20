package dev.jvmtuning.operator.reconciler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.jvmtuning.operator.api.v1alpha1.TakenBack;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import dev.jvmtuning.operator.testing.LocalControlPlane;
import dev.jvmtuning.operator.testing.RunningOperator;
import dev.jvmtuning.operator.testing.StartsProcesses;
import dev.jvmtuning.operator.testing.TestProfiles;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A GitOps controller's self-heal against the real API server and the real reconciler: the manifest, which sets
 * JAVA_TOOL_OPTIONS, is applied server-side under a manager of its own taking conflicts, again and again. The operator
 * answers the first take-back with one write and stops at the second, naming the manager from the Deployment's
 * managedFields; the manifest then stays as Git has it, and an edit of the profile tries again.
 */
@StartsProcesses
class GitOpsTakeBackTest {
    private static final Duration SETTLE = Duration.ofSeconds(20);
    private static final String GIT_OPTIONS = "-Dfile.encoding=UTF-8";

    private static KubernetesClient client;
    private static KubernetesClient gitops;
    private static RunningOperator operator;
    private static String namespace;

    @BeforeAll
    static void start() throws Exception {
        LocalControlPlane controlPlane = LocalControlPlane.shared();
        operator = RunningOperator.shared();
        client = controlPlane.client();
        Config config = new ConfigBuilder(Config.fromKubeconfig(Files.readString(controlPlane.kubeconfig()))).withUserAgent("gitops-sync").build();
        gitops = new KubernetesClientBuilder().withConfig(config).build();
        namespace = controlPlane.newNamespace("gitops");
    }

    private static final Deployment MANIFEST = TuningProfileReconcilerTest.deployment("synced", "2", "2Gi",
            new EnvVar("JAVA_TOOL_OPTIONS", GIT_OPTIONS, null));

    private static void sync() {
        gitops.resource(MANIFEST).inNamespace(namespace).fieldManager("gitops-sync").forceConflicts().serverSideApply();
    }

    private static Deployment live() {
        return client.apps().deployments().inNamespace(namespace).withName("synced").get();
    }

    private static String options(Deployment deployment) {
        return deployment.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv().stream()
                .filter(v -> v.getName().equals("JAVA_TOOL_OPTIONS")).map(EnvVar::getValue).findFirst().orElse(null);
    }

    private static TuningProfile profile() {
        return client.resources(TuningProfile.class).inNamespace(namespace).withName("synced").get();
    }

    private static Optional<Condition> applied() {
        TuningProfile profile = profile();
        return profile.getStatus() == null || !Objects.equals(profile.getMetadata().getGeneration(), profile.getStatus().getObservedGeneration())
                ? Optional.empty()
                : profile.getStatus().getConditions().stream().filter(c -> c.getType().equals("Applied")).findFirst();
    }

    @Test
    void aManifestReappliedFromGitIsAnsweredOnceThenLeftAsGitHasItWithTheManagerNamed() {
        sync();
        client.resource(TestProfiles.yaml("synced", "synced", "runtime: SpringBootTomcat\nthreads: {max: 50}")).inNamespace(namespace).create();
        await().atMost(SETTLE).until(() -> options(live()).startsWith(GIT_OPTIONS + " -XX:"));

        sync();
        await().atMost(SETTLE).untilAsserted(() -> {
            assertThat(options(live())).as("a first take-back is answered").startsWith(GIT_OPTIONS + " -XX:");
            TakenBack takenBack = profile().getStatus().getTakenBack();
            assertThat(takenBack).isNotNull();
            assertThat(takenBack.getManager()).isEqualTo("gitops-sync");
            assertThat(takenBack.getOperation()).isEqualTo("Apply");
            assertThat(takenBack.getFields()).contains("env JAVA_TOOL_OPTIONS");
            assertThat(takenBack.isStopped()).isFalse();
        });

        sync();
        await().atMost(SETTLE).untilAsserted(() -> assertThat(applied()).get().satisfies(c -> {
            assertThat(c.getStatus()).isEqualTo("False");
            assertThat(c.getReason()).isEqualTo("TakenBack");
            assertThat(c.getMessage()).contains("field manager gitops-sync (Apply) 2 times within 10 minutes");
        }));
        long stopped = live().getMetadata().getGeneration();
        for (int i = 0; i < 3; i++) {
            sync();
        }
        await().pollDelay(Duration.ofSeconds(5)).atMost(SETTLE).untilAsserted(() -> {
            assertThat(live().getMetadata().getGeneration()).as("no write of the operator's since it stopped").isEqualTo(stopped);
            assertThat(options(live())).isEqualTo(GIT_OPTIONS);
            assertThat(applied()).get().extracting(Condition::getReason).isEqualTo("TakenBack");
        });

        client.resources(TuningProfile.class).inNamespace(namespace).withName("synced")
                .edit(p -> {
                    p.getSpec().getThreads().setMax(60);
                    return p;
                });
        await().atMost(SETTLE).untilAsserted(() -> {
            assertThat(options(live())).as("an edit of the profile tries again").startsWith(GIT_OPTIONS + " -XX:");
            assertThat(applied()).get().extracting(Condition::getReason).isEqualTo("Applied");
        });
        assertThat(operator.failures(namespace, "synced")).isEmpty();
    }
}
