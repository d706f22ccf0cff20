package dev.jvmtuning.operator.api.v1alpha1;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.jvmtuning.operator.testing.LocalControlPlane;
import dev.jvmtuning.operator.testing.StartsProcesses;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The committed CRD on a real kube-apiserver: what it admits, and what it rejects with which message. */
@StartsProcesses
class CrdAdmissionTest {
    private static LocalControlPlane controlPlane;
    private static KubernetesClient client;

    @BeforeAll
    static void installCrd() {
        controlPlane = LocalControlPlane.shared();
        controlPlane.installCrd();
        client = controlPlane.client();
    }

    /** Sends the YAML as written, so the API server, not the Java model, judges it. */
    private static HasMetadata create(String namespace, String spec) {
        String yaml = """
                apiVersion: jvmtuning.dev/v1alpha1
                kind: TuningProfile
                metadata: {name: orders-api}
                spec:
                """ + spec.indent(2);
        return client.resource(yaml).inNamespace(namespace).create();
    }

    static Stream<Arguments> rejected() {
        return Stream.of(
                Arguments.of("targetRef: {kind: StatefulSet, name: db}", "targetRef.kind must be Deployment: only Deployments can be tuned"),
                Arguments.of("runtime: Quarkus", "spec.targetRef: Required value"),
                Arguments.of("targetRef: {name: Web_App}", "spec.targetRef.name: Invalid value"),
                Arguments.of("targetRef: {name: web}\nruntime: WebLogic", "spec.runtime: Unsupported value: \"WebLogic\""),
                Arguments.of("targetRef: {name: web}\nmode: Tune", "spec.mode: Unsupported value: \"Tune\""),
                Arguments.of("targetRef: {name: web}\nauto: {}", "auto is only read in mode Auto"),
                Arguments.of("targetRef: {name: web}\nmode: Auto\nauto: {threads: {min: 100, max: 50}}", "auto bounds: min must not exceed max"),
                Arguments.of("targetRef: {name: web}\nmode: Auto\nauto: {connectionPool: {min: 0}}",
                        "spec.auto.connectionPool.min in body should be greater than or equal to 1"),
                Arguments.of("targetRef: {name: web}\nmode: Auto\nauto: {heapPercentOfLimit: {max: 95}}",
                        "auto.heapPercentOfLimit bounds must lie between 10 and 90"),
                Arguments.of("targetRef: {name: web}\nmode: Auto\nauto: {maxStepPercent: 0}",
                        "spec.auto.maxStepPercent in body should be greater than or equal to 1"),
                Arguments.of("targetRef: {name: web}\nmode: Auto\nauto: {regressionTolerancePercent: 101}",
                        "spec.auto.regressionTolerancePercent in body should be less than or equal to 100"),
                Arguments.of("targetRef: {name: web}\nmode: Auto\nauto: {minInterval: soon}", "spec.auto.minInterval: Invalid value: \"soon\""),
                Arguments.of("targetRef: {name: web}\nmode: Auto\nauto: {guardrail: {max: 0.5}}", "spec.auto.guardrail.name: Required value"),
                Arguments.of("targetRef: {name: web}\nmode: Auto\nauto: {guardrail: {query: 'sum(up)', max: 0.5}}",
                        "spec.auto.guardrail.name: Required value"),
                Arguments.of("targetRef: {name: web}\nmode: Auto\nauto: {guardrail: {name: 'p99\"}) or vector(1', max: 0.5}}",
                        "spec.auto.guardrail.name: Invalid value"),
                Arguments.of("targetRef: {name: web}\nmode: Auto\nauto: {guardrail: {name: %s, max: 0.5}}".formatted("a".repeat(64)),
                        "spec.auto.guardrail.name: Too long"),
                Arguments.of("targetRef: {name: web}\nthreads: {max: 10, minSpare: 50}", "threads.minSpare must not exceed threads.max"),
                Arguments.of("targetRef: {name: web}\nthreads: {max: 0}", "spec.threads.max: Invalid value: 0: spec.threads.max in body should be greater than or equal to 1"),
                Arguments.of("targetRef: {name: web}\nthreads: {minSpare: 5}",
                        "threads.max is omitted, so it must be derived: set workload.requestsPerSecond and workload.meanLatency, or set threads.max"),
                Arguments.of("targetRef: {name: web}\nconnectionPool: {minIdle: 2}",
                        "connectionPool.maxSize is omitted, so it must be derived: set workload.requestsPerSecond and workload.dbTimePerRequest"),
                Arguments.of("targetRef: {name: web}\nconnectionPool: {maxSize: 5, minIdle: 10}", "connectionPool.minIdle must not exceed connectionPool.maxSize"),
                Arguments.of("targetRef: {name: web}\nheap: {size: 1Gi, percentOfLimit: 50}", "set heap.size or heap.percentOfLimit, not both"),
                Arguments.of("targetRef: {name: web}\nheap: {size: 16Mi}", "heap.size must be at least 32Mi"),
                Arguments.of("targetRef: {name: web}\nheap: {size: lots}", "spec.heap.size: Invalid value: \"lots\""),
                Arguments.of("targetRef: {name: web}\nheap: {percentOfLimit: 95}", "spec.heap.percentOfLimit in body should be less than or equal to 90"),
                Arguments.of("targetRef: {name: web}\ngc: {collector: Serial, maxPauseMillis: 100}", "gc.maxPauseMillis has no effect with the Serial collector"),
                Arguments.of("targetRef: {name: web}\ngc: {collector: CMS}", "spec.gc.collector: Unsupported value: \"CMS\""),
                Arguments.of("targetRef: {name: web}\nworkload: {meanLatency: 100ms, cpuPerRequest: 500ms}",
                        "workload.cpuPerRequest cannot exceed workload.meanLatency"),
                Arguments.of("targetRef: {name: web}\nworkload: {meanLatency: 100ms, dbTimePerRequest: 1s}",
                        "workload.dbTimePerRequest cannot exceed workload.meanLatency"),
                Arguments.of("targetRef: {name: web}\nworkload: {meanLatency: 0s}", "workload.meanLatency must be positive"),
                Arguments.of("targetRef: {name: web}\nworkload: {meanLatency: fast}", "spec.workload.meanLatency: Invalid value: \"fast\""),
                Arguments.of("targetRef: {name: web}\nworkload: {requestsPerSecond: 0}", "workload.requestsPerSecond must be positive"),
                Arguments.of("targetRef: {name: web}\nworkload: {allocationPerRequest: '0'}", "workload.allocationPerRequest must be at least 1Ki"),
                Arguments.of("targetRef: {name: web}\nworkload: {allocationPerRequest: '1'}", "workload.allocationPerRequest must be at least 1Ki"),
                Arguments.of("targetRef: {name: web}\nworkload: {allocationPerRequest: 17Ti}", "workload.allocationPerRequest must be at most 16Ti"),
                Arguments.of("targetRef: {name: web}\nheap: {size: '99999999999999999999Ti'}", "heap.size must be at most 16Ti"),
                Arguments.of("targetRef: {name: web}\nworkload: {maxQueueWait: 9999999h}", "spec.workload.maxQueueWait: Invalid value: \"9999999h\""),
                Arguments.of("targetRef: {name: web}\nworkload: {dbTimePerRequest: 1.0000001s}", "spec.workload.dbTimePerRequest: Invalid value"),
                Arguments.of("targetRef: {name: web}\nmode: Auto\nauto: {warmUp: 99999999999999999999h}", "spec.auto.warmUp: Too long: may not be more than 15"),
                Arguments.of("targetRef: {kind: " + "D".repeat(64) + ", name: web}", "spec.targetRef.kind: Too long: may not be more than 63"),
                Arguments.of("targetRef: {name: web}\nworkload: {allocationPerRequest: 2MB}", "spec.workload.allocationPerRequest: Invalid value"),
                Arguments.of("targetRef: {name: web}\nworkload: {loadedClasses: 5}", "spec.workload.loadedClasses in body should be greater than or equal to 100"),
                Arguments.of("targetRef: {name: web}\nworkload: {requestsPerSecond: 0.0001}", "spec.workload.requestsPerSecond in body should be greater than or equal to 0.001"),
                Arguments.of("targetRef: {name: web}\njvmOptions: ['Xmx1g']", "jvmOptions entry 'Xmx1g' is not exactly one JVM flag"),
                Arguments.of("targetRef: {name: web}\njvmOptionsVariable: MAVEN_OPTS", "spec.jvmOptionsVariable: Unsupported value: \"MAVEN_OPTS\""),
                Arguments.of("targetRef: {name: web}\nmetrics: {interval: 1s}", "metrics.interval must be at least 5s"),
                Arguments.of("targetRef: {name: web}\nmetrics: {warmUp: 61m}", "metrics.warmUp must be at most 1h"),
                Arguments.of("targetRef: {name: web}\nmetrics: {port: 70000}", "spec.metrics.port in body should be less than or equal to 65535"),
                Arguments.of("targetRef: {name: web}\nmetrics: {path: 'http://evil'}", "spec.metrics.path: Invalid value"),
                Arguments.of("targetRef: {name: web}\npressure: {gcTimePercent: 150}", "spec.pressure.gcTimePercent in body should be less than or equal to 100"),
                Arguments.of("targetRef: {name: web}\ncontainer: App", "spec.container: Invalid value: \"App\""),
                Arguments.of("targetRef: {name: web}\nstartupBoost: {warmUp: 1m}", "spec.startupBoost.cpu: Required value"),
                Arguments.of("targetRef: {name: web}\nstartupBoost: {cpu: '0'}", "startupBoost.cpu must be positive"),
                Arguments.of("targetRef: {name: web}\nstartupBoost: {cpu: 2Gi}", "spec.startupBoost.cpu: Invalid value"),
                Arguments.of("targetRef: {name: web}\nstartupBoost: {cpu: '2000'}", "startupBoost.cpu must be at most 1024"),
                Arguments.of("targetRef: {name: web}\nstartupBoost: {cpu: '2', warmUp: 11m}", "startupBoost.warmUp must be at most 10m"),
                Arguments.of("targetRef: {name: web}\nstartupBoost: {cpu: '2', warmUp: soon}", "spec.startupBoost.warmUp: Invalid value"),
                Arguments.of("targetRef: {name: web}\nsizing: {memory: {policy: Plan}}\nheap: {percentOfLimit: 60}",
                        "heap.percentOfLimit sizes the heap from the memory limit, and sizing.memory Plan sizes the limit from the heap"),
                Arguments.of("targetRef: {name: web}\nmode: Auto\nsizing: {memory: {policy: Plan}}\nauto: {heapPercentOfLimit: {min: 40, max: 70}}",
                        "auto.heapPercentOfLimit moves the heap as a share of the memory limit"),
                Arguments.of("targetRef: {name: web}\nsizing: {memory: {policy: Plan, min: 2Gi, max: 1Gi}}",
                        "sizing.memory.min must not exceed sizing.memory.max"),
                Arguments.of("targetRef: {name: web}\nsizing: {memory: {max: 32Mi}}", "sizing.memory.max must be at least 64Mi"),
                Arguments.of("targetRef: {name: web}\nsizing: {memory: {headroomPercent: 95}}",
                        "spec.sizing.memory.headroomPercent in body should be less than or equal to 90"),
                Arguments.of("targetRef: {name: web}\nsizing: {cpu: {policy: Plan, min: '2', max: 500m}}", "sizing.cpu.min must not exceed sizing.cpu.max"),
                Arguments.of("targetRef: {name: web}\nsizing: {cpu: {policy: Always}}", "spec.sizing.cpu.policy: Unsupported value: \"Always\""),
                Arguments.of("targetRef: {name: web}\nworkload: {liveHeap: 512Ki}", "workload.liveHeap must be at least 1Mi"));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource
    void rejected(String spec, String message) {
        String namespace = controlPlane.newNamespace("crd");
        assertThatThrownBy(() -> create(namespace, spec))
                .isInstanceOf(KubernetesClientException.class)
                .hasMessageContaining(message);
        assertThat(client.resources(TuningProfile.class).inNamespace(namespace).list().getItems()).isEmpty();
    }

    @Test
    void acceptsAFullProfileAndAppliesTheSchemaDefaults() {
        String namespace = controlPlane.newNamespace("crd");
        create(namespace, """
                targetRef: {name: orders-api}
                workload: {requestsPerSecond: 400, meanLatency: 300ms, cpuPerRequest: 4ms, maxQueueWait: 2s, dbTimePerRequest: 50ms,
                           allocationPerRequest: 512Ki, loadedClasses: 14000}
                threads: {minSpare: 25}
                queue: {acceptCount: 200, maxConnections: 10000}
                heap: {size: 1536Mi}
                gc: {maxPauseMillis: 100}
                connectionPool: {}
                jvmOptions: ["-XX:+ExitOnOutOfMemoryError"]
                metrics: {port: 8080, path: /actuator/prometheus}
                pressure: {}
                startupBoost: {cpu: 1500m}
                """);

        TuningProfile stored = client.resources(TuningProfile.class).inNamespace(namespace).withName("orders-api").get();
        assertThat(stored.getSpec().getTargetRef().getKind()).isEqualTo("Deployment");
        assertThat(stored.getSpec().getRuntime()).isEqualTo(Runtime.Generic);
        assertThat(stored.getSpec().getMode()).isEqualTo(Mode.Apply);
        assertThat(stored.getSpec().getGc().getCollector()).isEqualTo(Collector.Auto);
        assertThat(stored.getSpec().getJvmOptionsVariable()).isEqualTo(JvmOptionsVariable.JAVA_TOOL_OPTIONS);
        assertThat(stored.getSpec().getMetrics().getInterval()).isEqualTo("30s");
        assertThat(stored.getSpec().getPressure().getGcTimePercent()).isEqualTo(10);
        assertThat(stored.getSpec().getPressure().getInvoluntarySwitchesPerCorePerSecond()).isEqualTo(2000);
        assertThat(stored.getSpec().getStartupBoost().getWarmUp()).isEqualTo("1m");
    }

    @Test
    void autoModeTakesItsDefaults() {
        String namespace = controlPlane.newNamespace("crd");
        create(namespace, "targetRef: {name: orders-api}\nmode: Auto\nauto: {threads: {min: 20, max: 400}}");

        Auto auto = client.resources(TuningProfile.class).inNamespace(namespace).withName("orders-api").get().getSpec().getAuto();
        assertThat(auto.getThreads()).isEqualTo(new Bounds(20, 400));
        assertThat(auto.getMaxStepPercent()).isEqualTo(100);
        assertThat(auto.getMinInterval()).isEqualTo("10m");
        assertThat(auto.getObservationWindows()).isEqualTo(3);
        assertThat(auto.getChangeThresholdPercent()).isEqualTo(10);
        assertThat(auto.getRegressionTolerancePercent()).isEqualTo(10);
    }

    /** A guardrail names an installation's query; PromQL written beside the name is not kept (the API server prunes it). */
    @Test
    void aGuardrailIsANameAndARawQueryIsNotStored() {
        String namespace = controlPlane.newNamespace("crd");
        create(namespace, "targetRef: {name: orders-api}\nmode: Auto\nauto: {guardrail: {name: p99-latency, query: 'sum(up)', max: 0.5}}");

        Guardrail stored = client.resources(TuningProfile.class).inNamespace(namespace).withName("orders-api").get().getSpec().getAuto().getGuardrail();
        assertThat(stored).isEqualTo(new Guardrail("p99-latency", 0.5));
        assertThat(client.genericKubernetesResources(TuningProfile.GROUP + "/" + TuningProfile.VERSION, "TuningProfile").inNamespace(namespace)
                .withName("orders-api").get().<Object>get("spec", "auto", "guardrail")).isEqualTo(java.util.Map.of("name", "p99-latency", "max", 0.5));
    }

    static Stream<Path> examples() throws IOException {
        return Files.list(Path.of("examples")).filter(p -> p.toString().endsWith(".yaml")).sorted();
    }

    @ParameterizedTest
    @MethodSource("examples")
    void acceptsEveryExample(Path example) throws IOException {
        String namespace = controlPlane.newNamespace("example");
        List<HasMetadata> objects;
        try (InputStream in = Files.newInputStream(example)) {
            objects = client.load(in).items();
        }
        for (HasMetadata object : objects) {
            client.resource(object).inNamespace(namespace).create();
        }
        assertThat(client.resources(TuningProfile.class).inNamespace(namespace).list().getItems()).hasSize(1);
    }

    @Test
    void targetRefIsImmutable() {
        String namespace = controlPlane.newNamespace("crd");
        create(namespace, "targetRef: {name: orders-api}");

        assertThatThrownBy(() -> mergePatch(namespace, "{\"spec\": {\"targetRef\": {\"name\": \"payments\"}}}"))
                .isInstanceOf(KubernetesClientException.class)
                .hasMessageContaining("targetRef is immutable");
    }

    @Test
    void theJvmVariableAndTheContainerAreImmutable() {
        String namespace = controlPlane.newNamespace("crd");
        create(namespace, "targetRef: {name: orders-api}\ncontainer: app");

        assertThatThrownBy(() -> mergePatch(namespace, "{\"spec\": {\"jvmOptionsVariable\": \"JDK_JAVA_OPTIONS\"}}"))
                .isInstanceOf(KubernetesClientException.class)
                .hasMessageContaining("jvmOptionsVariable is immutable");
        assertThatThrownBy(() -> mergePatch(namespace, "{\"spec\": {\"container\": null}}"))
                .isInstanceOf(KubernetesClientException.class)
                .hasMessageContaining("container is immutable");
        assertThat(mergePatch(namespace, "{\"spec\": {\"threads\": {\"max\": 50}}}").getSpec().getThreads().getMax())
                .as("other fields stay editable").isEqualTo(50);
    }

    /**
     * A merge patch of the profile, as {@code kubectl patch --type merge} sends it: with no resourceVersion to conflict on,
     * only the schema's own rules can refuse it (the shared control plane may hold an operator that writes the profile).
     */
    private TuningProfile mergePatch(String namespace, String patch) {
        return client.resources(TuningProfile.class).inNamespace(namespace).withName("orders-api")
                .patch(PatchContext.of(PatchType.JSON_MERGE), patch);
    }

    @Test
    void shortNameAndCategoriesAreServed() {
        var resources = client.getApiResources(TuningProfile.GROUP + "/" + TuningProfile.VERSION).getResources();
        assertThat(resources).anySatisfy(r -> {
            assertThat(r.getName()).isEqualTo("tuningprofiles");
            assertThat(r.getShortNames()).containsExactly("tp");
            assertThat(r.getCategories()).contains("all", "jvmtuning");
        });
    }
}
