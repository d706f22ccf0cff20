package dev.jvmtuning.operator.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** {@code kubectl tp plan}: a preview from files, without a cluster. */
class PlanCommandTest {
    @TempDir
    Path dir;

    static Tp run(String... args) {
        String[] plan = new String[args.length + 1];
        plan[0] = "plan";
        System.arraycopy(args, 0, plan, 1, args.length);
        return Tp.run(plan);
    }

    static Stream<Path> examples() throws IOException {
        return Files.list(Path.of("examples")).filter(p -> p.toString().endsWith(".yaml")).sorted();
    }

    @ParameterizedTest
    @MethodSource("examples")
    void rendersEveryExample(Path example) {
        Tp outcome = run("-f", example.toString());

        assertThat(outcome.status()).as(outcome.err()).isZero();
        assertThat(outcome.out()).contains("SETTING", "gc.collector", "heap.size", "-Xmx");
        assertThat(outcome.err()).isEmpty();
    }

    @Test
    void readsTheContainerFromTheDeploymentAndPrintsTheRationale() {
        Tp outcome = run("-f", "examples/orders-api.yaml");

        assertThat(outcome.out())
                .contains("container: cpu 2, memory 2048Mi, 2 replica(s)")
                .contains("400 req/s x 300 ms = 120 requests in flight (R1)")
                .contains("configmap SERVER_TOMCAT_THREADS_MAX=150")
                .contains("env JAVA_TOOL_OPTIONS=-Dfile.encoding=UTF-8 -XX:ActiveProcessorCount=2");
    }

    @Test
    void flagsSupplyTheContainerWhenNoDeploymentIsGiven() throws IOException {
        Path profile = write("""
                apiVersion: jvmtuning.dev/v1alpha1
                kind: TuningProfile
                metadata: {name: p}
                spec: {targetRef: {name: web}, heap: {size: 768Mi}}
                """);

        Tp outcome = run("-f", profile.toString(), "--cpu", "500m", "--memory", "1536Mi");

        assertThat(outcome.status()).isZero();
        assertThat(outcome.out()).contains("container: cpu 0.5, memory 1536Mi").contains("-Xmx768m").contains("-XX:ActiveProcessorCount=1");
    }

    @Test
    void aFlagOnlyTheInstallationsAllowListAdmitsIsPlannedWithAllow() throws IOException {
        Path profile = write("""
                apiVersion: jvmtuning.dev/v1alpha1
                kind: TuningProfile
                metadata: {name: p}
                spec: {targetRef: {name: web}, jvmOptions: ["-Duser.timezone=UTC"]}
                """);

        Tp standard = run("-f", profile.toString(), "--cpu", "2", "--memory", "2Gi");
        Tp allowed = run("-f", profile.toString(), "--cpu", "2", "--memory", "2Gi", "--allow", "-Duser.timezone=");

        assertThat(standard.status()).isEqualTo(1);
        assertThat(standard.err()).contains("Invalid", "-Duser.timezone=UTC");
        assertThat(allowed.status()).as(allowed.err()).isZero();
        assertThat(allowed.out()).containsPattern("env JAVA_TOOL_OPTIONS=.* -Duser.timezone=UTC");
        assertThat(run("-f", profile.toString(), "--cpu", "2", "--memory", "2Gi", "--allow", "-javaagent:").status())
                .as("an entry no installation may allow").isEqualTo(2);
    }

    @Test
    void modeAutoPlansWithTheLoopsSettingsFromStatus() throws IOException {
        Path profile = write("""
                apiVersion: jvmtuning.dev/v1alpha1
                kind: TuningProfile
                metadata: {name: p}
                spec:
                  targetRef: {name: web}
                  mode: Auto
                  runtime: SpringBootTomcat
                  workload: {requestsPerSecond: 400, meanLatency: 300ms, cpuPerRequest: 4ms}
                  threads: {}
                status:
                  auto: {state: Observing, settings: {threads: 60}}
                """);

        Tp outcome = run("-f", profile.toString(), "--cpu", "2", "--memory", "2Gi");

        assertThat(outcome.status()).as(outcome.err()).isZero();
        assertThat(outcome.out()).contains("configmap SERVER_TOMCAT_THREADS_MAX=60");
    }

    @Test
    void aProfileFileFromTheClusterIsPlannedForTheJavaVersionItsPodsReportUnlessJavaIsGiven() throws IOException {
        Path profile = write("""
                apiVersion: jvmtuning.dev/v1alpha1
                kind: TuningProfile
                metadata: {name: p}
                spec:
                  targetRef: {name: web}
                  runtime: SpringBootTomcat
                status:
                  javaVersion: 25
                """);

        Tp fromStatus = run("-f", profile.toString(), "--cpu", "2", "--memory", "2Gi");
        Tp given = run("-f", profile.toString(), "--cpu", "2", "--memory", "2Gi", "--java", "21");

        assertThat(fromStatus.status()).as(fromStatus.err()).isZero();
        assertThat(fromStatus.out()).contains("-XX:+UseCompactObjectHeaders");
        assertThat(given.status()).as(given.err()).isZero();
        assertThat(given.out()).doesNotContain("-XX:+UseCompactObjectHeaders");
    }

    @Test
    void anInfeasibleProfileExitsOneWithTheNumbers() throws IOException {
        Path profile = write("""
                apiVersion: jvmtuning.dev/v1alpha1
                kind: TuningProfile
                metadata: {name: p}
                spec: {targetRef: {name: web}, heap: {size: 2Gi}}
                """);

        Tp outcome = run("-f", profile.toString(), "--cpu", "2", "--memory", "2Gi");

        assertThat(outcome.status()).isEqualTo(1);
        assertThat(outcome.err()).startsWith("Infeasible:").contains("exceeds the 2048Mi memory limit");
    }

    @Test
    void badInputExitsTwoWithAClearMessage() throws IOException {
        Path typo = write("""
                apiVersion: jvmtuning.dev/v1alpha1
                kind: TuningProfile
                metadata: {name: p}
                spec: {targetRef: {name: web}, threds: {max: 5}}
                """);

        assertThat(run("-f", typo.toString(), "--cpu", "2", "--memory", "2Gi").err()).contains("Unrecognized field \"threds\"");
        assertThat(run("-f", typo.toString(), "--cpu", "2", "--memory", "2Gi").status()).isEqualTo(2);
        assertThat(run().err()).contains("Missing required option: '--file=FILE'");
        assertThat(run().status()).isEqualTo(2);
        Tp notAQuantity = run("-f", "examples/orders-api.yaml", "--memory", "lots");
        assertThat(notAQuantity.err()).contains("Invalid value for option '--memory': takes a Kubernetes quantity such as 2, 500m or 2Gi");
        assertThat(notAQuantity.status()).isEqualTo(2);
        assertThat(run("-f", "examples/orders-api.yaml", "--replicas", "0").err())
                .contains("Invalid value for option '--replicas': takes a positive whole number, got 0");
        Tp absent = run("-f", dir.resolve("absent.yaml").toString());
        assertThat(absent.status()).isEqualTo(2);
        assertThat(absent.err()).startsWith("kubectl tp plan: cannot read ").doesNotContain("Exception", "\tat ");
    }

    @Test
    void withoutDeploymentOrResourcesItSaysWhatIsMissing() throws IOException {
        Path profile = write("""
                apiVersion: jvmtuning.dev/v1alpha1
                kind: TuningProfile
                metadata: {name: p}
                spec: {targetRef: {name: web}}
                """);

        Tp outcome = run("-f", profile.toString());

        assertThat(outcome.status()).isEqualTo(2);
        assertThat(outcome.err()).contains("no Deployment named web in the given files");
    }

    private Path write(String yaml) throws IOException {
        Path file = Files.createTempFile(dir, "profile", ".yaml");
        Files.writeString(file, yaml);
        return file;
    }
}
