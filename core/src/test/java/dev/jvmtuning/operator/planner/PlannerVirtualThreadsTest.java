package dev.jvmtuning.operator.planner;

import static dev.jvmtuning.operator.planner.PlannerRulesTest.decision;
import static dev.jvmtuning.operator.planner.PlannerRulesTest.plan;
import static org.assertj.core.api.Assertions.assertThat;

import dev.jvmtuning.operator.api.v1alpha1.ThreadingModel;
import dev.jvmtuning.operator.model.ContainerFacts;
import dev.jvmtuning.operator.model.Units;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** R18-R20: on virtual threads the planner sizes what bounds the requests, not a worker pool. */
class PlannerVirtualThreadsTest {

    static ContainerFacts springBootOnVirtualThreads(double cpus) {
        return container(cpus, Map.of("SPRING_THREADS_VIRTUAL_ENABLED", "true"));
    }

    static ContainerFacts container(double cpus, Map<String, String> env) {
        return new ContainerFacts(cpus, cpus, Units.bytes("2Gi"), Units.bytes("2Gi"), env, Set.of(), List.of(), List.of(), 21, 3);
    }

    @ParameterizedTest(name = "{0} CPUs, {1} req/s, W {2}, c {3}, t_db {4}, wait {5} -> pool {6}, connections {7}, timeout {8}")
    @CsvSource(delimiter = '|', textBlock = """
            # the CPUs serve 2 / 5 ms = 400 req/s, the pool (R8: 400 x 50 ms x 1.25 = 25) 25 / 50 ms = 500: 400 x (200 ms + 1 s)
            # and the timeout twice the wait the limit allows
            2 | 400 | 200ms | 5ms | 50ms | 1s    | 25 | 480 | 2000ms
            # four CPUs serve 800 req/s, so the pool's 500 req/s bounds: 500 x 1.2 s
            4 | 400 | 200ms | 5ms | 50ms | 1s    | 25 | 600 | 2000ms
            # no CPU or database figure: the target rate + 25% = 500 req/s x (200 ms + 500 ms); no pool, so no timeout
            2 | 400 | 200ms |     |      | 500ms |    | 350 |
            # twice a wait of 100 ms is below HikariCP's floor of 250 ms: 400 x (200 ms + 100 ms)
            2 | 400 | 200ms | 5ms | 50ms | 100ms | 25 | 120 | 250ms
            """)
    void theConnectionLimitThePoolAndItsTimeoutFollowFromTheWorkload(double cpus, int rate, String latency, String cpu, String db,
            String wait, Integer pool, int connections, String timeout) {
        String workload = "{requestsPerSecond: " + rate + ", meanLatency: " + latency + (cpu == null ? "" : ", cpuPerRequest: " + cpu)
                + (db == null ? "" : ", dbTimePerRequest: " + db) + ", maxQueueWait: " + wait + "}";
        Planned plan = plan("runtime: SpringBootTomcat\nworkload: " + workload, springBootOnVirtualThreads(cpus));

        assertThat(plan.values().maxThreads()).as("no worker pool to size").isNull();
        assertThat(plan.values().minSpareThreads()).isNull();
        assertThat(plan.values().maxQueueSize()).as("no executor queue on virtual threads").isNull();
        assertThat(plan.values().poolMaxSize()).isEqualTo(pool);
        assertThat(plan.values().maxConnections()).isEqualTo(connections);
        assertThat(decision(plan, "queue.maxConnections").rule().id()).isEqualTo("R18");
        assertThat(decision(plan, "queue.maxConnections").rationale())
                .contains("virtual threads (the container's env sets SPRING_THREADS_VIRTUAL_ENABLED=true)", "threads.max bounds nothing");
        assertThat(plan.rendering().serverEnvironment()).containsEntry("SERVER_TOMCAT_MAXCONNECTIONS", Integer.toString(connections))
                .doesNotContainKeys("SERVER_TOMCAT_THREADS_MAX", "SERVER_TOMCAT_THREADS_MINSPARE", "SERVER_TOMCAT_THREADS_MAXQUEUECAPACITY");
        if (timeout == null) {
            assertThat(plan.decisions()).noneMatch(d -> d.name().equals("connectionPool.acquisitionTimeout"));
        } else {
            assertThat(decision(plan, "connectionPool.acquisitionTimeout").value()).isEqualTo(timeout);
            assertThat(decision(plan, "connectionPool.acquisitionTimeout").rule().id()).isEqualTo("R19");
            assertThat(plan.rendering().serverEnvironment())
                    .containsEntry("SPRING_DATASOURCE_HIKARI_CONNECTIONTIMEOUT", timeout.replace("ms", ""));
        }
        assertThat(decision(plan, "jvm.virtualThreadParallelism").value()).isEqualTo(Integer.toString((int) cpus));
        assertThat(decision(plan, "jvm.virtualThreadParallelism").rule().id()).isEqualTo("R20");
        assertThat(plan.rendering().renderedFlags()).contains("-XX:ActiveProcessorCount=" + (int) cpus,
                "-Djdk.virtualThreadScheduler.parallelism=" + (int) cpus);
        assertThat(plan.plan().current().threading().model()).isEqualTo(ThreadingModel.Virtual);
    }

    @Test
    void theSameProfileOnPlatformThreadsSizesThePoolAsBefore() {
        String spec = "runtime: SpringBootTomcat\nworkload: {requestsPerSecond: 400, meanLatency: 200ms, cpuPerRequest: 5ms, "
                + "dbTimePerRequest: 50ms, maxQueueWait: 1s}";
        Planned plan = plan(spec, container(2, Map.of()));

        // R1: 400 x 0.2 = 80 in flight, +25% = 100, under the CPU cap 2 x 200 / 5 x 1.5 = 120
        assertThat(plan.values().maxThreads()).isEqualTo(100);
        assertThat(plan.values().maxQueueSize()).isEqualTo(400);
        assertThat(plan.values().maxConnections()).as("Tomcat's 8192 covers 100 + 400").isNull();
        assertThat(plan.values().poolAcquisitionTimeoutMillis()).isNull();
        assertThat(plan.values().virtualThreadParallelism()).isNull();
    }

    @Test
    void aTargetAboveWhatTheCpusServeIsSaid() {
        Planned plan = plan("runtime: SpringBootTomcat\nworkload: {requestsPerSecond: 1000, meanLatency: 200ms, cpuPerRequest: 5ms}",
                springBootOnVirtualThreads(2));

        assertThat(plan.values().maxConnections()).isEqualTo(80);
        assertThat(plan.warnings()).anyMatch(w -> w.startsWith("on virtual threads the server can serve 400 req/s")
                && w.contains("below the target 1000 req/s"));
    }

    @Test
    void anExplicitThreadsMaxIsKeptButSaidToBoundNothing() {
        Planned plan = plan("runtime: SpringBootTomcat\nthreads: {max: 300}\nworkload: {requestsPerSecond: 400, meanLatency: 200ms}",
                springBootOnVirtualThreads(2));

        assertThat(plan.values().maxThreads()).isEqualTo(300);
        assertThat(plan.warnings()).anyMatch(w -> w.startsWith("threads.max 300 bounds no request: they run on virtual threads"));
    }

    @Test
    void quarkusSaysItInTheProfileAndGetsItsOwnProperties() {
        Planned plan = plan("""
                runtime: Quarkus
                threading: {model: Virtual}
                workload: {requestsPerSecond: 400, meanLatency: 200ms, cpuPerRequest: 5ms, dbTimePerRequest: 50ms, maxQueueWait: 2s}
                """, Specs.container(2, "2Gi"));

        // 400 req/s (the CPUs) x (200 ms + 2 s) = 880; the timeout twice the 2 s wait
        assertThat(plan.rendering().serverEnvironment()).containsEntry("QUARKUS_HTTP_LIMITS_MAX_CONNECTIONS", "880")
                .containsEntry("QUARKUS_DATASOURCE_JDBC_ACQUISITION_TIMEOUT", "4000ms")
                .doesNotContainKeys("QUARKUS_THREAD_POOL_MAX_THREADS", "QUARKUS_THREAD_POOL_QUEUE_SIZE");
        assertThat(decision(plan, "queue.maxConnections").rationale()).contains("virtual threads (spec.threading.model)");
    }

    @Test
    void aRuntimeWithoutAConnectionLimitSaysNothingBoundsTheRequests() {
        Planned plan = plan("runtime: SpringBootUndertow\nthreading: {model: Virtual}\nworkload: {requestsPerSecond: 400, meanLatency: 200ms}",
                Specs.container(2, "2Gi"));

        assertThat(plan.values().maxConnections()).isNull();
        assertThat(plan.values().maxThreads()).isNull();
        assertThat(plan.warnings()).anyMatch(w -> w.contains("runtime SpringBootUndertow has no property that bounds the requests in flight"));
    }

    @Test
    void theInjectedAgentRecordsPinningOnlyWhereRequestsRunOnVirtualThreads() {
        String spec = "runtime: SpringBootTomcat\nmetrics: {injectAgent: true}";

        assertThat(plan(spec, springBootOnVirtualThreads(2)).rendering().renderedFlags())
                .anyMatch(flag -> flag.startsWith("-javaagent:") && flag.endsWith(",pinnedThreshold=20ms"));
        assertThat(plan(spec, container(2, Map.of())).rendering().renderedFlags())
                .anyMatch(flag -> flag.startsWith("-javaagent:"))
                .noneMatch(flag -> flag.contains("pinnedThreshold"));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            # Jetty's default on its virtual-thread pool: max(1, CPUs / 2) selectors in each server
            1 CPU, one server                     | 1 |      |      |   | 2
            1 CPU, a management port of its own   | 1 | 8081 |      |   | 3
            4 CPUs, a management port of its own  | 4 | 8081 |      |   | 8
            management on the application's port | 1 | 8080 |      |   | 2
            the selectors the user sets           | 2 |      | 9090 | 3 | 5
            """)
    void jettyOnVirtualThreadsGivesEachSelectorACarrierBesideTheCpus(String label, int cpus, String managementPort, String serverPort,
            String selectors, int carriers) {
        Map<String, String> env = new HashMap<>(Map.of("SPRING_THREADS_VIRTUAL_ENABLED", "true"));
        if (managementPort != null) {
            env.put("MANAGEMENT_SERVER_PORT", managementPort);
        }
        if (serverPort != null) {
            env.put("SERVER_PORT", serverPort);
        }
        if (selectors != null) {
            env.put("SERVER_JETTY_THREADS_SELECTORS", selectors);
        }
        Planned plan = plan("runtime: SpringBootJetty", container(cpus, env));

        assertThat(plan.values().virtualThreadParallelism()).isEqualTo(carriers);
        assertThat(decision(plan, "jvm.virtualThreadParallelism").rule().id()).isEqualTo("R20");
        assertThat(decision(plan, "jvm.virtualThreadParallelism").rationale()).contains("Jetty's", "hold their carriers while they wait");
        assertThat(plan.rendering().renderedFlags()).contains("-Djdk.virtualThreadScheduler.parallelism=" + carriers);
    }

    @Test
    void carriersTheUserLeavesToJettysSelectorsAloneAreWarnedOf() {
        ContainerFacts facts = container(1, Map.of("SPRING_THREADS_VIRTUAL_ENABLED", "true", "MANAGEMENT_SERVER_PORT", "8081",
                "JDK_JAVA_OPTIONS", "-Djdk.virtualThreadScheduler.parallelism=2"));

        Planned plan = plan("runtime: SpringBootJetty", facts);

        assertThat(decision(plan, "jvm.virtualThreadParallelism").value()).as("the user's, kept").isEqualTo("2");
        assertThat(plan.warnings()).anyMatch(w -> w.startsWith("-Djdk.virtualThreadScheduler.parallelism=2 gives the scheduler 2 carrier(s)")
                && w.contains("2 selectors (1 selector in each of the application's and the management port's servers)")
                && w.contains("stops accepting") && w.contains("at least 3"));
        assertThat(plan("runtime: SpringBootTomcat", facts).warnings()).as("Tomcat's selectors are platform threads")
                .noneMatch(w -> w.contains("selector"));
    }

    @Test
    void carriersTheContainerSetsAreKept() {
        ContainerFacts facts = container(2, Map.of("SPRING_THREADS_VIRTUAL_ENABLED", "true",
                "JAVA_TOOL_OPTIONS", "-Djdk.virtualThreadScheduler.parallelism=8"));
        Planned plan = plan("runtime: SpringBootTomcat", facts);

        assertThat(decision(plan, "jvm.virtualThreadParallelism").rule().id()).isEqualTo("spec");
        assertThat(decision(plan, "jvm.virtualThreadParallelism").value()).isEqualTo("8");
        assertThat(plan.values().virtualThreadParallelism()).as("not rendered a second time").isNull();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            # 2 carriers + 16 of the server's + 40 + 2 x 2 of the JVM's; nothing bounds the virtual threads, so no heap share is named
            virtual, no workload            | true  |                                           |                                          | 62  |
            # R18 lets 480 in: 480 x 32Ki = 15Mi of the heap
            virtual, R18 bounds 480         | true  |                                           | {requestsPerSecond: 400, meanLatency: 200ms, cpuPerRequest: 5ms, dbTimePerRequest: 50ms, maxQueueWait: 1s} | 62 | 480
            # the user's 8 carriers + 16 + 44
            virtual, 8 carriers of the user's | true | -Djdk.virtualThreadScheduler.parallelism=8 |                                         | 68  |
            # Tomcat's default 200 workers + 44
            platform, no threads.max        | false |                                           |                                          | 244 |
            """)
    void nativeStacksAreBudgetedForThePlatformThreadsAndTheHeapHoldsTheVirtualOnes(String label, boolean virtual, String toolOptions,
            String workload, int platformThreads, Integer virtualThreads) {
        Map<String, String> env = new HashMap<>();
        if (virtual) {
            env.put("SPRING_THREADS_VIRTUAL_ENABLED", "true");
        }
        if (toolOptions != null) {
            env.put("JAVA_TOOL_OPTIONS", toolOptions);
        }
        Planned plan = plan("runtime: SpringBootTomcat" + (workload == null ? "" : "\nworkload: " + workload), container(2, env));

        MemoryBudget budget = plan.budget();
        assertThat(budget.threads()).isEqualTo(platformThreads);
        assertThat(budget.heap()).as("the heap is what the limit leaves: the virtual threads' stacks are in it")
                .isEqualTo((budget.limit() - budget.nonHeap()) / Units.MI * Units.MI);
        if (virtualThreads == null) {
            assertThat(budget.virtualStackBytes()).isZero();
            assertThat(decision(plan, "heap.size").rationale()).doesNotContain("virtual threads x");
        } else {
            assertThat(budget.virtualStacks().threads()).isEqualTo(virtualThreads);
            assertThat(budget.virtualStackBytes()).isEqualTo(virtualThreads * MemoryPlan.VIRTUAL_STACK_CHUNK);
            assertThat(decision(plan, "heap.size").rationale()).contains("(holding up to " + virtualThreads + " virtual threads x 32Ki stacks 15Mi)");
        }
        if (virtual) {
            assertThat(decision(plan, "jvm.threadStackBudget").rationale()).contains("each of the " + platformThreads + " platform threads",
                    "the virtual threads' stacks are on the heap");
        }
    }

    @Test
    void aHeapTooSmallForTheVirtualThreadsStacksIsInfeasible() {
        // R18: 20,000 req/s + 25% x (200 ms + 1 s) = 30,000 in flight x 32Ki = 938Mi, more than the 512Mi limit leaves the heap
        ContainerFacts small = new ContainerFacts(2.0, 2.0, Units.bytes("512Mi"), Units.bytes("512Mi"),
                Map.of("SPRING_THREADS_VIRTUAL_ENABLED", "true"), Set.of(), List.of(), List.of(), 21, 1);
        PlanResult result = Planner.plan(Specs.spec("runtime: SpringBootTomcat\nworkload: {requestsPerSecond: 20000, meanLatency: 200ms, "
                + "maxQueueWait: 1s}"), small);

        assertThat(result).isInstanceOfSatisfying(PlanResult.Rejected.class, rejected -> assertThat(rejected.messages())
                .anyMatch(m -> m.contains("virtual threads x 32Ki stacks") && m.endsWith("or lower queue.maxConnections (R9)")));
    }
}
