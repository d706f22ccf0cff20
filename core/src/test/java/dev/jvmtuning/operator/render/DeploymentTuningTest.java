package dev.jvmtuning.operator.render;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jvmtuning.operator.model.LabelsAndAnnotations;
import dev.jvmtuning.operator.model.Setting;
import dev.jvmtuning.operator.testing.ServerSideApply;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/**
 * What the operator writes into a Deployment and how it takes it out again, as tables: the user set
 * the JVM variable or not, set it from a reference, edited the combined value, set a server
 * variable themselves. Apply is modelled as server-side apply merges these fields: env entries by
 * name, annotations by key.
 */
class DeploymentTuningTest {
    private static final String PROFILE = "orders";
    private static final String CONFIG_MAP = TuningConfigMap.prefix(PROFILE) + "-0123456789";
    private static final String VARIABLE = "JAVA_TOOL_OPTIONS";
    private static final String FLAGS = "-XX:ActiveProcessorCount=2 -Xms512m -Xmx512m";
    private static final EnvVar FROM_SECRET = new EnvVarBuilder().withName("DB_PASSWORD").withNewValueFrom().withNewSecretKeyRef()
            .withName("db").withKey("password").endSecretKeyRef().endValueFrom().build();

    static Stream<Arguments> userEnvironments() {
        return Stream.of(
                Arguments.of("variable unset", List.of()),
                Arguments.of("variable set", List.of(new EnvVar(VARIABLE, "-Dfile.encoding=UTF-8", null))),
                Arguments.of("variable set empty", List.of(new EnvVar(VARIABLE, "", null))),
                Arguments.of("a reference beside it", List.of(FROM_SECRET, new EnvVar(VARIABLE, "-Duser.timezone=UTC", null))),
                Arguments.of("server variable set by the user", List.of(new EnvVar("SERVER_TOMCAT_THREADS_MAX", "300", null))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("userEnvironments")
    void applyThenRestoreGivesBackTheUsersContainer(String situation, List<EnvVar> userEnv) {
        Deployment original = deployment(userEnv);
        Deployment tuned = apply(original, rendering(userEnv));

        Container restored = DeploymentTuning.restored(tuned, PROFILE).getSpec().getTemplate().getSpec().getContainers().get(0);
        assertThat(restored.getEnv()).as(situation).containsExactlyInAnyOrderElementsOf(userEnv);
        assertThat(DeploymentTuning.restored(tuned, PROFILE).getMetadata().getAnnotations())
                .doesNotContainKeys(LabelsAndAnnotations.TUNED_BY_ANNOTATION, LabelsAndAnnotations.ORIGINAL_JVM_OPTIONS_ANNOTATION);
        assertThat(DeploymentTuning.userContainer(tuned, container(tuned), PROFILE).getEnv()).as(situation)
                .containsExactlyInAnyOrderElementsOf(userEnv);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("userEnvironments")
    void theJvmVariableCarriesTheUsersValueThenTheFlagsAndAServerVariableTheUserSetWins(String situation, List<EnvVar> userEnv) {
        Deployment tuned = apply(deployment(userEnv), rendering(userEnv));
        Map<String, EnvVar> env = byName(container(tuned).getEnv());

        String userValue = userEnv.stream().filter(v -> v.getName().equals(VARIABLE)).map(EnvVar::getValue).findFirst().orElse("");
        assertThat(env.get(VARIABLE).getValue()).as(situation).isEqualTo((userValue + " " + FLAGS).trim());
        boolean userSetsThreads = userEnv.stream().anyMatch(v -> v.getName().equals("SERVER_TOMCAT_THREADS_MAX"));
        assertThat(env.get("SERVER_TOMCAT_THREADS_MAX").getValueFrom() == null).as(situation).isEqualTo(userSetsThreads);
        assertThat(DeploymentTuning.tunedBy(tuned, PROFILE)).isTrue();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("userEnvironments")
    void anAppliedDeploymentIsUpToDateUntilASettingChanges(String situation, List<EnvVar> userEnv) {
        Deployment tuned = apply(deployment(userEnv), rendering(userEnv));
        Container user = DeploymentTuning.userContainer(tuned, container(tuned), PROFILE);

        Deployment same = DeploymentTuning.desired(tuned, user, PROFILE, rendering(userEnv), CONFIG_MAP, null);
        Rendering more = new Rendering(VARIABLE, rendering(userEnv).jvmOptionsValue() + " -XX:+UseG1GC", List.of(), rendering(userEnv)
                .serverEnvironment(), Map.of(), List.of(), new TreeMap<>());
        Deployment changed = DeploymentTuning.desired(tuned, user, PROFILE, more, CONFIG_MAP, null);
        Deployment withAgent = DeploymentTuning.desired(tuned, user, PROFILE, rendering(userEnv), CONFIG_MAP,
                new DeploymentTuning.Agent("localhost/agent:1", "/agent.jar"));

        assertThat(DeploymentTuning.upToDate(tuned, same, PROFILE)).as(situation).isTrue();
        assertThat(DeploymentTuning.upToDate(tuned, changed, PROFILE)).as(situation).isFalse();
        assertThat(DeploymentTuning.upToDate(tuned, withAgent, PROFILE)).as(situation).isFalse();
        assertThat(DeploymentTuning.hash(more, CONFIG_MAP)).isNotEqualTo(DeploymentTuning.hash(rendering(userEnv), CONFIG_MAP));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("userEnvironments")
    void theOperatorsEnvironmentIsTheSameAsDesiredAndAsWritten(String situation, List<EnvVar> userEnv) {
        Deployment live = deployment(userEnv);
        Deployment desired = DeploymentTuning.desired(live, container(live), PROFILE, rendering(userEnv), CONFIG_MAP, null);
        Deployment tuned = apply(live, rendering(userEnv));

        DeploymentTuning.TunedEnv asDesired = DeploymentTuning.tunedEnv(desired, PROFILE).orElseThrow();
        assertThat(asDesired.container()).isEqualTo("app");
        assertThat(asDesired.env()).as(situation).isEqualTo(container(desired).getEnv());
        assertThat(DeploymentTuning.tunedEnv(tuned, PROFILE)).as(situation + ": the user's own entries left out").hasValue(asDesired);
        assertThat(DeploymentTuning.tunedEnv(live, PROFILE)).as("not tuned").isEmpty();
        assertThat(DeploymentTuning.tunedEnv(tuned, "another")).as("tuned by another profile").isEmpty();
        Map<String, String> expected = new LinkedHashMap<>();
        expected.put(VARIABLE, rendering(userEnv).jvmOptionsValue());
        rendering(userEnv).serverEnvironment().forEach((name, value) -> {
            if (userEnv.stream().noneMatch(v -> v.getName().equals(name))) {
                expected.put(name, value);
            }
        });
        assertThat(asDesired.values(Map.of(CONFIG_MAP, rendering(userEnv).serverEnvironment())::get)).as(situation + ": literal values")
                .containsExactlyEntriesOf(expected);
    }

    @Test
    void anEditThatKeepsTheOperatorsSuffixIsTheUsersNewValue() {
        List<EnvVar> userEnv = List.of(new EnvVar(VARIABLE, "-Dfile.encoding=UTF-8", null));
        Deployment tuned = apply(deployment(userEnv), rendering(userEnv));
        setJvmVariable(tuned, "-Dfile.encoding=UTF-8 -Dapp.mode=fast " + FLAGS);

        assertThat(DeploymentTuning.userContainer(tuned, container(tuned), PROFILE).getEnv())
                .containsExactly(new EnvVar(VARIABLE, "-Dfile.encoding=UTF-8 -Dapp.mode=fast", null));
    }

    @Test
    void anEditThatMovesTheUsersFlagsBehindTheOperatorsKeepsOnlyTheUsersFlags() {
        List<EnvVar> userEnv = List.of(new EnvVar(VARIABLE, "-Dfile.encoding=UTF-8", null));
        Deployment tuned = apply(deployment(userEnv), rendering(userEnv));
        setJvmVariable(tuned, FLAGS + " -Dfile.encoding=UTF-8 -Dapp.mode=fast");

        assertThat(DeploymentTuning.userContainer(tuned, container(tuned), PROFILE).getEnv())
                .containsExactly(new EnvVar(VARIABLE, "-Dfile.encoding=UTF-8 -Dapp.mode=fast", null));
        Container reapplied = container(apply(tuned, rendering(userEnv)));
        assertThat(byName(reapplied.getEnv()).get(VARIABLE).getValue()).as("the operator's flags once, not twice")
                .isEqualTo("-Dfile.encoding=UTF-8 " + FLAGS);
    }

    @Test
    void aChangedFlagOfTheOperatorsIsTheUsersFromThenOn() {
        Deployment tuned = apply(deployment(List.of()), rendering(List.of()));
        setJvmVariable(tuned, "-XX:ActiveProcessorCount=2 -Xms512m -Xmx1g");

        assertThat(DeploymentTuning.userContainer(tuned, container(tuned), PROFILE).getEnv())
                .containsExactly(new EnvVar(VARIABLE, "-Xmx1g", null));
    }

    @Test
    void mallocArenasAnsweringAnOomKillGoInWithTheServersVariablesAndOutOnRestore() {
        Rendering base = rendering(List.of());
        TreeMap<String, String> server = new TreeMap<>(base.serverEnvironment());
        server.put(Renderer.MALLOC_ARENA_MAX, "2");
        Rendering answered = new Rendering(VARIABLE, base.jvmOptionsValue(), base.renderedFlags(), server, base.renderedAs(), List.of(), new TreeMap<>());
        Deployment tuned = apply(deployment(List.of()), answered);

        assertThat(byName(container(tuned).getEnv()).get(Renderer.MALLOC_ARENA_MAX).getValueFrom().getConfigMapKeyRef().getName())
                .isEqualTo(CONFIG_MAP);
        assertThat(DeploymentTuning.hash(answered, CONFIG_MAP)).isNotEqualTo(DeploymentTuning.hash(base, CONFIG_MAP));
        assertThat(DeploymentTuning.restored(tuned, PROFILE).getSpec().getTemplate().getSpec().getContainers().get(0).getEnv())
                .isNullOrEmpty();
    }

    @Test
    void theServerPropertiesReferenceTheirConfigMapOptionallySoPodsStartWithoutIt() {
        Deployment tuned = apply(deployment(List.of()), rendering(List.of()));
        var ref = byName(container(tuned).getEnv()).get("SERVER_TOMCAT_THREADS_MAX").getValueFrom().getConfigMapKeyRef();

        assertThat(ref.getName()).isEqualTo(CONFIG_MAP);
        assertThat(ref.getOptional()).isTrue();
        assertThat(ConfigMapReferences.of(tuned.getSpec().getTemplate())).containsExactly(CONFIG_MAP);
    }

    @Test
    void anEditThatDropsTheOperatorsSuffixIsTakenWhole() {
        Deployment tuned = apply(deployment(List.of()), rendering(List.of()));
        setJvmVariable(tuned, "-Xss512k");

        assertThat(DeploymentTuning.userContainer(tuned, container(tuned), PROFILE).getEnv())
                .containsExactly(new EnvVar(VARIABLE, "-Xss512k", null));
    }

    @Test
    void theAgentComesAndGoesWithItsInitContainerVolumeAndMount() {
        Deployment original = deployment(List.of());
        Deployment desired = DeploymentTuning.desired(original, container(original), PROFILE, rendering(List.of()), CONFIG_MAP,
                new DeploymentTuning.Agent("localhost/agent:1", "/agent.jar"));
        var pod = desired.getSpec().getTemplate().getSpec();

        assertThat(pod.getInitContainers()).singleElement().satisfies(init -> {
            assertThat(init.getImage()).isEqualTo("localhost/agent:1");
            assertThat(init.getCommand()).containsExactly("cp", "/agent.jar", AgentInjection.JAR);
            assertThat(init.getSecurityContext().getRunAsNonRoot()).isTrue();
        });
        assertThat(pod.getContainers().get(0).getVolumeMounts()).singleElement()
                .satisfies(m -> assertThat(m.getReadOnly()).isTrue());

        Deployment tuned = apply(original, rendering(List.of()));
        tuned.getSpec().getTemplate().getSpec().setInitContainers(pod.getInitContainers());
        tuned.getSpec().getTemplate().getSpec().setVolumes(pod.getVolumes());
        container(tuned).setVolumeMounts(pod.getContainers().get(0).getVolumeMounts());
        var restored = DeploymentTuning.restored(tuned, PROFILE).getSpec().getTemplate().getSpec();
        assertThat(restored.getInitContainers()).isNull();
        assertThat(restored.getVolumes()).isNull();
        assertThat(restored.getContainers().get(0).getVolumeMounts()).isNullOrEmpty();
    }

    private static final Map<String, String> SIZED = Map.of("limits.memory", "1017Mi", "requests.memory", "1017Mi");

    private static Rendering sized(Map<String, String> resources) {
        Rendering base = rendering(List.of());
        return new Rendering(VARIABLE, base.jvmOptionsValue(), base.renderedFlags(), base.serverEnvironment(), base.renderedAs(), List.of(),
                new TreeMap<>(resources));
    }

    private static Deployment withResources(ResourceRequirements resources) {
        Deployment deployment = deployment(List.of());
        container(deployment).setResources(resources);
        return deployment;
    }

    static Stream<Arguments> usersResources() {
        return Stream.of(
                Arguments.of("limits and requests", new ResourceRequirementsBuilder().addToLimits("memory", new Quantity("4Gi"))
                        .addToLimits("cpu", new Quantity("2")).addToRequests("memory", new Quantity("2Gi"))
                        .addToRequests("cpu", new Quantity("500m")).build()),
                Arguments.of("a limit only", new ResourceRequirementsBuilder().addToLimits("memory", new Quantity("4Gi")).build()),
                // The API server gives a container without resources an empty object.
                Arguments.of("none", new ResourceRequirements()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("usersResources")
    void sizedResourcesGoIntoTheContainerAndTheUsersComeBackFieldForField(String situation, ResourceRequirements users) {
        Deployment original = withResources(new ResourceRequirementsBuilder(users).build());
        Deployment tuned = apply(original, sized(SIZED));

        assertThat(container(tuned).getResources().getLimits()).containsEntry("memory", new Quantity("1017Mi"));
        assertThat(container(tuned).getResources().getRequests()).containsEntry("memory", new Quantity("1017Mi"));
        if (users.getLimits().containsKey("cpu")) {
            assertThat(container(tuned).getResources().getLimits()).as("what is not sized stays").containsEntry("cpu", new Quantity("2"));
        }
        assertThat(DeploymentTuning.upToDate(tuned, desired(tuned, sized(SIZED)), PROFILE)).isTrue();
        assertThat(DeploymentTuning.upToDate(tuned, desired(tuned, sized(Map.of("limits.memory", "903Mi", "requests.memory", "903Mi"))), PROFILE))
                .isFalse();
        assertThat(DeploymentTuning.templateHash(tuned, PROFILE)).as(situation).isEqualTo(DeploymentTuning.templateHash(original, PROFILE));
        assertThat(fields(DeploymentTuning.userContainer(tuned, container(tuned), PROFILE).getResources())).as(situation).isEqualTo(fields(users));

        Deployment restored = DeploymentTuning.restored(tuned, PROFILE);
        assertThat(fields(container(restored).getResources())).as(situation).isEqualTo(fields(users));
        assertThat(restored.getMetadata().getAnnotations()).doesNotContainKey(LabelsAndAnnotations.ORIGINAL_RESOURCES_ANNOTATION);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("usersResources")
    void sizingTurnedOffPutsTheUsersValuesBackThroughTheApply(String situation, ResourceRequirements users) {
        Deployment original = withResources(new ResourceRequirementsBuilder(users).build());
        Deployment unsized = apply(apply(original, sized(SIZED)), sized(Map.of()));

        assertThat(fields(container(unsized).getResources())).as(situation).isEqualTo(fields(users));
        assertThat(DeploymentTuning.upToDate(unsized, desired(unsized, sized(Map.of())), PROFILE)).isTrue();
    }

    @Test
    void aLimitTheUserChangesWhileSizedIsTheirs() {
        Deployment tuned = apply(withResources(new ResourceRequirementsBuilder().addToLimits("memory", new Quantity("4Gi")).build()), sized(SIZED));
        container(tuned).getResources().getLimits().put("memory", new Quantity("3Gi"));

        assertThat(DeploymentTuning.userContainer(tuned, container(tuned), PROFILE).getResources().getLimits())
                .containsEntry("memory", new Quantity("3Gi"));
        assertThat(container(DeploymentTuning.restored(tuned, PROFILE)).getResources().getLimits()).containsEntry("memory", new Quantity("3Gi"));
        assertThat(container(DeploymentTuning.restored(tuned, PROFILE)).getResources().getRequests()).as("the request it never set goes")
                .isNull();
    }

    @Test
    void theSettingsHashChangesWithTheResources() {
        assertThat(DeploymentTuning.hash(sized(SIZED), CONFIG_MAP)).isNotEqualTo(DeploymentTuning.hash(sized(Map.of()), CONFIG_MAP))
                .isNotEqualTo(DeploymentTuning.hash(sized(Map.of("limits.memory", "903Mi", "requests.memory", "903Mi")), CONFIG_MAP));
    }

    /** Each field of the resources by its path, as the API server stores them: an empty map is no map. */
    private static Map<String, Quantity> fields(ResourceRequirements resources) {
        Map<String, Quantity> fields = new TreeMap<>();
        Objects.requireNonNullElse(resources.getLimits(), Map.<String, Quantity>of()).forEach((k, v) -> fields.put("limits." + k, v));
        Objects.requireNonNullElse(resources.getRequests(), Map.<String, Quantity>of()).forEach((k, v) -> fields.put("requests." + k, v));
        return fields;
    }

    private static Deployment desired(Deployment live, Rendering rendering) {
        return DeploymentTuning.desired(live, DeploymentTuning.userContainer(live, container(live), PROFILE), PROFILE, rendering, CONFIG_MAP, null);
    }

    private static Deployment deployment(List<EnvVar> env) {
        return new DeploymentBuilder().withNewMetadata().withName("orders").withNamespace("shop").endMetadata()
                .withNewSpec().withReplicas(2).withNewTemplate().withNewMetadata().addToLabels("app", "orders").endMetadata()
                .withNewSpec().addNewContainer().withName("app").withImage("example/orders:1").withEnv(new ArrayList<>(env)).endContainer()
                .endSpec().endTemplate().endSpec().build();
    }

    /** What the renderer would produce for a container with this environment. */
    private static Rendering rendering(List<EnvVar> userEnv) {
        String user = userEnv.stream().filter(v -> v.getName().equals(VARIABLE)).map(EnvVar::getValue).findFirst().orElse("");
        TreeMap<String, String> server = new TreeMap<>(Map.of("SERVER_TOMCAT_THREADS_MAX", "150", "SERVER_TOMCAT_MBEANREGISTRY_ENABLED", "true"));
        return new Rendering(VARIABLE, (user + " " + FLAGS).trim(), List.of(FLAGS.split(" ")), server,
                Map.of(Setting.THREADS_MAX, "SERVER_TOMCAT_THREADS_MAX"), List.of(), new TreeMap<>());
    }

    /** Server-side apply of the operator's fields onto the live object: annotations by key, env entries by name. */
    @ParameterizedTest(name = "the user's policy {0}")
    @org.junit.jupiter.params.provider.NullSource
    @org.junit.jupiter.params.provider.ValueSource(strings = {"File", "FallbackToLogsOnError"})
    void aTunedContainerSaysWhyItFailedInItsLogsAndTheUsersPolicyComesBack(String policy) {
        Deployment original = deployment(List.of());
        container(original).setTerminationMessagePolicy(policy);
        Deployment tuned = apply(original, rendering(List.of()));

        assertThat(container(tuned).getTerminationMessagePolicy()).isEqualTo("FallbackToLogsOnError");
        assertThat(DeploymentTuning.upToDate(tuned, DeploymentTuning.desired(tuned, DeploymentTuning.userContainer(tuned, container(tuned), PROFILE),
                PROFILE, rendering(List.of()), CONFIG_MAP, null), PROFILE)).isTrue();
        Deployment restored = DeploymentTuning.restored(tuned, PROFILE);
        assertThat(container(restored).getTerminationMessagePolicy()).isEqualTo(policy);
        assertThat(restored.getMetadata().getAnnotations()).doesNotContainKey(LabelsAndAnnotations.ORIGINAL_TERMINATION_MESSAGE_POLICY_ANNOTATION);
        assertThat(DeploymentTuning.templateHash(tuned, PROFILE)).as("the Deployment's own template, before and after the operator's write")
                .isEqualTo(DeploymentTuning.templateHash(original, PROFILE));
    }

    private static Deployment apply(Deployment live, Rendering rendering) {
        Container user = DeploymentTuning.userContainer(live, container(live), PROFILE);
        Deployment desired = DeploymentTuning.desired(live, user, PROFILE, rendering, CONFIG_MAP, null);
        Deployment result = new DeploymentBuilder(live).build();
        Map<String, String> annotations = new LinkedHashMap<>(Objects.requireNonNullElse(result.getMetadata().getAnnotations(), Map.of()));
        annotations.putAll(desired.getMetadata().getAnnotations());
        result.getMetadata().setAnnotations(annotations);
        Map<String, String> template = new LinkedHashMap<>(Objects.requireNonNullElse(result.getSpec().getTemplate().getMetadata()
                .getAnnotations(), Map.of()));
        template.putAll(desired.getSpec().getTemplate().getMetadata().getAnnotations());
        result.getSpec().getTemplate().getMetadata().setAnnotations(template);
        Map<String, EnvVar> env = byName(container(result).getEnv());
        Container wanted = desired.getSpec().getTemplate().getSpec().getContainers().get(0);
        wanted.getEnv().forEach(v -> env.put(v.getName(), v));
        container(result).setEnv(new ArrayList<>(env.values()));
        if (wanted.getTerminationMessagePolicy() != null) {
            container(result).setTerminationMessagePolicy(wanted.getTerminationMessagePolicy());
        }
        ServerSideApply.resources(live, desired, container(result));
        return result;
    }


    private static void setJvmVariable(Deployment deployment, String value) {
        container(deployment).getEnv().replaceAll(v -> v.getName().equals(VARIABLE) ? new EnvVar(VARIABLE, value, null) : v);
    }

    private static Container container(Deployment deployment) {
        return deployment.getSpec().getTemplate().getSpec().getContainers().get(0);
    }

    private static Map<String, EnvVar> byName(List<EnvVar> env) {
        Map<String, EnvVar> byName = new LinkedHashMap<>();
        Objects.requireNonNullElse(env, List.<EnvVar>of()).forEach(v -> byName.put(v.getName(), v));
        return byName;
    }
}
