package dev.jvmtuning.operator.preview;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.jvmtuning.operator.api.v1alpha1.AutoSettings;
import dev.jvmtuning.operator.api.v1alpha1.AutoState;
import dev.jvmtuning.operator.api.v1alpha1.AutoStatus;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfileSpec;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfileStatus;
import dev.jvmtuning.operator.flags.FlagPolicy;
import dev.jvmtuning.operator.model.Reason;
import dev.jvmtuning.operator.testing.TestProfiles;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The one path from a profile and its Deployment to what the operator renders, and its three outcomes. */
class PreviewTest {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final Preview.Installation STANDARD = new Preview.Installation(FlagPolicy.standard(), guardrail -> Optional.empty());

    private static TuningProfileSpec spec(String yaml) throws Exception {
        return YAML.readValue("targetRef: {name: web}\nruntime: SpringBootTomcat\n" + yaml, TuningProfileSpec.class);
    }

    private static Deployment web(String... containers) {
        DeploymentBuilder deployment = new DeploymentBuilder().withNewMetadata().withName("web").endMetadata().withNewSpec().withReplicas(1)
                .withNewTemplate().withNewSpec().endSpec().endTemplate().endSpec();
        for (String name : containers) {
            deployment.editSpec().editTemplate().editSpec().addNewContainer().withName(name)
                    .withNewResources().addToLimits("cpu", new Quantity("2")).addToLimits("memory", new Quantity("2Gi")).endResources()
                    .endContainer().endSpec().endTemplate().endSpec();
        }
        return deployment.build();
    }

    @Test
    void modeAutoPlansWithTheLoopsSettingsAndOtherModesIgnoreThem() throws Exception {
        AutoStatus loop = new AutoStatus().setSettings(new AutoSettings(60, null, null));
        String workload = "workload: {requestsPerSecond: 400, meanLatency: 300ms, cpuPerRequest: 4ms}\nthreads: {}\n";

        Preview auto = Preview.of("web", spec("mode: Auto\n" + workload), loop, null, web("app"), Preview.Live.NONE, null, null, STANDARD);
        Preview apply = Preview.of("web", spec(workload), loop, null, web("app"), Preview.Live.NONE, null, null, STANDARD);

        assertThat(auto).isInstanceOfSatisfying(Preview.Rendered.class, r -> {
            assertThat(r.plan().values().maxThreads()).isEqualTo(60);
            assertThat(r.rendering().serverEnvironment()).containsEntry("SERVER_TOMCAT_THREADS_MAX", "60");
        });
        assertThat(apply).isInstanceOfSatisfying(Preview.Rendered.class, r -> assertThat(r.plan().values().maxThreads()).isEqualTo(150));
    }

    @Test
    void boundsTightenedSinceTheLoopSetASettingBindWhileItRests() throws Exception {
        TuningProfileSpec bounded = spec("mode: Auto\nauto: {threads: {max: 40}, connectionPool: {min: 25}}\n"
                + "workload: {requestsPerSecond: 400, meanLatency: 300ms, cpuPerRequest: 4ms}\n");
        AutoSettings loop = new AutoSettings(60, 20, null);

        Preview resting = Preview.of("web", bounded, new AutoStatus().setState(AutoState.Converged).setSettings(loop), null, web("app"), Preview.Live.NONE, null,
                null, STANDARD);
        Preview stepping = Preview.of("web", bounded, new AutoStatus().setState(AutoState.Observing).setSettings(loop), null, web("app"), Preview.Live.NONE, null,
                null, STANDARD);

        assertThat(resting).isInstanceOfSatisfying(Preview.Rendered.class, r -> {
            assertThat(r.plan().values().maxThreads()).isEqualTo(40);
            assertThat(r.plan().values().poolMaxSize()).isEqualTo(25);
        });
        assertThat(stepping).as("each step brings a setting outside the bounds in at most the step limit")
                .isInstanceOfSatisfying(Preview.Rendered.class, r -> {
                    assertThat(r.plan().values().maxThreads()).isEqualTo(60);
                    assertThat(r.plan().values().poolMaxSize()).isEqualTo(20);
                });
    }

    @Test
    void theInstallationsAllowListAndGuardrailRefusalDecide() throws Exception {
        TuningProfileSpec property = spec("jvmOptions: [\"-Duser.timezone=UTC\"]\n");
        Preview.Installation allowing = new Preview.Installation(FlagPolicy.bundled(List.of("-Duser.timezone=")), guardrail -> Optional.empty());
        Preview.Installation refusing = new Preview.Installation(FlagPolicy.standard(),
                guardrail -> Optional.of("spec.auto.guardrail.name 'p99' is not a guardrail query of this installation"));

        assertThat(Preview.of("web", property, null, null, web("app"), Preview.Live.NONE, null, null, STANDARD)).isInstanceOfSatisfying(Preview.Rejected.class,
                r -> assertThat(r.reason()).isEqualTo(Reason.INVALID));
        assertThat(Preview.of("web", property, null, null, web("app"), Preview.Live.NONE, null, null, allowing)).isInstanceOf(Preview.Rendered.class);
        assertThat(Preview.of("web", spec("mode: Auto\nauto: {guardrail: {name: p99, max: 1}}\n"), null, null, web("app"), Preview.Live.NONE, null, null, refusing))
                .isInstanceOfSatisfying(Preview.Rejected.class, r -> assertThat(r.messages()).containsExactly(
                        "spec.auto.guardrail.name 'p99' is not a guardrail query of this installation"));
    }

    @Test
    void aStoredProfileIsPlannedForTheJavaVersionItsStatusRecordsUnlessOneIsGiven() throws Exception {
        TuningProfile onJdk25 = stored(25);

        assertThat(flags(Preview.of(onJdk25, web("app"), Preview.Live.NONE, null, STANDARD))).contains("-XX:+UseCompactObjectHeaders");
        assertThat(flags(Preview.of(stored(21), web("app"), Preview.Live.NONE, null, STANDARD))).doesNotContain("-XX:+UseCompactObjectHeaders");
        assertThat(flags(Preview.of(stored(null), web("app"), Preview.Live.NONE, null, STANDARD))).doesNotContain("-XX:+UseCompactObjectHeaders");
        assertThat(flags(Preview.of(onJdk25, web("app"), Preview.Live.NONE, 21, STANDARD))).as("a version given wins").doesNotContain("-XX:+UseCompactObjectHeaders");
    }

    @Test
    void aStoredProfileIsPlannedWithTheAotCacheItsStatusRecords() throws Exception {
        TuningProfile cached = stored(25);
        cached.getStatus().setAotCache("-XX:AOTCache on 2 of 2 pods");

        assertThat(flags(Preview.of(cached, web("app"), Preview.Live.NONE, null, STANDARD))).as("compact headers would make the JVM reject it")
                .doesNotContain("-XX:+UseCompactObjectHeaders");
    }

    private static TuningProfile stored(Integer javaVersion) throws Exception {
        TuningProfile profile = new TuningProfile();
        profile.getMetadata().setName("web");
        profile.setSpec(spec(""));
        TuningProfileStatus status = new TuningProfileStatus();
        status.setJavaVersion(javaVersion);
        profile.setStatus(status);
        return profile;
    }

    private static List<String> flags(Preview preview) {
        assertThat(preview).isInstanceOf(Preview.Rendered.class);
        return ((Preview.Rendered) preview).rendering().renderedFlags();
    }

    @Test
    void aDeploymentWithoutTheContainerSaysWhatToSet() throws Exception {
        assertThat(Preview.of("web", spec(""), null, null, web("app", "sidecar"), Preview.Live.NONE, null, null, STANDARD)).isInstanceOfSatisfying(Preview.NoContainer.class,
                missing -> assertThat(missing.problem()).contains("set spec.container"));
    }

    @Test
    void theProfileAndAVerticalPodAutoscalerSizingOneResourceConflictAndOtherwiseBothStand() throws Exception {
        Preview.Live requestsOnly = new Preview.Live(List.of(), List.of(), List.of(), List.of(), List.of(TestProfiles.vpa("web-vpa", "web",
                "resourcePolicy: {containerPolicies: [{containerName: '*', controlledValues: RequestsOnly, controlledResources: [memory]}]}")), null);
        String sized = "threads: {max: 80}\nworkload: {liveHeap: 200Mi}\nsizing: {memory: {policy: Plan}}";

        assertThat(Preview.of("web", spec(sized), null, null, web("app"), requestsOnly, null, null, STANDARD))
                .isInstanceOfSatisfying(Preview.Rejected.class, rejected -> {
                    assertThat(rejected.reason()).isEqualTo(Reason.CONFLICT);
                    assertThat(rejected.messages()).singleElement().asString().contains("sizing.memory is Plan", "VerticalPodAutoscaler web-vpa",
                            "memory too");
                });
        assertThat(Preview.of("web", spec("threads: {max: 80}\nworkload: {requestsPerSecond: 100, meanLatency: 50ms, cpuPerRequest: 5ms}\n"
                + "sizing: {cpu: {policy: Plan}}"), null, null, web("app"), requestsOnly, null, null, STANDARD))
                .as("the autoscaler sizes memory only").isInstanceOf(Preview.Rendered.class);
        assertThat(Preview.of("web", spec(sized), null, null, web("app"), Preview.Live.NONE, null, null, STANDARD))
                .isInstanceOfSatisfying(Preview.Rendered.class, rendered -> assertThat(rendered.asPlanned().memoryLimitBytes())
                        .as("the limit the pods then run").isEqualTo(1017 * 1024L * 1024));
    }
}
