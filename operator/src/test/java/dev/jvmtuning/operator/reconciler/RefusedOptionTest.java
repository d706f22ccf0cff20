package dev.jvmtuning.operator.reconciler;

import static dev.jvmtuning.operator.model.LabelsAndAnnotations.SETTINGS_HASH_ANNOTATION;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.jvmtuning.operator.api.v1alpha1.RefusedOption;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import dev.jvmtuning.operator.testing.FakeKubelet;
import dev.jvmtuning.operator.testing.LocalControlPlane;
import dev.jvmtuning.operator.testing.RunningOperator;
import dev.jvmtuning.operator.testing.StartsProcesses;
import dev.jvmtuning.operator.testing.TestProfiles;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A JVM that refuses one option the operator rendered, against the real API server, controller manager and reconciler: a JDK
 * build without Shenandoah (Oracle's) crash-loops on -XX:+UseShenandoahGC. The operator takes the settings back, records the
 * refusal, and rolls the rest of the settings out without it.
 */
@StartsProcesses
class RefusedOptionTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final String NO_SHENANDOAH = "Unrecognized VM option 'UseShenandoahGC'\n"
            + "Error: Could not create the Java Virtual Machine.\nError: A fatal exception has occurred. Program will exit.";

    private static RunningOperator operator;
    private static KubernetesClient client;
    private static FakeKubelet kubelet;
    private static String namespace;

    @BeforeAll
    static void start() {
        LocalControlPlane controlPlane = LocalControlPlane.shared();
        controlPlane.ensureControllerManager();
        operator = RunningOperator.shared();
        client = controlPlane.client();
        kubelet = new FakeKubelet(client);
        namespace = controlPlane.newNamespace("refused");
    }

    @Test
    void anOptionTheJvmRefusesIsDroppedAndTheRestOfTheSettingsRolledOutAgain() throws InterruptedException {
        client.resource(TuningProfileReconcilerTest.deployment("oracle", "1", "1Gi")).inNamespace(namespace).create();
        kubelet.awaitRollout(namespace, "oracle", TIMEOUT);
        client.resource(TestProfiles.yaml("oracle", "oracle", "runtime: SpringBootTomcat\nthreads: {max: 40}\ngc: {collector: Shenandoah}"))
                .inNamespace(namespace).create();
        await().atMost(TIMEOUT).until(() -> Objects.requireNonNullElse(options(live()), "").contains("-XX:+UseShenandoahGC"));
        String refused = settingsHash(live());

        await().atMost(TIMEOUT).until(() -> kubelet.failContainers(namespace, p -> refused.equals(settingsHash(p)), "CrashLoopBackOff", "Error",
                NO_SHENANDOAH) > 0);

        await().atMost(TIMEOUT).untilAsserted(() -> assertThat(profile().getStatus().getRefusedOption())
                .isNotNull().extracting(RefusedOption::getOption, RefusedOption::getFlag, RefusedOption::getJvmMessage, RefusedOption::getSettingsHash)
                .containsExactly("UseShenandoahGC", "-XX:+UseShenandoahGC", "Unrecognized VM option 'UseShenandoahGC'", refused));
        await().atMost(TIMEOUT).untilAsserted(() -> assertThat(profileEvents()).as("the rollback, said with the option and the JVM's line")
                .anySatisfy(e -> {
                    assertThat(e.getType()).isEqualTo("Warning");
                    assertThat(e.getReason()).isEqualTo("RolledBack");
                    assertThat(e.getMessage()).contains("Their JVM refused -XX:+UseShenandoahGC", "Unrecognized VM option 'UseShenandoahGC'");
                }));

        AtomicReference<String> retried = new AtomicReference<>();
        await("the settings re-rendered without the refused option, written").atMost(TIMEOUT).until(() -> {
            retried.set(settingsHash(live()));
            return retried.get() != null && !retried.get().equals(refused);
        });
        Deployment retry = kubelet.awaitRollout(namespace, "oracle", TIMEOUT);
        assertThat(options(retry)).as("the settings without the refused option").doesNotContain("UseShenandoahGC")
                .contains("-XX:ActiveProcessorCount=1", "-Xmx");
        assertThat(renderedValues(retry)).as("nowhere in the container's variables or the settings' ConfigMap").isNotEmpty()
                .noneMatch(v -> v.contains("UseShenandoahGC"));

        awaitCondition("Applied", "True", "Applied");
        awaitCondition("Ready", "True", "Ready");
        assertThat(condition("Applied").orElseThrow().getMessage())
                .contains("settings " + retried.get(), "without -XX:+UseShenandoahGC, which the JVM refused (Unrecognized VM option 'UseShenandoahGC')");
        assertThat(profileEvents()).as("the retry, said with the option and the JVM's line").anySatisfy(e -> {
            assertThat(e.getType()).isEqualTo("Normal");
            assertThat(e.getReason()).isEqualTo("Applied");
            assertThat(e.getMessage()).contains("without -XX:+UseShenandoahGC", "Unrecognized VM option 'UseShenandoahGC'");
        });
        assertThat(profile().getStatus().getRolledBack()).as("the settings without it ran healthy").isNull();
        assertThat(operator.failures(namespace, "oracle")).isEmpty();
    }

    private static Deployment live() {
        return client.apps().deployments().inNamespace(namespace).withName("oracle").get();
    }

    private static TuningProfile profile() {
        return client.resources(TuningProfile.class).inNamespace(namespace).withName("oracle").get();
    }

    private static String settingsHash(HasMetadata object) {
        Map<String, String> annotations = object instanceof Deployment deployment ? deployment.getSpec().getTemplate().getMetadata().getAnnotations()
                : object.getMetadata().getAnnotations();
        return annotations == null ? null : annotations.get(SETTINGS_HASH_ANNOTATION);
    }

    private static String options(Deployment deployment) {
        return env(deployment).stream().filter(v -> v.getName().equals("JAVA_TOOL_OPTIONS")).map(EnvVar::getValue).findFirst().orElse(null);
    }

    private static List<EnvVar> env(Deployment deployment) {
        return Objects.requireNonNullElse(deployment.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv(), List.of());
    }

    /** Each of the container's variables as its pods see it: its own value, or the key of the ConfigMap it refers to. */
    private static List<String> renderedValues(Deployment deployment) {
        return env(deployment).stream().map(v -> {
            if (v.getValueFrom() == null || v.getValueFrom().getConfigMapKeyRef() == null) {
                return v.getName() + "=" + v.getValue();
            }
            var key = v.getValueFrom().getConfigMapKeyRef();
            ConfigMap values = client.configMaps().inNamespace(namespace).withName(key.getName()).get();
            return v.getName() + "=" + (values == null ? null : values.getData().get(key.getKey()));
        }).toList();
    }

    private static Optional<Condition> condition(String type) {
        TuningProfile profile = profile();
        return profile == null || profile.getStatus() == null ? Optional.empty()
                : profile.getStatus().getConditions().stream().filter(c -> c.getType().equals(type)).findFirst();
    }

    private static void awaitCondition(String type, String status, String reason) {
        await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> assertThat(condition(type)).as(type)
                .hasValueSatisfying(c -> {
                    assertThat(c.getStatus()).as("%s: %s", c.getReason(), c.getMessage()).isEqualTo(status);
                    assertThat(c.getReason()).as(c.getMessage()).isEqualTo(reason);
                }));
    }

    /** The Events about the profile, not those of the Deployment and ReplicaSet controllers. */
    private static List<Event> profileEvents() {
        return client.v1().events().inNamespace(namespace).list().getItems().stream()
                .filter(e -> e.getInvolvedObject().getKind().equals(TuningProfile.class.getSimpleName())).toList();
    }
}
