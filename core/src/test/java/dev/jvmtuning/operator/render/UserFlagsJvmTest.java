package dev.jvmtuning.operator.render;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfileSpec;
import dev.jvmtuning.operator.flags.Jdks;
import dev.jvmtuning.operator.model.ContainerFacts;
import dev.jvmtuning.operator.model.Units;
import dev.jvmtuning.operator.planner.PlanResult;
import dev.jvmtuning.operator.planner.Planner;
import dev.jvmtuning.operator.testing.StartsProcesses;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The user's own JVM flags and the operator's together, started on every supported JDK this machine has:
 * the variable the operator renders from the user's value, with the user's command line after it, must
 * start the JVM. A collector of the user's beside one of the operator's does not.
 */
@StartsProcesses
class UserFlagsJvmTest {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());


    @ParameterizedTest(name = "JDK {0}")
    @MethodSource("dev.jvmtuning.operator.flags.Jdks#each")
    void theUsersCollectorInJavaToolOptionsAndThePlanStartTheJvm(int feature, Jdks.Jdk jdk) throws IOException {
        Jdks.Run run = start(jdk, "runtime: SpringBootTomcat", Map.of("JAVA_TOOL_OPTIONS", "-XX:+UseZGC -Dfile.encoding=UTF-8"), List.of());

        assertThat(run.exitStatus()).as("JDK %d:%n%s", feature, run.output()).isZero();
    }

    /** R10a and R21 on the JDKs themselves: ZGC's ceiling and soft target without -Xms, and on 25 compact headers, start the JVM. */
    @ParameterizedTest(name = "JDK {0}")
    @MethodSource("dev.jvmtuning.operator.flags.Jdks#each")
    void aZgcPlanWithASoftTargetStartsTheJvm(int feature, Jdks.Jdk jdk) throws IOException {
        Jdks.Run run = start(jdk, "runtime: SpringBootTomcat\ngc: {collector: ZGC}", Map.of(), List.of("-XX:+PrintFlagsFinal"));

        assertThat(run.exitStatus()).as("JDK %d:%n%s", feature, run.output()).isZero();
        // set by the plan (its variable's origin), not HotSpot's default
        assertThat(run.output()).as("JDK %d", feature).containsPattern("SoftMaxHeapSize += \\d+ +\\{manageable\\} \\{(environment|command line)\\}");
        if (feature >= 25) {
            assertThat(run.output()).containsPattern("UseCompactObjectHeaders += true");
        }
    }

    /** Plans and renders the profile for a 1-CPU, 512 MiB container of this JDK, then runs {@code java <args> -version} as its pod would. */
    private static Jdks.Run start(Jdks.Jdk jdk, String profile, Map<String, String> env, List<String> args) throws IOException {
        TuningProfileSpec spec = YAML.readValue("targetRef: {name: web}\n" + profile, TuningProfileSpec.class);
        ContainerFacts facts = new ContainerFacts(1.0, 1.0, 512 * Units.MI, 512 * Units.MI, env, Set.of(), List.of("java"), args,
                jdk.feature(), 1);
        PlanResult result = Planner.plan(spec, facts);
        assertThat(result).isInstanceOf(PlanResult.Plan.class);
        Rendering rendering = Renderer.render(((PlanResult.Plan) result).values(), spec, facts);
        Map<String, String> environment = new HashMap<>(jdk.environment());
        environment.put(rendering.jvmOptionsVariable(), rendering.jvmOptionsValue());
        return new Jdks.Jdk(jdk.feature(), jdk.java(), environment).run(Stream.concat(args.stream(), Stream.of("-version")).toArray(String[]::new));
    }
}
