package dev.jvmtuning.operator.reconciler;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import dev.jvmtuning.operator.model.LabelsAndAnnotations;
import dev.jvmtuning.operator.render.DeploymentTuning;
import dev.jvmtuning.operator.testing.LocalControlPlane;
import dev.jvmtuning.operator.testing.RunningOperator;
import dev.jvmtuning.operator.testing.StartsProcesses;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.math.BigInteger;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.Tuple;
import net.jqwik.api.statistics.Statistics;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

/**
 * Random values of every spec field, hostile ones included (huge, empty, unicode, negative, overflowing, malformed
 * units), sent as raw JSON to the real API server and, when admitted, reconciled by the real reconciler. Each profile
 * is either refused at admission, or ends with an Applied condition of a known reason (an Invalid one naming the
 * field) without a reconcile ever throwing, and the Deployment is either tuned whole or left byte for byte as it was;
 * deleting the profile gives the template back.
 */
@StartsProcesses
class EveryFieldPropertiesTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TARGET = "@TARGET@";
    private static final Pattern HEAP_FLAG = Pattern.compile("-Xmx([0-9]+)([kKmMgGtT]?)");
    private static final Duration SETTLE = Duration.ofSeconds(20);
    /** The reasons an admitted profile may end with; Conflict, ApplyFailed or none at all mean the operator broke. */
    private static final Set<String> OUTCOMES = Set.of("Applied", "RecommendOnly", "Invalid", "Infeasible", "TargetNotFound");
    /** Names an Invalid message may use for the field it refuses. */
    private static final Set<String> FIELD_WORDS = Set.of("targetRef", "container", "workload", "threading", "threads", "queue", "heap", "gc",
            "connectionPool", "jvmOptions", "jvmOptionsVariable", "metrics", "pressure", "rollback", "auto");
    private static final AtomicInteger TRIES = new AtomicInteger();
    /** The target container's memory limit: 2Gi. */
    private static final long LIMIT = 2L << 30;

    private static LocalControlPlane controlPlane;
    private static RunningOperator operator;
    private static KubernetesClient client;
    private static String namespace;

    /** One spec field: values a careful author writes, and values anyone might send. Both are raw JSON. */
    private record Field(String path, Arbitrary<String> valid, Arbitrary<String> hostile) {
    }

    private static final List<Field> FIELDS = List.of(
            new Field("targetRef.kind", Arbitraries.just(text("Deployment")), strings("Deployment", "StatefulSet", "deployment", "Deployment ")),
            new Field("targetRef.name", Arbitraries.just(text(TARGET)), strings(TARGET, "other", "Web", "web_app", "-web", "a".repeat(254),
                    "a." + "b".repeat(62), "wéb")),
            new Field("container", Arbitraries.just(text("app")), strings("app", "sidecar", "App", "app;rm", "a".repeat(64), "ápp")),
            new Field("runtime", enumOf("SpringBootTomcat", "SpringBootJetty", "SpringBootUndertow", "Quarkus", "Generic"),
                    strings("WebLogic", "quarkus")),
            new Field("mode", enumOf("Apply", "Recommend", "Auto"), strings("Tune", "apply")),
            new Field("workload.requestsPerSecond", Arbitraries.doubles().between(0.5, 5_000).ofScale(2).map(Object::toString),
                    numbers("0", "-1", "0.0001", "0.001", "1000000", "1000000.5", "1e308", "1e309", "4.9e-324", "\"400\"")),
            new Field("workload.meanLatency", durations(), hostileDurations()),
            new Field("workload.cpuPerRequest", durations(), hostileDurations()),
            new Field("workload.maxQueueWait", durations(), hostileDurations()),
            new Field("workload.dbTimePerRequest", durations(), hostileDurations()),
            new Field("workload.allocationPerRequest", quantity(1, 4096, "Ki", "Mi"), hostileQuantities()),
            new Field("workload.loadedClasses", ints(1_000, 50_000), hostileInts(100, 10_000_000)),
            new Field("workload.liveHeap", quantity(16, 1_024, "Mi"), hostileQuantities()),
            new Field("threading.model", enumOf("Platform", "Virtual"), strings("virtual", "Loom")),
            new Field("threads.max", ints(1, 800), hostileInts(1, 100_000)),
            new Field("threads.minSpare", ints(0, 50), hostileInts(0, 100_000)),
            new Field("queue.acceptCount", ints(1, 1_000), hostileInts(1, 65_535)),
            new Field("queue.maxConnections", ints(1, 20_000), hostileInts(1, 1_000_000)),
            new Field("queue.maxQueueSize", ints(0, 2_000), hostileInts(0, 10_000_000)),
            new Field("heap.size", quantity(32, 1_536, "Mi"), hostileQuantities()),
            new Field("heap.percentOfLimit", ints(10, 90), hostileInts(10, 90)),
            new Field("gc.collector", enumOf("Serial", "Parallel", "G1", "ZGC", "Shenandoah", "Auto"), strings("CMS", "g1")),
            new Field("gc.maxPauseMillis", ints(1, 1_000), hostileInts(1, 10_000)),
            new Field("connectionPool.maxSize", ints(1, 100), hostileInts(1, 10_000)),
            new Field("connectionPool.minIdle", ints(0, 10), hostileInts(0, 10_000)),
            new Field("connectionPool.databaseConnections", ints(1, 1000), hostileInts(1, 1_000_000)),
            new Field("jvmOptions", Arbitraries.of("[\"-XX:+ExitOnOutOfMemoryError\"]", "[\"-XX:MaxGCPauseMillis=200\"]", "[]"), jvmOptions()),
            new Field("jvmOptionsVariable", enumOf("JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS", "JAVA_OPTS", "CATALINA_OPTS"),
                    strings("LD_PRELOAD", "java_opts")),
            new Field("metrics.source", enumOf("Pod", "Prometheus"), strings("Url", "pod")),
            new Field("metrics.injectAgent", Arbitraries.of("true", "false"), numbers("1", "\"true\"", "\"yes\"")),
            new Field("metrics.port", ints(1_024, 65_535), hostileInts(1, 65_535)),
            new Field("metrics.runtimePort", ints(1_024, 65_535), hostileInts(1, 65_535)),
            new Field("metrics.path", strings("/metrics", "/actuator/prometheus", "/q/metrics"),
                    strings("", "metrics", "/metrics?x=1", "http://evil/", "/m\u00e9trics", "/" + "m".repeat(256), "/../../etc/passwd", "/a b")),
            new Field("metrics.interval", durations(), hostileDurations()),
            new Field("metrics.warmUp", durations(), hostileDurations()),
            new Field("pressure.gcTimePercent", ints(1, 100), hostileInts(1, 100)),
            new Field("pressure.cpuThrottlePercent", ints(1, 100), hostileInts(1, 100)),
            new Field("pressure.involuntarySwitchesPerCorePerSecond", ints(1, 100_000), hostileInts(1, 10_000_000)),
            new Field("startupBoost.cpu", strings("1", "4", "2500m"), Arbitraries.oneOf(strings("", "0", "0m", "-1", "1Gi", "1e3",
                    "1024", "1025", "1024.001", "0.0001", "1.2345", "9999999m", "99999999m", "\uff11", "2 "), numbers("2", "null", "[]"))),
            new Field("startupBoost.warmUp", durations(), hostileDurations()),
            new Field("sizing.memory.policy", enumOf("Keep", "Plan"), strings("plan", "Always")),
            new Field("sizing.memory.min", quantity(64, 1_024, "Mi"), hostileQuantities()),
            new Field("sizing.memory.max", quantity(1, 8, "Gi"), hostileQuantities()),
            new Field("sizing.memory.headroomPercent", ints(0, 90), hostileInts(0, 90)),
            new Field("sizing.cpu.policy", enumOf("Keep", "Plan"), strings("plan", "Always")),
            new Field("sizing.cpu.min", strings("100m", "250m", "1"), strings("", "0", "-1", "1Gi", "1e3", "2000", "\uff11")),
            new Field("sizing.cpu.max", strings("2", "4", "3500m"), strings("", "0", "-1", "1Gi", "1e3", "2000", "\uff11")),
            new Field("sizing.cpu.headroomPercent", ints(0, 400), hostileInts(0, 400)),
            new Field("rollback.window", durations(), hostileDurations()),
            new Field("auto.threads.min", ints(1, 50), hostileInts(1, 100_000)),
            new Field("auto.threads.max", ints(50, 800), hostileInts(1, 100_000)),
            new Field("auto.connectionPool.min", ints(1, 10), hostileInts(1, 100_000)),
            new Field("auto.connectionPool.max", ints(10, 100), hostileInts(1, 100_000)),
            new Field("auto.heapPercentOfLimit.min", ints(10, 50), hostileInts(10, 90)),
            new Field("auto.heapPercentOfLimit.max", ints(50, 90), hostileInts(10, 90)),
            new Field("auto.maxStepPercent", ints(1, 1_000), hostileInts(1, 1_000)),
            new Field("auto.minInterval", durations(), hostileDurations()),
            new Field("auto.warmUp", durations(), hostileDurations()),
            new Field("auto.observationWindows", ints(1, 20), hostileInts(1, 20)),
            new Field("auto.changeThresholdPercent", ints(1, 100), hostileInts(1, 100)),
            new Field("auto.regressionTolerancePercent", ints(1, 100), hostileInts(1, 100)),
            new Field("auto.workloadShiftPercent", ints(1, 1_000), hostileInts(1, 1_000)),
            new Field("auto.guardrail.name", strings("p99-latency", "errors"),
                    strings("", "q".repeat(64), "P99", "up{job=\"x\"}", "{{namespace}}", "ünïcode\u202e", "up\n", "\u0000")),
            new Field("auto.guardrail.max", Arbitraries.doubles().between(0, 10).ofScale(3).map(Object::toString),
                    numbers("-1e308", "1e308", "1e309", "0", "\"x\"")));

    private static void startOnce() {
        if (operator == null) {
            controlPlane = LocalControlPlane.shared();
            operator = RunningOperator.shared();
            client = controlPlane.client();
            namespace = controlPlane.newNamespace("fields");
        }
    }

    /** Every leaf of the CRD's spec schema has values here: a field added to the model without them fails this. */
    @Example
    void everyFieldOfTheCrdIsDriven() throws IOException {
        JsonNode crd = new ObjectMapper(new YAMLFactory()).readTree(Files.readString(LocalControlPlane.CRD_FILE));
        JsonNode spec = crd.at("/spec/versions/0/schema/openAPIV3Schema/properties/spec");
        Set<String> leaves = new TreeSet<>();
        collectLeaves(spec, "", leaves);
        assertThat(new TreeSet<>(FIELDS.stream().map(Field::path).toList())).isEqualTo(leaves);
    }

    private static void collectLeaves(JsonNode schema, String path, Set<String> leaves) {
        JsonNode properties = schema.get("properties");
        if (properties == null) {
            leaves.add(path);
            return;
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = properties.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> property = it.next();
            collectLeaves(property.getValue(), path.isEmpty() ? property.getKey() : path + "." + property.getKey(), leaves);
        }
    }

    @Property(tries = 200, shrinking = ShrinkingMode.OFF, edgeCases = EdgeCasesMode.NONE)
    void refusedAtAdmissionOrReconciledToAKnownReason(@ForAll("specs") Spec profile) throws Exception {
        Map<String, String> fields = profile.fields();
        startOnce();
        String name = "p" + TRIES.incrementAndGet();
        client.resource(TuningProfileReconcilerTest.deployment(name, "2", Long.toString(LIMIT))).inNamespace(namespace).create();
        Deployment before = client.apps().deployments().inNamespace(namespace).withName(name).get();
        String templateBefore = Serialization.asJson(before.getSpec().getTemplate());
        String body = profileJson(name, fields).replace(TARGET, name);

        HttpResponse<String> response = post(body);
        profile.hostile().forEach(field -> Statistics.label("hostile field").collect(field));
        if (response.code() != 201) {
            assertThat(response.code()).as("%s refused with %s", body, response.body()).isIn(400, 422);
            assertThat(client.resources(TuningProfile.class).inNamespace(namespace).withName(name).get()).isNull();
            Statistics.label("outcome").collect("refused at admission");
        } else {
            Condition applied = awaitApplied(name, body);
            Statistics.label("outcome").collect(applied.getReason());
            assertThat(applied.getReason()).as("%s: %s", body, applied.getMessage()).isIn(OUTCOMES);
            if (applied.getReason().equals("Invalid")) {
                assertThat(FIELD_WORDS).as("Invalid names the field: %s", applied.getMessage()).anyMatch(applied.getMessage()::contains);
            }
            Deployment after = client.apps().deployments().inNamespace(namespace).withName(name).get();
            if (applied.getReason().equals("Applied")) {
                assertThat(DeploymentTuning.tunedBy(after, name)).as("Applied and tuned: %s", body).isTrue();
                assertThat(after.getSpec().getTemplate().getMetadata().getAnnotations()).containsKey(LabelsAndAnnotations.SETTINGS_HASH_ANNOTATION);
                assertThat(maxHeaps(after)).as("a heap applied fits the container's %d bytes: %s", LIMIT, body)
                        .allMatch(bytes -> bytes.compareTo(BigInteger.valueOf(LIMIT)) <= 0);
            } else {
                assertThat(Serialization.asJson(after.getSpec().getTemplate())).as("untouched when %s: %s", applied.getReason(), body)
                        .isEqualTo(templateBefore);
            }
            client.resources(TuningProfile.class).inNamespace(namespace).withName(name).delete();
            Awaitility.await().atMost(SETTLE).until(() -> client.resources(TuningProfile.class).inNamespace(namespace).withName(name).get() == null);
            Deployment restored = client.apps().deployments().inNamespace(namespace).withName(name).get();
            assertThat(Serialization.asJson(restored.getSpec().getTemplate())).as("restored on delete: %s", body).isEqualTo(templateBefore);
            assertThat(operator.failures(namespace, name)).as("reconciles that threw for %s", body).isEmpty();
        }
        client.apps().deployments().inNamespace(namespace).withName(name).delete();
    }

    /** Every -Xmx in the container's environment, in bytes, however large. */
    private static List<BigInteger> maxHeaps(Deployment deployment) {
        return deployment.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv().stream()
                .filter(v -> v.getValue() != null).flatMap(v -> Stream.of(v.getValue().split("\\s+")))
                .map(HEAP_FLAG::matcher).filter(Matcher::matches)
                .map(m -> new BigInteger(m.group(1)).shiftLeft(switch (m.group(2).toLowerCase()) {
                    case "k" -> 10;
                    case "m" -> 20;
                    case "g" -> 30;
                    case "t" -> 40;
                    default -> 0;
                })).toList();
    }

    /** The Applied condition of the profile's current generation; fails at once should a reconcile throw. */
    private static Condition awaitApplied(String name, String body) {
        try {
            return Awaitility.await().atMost(SETTLE).pollInterval(Duration.ofMillis(50)).until(() -> {
                assertThat(operator.failures(namespace, name)).as("reconciles that threw for %s", body).isEmpty();
                TuningProfile profile = client.resources(TuningProfile.class).inNamespace(namespace).withName(name).get();
                if (profile.getStatus() == null || !profile.getMetadata().getGeneration().equals(profile.getStatus().getObservedGeneration())) {
                    return null;
                }
                return profile.getStatus().getConditions().stream().filter(c -> c.getType().equals("Applied")).findFirst().orElse(null);
            }, c -> c != null);
        } catch (ConditionTimeoutException e) {
            throw new AssertionError("no Applied condition within " + SETTLE + " for " + body, e);
        }
    }

    private static HttpResponse<String> post(String body) throws InterruptedException, ExecutionException, TimeoutException {
        HttpClient http = client.getHttpClient();
        String url = client.getMasterUrl() + "apis/" + TuningProfile.GROUP + "/" + TuningProfile.VERSION + "/namespaces/" + namespace
                + "/tuningprofiles";
        return http.sendAsync(http.newHttpRequestBuilder().uri(url).post("application/json", body).build(), String.class)
                .get(30, TimeUnit.SECONDS);
    }

    /** A profile's fields (path to raw JSON value), and which of them got a hostile value. */
    record Spec(Map<String, String> fields, Set<String> hostile) {
    }

    @Provide
    Arbitrary<Spec> specs() {
        // A few fields as a careful author writes them (often a workload the threads can be derived from), and one (or
        // a few) as anyone might: most tries reach the operator, and jvmOptions, the field with the most to parse, is
        // picked most often.
        Arbitrary<Map<String, String>> careful = Combinators.combine(FIELDS.stream().map(f -> f.valid().injectNull(switch (f.path()) {
                    case "targetRef.name" -> 0;
                    case "runtime", "workload.requestsPerSecond", "workload.meanLatency" -> 0.5;
                    default -> 0.9;
                })).toList()).as(values -> zip(FIELDS, values));
        Arbitrary<Field> picked = Arbitraries.frequency(FIELDS.stream()
                .map(f -> Tuple.of(f.path().equals("jvmOptions") ? FIELDS.size() / 2 : 1, f)).toList());
        Arbitrary<List<Field>> focus = Arbitraries.frequencyOf(Tuple.of(7, picked.list().ofSize(1)),
                Tuple.of(3, picked.list().ofMinSize(2).ofMaxSize(3).uniqueElements()));
        Arbitrary<Map<String, String>> hostile = focus.flatMap(fields -> Combinators.combine(fields.stream().map(Field::hostile).toList()).as(values -> zip(fields, values)));
        return Combinators.combine(careful, hostile).as((c, h) -> {
            Map<String, String> spec = new TreeMap<>(c);
            spec.putAll(h);
            if (spec.keySet().stream().anyMatch(k -> k.startsWith("auto.")) && !h.containsKey("mode")) {
                spec.put("mode", text("Auto"));
            }
            if (spec.keySet().stream().anyMatch(k -> k.startsWith("startupBoost."))) { // cpu is required
                spec.putIfAbsent("startupBoost.cpu", text("4"));
            }
            if (spec.keySet().stream().anyMatch(k -> k.startsWith("auto.guardrail."))) { // both are required
                spec.putIfAbsent("auto.guardrail.name", text("p99-latency"));
                spec.putIfAbsent("auto.guardrail.max", "1");
            }
            return new Spec(spec, h.keySet());
        });
    }

    private static Map<String, String> zip(List<Field> fields, List<String> values) {
        Map<String, String> spec = new TreeMap<>();
        for (int i = 0; i < fields.size(); i++) {
            if (values.get(i) != null) {
                spec.put(fields.get(i).path(), values.get(i));
            }
        }
        return spec;
    }

    /** The profile as raw JSON, each field's value exactly as generated (numbers beyond any Java type included). */
    private static String profileJson(String name, Map<String, String> fields) {
        Map<String, Object> spec = new LinkedHashMap<>();
        fields.forEach((path, value) -> {
            String[] parts = path.split("\\.");
            Map<String, Object> parent = spec;
            for (int i = 0; i < parts.length - 1; i++) {
                @SuppressWarnings("unchecked")
                Map<String, Object> child = (Map<String, Object>) parent.computeIfAbsent(parts[i], k -> new LinkedHashMap<String, Object>());
                parent = child;
            }
            parent.put(parts[parts.length - 1], value);
        });
        return "{\"apiVersion\":\"" + TuningProfile.GROUP + "/" + TuningProfile.VERSION + "\",\"kind\":\"TuningProfile\","
                + "\"metadata\":{\"name\":" + text(name) + "},\"spec\":" + object(spec) + "}";
    }

    private static String object(Map<String, Object> fields) {
        StringBuilder json = new StringBuilder("{");
        fields.forEach((key, value) -> {
            if (json.length() > 1) {
                json.append(',');
            }
            @SuppressWarnings("unchecked")
            String rendered = value instanceof Map<?, ?> nested ? object((Map<String, Object>) nested) : (String) value;
            json.append(text(key)).append(':').append(rendered);
        });
        return json.append('}').toString();
    }

    /** A JSON string. */
    private static String text(String value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Arbitrary<String> strings(String... values) {
        return Arbitraries.of(Stream.of(values).map(EveryFieldPropertiesTest::text).toList());
    }

    private static Arbitrary<String> enumOf(String... values) {
        return strings(values);
    }

    /** Raw JSON values: numbers as written (beyond double or long as well), or values of the wrong type. */
    private static Arbitrary<String> numbers(String... raw) {
        return Arbitraries.of(raw);
    }

    private static Arbitrary<String> ints(int min, int max) {
        return Arbitraries.integers().between(min, max).map(String::valueOf);
    }

    /** Every edge of an integer field, anything beyond int and long, and values of the wrong type. */
    private static Arbitrary<String> hostileInts(int min, int max) {
        return Arbitraries.oneOf(ints(min, max), Arbitraries.of(String.valueOf(min - 1L), String.valueOf(max + 1L), String.valueOf(min),
                String.valueOf(max), "0", "-1", "2147483647", "2147483648", "-2147483649", "9223372036854775807", "9223372036854775808",
                "1e30", "1.5", "\"12\"", "true", "null", "[]", "{}"));
    }

    private static Arbitrary<String> durations() {
        return Combinators.combine(Arbitraries.integers().between(1, 500), Arbitraries.of("ms", "s", "m"))
                .as((n, unit) -> text(n + unit));
    }

    private static Arbitrary<String> hostileDurations() {
        return Arbitraries.oneOf(durations(), strings("", " ", "0s", "0ms", "-1s", "+1s", "1d", "1e3ms", "1E3s", "\uff11s", "300 ms",
                        "300MS", "1.s", ".5s", "1h1m", "1.5.5s", "0.0000001ms", "2562047h", "2562048h", "99999999999999999999h",
                        "9".repeat(40) + "ms", "1".repeat(5_000) + "ms", "NaN", "Infinity", "1s\u0000", "\u202e1s"),
                numbers("300", "-1", "null", "[]"));
    }

    private static Arbitrary<String> quantity(int min, int max, String... units) {
        return Combinators.combine(Arbitraries.integers().between(min, max), Arbitraries.of(units)).as((n, unit) -> text(n + unit));
    }

    private static Arbitrary<String> hostileQuantities() {
        return Arbitraries.oneOf(quantity(1, 4_096, "Ki", "Mi", "Gi", "Ti", "k", "M", "G", "T", ""), strings("", "0", "1", "2", "3",
                        "0.5", "0.5Ki", "1.5Gi", "1Ei", "1e3", "1E3Mi", "-1Gi", "+1Gi", "1536mi", "\uff11Gi", "16Ti", "17Ti",
                        "8388607Ti", "99999999999999999999Ti", "9".repeat(31) + "T", "9".repeat(300) + "Mi", "0.0001Ki", "Infinity",
                        "1Gi\u0000"),
                numbers("1073741824", "-1", "1e30", "null"));
    }

    /** Lists of flags the policy must judge: sizes and counts at every integer edge, duplicates, junk, too many. */
    private static Arbitrary<String> jvmOptions() {
        Arbitrary<String> number = Arbitraries.of("0", "1", "4", "2147483647", "2147483648", "4294967295", "9223372036854775807",
                "18446744073709551615");
        Arbitrary<String> size = Combinators.combine(number, Arbitraries.of("", "k", "m", "g", "t")).as(String::concat);
        Arbitrary<String> flag = Arbitraries.frequencyOf(
                Tuple.of(2, Combinators.combine(Arbitraries.of("-XX:ParallelGCThreads=", "-XX:ConcGCThreads=", "-XX:ActiveProcessorCount=",
                        "-XX:MaxHeapSize=", "-XX:ThreadStackSize=", "-XX:MaxGCPauseMillis=", "-XX:CICompilerCount="), number).as(String::concat)),
                Tuple.of(2, Combinators.combine(Arbitraries.of("-Xmx", "-Xms", "-Xmn", "-Xss", "-XX:ReservedCodeCacheSize=",
                        "-XX:MaxDirectMemorySize=", "-XX:MaxMetaspaceSize="), size).as(String::concat)),
                Tuple.of(1, Arbitraries.of("-XX:+UseG1GC", "-XX:+UseZGC", "-XX:+UseSerialGC", "-XX:+UseParallelGC", "-XX:-UseG1GC",
                        "-XX:+ExitOnOutOfMemoryError", "-XX:MaxRAMPercentage=75", "-XX:MaxRAMPercentage=1e3", "-Dfoo=bar", "-javaagent:x.jar",
                        "", "-", "-Xmx1g -Xms1g", "\u00fc", "-XX:+UseG1GC\n", "-" + "a".repeat(600), "-XX:", "-XX:=1", "-Xlog:gc")));
        Arbitrary<List<String>> few = flag.map(EveryFieldPropertiesTest::text).list().ofMinSize(1).ofMaxSize(3);
        Arbitrary<List<String>> tooMany = flag.map(EveryFieldPropertiesTest::text).list().ofMinSize(60).ofMaxSize(70);
        return Arbitraries.frequencyOf(Tuple.of(9, few), Tuple.of(1, tooMany)).map(flags -> "[" + String.join(",", flags) + "]");
    }
}
