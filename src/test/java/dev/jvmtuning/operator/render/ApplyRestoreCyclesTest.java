package dev.jvmtuning.operator.render;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jvmtuning.operator.model.Setting;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Collectors;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * Many cycles of apply, user edits, re-apply with other settings, switches to Recommend and delete:
 * whatever the user edits in between, what comes back on delete is exactly the user's own
 * environment with their edits, and the operator's flags never pile up. Apply is modelled as
 * server-side apply merges the operator's fields (env entries by name, annotations by key).
 */
class ApplyRestoreCyclesTest {
    private static final String PROFILE = "orders";
    private static final String VARIABLE = "JAVA_TOOL_OPTIONS";
    private static final List<String> USER_FLAGS = List.of("-Dfile.encoding=UTF-8", "-Duser.timezone=UTC", "-Dapp.mode=fast",
            "-XX:+ExitOnOutOfMemoryError", "-verbose:gc");
    private static final List<List<String>> OPERATOR_FLAGS = List.of(
            List.of("-XX:ActiveProcessorCount=2", "-Xms512m", "-Xmx512m"),
            List.of("-XX:ActiveProcessorCount=2", "-Xms768m", "-Xmx768m", "-XX:+UseParallelGC"),
            List.of("-XX:ActiveProcessorCount=4", "-Xms1g", "-Xmx1g", "-XX:+UseG1GC", "-XX:MaxGCPauseMillis=100"));

    @Property(tries = 100)
    void theUsersOwnEnvironmentComesBackWhateverTheyEditInBetween(@ForAll long seed, @ForAll @IntRange(min = 1, max = 6) int cycles) {
        Random random = new Random(seed);
        Map<String, String> user = new LinkedHashMap<>();
        if (random.nextBoolean()) {
            user.put(VARIABLE, randomFlags(random));
        }
        user.put("APP_COLOR", "blue");
        Deployment live = deployment(user);

        for (int cycle = 0; cycle < cycles; cycle++) {
            live = apply(live, rendering(userValue(user), OPERATOR_FLAGS.get(random.nextInt(OPERATOR_FLAGS.size())), random.nextInt(400) + 1));
            switch (random.nextInt(5)) {
                case 0 -> { // the user adds a flag of their own before the operator's
                    String flag = USER_FLAGS.get(random.nextInt(USER_FLAGS.size()));
                    setJvm(live, (flag + " " + jvm(live)).trim());
                    user.put(VARIABLE, (flag + " " + userValue(user)).trim());
                }
                case 1 -> { // ... or after them
                    String flag = USER_FLAGS.get(random.nextInt(USER_FLAGS.size()));
                    setJvm(live, jvm(live) + " " + flag);
                    user.put(VARIABLE, (userValue(user) + " " + flag).trim());
                }
                case 2 -> { // the user edits another variable
                    String color = "c" + random.nextInt(100);
                    env(live).replaceAll(v -> v.getName().equals("APP_COLOR") ? new EnvVar("APP_COLOR", color, null) : v);
                    user.put("APP_COLOR", color);
                }
                case 3 -> live = DeploymentTuning.restored(live, PROFILE); // Recommend mode, then Apply again
                default -> { } // the operator re-plans only
            }
        }
        Deployment restored = DeploymentTuning.restored(live, PROFILE);

        Map<String, String> back = env(restored).stream().collect(Collectors.toMap(EnvVar::getName, v -> Objects.requireNonNullElse(v.getValue(), ""),
                (a, b) -> a + "|" + b, TreeMap::new));
        assertThat(back).as("seed %d", seed).isEqualTo(new TreeMap<>(normalized(user)));
        assertThat(restored.getMetadata().getAnnotations()).doesNotContainKeys(DeploymentTuning.TUNED_BY, DeploymentTuning.ORIGINAL_JVM_OPTIONS);
    }

    /** The user's flags as the JVM variable would hold them; an unset variable the user never set stays unset. */
    private static Map<String, String> normalized(Map<String, String> user) {
        Map<String, String> expected = new LinkedHashMap<>(user);
        expected.computeIfPresent(VARIABLE, (k, v) -> v.trim().replaceAll("\\s+", " "));
        return expected;
    }

    private static String randomFlags(Random random) {
        return random.nextBoolean() ? "" : USER_FLAGS.get(random.nextInt(USER_FLAGS.size()));
    }

    private static String userValue(Map<String, String> user) {
        return user.getOrDefault(VARIABLE, "");
    }

    private static Rendering rendering(String userValue, List<String> flags, int threads) {
        return new Rendering(VARIABLE, (userValue + " " + String.join(" ", flags)).trim(), flags,
                new TreeMap<>(Map.of("SERVER_TOMCAT_THREADS_MAX", Integer.toString(threads))), Map.of(Setting.THREADS_MAX, "SERVER_TOMCAT_THREADS_MAX"),
                List.of());
    }

    private static Deployment deployment(Map<String, String> env) {
        List<EnvVar> vars = new ArrayList<>();
        env.forEach((k, v) -> vars.add(new EnvVar(k, v, null)));
        return new DeploymentBuilder().withNewMetadata().withName("orders").withNamespace("shop").endMetadata()
                .withNewSpec().withNewTemplate().withNewMetadata().endMetadata()
                .withNewSpec().addNewContainer().withName("app").withImage("example/orders:1").withEnv(vars).endContainer()
                .endSpec().endTemplate().endSpec().build();
    }

    /** Server-side apply of the operator's fields: annotations by key, env entries by name (the operator's stale ones pruned). */
    private static Deployment apply(Deployment live, Rendering rendering) {
        Container user = DeploymentTuning.userContainer(live, container(live), PROFILE);
        String configMap = TuningConfigMap.name(PROFILE, rendering);
        Deployment desired = DeploymentTuning.desired(live, user, PROFILE, rendering, configMap, null);
        Deployment result = new DeploymentBuilder(live).build();
        Map<String, String> annotations = new LinkedHashMap<>(Objects.requireNonNullElse(result.getMetadata().getAnnotations(), Map.of()));
        annotations.putAll(desired.getMetadata().getAnnotations());
        result.getMetadata().setAnnotations(annotations);
        Map<String, EnvVar> env = new LinkedHashMap<>();
        user.getEnv().forEach(v -> env.put(v.getName(), v));
        desired.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv().forEach(v -> env.put(v.getName(), v));
        container(result).setEnv(new ArrayList<>(env.values()));
        result.getSpec().getTemplate().getMetadata().setAnnotations(desired.getSpec().getTemplate().getMetadata().getAnnotations());
        return result;
    }

    private static String jvm(Deployment deployment) {
        return env(deployment).stream().filter(v -> v.getName().equals(VARIABLE)).map(EnvVar::getValue).findFirst().orElse("");
    }

    private static void setJvm(Deployment deployment, String value) {
        env(deployment).removeIf(v -> v.getName().equals(VARIABLE));
        env(deployment).add(new EnvVar(VARIABLE, value, null));
    }

    private static List<EnvVar> env(Deployment deployment) {
        return container(deployment).getEnv();
    }

    private static Container container(Deployment deployment) {
        return deployment.getSpec().getTemplate().getSpec().getContainers().get(0);
    }
}
