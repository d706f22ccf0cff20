package dev.jvmtuning.operator.reconciler;

import static dev.jvmtuning.operator.model.LabelsAndAnnotations.ORIGINAL_JVM_OPTIONS_ANNOTATION;
import static dev.jvmtuning.operator.model.LabelsAndAnnotations.TUNED_BY_ANNOTATION;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jvmtuning.operator.api.v1alpha1.Mode;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import dev.jvmtuning.operator.model.LabelsAndAnnotations;
import dev.jvmtuning.operator.render.DeploymentTuning;
import dev.jvmtuning.operator.render.DeploymentTuning.OriginalJvmOptions;
import dev.jvmtuning.operator.testing.LocalControlPlane;
import dev.jvmtuning.operator.testing.RunningOperator;
import dev.jvmtuning.operator.testing.StartsProcesses;
import dev.jvmtuning.operator.testing.TestProfiles;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.nio.file.Files;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.constraints.IntRange;

/**
 * Cycles of apply, user edits, re-apply with other settings, switches to Recommend and delete, against the real
 * API server and the real reconciler: the operator writes by server-side apply under its own field manager, the
 * user edits as kubectl does (a replace under another manager, retried on a conflict), and deleting the profile
 * restores the template. Whatever the user edits in between, what comes back is exactly the user's own
 * environment with their edits, and the operator's flags never pile up.
 */
@StartsProcesses
class ApplyRestoreCyclesTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration SETTLE = Duration.ofSeconds(20);
    private static final String VARIABLE = "JAVA_TOOL_OPTIONS";
    private static final List<String> USER_FLAGS = List.of("-Dfile.encoding=UTF-8", "-Duser.timezone=UTC", "-Dapp.mode=fast",
            "-XX:+ExitOnOutOfMemoryError", "-verbose:gc");
    private static final List<String> HEAPS = List.of("512Mi", "768Mi", "1Gi");
    private static final List<String> COLLECTORS = List.of("G1", "Parallel", "Serial");

    private static RunningOperator operator;
    private static KubernetesClient client;
    /** The user's kubectl: another identity, so its writes are another field manager's. */
    private static KubernetesClient kubectl;
    private static String namespace;
    private static int cycle;

    private static synchronized void startOnce() throws Exception {
        if (operator == null) {
            LocalControlPlane controlPlane = LocalControlPlane.shared();
            operator = RunningOperator.shared();
            client = controlPlane.client();
            Config config = new ConfigBuilder(Config.fromKubeconfig(Files.readString(controlPlane.kubeconfig()))).withUserAgent("kubectl-edit").build();
            kubectl = new KubernetesClientBuilder().withConfig(config).build();
            namespace = controlPlane.newNamespace("cycles");
        }
    }

    @Property(tries = 25, shrinking = ShrinkingMode.OFF)
    void theUsersOwnEnvironmentComesBackWhateverTheyEditInBetween(@ForAll long seed, @ForAll @IntRange(min = 1, max = 4) int steps)
            throws Exception {
        startOnce();
        Random random = new Random(seed);
        String name = "c" + ++cycle;
        Map<String, String> user = new LinkedHashMap<>();
        if (random.nextBoolean()) {
            user.put(VARIABLE, random.nextBoolean() ? "" : pick(random, USER_FLAGS));
        }
        user.put("APP_COLOR", "blue");
        EnvVar[] env = user.entrySet().stream().map(e -> new EnvVar(e.getKey(), e.getValue(), null)).toArray(EnvVar[]::new);
        client.resource(TuningProfileReconcilerTest.deployment(name, "2", "2Gi", env)).inNamespace(namespace).create();
        client.resource(TestProfiles.yaml(name, name, spec(random))).inNamespace(namespace).create();
        String trail = "seed " + seed + ", user " + user;
        awaitTuned(name, user, trail);

        for (int step = 0; step < steps; step++) {
            int edit = random.nextInt(5);
            trail += ", step " + edit;
            switch (edit) {
                case 0 -> { // the user adds a flag of their own before the operator's
                    String flag = pick(random, USER_FLAGS);
                    editAsUser(name, d -> setJvm(d, (flag + " " + jvm(d)).trim()));
                    user.put(VARIABLE, (flag + " " + user.getOrDefault(VARIABLE, "")).trim());
                }
                case 1 -> { // ... or after them
                    String flag = pick(random, USER_FLAGS);
                    editAsUser(name, d -> setJvm(d, (jvm(d) + " " + flag).trim()));
                    user.put(VARIABLE, (user.getOrDefault(VARIABLE, "") + " " + flag).trim());
                }
                case 2 -> { // the user edits another variable
                    String color = "c" + random.nextInt(100);
                    editAsUser(name, d -> env(d).replaceAll(v -> v.getName().equals("APP_COLOR") ? new EnvVar("APP_COLOR", color, null) : v));
                    user.put("APP_COLOR", color);
                }
                case 3 -> { // Recommend gives the template back, Apply tunes it again
                    editProfile(name, p -> p.getSpec().setMode(Mode.Recommend));
                    awaitUntuned(name, user, trail);
                    editProfile(name, p -> p.getSpec().setMode(Mode.Apply));
                }
                default -> { // the operator re-plans with other settings
                    TuningProfile replanned = Serialization.unmarshal(TestProfiles.yaml(name, name, spec(random)), TuningProfile.class);
                    editProfile(name, p -> p.setSpec(replanned.getSpec()));
                }
            }
            awaitTuned(name, user, trail);
        }

        client.resources(TuningProfile.class).inNamespace(namespace).withName(name).delete();
        await().atMost(SETTLE).until(() -> client.resources(TuningProfile.class).inNamespace(namespace).withName(name).get() == null);
        Deployment restored = client.apps().deployments().inNamespace(namespace).withName(name).get();
        assertUsersOwn(restored, user, trail);
        assertThat(operator.failures(namespace, name)).as(trail).isEmpty();
        client.apps().deployments().inNamespace(namespace).withName(name).delete();
    }

    /** Settings whose flags differ from one re-plan to the next: the heap, the collector, the threads. */
    private static String spec(Random random) {
        return "runtime: SpringBootTomcat\nthreads: {max: " + (random.nextInt(400) + 1) + "}\nheap: {size: " + pick(random, HEAPS)
                + "}\ngc: {collector: " + pick(random, COLLECTORS) + "}";
    }

    /**
     * Applied for the profile's generation, and the Deployment holds what the operator last applied: the user's value
     * (with every edit) followed by the operator's flags, each of those once.
     */
    private static void awaitTuned(String name, Map<String, String> user, String trail) {
        await().atMost(SETTLE).pollInterval(Duration.ofMillis(50)).untilAsserted(() -> {
            assertThat(operator.failures(namespace, name)).as(trail).isEmpty();
            assertThat(applied(name)).as(trail).isEqualTo("Applied");
            Deployment live = client.apps().deployments().inNamespace(namespace).withName(name).get();
            assertThat(DeploymentTuning.tunedBy(live, name)).as(trail).isTrue();
            OriginalJvmOptions original = JSON.readValue(live.getMetadata().getAnnotations().get(ORIGINAL_JVM_OPTIONS_ANNOTATION),
                    OriginalJvmOptions.class);
            String usersValue = user.containsKey(VARIABLE) ? normalized(user.get(VARIABLE)) : null;
            assertThat(original.value()).as("the user's own value, recorded: %s", trail).isEqualTo(usersValue);
            assertThat(jvm(live)).as("what the operator last applied is live: %s", trail).isEqualTo(original.applied());
            String prefix = usersValue == null || usersValue.isEmpty() ? "" : usersValue + " ";
            assertThat(original.applied()).as(trail).startsWith(prefix);
            List<String> operatorFlags = List.of(original.applied().substring(prefix.length()).split(" "));
            assertThat(operatorFlags.stream().map(ApplyRestoreCyclesTest::option).toList()).as("operator flags once each: %s", trail)
                    .doesNotHaveDuplicates();
            assertThat(value(live, "APP_COLOR")).as(trail).isEqualTo(user.get("APP_COLOR"));
        });
    }

    /** Recommend: nothing of the operator's left, the user's own environment exactly. */
    private static void awaitUntuned(String name, Map<String, String> user, String trail) {
        await().atMost(SETTLE).pollInterval(Duration.ofMillis(50)).untilAsserted(() -> {
            assertThat(applied(name)).as(trail).isEqualTo("RecommendOnly");
            assertUsersOwn(client.apps().deployments().inNamespace(namespace).withName(name).get(), user, trail);
        });
    }

    private static void assertUsersOwn(Deployment deployment, Map<String, String> user, String trail) {
        List<EnvVar> env = env(deployment);
        Map<String, String> back = env.stream().collect(Collectors.toMap(EnvVar::getName, v -> v.getValue() == null ? "" : v.getValue(),
                (a, b) -> a + "|" + b, TreeMap::new));
        Map<String, String> expected = new TreeMap<>(user);
        expected.computeIfPresent(VARIABLE, (k, v) -> normalized(v));
        assertThat(back).as("the user's environment back: %s", trail).isEqualTo(expected);
        assertThat(env).as(trail).hasSameSizeAs(expected.keySet());
        assertThat(deployment.getMetadata().getAnnotations()).as(trail)
                .doesNotContainKeys(TUNED_BY_ANNOTATION, ORIGINAL_JVM_OPTIONS_ANNOTATION);
        assertThat(deployment.getSpec().getTemplate().getMetadata().getAnnotations()).as(trail).isNullOrEmpty();
    }

    private static String applied(String name) {
        TuningProfile profile = client.resources(TuningProfile.class).inNamespace(namespace).withName(name).get();
        if (profile.getStatus() == null || !profile.getMetadata().getGeneration().equals(profile.getStatus().getObservedGeneration())) {
            return null;
        }
        return profile.getStatus().getConditions().stream().filter(c -> c.getType().equals("Applied")).map(Condition::getReason)
                .findFirst().orElse(null);
    }

    /** As kubectl edit: read, change, replace at that resourceVersion; on a conflict with the operator's write, read again. */
    private static void editAsUser(String name, Consumer<Deployment> change) {
        onConflictAgain(() -> {
            Deployment live = kubectl.apps().deployments().inNamespace(namespace).withName(name).get();
            change.accept(live);
            kubectl.resource(live).update();
        });
    }

    private static void editProfile(String name, Consumer<TuningProfile> change) {
        onConflictAgain(() -> client.resources(TuningProfile.class).inNamespace(namespace).withName(name).edit(p -> {
            change.accept(p);
            return p;
        }));
    }

    /** A user's edit, read and written again when the operator wrote the object in between, as kubectl edit asks one to. */
    private static void onConflictAgain(Runnable edit) {
        for (int attempt = 0; ; attempt++) {
            try {
                edit.run();
                return;
            } catch (KubernetesClientException e) {
                if (e.getCode() != 409 || attempt == 10) {
                    throw e;
                }
            }
        }
    }

    /** The option a flag sets, without its value: -Xmx, -XX:MaxGCPauseMillis; every collector flag sets the collector. */
    private static String option(String flag) {
        if (flag.matches("-XX:[+-]Use\\w+GC")) {
            return "collector";
        }
        for (String sized : List.of("-Xmx", "-Xms", "-Xmn", "-Xss")) {
            if (flag.startsWith(sized)) {
                return sized;
            }
        }
        return flag.replaceFirst("^-XX:[+-]", "-XX:").replaceFirst("=.*$", "");
    }

    private static String normalized(String value) {
        return value.trim().replaceAll("\\s+", " ");
    }

    private static <T> T pick(Random random, List<T> values) {
        return values.get(random.nextInt(values.size()));
    }

    private static String jvm(Deployment deployment) {
        return value(deployment, VARIABLE);
    }

    private static String value(Deployment deployment, String variable) {
        // The API server keeps no empty value: a variable declared with "" reads back without one.
        return env(deployment).stream().filter(v -> v.getName().equals(variable)).findFirst()
                .map(v -> Objects.requireNonNullElse(v.getValue(), "")).orElse("");
    }

    private static void setJvm(Deployment deployment, String value) {
        List<EnvVar> env = env(deployment);
        int at = env.stream().map(EnvVar::getName).toList().indexOf(VARIABLE);
        if (at < 0) {
            env.add(new EnvVar(VARIABLE, value, null));
        } else {
            env.set(at, new EnvVar(VARIABLE, value, null));
        }
    }

    private static List<EnvVar> env(Deployment deployment) {
        return deployment.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv();
    }
}
