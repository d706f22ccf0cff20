package dev.jvmtuning.operator.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.jvmtuning.operator.api.v1alpha1.Auto;
import dev.jvmtuning.operator.api.v1alpha1.Guardrail;
import dev.jvmtuning.operator.api.v1alpha1.Metrics;
import dev.jvmtuning.operator.api.v1alpha1.Mode;
import dev.jvmtuning.operator.api.v1alpha1.Observed;
import dev.jvmtuning.operator.api.v1alpha1.Runtime;
import dev.jvmtuning.operator.api.v1alpha1.TargetRef;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfileSpec;
import dev.jvmtuning.operator.config.Leadership;
import dev.jvmtuning.operator.model.ConditionStatus;
import dev.jvmtuning.operator.model.ConditionType;
import dev.jvmtuning.operator.model.CurrentSettings;
import dev.jvmtuning.operator.model.EffectiveOptions;
import dev.jvmtuning.operator.model.EffectiveOptions.Option;
import dev.jvmtuning.operator.model.EffectiveOptions.Origin;
import dev.jvmtuning.operator.model.MemoryUse;
import dev.jvmtuning.operator.model.MetricsReport;
import dev.jvmtuning.operator.pressure.PressureDetector;
import dev.jvmtuning.operator.testing.FakeKubelet;
import dev.jvmtuning.operator.testing.ManualClock;
import dev.jvmtuning.operator.testing.LocalControlPlane;
import dev.jvmtuning.operator.testing.StartsProcesses;
import dev.jvmtuning.operator.testing.TestSettings;
import dev.jvmtuning.operator.testing.WorkloadProcess;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The fetcher against a real API server (pods found by the Deployment's selector, Ready per their
 * status) and a loopback endpoint that misbehaves on demand.
 */
@StartsProcesses
class MetricsFetcherTest {
    enum Behaviour { GOOD, HANG, ERROR_500, HUGE, GARBAGE, DRIP }

    private static final String GOOD_BODY = """
            # TYPE jvm_gc_collection_seconds summary
            jvm_gc_collection_seconds_count{gc="G1 Young Generation"} %d
            jvm_gc_collection_seconds_sum{gc="G1 Young Generation"} %s
            jvmtuning_context_switches_total{kind="involuntary"} %d
            jvmtuning_available_processors 2
            process_cpu_seconds_total %s
            jvmtuning_vm_option{option="MaxHeapSize",origin="ENVIRON_VAR"} 5.36870912E8
            jvmtuning_vm_option{option="UseG1GC",origin="ERGONOMIC"} 1.0
            jvm_threads_current 42
            jvm_memory_used_bytes{area="heap"} 1.0E8
            jvm_runtime_info{runtime="OpenJDK Runtime Environment",vendor="Eclipse Adoptium",version="25.0.3+9"} 1
            jvmtuning_native_memory_bytes{category="Thread",kind="committed"} 4.4040192E7
            """;

    /**
     * A Spring Boot app's /actuator/prometheus as PetClinic's serves it (Tomcat, HikariCP, Micrometer): the pool and request
     * figures the agent does not serve, and a series of a name the agent serves too.
     */
    private static final String ACTUATOR_BODY = """
            # TYPE hikaricp_connections_pending gauge
            hikaricp_connections_pending{pool="HikariPool-1"} 3.0
            hikaricp_connections_max{pool="HikariPool-1"} 10.0
            hikaricp_connections_acquire_seconds_sum{pool="HikariPool-1"} %s
            hikaricp_connections_usage_seconds_sum{pool="HikariPool-1"} %s
            http_server_requests_seconds_count{error="none",exception="none",method="GET",outcome="SUCCESS",status="200",uri="/owners/{ownerId}"} %d
            http_server_requests_seconds_sum{error="none",exception="none",method="GET",outcome="SUCCESS",status="200",uri="/owners/{ownerId}"} %s
            http_server_requests_seconds_count{error="none",exception="none",method="GET",outcome="SUCCESS",status="200",uri="/actuator/prometheus"} %d
            tomcat_threads_busy_threads{name="http-nio-8080"} 7.0
            jvm_gc_pause_seconds_sum{action="end of minor GC",cause="G1 Evacuation Pause",gc="G1 Young Generation"} %s
            jvm_memory_used_bytes{area="heap",id="G1 Eden Space"} 3.0E8
            """;

    private final AtomicReference<Behaviour> behaviour = new AtomicReference<>(Behaviour.GOOD);
    private final AtomicReference<Behaviour> runtimeBehaviour = new AtomicReference<>(Behaviour.GOOD);
    private HttpServer runtimeEndpoint;
    private int runtimeScrapes;
    private final CountDownLatch release = new CountDownLatch(1);
    private final CountDownLatch hungUp = new CountDownLatch(1);
    private HttpServer endpoint;
    private int scrapes;
    private KubernetesClient client;
    private String namespace;
    private final ManualClock clock = new ManualClock();
    private Deployment deployment;
    private MetricsFetcher fetcher;
    private TuningProfile profile;

    @BeforeEach
    void setUp() throws Exception {
        endpoint = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        endpoint.setExecutor(Executors.newCachedThreadPool());
        endpoint.createContext("/metrics", exchange -> {
            try (exchange) {
                switch (behaviour.get()) {
                    case HANG -> awaitRelease();
                    case ERROR_500 -> exchange.sendResponseHeaders(500, -1);
                    case HUGE -> {
                        exchange.sendResponseHeaders(200, 0);
                        try (OutputStream out = exchange.getResponseBody()) {
                            byte[] line = "padding_metric{a=\"b\"} 1\n".getBytes(StandardCharsets.UTF_8);
                            for (int written = 0; written < 50 * 1024 * 1024; written += line.length) {
                                out.write(line);
                            }
                        } catch (IOException expected) {
                            // the fetcher hangs up once the body passes its limit
                        }
                    }
                    case GARBAGE -> respond(exchange, "<html>\u0000\u0001 not { metrics \"\n}}}");
                    case DRIP -> {
                        // headers and a first line at once, then a byte a second: only a deadline on the whole exchange ends it
                        exchange.sendResponseHeaders(200, 0);
                        try (OutputStream out = exchange.getResponseBody()) {
                            out.write("jvm_gc_pause_seconds_sum 1\n".getBytes(StandardCharsets.UTF_8));
                            out.flush();
                            for (int i = 0; i < 60 && release.getCount() > 0; i++) {
                                out.write('#');
                                out.flush();
                                Thread.sleep(1000);
                            }
                        } catch (IOException | InterruptedException expected) {
                            hungUp.countDown(); // the fetcher hung up at its deadline
                        }
                    }
                    case GOOD -> {
                        scrapes++;
                        respond(exchange, GOOD_BODY.formatted(scrapes * 10, scrapes * 0.5, scrapes * 20_000, scrapes * 1.0));
                    }
                }
            }
        });
        endpoint.start();
        runtimeEndpoint = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        runtimeEndpoint.createContext("/actuator/prometheus", exchange -> {
            try (exchange) {
                if (runtimeBehaviour.get() == Behaviour.ERROR_500) {
                    exchange.sendResponseHeaders(500, -1);
                } else {
                    int n = ++runtimeScrapes;
                    // 100 requests a second of 50 ms, each waiting 10 ms for a connection; pauses far above the agent's count
                    respond(exchange, ACTUATOR_BODY.formatted(n * 1.0, n * 2.0, n * 100, n * 5.0, n, 40 + n * 0.1));
                }
            }
        });
        runtimeEndpoint.start();

        LocalControlPlane controlPlane = LocalControlPlane.shared();
        controlPlane.ensureControllerManager();
        client = controlPlane.client();
        namespace = controlPlane.newNamespace("metrics");
        Map<String, String> labels = Map.of("app", "web");
        deployment = client.resource(new DeploymentBuilder().withNewMetadata().withName("web").endMetadata()
                .withNewSpec().withReplicas(1).withNewSelector().withMatchLabels(labels).endSelector()
                .withNewTemplate().withNewMetadata().withLabels(labels).endMetadata()
                .withNewSpec().addNewContainer().withName("app").withImage("example/web:1").endContainer().endSpec()
                .endTemplate().endSpec().build()).inNamespace(namespace).create();
        new FakeKubelet(client).awaitRollout(namespace, "web", Duration.ofSeconds(60));

        fetcher = new MetricsFetcher(p -> Optional.of(deployment), new FakeKubelet(client)::podsOf, p -> null,
                TestSettings.of(Duration.ofMinutes(5), Optional.empty()).metrics(), Leadership.alone("test"), clock);
        profile = new TuningProfile();
        profile.setMetadata(new ObjectMetaBuilder().withName("web").withNamespace(namespace).build());
        profile.setSpec(new TuningProfileSpec().setTargetRef(new TargetRef().setName("web"))
                .setMetrics(new Metrics().setPort(endpoint.getAddress().getPort()).setPath("/metrics")));
    }

    @AfterEach
    void tearDown() {
        release.countDown();
        endpoint.stop(0);
        runtimeEndpoint.stop(0);
    }

    private void awaitRelease() {
        try {
            release.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void respond(com.sun.net.httpserver.HttpExchange exchange, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(200, bytes.length);
        exchange.getResponseBody().write(bytes);
    }

    private MetricsReport fetch() {
        return fetcher.fetchResources(profile).iterator().next();
    }

    @Test
    void twoGoodScrapesGiveRatesAndAVerdict() {
        MetricsReport first = fetch();
        assertThat(first.availableReason().text()).isEqualTo("FirstSample");
        assertThat(first.javaVersion()).as("one scrape says the version").isEqualTo(25);
        clock.advance(Duration.ofSeconds(1));
        MetricsReport report = fetch();
        assertThat(report.javaVersion()).isEqualTo(25);

        assertThat(report.availableStatus().text()).isEqualTo("True");
        assertThat(report.availableMessage()).startsWith("read 1 of 1 Ready pods");
        assertThat(report.observed().getGcTimePercent()).isPositive();
        assertThat(report.observed().getInvoluntarySwitchesPerCorePerSecond()).isGreaterThan(2000);
        assertThat(report.effectiveOptions().values()).singleElement().isEqualTo(new EffectiveOptions(Map.of(
                "MaxHeapSize", new Option(512.0 * 1024 * 1024, Origin.ENVIRON_VAR), "UseG1GC", new Option(1, Origin.ERGONOMIC))));
        assertThat(report.memory().values()).singleElement().satisfies(memory -> {
            assertThat(memory.threads()).isEqualTo(42);
            assertThat(memory.nativeMemory().committed("Thread")).isEqualTo(42L * 1024 * 1024);
        });
        assertThat(PressureDetector.judge(report.observed(), report.previous(), null, CurrentSettings.UNKNOWN).findings())
                .anyMatch(f -> f.type() == ConditionType.CONTEXT_SWITCH_PRESSURE && f.status() == ConditionStatus.TRUE);
    }

    /** The agent on the profile's port, the app's own endpoint on metrics.runtimePort at the runtime's usual path. */
    private void injectAgent() {
        profile.getSpec().setRuntime(Runtime.SpringBootTomcat);
        profile.getSpec().getMetrics().setInjectAgent(true).setPath(null).setRuntimePort(runtimeEndpoint.getAddress().getPort());
    }

    private String agentSource() {
        return "agent :" + endpoint.getAddress().getPort() + "/metrics";
    }

    private String runtimeSource() {
        return "runtime :" + runtimeEndpoint.getAddress().getPort() + "/actuator/prometheus";
    }

    private String runtimeUrl() {
        return "http://127.0.0.1:" + runtimeEndpoint.getAddress().getPort() + "/actuator/prometheus";
    }

    @Test
    void withTheAgentInjectedTheRuntimesOwnEndpointIsReadToo() {
        injectAgent();

        fetch();
        clock.advance(Duration.ofSeconds(1));
        MetricsReport report = fetch();

        Observed observed = report.observed();
        assertThat(observed.getPendingConnections()).as("Hikari's, from the runtime's endpoint").isEqualTo(3.0);
        assertThat(observed.getRequestsPerSecond()).isEqualTo(100.0);
        assertThat(observed.getMeanLatencyMillis()).isEqualTo(50.0);
        assertThat(observed.getConnectionWaitMillisPerRequest()).isEqualTo(10.0);
        assertThat(observed.getConnectionHoldMillisPerRequest()).isEqualTo(20.0);
        assertThat(observed.getInvoluntarySwitchesPerCorePerSecond()).as("the agent's").isEqualTo(10_000.0);
        assertThat(observed.getCpuMillisPerRequest()).as("the agent's CPU over the runtime's requests").isEqualTo(10.0);
        assertThat(report.memory().values()).singleElement().extracting(MemoryUse::heapUsedBytes)
                .as("the agent's series of a name both serve, not the sum of both").isEqualTo(100_000_000L);
        assertThat(observed.getSources()).containsExactly(agentSource(), runtimeSource());
        assertThat(report.availableMessage()).isEqualTo("read 1 of 1 Ready pods");
        assertThat(PressureDetector.judge(observed, report.previous(), null, CurrentSettings.UNKNOWN).findings())
                .anyMatch(f -> f.type() == ConditionType.CONNECTION_POOL_STARVED && f.status() == ConditionStatus.TRUE);
    }

    /** The project's real agent, whose series of the JVM share names with Micrometer's: one heap, counted once. */
    @Test
    void theRealAgentsSeriesAndTheRuntimesAreReadAsOnePod() {
        try (WorkloadProcess agent = WorkloadProcess.start("calm", 120, WorkloadProcess.freePort())) {
            injectAgent();
            profile.getSpec().getMetrics().setPort(agent.port());

            fetch();
            clock.advance(Duration.ofSeconds(1));
            MetricsReport report = fetch();

            assertThat(report.observed().getSources()).containsExactly("agent :" + agent.port() + "/metrics", runtimeSource());
            assertThat(report.observed().getInvoluntarySwitchesPerCorePerSecond()).as("the agent's").isNotNull();
            assertThat(report.observed().getPendingConnections()).as("the runtime's").isEqualTo(3.0);
            assertThat(report.observed().getRequestsPerSecond()).isEqualTo(100.0);
            assertThat(report.effectiveOptions().values()).singleElement().satisfies(options -> assertThat(options.option("MaxHeapSize")).isPresent());
            assertThat(report.memory().values()).singleElement().extracting(MemoryUse::heapUsedBytes)
                    .as("the agent's heap alone, not with the runtime's 300 MB added").satisfies(heap -> assertThat(heap).isBetween(1L, 299_999_999L));
        }
    }

    @Test
    void anEndpointThatFailsCostsNotTheOthersFiguresAndIsNamed() {
        injectAgent();
        fetch();
        String pod = client.pods().inNamespace(namespace).list().getItems().get(0).getMetadata().getName();

        runtimeBehaviour.set(Behaviour.ERROR_500);
        clock.advance(Duration.ofSeconds(1));
        MetricsReport runtimeFailed = fetch();

        assertThat(runtimeFailed.availableStatus()).isEqualTo(ConditionStatus.TRUE);
        assertThat(runtimeFailed.availableMessage()).isEqualTo("read 1 of 1 Ready pods; failed: " + pod + ": runtime endpoint: HTTP 500 from "
                + runtimeUrl());
        assertThat(runtimeFailed.observed().getInvoluntarySwitchesPerCorePerSecond()).isEqualTo(10_000.0);
        assertThat(runtimeFailed.observed().getGcTimePercent())
                .as("the agent's pauses at both ends, not the runtime's before and the agent's now").isEqualTo(50.0);
        assertThat(runtimeFailed.observed().getPendingConnections()).isNull();
        assertThat(runtimeFailed.observed().getSources()).containsExactly(agentSource());

        runtimeBehaviour.set(Behaviour.GOOD);
        clock.advance(Duration.ofSeconds(1));
        assertThat(fetch().observed().getSources()).as("the agent's alone, at both ends").containsExactly(agentSource());

        behaviour.set(Behaviour.ERROR_500);
        clock.advance(Duration.ofSeconds(1));
        MetricsReport agentFailed = fetch();

        assertThat(agentFailed.availableStatus()).isEqualTo(ConditionStatus.TRUE);
        assertThat(agentFailed.availableMessage()).isEqualTo("read 1 of 1 Ready pods; failed: " + pod + ": agent endpoint: HTTP 500 from "
                + "http://127.0.0.1:" + endpoint.getAddress().getPort() + "/metrics");
        assertThat(agentFailed.observed().getPendingConnections()).isEqualTo(3.0);
        assertThat(agentFailed.observed().getGcTimePercent()).as("the runtime's pauses at both ends").isEqualTo(10.0);
        assertThat(agentFailed.observed().getInvoluntarySwitchesPerCorePerSecond()).isNull();
        assertThat(agentFailed.observed().getSources()).containsExactly(runtimeSource());

        runtimeBehaviour.set(Behaviour.ERROR_500);
        clock.advance(Duration.ofSeconds(1));
        MetricsReport bothFailed = fetch();
        assertThat(bothFailed.availableReason().text()).isEqualTo("ScrapeFailed");
        assertThat(bothFailed.availableMessage()).isEqualTo(pod + ": agent endpoint: HTTP 500 from http://127.0.0.1:" + endpoint.getAddress().getPort()
                + "/metrics; runtime endpoint: HTTP 500 from " + runtimeUrl());
    }

    @Test
    void everyFaultIsMetricsUnavailableWithItsReasonAndTheNextGoodScrapeRecovers() {
        int threadsBefore = Thread.activeCount();

        behaviour.set(Behaviour.HANG);
        long start = System.nanoTime();
        MetricsReport hang = fetch();
        assertThat(hang.availableReason().text()).isEqualTo("ScrapeFailed");
        assertThat(hang.availableMessage()).contains("timed out");
        Duration timeout = TestSettings.of(Duration.ofMinutes(5), Optional.empty()).metrics().timeout();
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(timeout.plusSeconds(2));

        behaviour.set(Behaviour.ERROR_500);
        assertThat(fetch().availableMessage()).contains("HTTP 500");

        behaviour.set(Behaviour.HUGE);
        assertThat(fetch().availableMessage()).contains("body larger than");

        behaviour.set(Behaviour.GARBAGE);
        assertThat(fetch().availableMessage()).contains("no metrics in the response").contains("malformed lines");

        endpoint.stop(0);
        assertThat(fetch().availableMessage()).contains("connection refused");

        assertThat(Thread.activeCount()).as("threads after five failed scrapes").isLessThan(threadsBefore + 20);
    }

    @Test
    void aBodyThatDripsIsCutAtTheDeadlineOfTheWholeExchange() throws InterruptedException {
        var quick = new TestSettings.TestMetrics(Optional.empty(), Duration.ofSeconds(2), 16 * 1024 * 1024, 20_000, 8, Map.of());
        try (MetricsFetcher strict = new MetricsFetcher(p -> Optional.of(deployment), new FakeKubelet(client)::podsOf, p -> null, quick, Leadership.alone("test"), clock)) {
            behaviour.set(Behaviour.DRIP);
            long start = System.nanoTime();

            MetricsReport report = strict.fetchResources(profile).iterator().next();

            assertThat(report.availableReason().text()).isEqualTo("ScrapeFailed");
            assertThat(report.availableMessage()).contains("timed out");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).as("headers came at once; the body never ended")
                    .isLessThan(Duration.ofSeconds(4));
            assertThat(hungUp.await(5, TimeUnit.SECONDS)).as("the connection is closed, not read on in the background").isTrue();
        }
    }

    @Test
    void aDeploymentWithoutReadyPodsIsReportedAsSuch() {
        client.pods().inNamespace(namespace).list().getItems().forEach(p -> {
            p.getStatus().getConditions().forEach(c -> c.setStatus("False"));
            client.pods().inNamespace(namespace).resource(p).updateStatus();
        });

        MetricsReport report = fetch();

        assertThat(report.availableStatus().text()).isEqualTo("False");
        assertThat(report.availableReason().text()).isEqualTo("NoReadyPods");
    }

    /**
     * A pod killed for memory restarts, not Ready: the poll after the kill reads nothing of it, and its last reading, the one
     * that explains the kill, stays until the pod is gone.
     */
    @Test
    void aPodThatIsNoLongerReadyKeepsItsLastReadingUntilItIsGone() {
        Instant read = clock.instant();
        fetch();
        String pod = client.pods().inNamespace(namespace).list().getItems().get(0).getMetadata().getName();
        clock.advance(Duration.ofSeconds(5));
        client.pods().inNamespace(namespace).list().getItems().forEach(p -> {
            p.getStatus().getConditions().forEach(c -> c.setStatus("False"));
            client.pods().inNamespace(namespace).resource(p).updateStatus();
        });

        MetricsReport restarting = fetch();

        assertThat(restarting.availableReason().text()).isEqualTo("NoReadyPods");
        assertThat(restarting.memory()).as("this poll's readings").isEmpty();
        assertThat(restarting.lastReadings()).containsOnlyKeys(pod);
        assertThat(restarting.lastReadings().get(pod)).satisfies(last -> {
            assertThat(last.at()).isEqualTo(read);
            assertThat(last.memory().threads()).isEqualTo(42);
            assertThat(last.options().option("MaxHeapSize")).isPresent();
        });

        client.pods().inNamespace(namespace).withName(pod).withGracePeriod(0).delete();
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> client.pods().inNamespace(namespace).withName(pod).get() == null);
        assertThat(fetch().lastReadings()).as("the readings of pods that exist").doesNotContainKey(pod);
    }

    /** A Prometheus on loopback that records each query, counts those in flight at once, and answers as the test says. */
    private static final class RecordingPrometheus implements AutoCloseable {
        final java.util.List<String> queries = new java.util.concurrent.CopyOnWriteArrayList<>();
        final java.util.concurrent.atomic.AtomicInteger inFlight = new java.util.concurrent.atomic.AtomicInteger();
        final java.util.concurrent.atomic.AtomicInteger mostInFlight = new java.util.concurrent.atomic.AtomicInteger();
        volatile String answer = "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[{\"metric\":{},\"value\":[1700000000,\"0.25\"]}]}}";
        volatile long delayMillis;
        private final HttpServer server;

        RecordingPrometheus() throws IOException {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            server.setExecutor(Executors.newCachedThreadPool());
            server.createContext("/api/v1/query", exchange -> {
                try (exchange) {
                    mostInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
                    queries.add(java.net.URLDecoder.decode(exchange.getRequestURI().getRawQuery().replaceFirst("^query=", ""), StandardCharsets.UTF_8));
                    Thread.sleep(delayMillis);
                    respond(exchange, answer);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } finally {
                    inFlight.decrementAndGet();
                }
            });
            server.start();
        }

        String url() {
            return "http://127.0.0.1:" + server.getAddress().getPort();
        }

        @Override
        public void close() {
            server.stop(0);
        }
    }

    private static final String P99 = "histogram_quantile(0.99, sum by (le) (rate(http_server_requests_seconds_bucket"
            + "{namespace=\"{{namespace}}\",pod=~\"{{pods}}\"}[1m])))";

    private MetricsFetcher guarded(RecordingPrometheus prometheus, Duration timeout, int maxBodyBytes, int concurrency) {
        return new MetricsFetcher(p -> Optional.of(deployment), new FakeKubelet(client)::podsOf, p -> null,
                new TestSettings.TestMetrics(Optional.of(prometheus.url()), timeout, maxBodyBytes, 20_000, concurrency, Map.of("p99-latency", P99)),
                Leadership.alone("test"), clock);
    }

    private TuningProfile autoProfile(String name, String guardrail) {
        TuningProfile auto = new TuningProfile();
        auto.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(namespace).build());
        auto.setSpec(new TuningProfileSpec().setTargetRef(new TargetRef().setName("web")).setMode(Mode.Auto)
                .setAuto(new Auto().setGuardrail(new Guardrail(guardrail, 0.5)))
                .setMetrics(new Metrics().setPort(endpoint.getAddress().getPort()).setPath("/metrics")));
        return auto;
    }

    /** Two polls: the second has a window, and so the guardrail's number. */
    private MetricsReport window(MetricsFetcher fetcher, TuningProfile profile) {
        fetcher.fetchResources(profile);
        clock.advance(Duration.ofSeconds(1));
        return fetcher.fetchResources(profile).iterator().next();
    }

    @Test
    void theGuardrailIsTheInstallationsQueryForTheProfilesOwnNamespaceAndPods() throws IOException {
        try (RecordingPrometheus prometheus = new RecordingPrometheus();
             MetricsFetcher fetcher = guarded(prometheus, Duration.ofSeconds(10), 16 * 1024 * 1024, 8)) {
            MetricsReport report = window(fetcher, autoProfile("web", "p99-latency"));

            String pod = client.pods().inNamespace(namespace).list().getItems().get(0).getMetadata().getName();
            assertThat(prometheus.queries).as("the template with the profile's namespace and Ready pod, nothing the profile wrote")
                    .containsExactly("histogram_quantile(0.99, sum by (le) (rate(http_server_requests_seconds_bucket"
                            + "{namespace=\"" + namespace + "\",pod=~\"" + pod + "\"}[1m])))");
            assertThat(report.observed().getGuardrail()).isEqualTo(0.25);
        }
    }

    @Test
    void aGuardrailTheInstallationDoesNotDefineSendsNoQueryAndReadsNoNumber() throws IOException {
        try (RecordingPrometheus prometheus = new RecordingPrometheus();
             MetricsFetcher fetcher = guarded(prometheus, Duration.ofSeconds(10), 16 * 1024 * 1024, 8)) {
            MetricsReport unknown = window(fetcher, autoProfile("unknown", "p95-latency"));
            MetricsReport stored = window(fetcher, autoProfile("stored", null));

            assertThat(prometheus.queries).isEmpty();
            assertThat(unknown.observed().getGuardrail()).isNull();
            assertThat(unknown.availableMessage()).contains("auto.guardrail not evaluated: spec.auto.guardrail.name 'p95-latency' is not a guardrail "
                    + "query of this installation; this installation defines: p99-latency");
            assertThat(stored.observed().getGuardrail()).isNull();
            assertThat(stored.availableMessage()).contains("spec.auto.guardrail.name is missing");
        }
    }

    /** The guardrail's query takes a slot like any scrape, and its answer is cut at the deadline, the byte cap and one series. */
    @Test
    void theGuardrailQueryIsBoundedLikeEveryOtherRead() throws Exception {
        try (RecordingPrometheus prometheus = new RecordingPrometheus();
             MetricsFetcher fetcher = guarded(prometheus, Duration.ofSeconds(2), 4096, 2)) {
            java.util.List<TuningProfile> profiles = java.util.stream.IntStream.range(0, 6).mapToObj(i -> autoProfile("web-" + i, "p99-latency")).toList();
            profiles.forEach(fetcher::fetchResources);
            clock.advance(Duration.ofSeconds(1));
            prometheus.delayMillis = 300;
            var polls = Executors.newFixedThreadPool(profiles.size());
            try {
                for (var poll : polls.invokeAll(profiles.stream().map(p -> (java.util.concurrent.Callable<MetricsReport>) () ->
                        fetcher.fetchResources(p).iterator().next()).toList())) {
                    assertThat(poll.get().observed().getGuardrail()).isEqualTo(0.25);
                }
            } finally {
                polls.shutdownNow();
            }
            assertThat(prometheus.mostInFlight.get()).as("queries in flight at once, with metrics.concurrency 2").isLessThanOrEqualTo(2);

            prometheus.delayMillis = 0;
            prometheus.answer = "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[" + "{\"metric\":{},\"value\":[1,\"1\"]},".repeat(300) + "]}}";
            clock.advance(Duration.ofSeconds(1));
            assertThat(fetcher.fetchResources(profiles.get(0)).iterator().next().availableMessage())
                    .contains("auto.guardrail query failed: body larger than 4096 bytes");

            prometheus.answer = "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":["
                    + "{\"metric\":{\"pod\":\"a\"},\"value\":[1,\"1\"]},{\"metric\":{\"pod\":\"b\"},\"value\":[1,\"2\"]}]}}";
            clock.advance(Duration.ofSeconds(1));
            MetricsReport twoSeries = fetcher.fetchResources(profiles.get(0)).iterator().next();
            assertThat(twoSeries.availableMessage()).contains("must answer one number");
            assertThat(twoSeries.observed().getGuardrail()).isNull();

            prometheus.delayMillis = 30_000;
            clock.advance(Duration.ofSeconds(1));
            long start = System.nanoTime();
            assertThat(fetcher.fetchResources(profiles.get(0)).iterator().next().availableMessage()).contains("auto.guardrail query failed: timed out");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(4));
        }
    }
}
