package dev.jvmtuning.operator.planner;

import static dev.jvmtuning.operator.planner.Specs.container;
import static dev.jvmtuning.operator.planner.Specs.spec;
import static org.assertj.core.api.Assertions.assertThat;

import dev.jvmtuning.operator.api.v1alpha1.Collector;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfileSpec;
import dev.jvmtuning.operator.model.ContainerFacts;
import dev.jvmtuning.operator.model.Reason;
import dev.jvmtuning.operator.model.Rule;
import dev.jvmtuning.operator.model.Units;
import dev.jvmtuning.operator.planner.PlanResult.Plan;
import dev.jvmtuning.operator.planner.PlanResult.Rejected;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** One test per rule of docs/explanation/tuning-rules.md, with the measured scenario behind the rule where there is one. */
class PlannerRulesTest {

    static Planned plan(String yaml, ContainerFacts facts) {
        TuningProfileSpec spec = spec(yaml);
        PlanResult result = Planner.plan(spec, facts);
        assertThat(result).as("expected a plan, got %s", result).isInstanceOf(Plan.class);
        return Planned.of((Plan) result, spec, facts);
    }

    static Rejected rejected(String yaml, ContainerFacts facts) {
        PlanResult result = Planner.plan(spec(yaml), facts);
        assertThat(result).as("expected a rejection, got %s", result).isInstanceOf(Rejected.class);
        return (Rejected) result;
    }

    static Decision decision(Planned plan, String name) {
        return plan.decisions().stream().filter(d -> d.name().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no decision " + name + " in " + plan.decisions()));
    }

    @Nested
    class Threads {
        @Test
        void r1_littlesLawSizesThePoolForAnIoBoundHandler() {
            // an I/O-bound handler sleeping 100-500 ms (mean 300 ms), barely any CPU; target 1000 req/s per pod on 6 cores
            Planned plan = plan("""
                    runtime: SpringBootTomcat
                    workload: {requestsPerSecond: 1000, meanLatency: 300ms, cpuPerRequest: 1ms}
                    """, container(6, "4Gi"));

            // 1000 x 0.3 = 300 in flight, +25 % = 375; the CPU cap 6 x 300 / 1 x 1.5 = 2700 is far away
            assertThat(plan.values().maxThreads()).isEqualTo(375);
            assertThat(decision(plan, "threads.max").rule().id()).isEqualTo("R1");
            assertThat(decision(plan, "threads.max").rationale()).contains("300 requests in flight");
            assertThat(plan.rendering().serverEnvironment()).containsEntry("SERVER_TOMCAT_THREADS_MAX", "375");
            // far above Tomcat's default 200, which served a sixth of what 2000 threads did (R1's measurement in tuning-rules.md)
            assertThat(plan.values().maxThreads()).isGreaterThan(200);
        }

        @Test
        void r2_aCpuBoundHandlerOnFourCoresGetsAboutSixThreads() {
            // a Jetty hello-world, pure CPU (wall time ~ CPU time), best at 6 threads on 4 cores
            Planned plan = plan("""
                    runtime: SpringBootJetty
                    workload: {requestsPerSecond: 20000, meanLatency: 200ms, cpuPerRequest: 200ms}
                    """, container(4, "2Gi"));

            assertThat(plan.values().maxThreads()).isEqualTo(6);
            assertThat(decision(plan, "threads.max").rule().id()).isEqualTo("R3");
            assertThat(plan.rendering().serverEnvironment()).containsEntry("SERVER_JETTY_THREADS_MAX", "6");
        }

        @Test
        void r3_choosesTheCpuCapWhenLittlesLawAsksForMoreAndLittlesLawWhenItAsksForLess() {
            String workload = "workload: {requestsPerSecond: %s, meanLatency: 100ms, cpuPerRequest: 10ms}";
            // saturation 2 CPUs x 100/10 = 20, cap 30
            assertThat(plan(workload.formatted(1000), container(2, "2Gi")).values().maxThreads()).isEqualTo(30);
            // 100 x 0.1 = 10 in flight, +25 % = 13, below the cap
            assertThat(plan(workload.formatted(100), container(2, "2Gi")).values().maxThreads()).isEqualTo(13);
        }

        @Test
        void r3_explicitThreadsAboveTheCpuCapAreKeptButWarnedAbout() {
            Planned plan = plan("""
                    threads: {max: 10000}
                    workload: {requestsPerSecond: 100, meanLatency: 100ms, cpuPerRequest: 10ms}
                    """, container(2, "8Gi"));

            assertThat(plan.values().maxThreads()).isEqualTo(10000);
            assertThat(plan.warnings()).anyMatch(w -> w.contains("above the CPU saturation point 20"));
        }

        @Test
        void r5_minSpareKeepsTheSteadyConcurrencyWarm() {
            Planned plan = plan("""
                    runtime: SpringBootTomcat
                    workload: {requestsPerSecond: 200, meanLatency: 250ms}
                    """, container(2, "2Gi"));

            assertThat(plan.values().minSpareThreads()).isEqualTo(50);
            assertThat(plan.rendering().serverEnvironment()).containsEntry("SERVER_TOMCAT_THREADS_MINSPARE", "50");
        }

        @Test
        void explicitValuesWinOverDerivedOnes() {
            Planned plan = plan("""
                    threads: {max: 77, minSpare: 7}
                    workload: {requestsPerSecond: 1000, meanLatency: 300ms}
                    """, container(2, "2Gi"));

            assertThat(plan.values().maxThreads()).isEqualTo(77);
            assertThat(plan.values().minSpareThreads()).isEqualTo(7);
            assertThat(decision(plan, "threads.max").rule().id()).isEqualTo("spec");
        }

        @Test
        void withoutThreadsOrWorkloadTheServerDefaultStays() {
            Planned plan = plan("runtime: SpringBootTomcat", container(2, "2Gi"));

            assertThat(plan.values().maxThreads()).isNull();
            assertThat(plan.rendering().serverEnvironment()).doesNotContainKey("SERVER_TOMCAT_THREADS_MAX");
        }
    }

    @Nested
    class Queues {
        @Test
        void r6_acceptCountAboveSomaxconnIsFlagged() {
            Planned plan = plan("queue: {acceptCount: 10000}\nruntime: SpringBootTomcat", container(2, "2Gi"));

            assertThat(plan.rendering().serverEnvironment()).containsEntry("SERVER_TOMCAT_ACCEPTCOUNT", "10000");
            assertThat(plan.warnings()).anyMatch(w -> w.contains("net.core.somaxconn") && w.contains("does nothing"));
        }

        @Test
        void r6_connectionsCoverWorkersPlusQueueSoTheyDoNotCapThroughput() {
            Planned plan = plan("threads: {max: 9000}\nqueue: {maxQueueSize: 1000}\nruntime: SpringBootTomcat", container(4, "8Gi"));

            assertThat(plan.values().maxConnections()).isEqualTo(10000);
        }

        @Test
        void r7_aQueueHoldsSixtySecondsOfArrivals() {
            // 100 req/s and a 60 s acceptable wait -> a queue of 6000
            Planned plan = plan("""
                    runtime: SpringBootJetty
                    workload: {requestsPerSecond: 100, meanLatency: 50ms, maxQueueWait: 60s}
                    """, container(2, "2Gi"));

            assertThat(plan.values().maxQueueSize()).isEqualTo(6000);
            assertThat(plan.rendering().serverEnvironment()).containsEntry("SERVER_JETTY_THREADS_MAXQUEUECAPACITY", "6000");
        }

        @Test
        void r7_onQuarkusTheWaitIsBoundedAtTheConnectionsSoTheProbesAreNotRejectedWithTheLoad() {
            // the lab's overload: 200 req/s at 25 ms, 5 ms of CPU, 100 ms acceptable wait -> 7 threads (R1) and 20 waiting
            Planned plan = plan("""
                    runtime: Quarkus
                    workload: {requestsPerSecond: 200, meanLatency: 25ms, cpuPerRequest: 5ms, maxQueueWait: 100ms}
                    """, container(1, "768Mi"));

            assertThat(plan.values().maxQueueSize()).as("no bound on the worker queue the probes share").isNull();
            assertThat(plan.values().maxConnections()).isEqualTo(plan.values().maxThreads() + 20);
            assertThat(decision(plan, "queue.maxConnections").rule().id()).isEqualTo("R7");
            assertThat(decision(plan, "queue.maxConnections").rationale()).contains("20 waiting", "health and metrics routes");
            assertThat(plan.rendering().serverEnvironment())
                    .containsEntry("QUARKUS_HTTP_LIMITS_MAX_CONNECTIONS", Integer.toString(plan.values().maxThreads() + 20))
                    .doesNotContainKey("QUARKUS_THREAD_POOL_QUEUE_SIZE");
        }

        @Test
        void r7_aWorkerQueueTheUserBoundsOnQuarkusIsKeptAndItsCostToTheProbesSaid() {
            Planned plan = plan("runtime: Quarkus\nqueue: {maxQueueSize: 20}", container(1, "768Mi"));

            assertThat(plan.values().maxQueueSize()).isEqualTo(20);
            assertThat(plan.warnings()).anyMatch(w -> w.startsWith("queue.maxQueueSize 20 also rejects Quarkus's health and metrics routes"));
        }
    }

    @Nested
    class ConnectionPool {
        @Test
        void r8_thePoolReachesTheConcurrencyOfFiveSecondQueries() {
            // 100 concurrent clients on five-second queries: 100 in flight need 100 connections (R8's measurement in tuning-rules.md)
            Planned plan = plan("""
                    runtime: SpringBootUndertow
                    workload: {requestsPerSecond: 20, meanLatency: 5s, dbTimePerRequest: 5s}
                    connectionPool: {}
                    """, container(2, "2Gi"));

            assertThat(plan.values().poolMaxSize()).isGreaterThanOrEqualTo(100);
            assertThat(plan.values().poolMaxSize()).isLessThanOrEqualTo(plan.values().maxThreads());
            assertThat(plan.values().maxThreads()).isGreaterThanOrEqualTo(100);
            assertThat(plan.rendering().serverEnvironment())
                    .containsEntry("SPRING_DATASOURCE_HIKARI_MAXIMUMPOOLSIZE", plan.values().poolMaxSize().toString())
                    .containsEntry("SERVER_UNDERTOW_THREADS_WORKER", plan.values().maxThreads().toString());
        }

        @Test
        void r8_theRationaleCountsConnectionsAcrossReplicas() {
            ContainerFacts facts = new ContainerFacts(2.0, 2.0, 2 * Units.GI, 2 * Units.GI, Map.of(), Set.of(), List.of(), List.of(), 17, 4);
            Planned plan = plan("connectionPool: {maxSize: 40}\nruntime: Quarkus", facts);

            assertThat(decision(plan, "connectionPool.maxSize").rationale()).contains("40 x 4 replicas (the most the Deployment may run) = 160 database connections");
            assertThat(plan.rendering().serverEnvironment()).containsEntry("QUARKUS_DATASOURCE_JDBC_MAX_SIZE", "40");
        }

        @Test
        void r8_theDatabasesConnectionsForTheServiceCapThePoolOverTheMostReplicas() {
            ContainerFacts tenPods = new ContainerFacts(2.0, 2.0, 2 * Units.GI, 2 * Units.GI, Map.of(), Set.of(), List.of(), List.of(), 17, 10);
            String workload = "workload: {requestsPerSecond: 400, dbTimePerRequest: 50ms}\nruntime: Quarkus\n";
            Planned uncapped = plan(workload, tenPods);
            Planned capped = plan(workload + "connectionPool: {databaseConnections: 120}", tenPods);

            assertThat(uncapped.values().poolMaxSize()).as("400 req/s x 50 ms, +25%").isEqualTo(25);
            assertThat(capped.values().poolMaxSize()).as("120 connections over 10 pods").isEqualTo(12);
            assertThat(decision(capped, "connectionPool.maxSize").rationale())
                    .contains("capped at the database's 120 connections for this service over the 10 replicas the Deployment may run = 12");
            assertThat(plan(workload + "connectionPool: {databaseConnections: 400}", tenPods).values().poolMaxSize()).as("room to spare")
                    .isEqualTo(25);
        }
    }

    @Nested
    class Memory {
        @Test
        void r9_derivedHeapIsTheLimitMinusTheWholeNonHeapBudget() {
            Planned plan = plan("runtime: SpringBootTomcat\nthreads: {max: 200}", container(2, "2Gi"));

            MemoryBudget budget = plan.budget();
            assertThat(budget.total()).isLessThanOrEqualTo(2 * Units.GI);
            assertThat(2 * Units.GI - budget.total()).isLessThan(Units.MI);
            assertThat(budget.codeCache()).isEqualTo(240 * Units.MI);
            assertThat(budget.threads()).isEqualTo(200 + MemoryPlan.JVM_OWN_THREADS + 4);
            assertThat(plan.rendering().renderedFlags()).contains("-Xmx" + budget.heap() / Units.MI + "m");
        }

        @Test
        void r9_aHeapThatDoesNotFitIsInfeasibleWithTheSumSpelledOut() {
            Rejected rejected = rejected("heap: {size: 1900Mi}\nthreads: {max: 400}\nruntime: SpringBootTomcat", container(2, "2Gi"));

            assertThat(rejected.reason()).isEqualTo(Reason.INFEASIBLE);
            assertThat(rejected.messages().get(0))
                    .startsWith("heap 1900Mi + 444 threads x 256Ki stacks 111Mi + metaspace")
                    .contains("code cache 240Mi")
                    .contains("exceeds the 2048Mi memory limit (R9)")
                    .contains("raise the limit to at least");
        }

        @Test
        void r9_derivedThreadsGiveWayToAnExplicitHeap() {
            Planned plan = plan("""
                    heap: {size: 1400Mi}
                    workload: {requestsPerSecond: 5000, meanLatency: 500ms}
                    """, container(2, "2Gi"));

            assertThat(plan.budget().fits()).isTrue();
            assertThat(plan.values().maxThreads()).isLessThan(3125);
            assertThat(decision(plan, "threads.max").rationale()).contains("so thread stacks fit the memory limit");
        }

        @Test
        void r9a_twoThousandIoBoundThreadsFitTwoGigabytesBecauseStacksCommitLazily() {
            // R9a: a busy thread commits far less than its 1 MiB stack (measured in tuning-rules.md); at 1 MiB each the
            // planner would wrongly reject this service
            Planned plan = plan("threads: {max: 2000}\nruntime: SpringBootTomcat", container(2, "2Gi"));

            assertThat(plan.budget().stackPerThread()).isEqualTo(256 * Units.KI);
            assertThat(plan.values().heapBytes()).isGreaterThan(512 * Units.MI);
        }

        @Test
        void r9_aTooSmallLimitIsInfeasible() {
            Rejected rejected = rejected("runtime: SpringBootTomcat", container(1, "256Mi"));

            assertThat(rejected.reason()).isEqualTo(Reason.INFEASIBLE);
            assertThat(rejected.messages().get(0)).contains("256Mi memory limit leaves").contains("raise the limit to at least");
        }

        @Test
        void r9_theServicesOwnClassCountSizesMetaspaceInsteadOfTheRuntimesTypicalOne() {
            Planned typical = plan("runtime: SpringBootTomcat\nthreads: {max: 50}", container(2, "512Mi"));
            Planned measured = plan("runtime: SpringBootTomcat\nthreads: {max: 50}\nworkload: {loadedClasses: 9000}", container(2, "512Mi"));

            // 7,000 classes fewer than Spring Boot's typical 16,000, at 5.8 KiB each: ~40 MiB more heap in the same limit
            assertThat(measured.values().heapBytes() - typical.values().heapBytes()).isBetween(39 * Units.MI, 41 * Units.MI);
            assertThat(decision(measured, "heap.size").rationale()).contains("(9000 classes)");
            assertThat(decision(typical, "heap.size").rationale()).contains("(16000 typical classes)");
        }

        @Test
        void r10_xmsEqualsXmx() {
            Planned plan = plan("heap: {percentOfLimit: 50}", container(2, "2Gi"));

            assertThat(plan.rendering().renderedFlags()).contains("-Xms1024m", "-Xmx1024m");
        }

        @Test
        void r10a_zgcGetsTheCeilingAndASoftTargetBelowItAndNoPinnedInitialHeapOnJdk17To25() {
            for (int jdk : List.of(17, 21, 25)) {
                ContainerFacts facts = new ContainerFacts(4.0, 4.0, 8 * Units.GI, 8 * Units.GI, Map.of(), Set.of(), List.of(), List.of(), jdk, 1);
                Planned plan = plan("", facts);
                long ceiling = plan.values().heapBytes();

                assertThat(plan.values().collector()).isEqualTo(Collector.ZGC);
                assertThat(plan.rendering().renderedFlags()).as("JDK %d", jdk)
                        .contains("-Xmx" + Units.jvmMebibytes(ceiling), "-XX:SoftMaxHeapSize=" + Units.jvmMebibytes(ceiling * 90 / 100 / Units.MI * Units.MI))
                        .noneMatch(flag -> flag.startsWith("-Xms"));
                assertThat(decision(plan, "heap.softMax").rationale()).contains("ZGC sizes its heap itself", "-Xms is not pinned to -Xmx");
                assertThat(plan.decisions()).noneMatch(d -> d.name().equals("heap.initial"));
            }
        }

        @Test
        void r10a_aSoftTargetTheProfileSetsIsKeptAndTheOtherCollectorsKeepTheirPinnedHeap() {
            Planned theirs = plan("gc: {collector: ZGC}\njvmOptions: ['-XX:SoftMaxHeapSize=1g']", container(4, "4Gi"));
            Planned g1 = plan("gc: {collector: G1}", container(4, "8Gi"));

            assertThat(theirs.rendering().renderedFlags()).noneMatch(flag -> flag.startsWith("-Xms") || flag.startsWith("-XX:SoftMaxHeapSize"));
            assertThat(decision(theirs, "heap.softMax").value()).isEqualTo("1024Mi");
            assertThat(g1.rendering().renderedFlags()).contains("-Xms" + Units.jvmMebibytes(g1.values().heapBytes()))
                    .noneMatch(flag -> flag.startsWith("-XX:SoftMaxHeapSize"));
        }

        @Test
        void r21_compactObjectHeadersOnlyWhereTheJdkIsKnownToBe25OrLaterAndNothingElseChose() {
            Planned jdk25 = plan("", jdk(25, Map.of()));

            assertThat(jdk25.rendering().renderedFlags()).contains("-XX:+UseCompactObjectHeaders");
            assertThat(decision(jdk25, "jvm.compactObjectHeaders").rule()).isEqualTo(Rule.R21);
            assertThat(plan("", jdk(21, Map.of())).rendering().renderedFlags()).doesNotContain("-XX:+UseCompactObjectHeaders");
            assertThat(plan("", container(2, "2Gi")).rendering().renderedFlags()).as("JDK unknown")
                    .doesNotContain("-XX:+UseCompactObjectHeaders");
            assertThat(plan("", jdk(25, Map.of("JAVA_TOOL_OPTIONS", "-XX:AOTCache=/app/app.aot"))).rendering().renderedFlags())
                    .as("beside an AOT cache made without them").doesNotContain("-XX:+UseCompactObjectHeaders");
            assertThat(plan("jvmOptions: ['-XX:-UseCompactObjectHeaders']", jdk(25, Map.of())).rendering().renderedFlags())
                    .doesNotContain("-XX:+UseCompactObjectHeaders");
        }

        private static ContainerFacts jdk(int feature, Map<String, String> env) {
            return new ContainerFacts(2.0, 2.0, 2 * Units.GI, 2 * Units.GI, env, Set.of(), List.of(), List.of(), feature, 1);
        }

        @Test
        void percentOfLimitWithoutALimitIsInvalid() {
            Rejected rejected = rejected("heap: {percentOfLimit: 50}", ContainerFacts.ofResources(2.0, 2.0, null, null));

            assertThat(rejected.reason()).isEqualTo(Reason.INVALID);
            assertThat(rejected.messages()).anyMatch(m -> m.contains("needs a memory limit"));
        }
    }

    @Nested
    class GarbageCollection {
        @Test
        void r12_parallelGetsAFixedLargerYoungGenerationG1DoesNot() {
            Planned parallel = plan("gc: {collector: Parallel}\nheap: {size: 1000Mi}", container(2, "2Gi"));
            Planned g1 = plan("gc: {collector: G1, maxPauseMillis: 100}\nheap: {size: 1000Mi}", container(2, "2Gi"));

            assertThat(parallel.rendering().renderedFlags()).contains("-Xmn400m", "-XX:+UseParallelGC");
            assertThat(g1.rendering().renderedFlags()).noneMatch(f -> f.startsWith("-Xmn")).contains("-XX:MaxGCPauseMillis=100");
        }

        @Test
        void r12a_derivedThreadsAreCutSoTheGarbageInFlightFitsASurvivorSpace() {
            // The lab's allocation-heavy service: 2 MiB per request, 1 ms CPU, 11 ms in the server, 2 CPUs, 512Mi.
            String workload = "runtime: SpringBootTomcat\nworkload: {requestsPerSecond: 4545, meanLatency: 11ms, cpuPerRequest: 1ms%s}";
            Planned unaware = plan(workload.formatted(""), container(2, "512Mi"));
            Planned aware = plan(workload.formatted(", allocationPerRequest: 2Mi"), container(2, "512Mi"));

            assertThat(unaware.values().maxThreads()).as("R2's CPU cap alone").isEqualTo(33);
            long young = aware.values().youngGenerationBytes();
            int fit = (int) (young / (5 * 2 * Units.MI));
            assertThat(aware.values().maxThreads()).isBetween(fit - 1, fit).isBetween(8, 12);
            assertThat(decision(aware, "threads.max").rule().id()).isEqualTo("R12a");
            assertThat(decision(aware, "threads.max").rationale()).contains("derived 33 capped at").contains("survivor space");
            assertThat(aware.values().heapBytes()).as("fewer stacks leave a little more heap").isGreaterThanOrEqualTo(unaware.values().heapBytes());
        }

        @Test
        void r12a_theCapIsTheMostThreadsWhoseOwnHeapHoldsTheirGarbage() {
            // The lab's io-bound service as its second loop read it: 49 KiB per request with GC past 5 %, 1 CPU, 1Gi.
            String workload = "runtime: SpringBootTomcat\nworkload: {requestsPerSecond: 3333, meanLatency: 337ms, cpuPerRequest: 0.32ms%s}";
            Planned unaware = plan(workload.formatted(""), container(1, "1Gi"));
            Planned aware = plan(workload.formatted(", allocationPerRequest: 49Ki"), container(1, "1Gi"));
            long inFlightPerThread = 49 * Units.KI / 2;
            long fitBesideDerived = unaware.values().youngGenerationBytes() / 10 / inFlightPerThread;
            int threads = aware.values().maxThreads();

            assertThat(unaware.values().maxThreads()).as("R1").isGreaterThan(1000);
            assertThat(threads).as("the survivor space of the heap these threads leave holds their garbage")
                    .isLessThanOrEqualTo((int) (aware.values().youngGenerationBytes() / 10 / inFlightPerThread))
                    .as("the heap beside the derived threads' stacks would have allowed fewer").isGreaterThan((int) (fitBesideDerived * 3 / 2));
            assertThat(decision(aware, "threads.max").rationale()).contains(threads + " threads leave memory for");
            Planned oneMore = plan("runtime: SpringBootTomcat\nthreads: {max: " + (threads + 1) + "}\n" + workload.formatted(", allocationPerRequest: 49Ki")
                    .substring("runtime: SpringBootTomcat\n".length()), container(1, "1Gi"));
            assertThat(oneMore.warnings()).as("one thread more does not fit").anyMatch(w -> w.contains("(R12a)"));
        }

        @Test
        void r12a_capsThreadsWhoseStacksWouldLeaveNoHeapToTheOnesThatFitTheirOwn() {
            // allocation-heavy's first loop, 2026-11-27: a cold window read 664 ms in the server and 3 MiB allocated a request.
            String workload = "runtime: SpringBootTomcat\nworkload: {requestsPerSecond: 4545, meanLatency: 664ms, cpuPerRequest: 1ms, "
                    + "loadedClasses: 10057%s}";
            Rejected unaware = rejected(workload.formatted(""), container(1, "512Mi"));
            Planned aware = plan(workload.formatted(", allocationPerRequest: 3064Ki"), container(1, "512Mi"));

            assertThat(unaware.messages()).anyMatch(m -> m.contains("leaves") && m.contains("for the heap"));
            int threads = aware.values().maxThreads();
            assertThat(threads).isPositive()
                    .isLessThanOrEqualTo((int) (aware.values().youngGenerationBytes() / 10 / (3064 * Units.KI / 2)));
            assertThat(decision(aware, "threads.max").rule().id()).isEqualTo("R12a");
        }

        @Test
        void r12a_explicitThreadsAreKeptWithAWarningAndZgcIsLeftAlone() {
            Planned explicit = plan("threads: {max: 100}\nworkload: {allocationPerRequest: 4Mi}", container(2, "1Gi"));
            Planned zgc = plan("gc: {collector: ZGC}\nworkload: {requestsPerSecond: 4545, meanLatency: 11ms, cpuPerRequest: 1ms, "
                    + "allocationPerRequest: 4Mi}", container(2, "1Gi"));

            assertThat(explicit.values().maxThreads()).isEqualTo(100);
            assertThat(explicit.warnings()).anyMatch(w -> w.contains("threads.max 100 leaves") && w.contains("(R12a)"));
            assertThat(zgc.values().maxThreads()).isEqualTo(33);
        }

        @Test
        void r12a_aFewBytesPerRequestCapNothingAndDivideByNothing() {
            // Admission asks for 1Ki at least; `kubectl tp plan` reads files no API server judged.
            Planned tiny = plan("gc: {collector: Parallel}\nworkload: {requestsPerSecond: 400, meanLatency: 100ms, allocationPerRequest: '1'}",
                    container(2, "2Gi"));

            assertThat(tiny.values().maxThreads()).isEqualTo(50);
        }

        @Test
        void aHeapSizeBeyondALongIsInvalidNamingTheField() {
            Rejected rejected = rejected("heap: {size: 99999999999999999999Ti}", container(2, "2Gi"));

            assertThat(rejected.reason()).isEqualTo(Reason.INVALID);
            assertThat(rejected.messages()).singleElement().asString().startsWith("heap.size: more bytes than a long holds");
        }

        @Test
        void r12a_g1IsCappedAgainstItsNominalYoungGeneration() {
            Planned g1 = plan("gc: {collector: G1}\nworkload: {requestsPerSecond: 4545, meanLatency: 11ms, cpuPerRequest: 1ms, "
                    + "allocationPerRequest: 4Mi}", container(2, "1Gi"));

            assertThat(g1.values().youngGenerationBytes()).as("G1 sizes its own young generation").isNull();
            assertThat(g1.values().maxThreads()).isEqualTo((int) (g1.values().heapBytes() * 40 / 100 / (5 * 4 * Units.MI)));
        }

        @Test
        void r13_autoPicksSerialOnOneCpuParallelOnTwoG1WithAPauseGoalAndZgcForBigHeaps() {
            assertThat(plan("", container(1, "1Gi")).values().collector()).isEqualTo(Collector.Serial);
            assertThat(plan("", container(2, "2Gi")).values().collector()).isEqualTo(Collector.Parallel);
            assertThat(plan("gc: {maxPauseMillis: 50}", container(2, "2Gi")).values().collector()).isEqualTo(Collector.G1);
            assertThat(plan("", container(4, "4Gi")).values().collector()).isEqualTo(Collector.G1);
            assertThat(plan("", container(4, "8Gi")).values().collector()).isEqualTo(Collector.ZGC);
        }

        @Test
        void r13_zgcIsGenerationalOnJdk21And22WhereItIsOptIn() {
            ContainerFacts jdk21 = new ContainerFacts(4.0, 4.0, 8 * Units.GI, 8 * Units.GI, Map.of(), Set.of(), List.of(), List.of(), 21, 1);
            ContainerFacts jdk25 = new ContainerFacts(4.0, 4.0, 8 * Units.GI, 8 * Units.GI, Map.of(), Set.of(), List.of(), List.of(), 25, 1);

            assertThat(plan("", jdk21).rendering().renderedFlags()).contains("-XX:+UseZGC", "-XX:+ZGenerational");
            assertThat(plan("", jdk25).rendering().renderedFlags()).contains("-XX:+UseZGC").doesNotContain("-XX:+ZGenerational");
        }

        @Test
        void r14_activeProcessorCountComesFromTheLimitElseTheRequest() {
            assertThat(plan("", ContainerFacts.ofResources(1.5, 0.5, Units.GI, Units.GI)).rendering().renderedFlags())
                    .contains("-XX:ActiveProcessorCount=2");
            assertThat(plan("", ContainerFacts.ofResources(null, 3.0, Units.GI, Units.GI)).rendering().renderedFlags())
                    .contains("-XX:ActiveProcessorCount=3");
            Planned none = plan("", ContainerFacts.ofResources(null, null, Units.GI, Units.GI));
            assertThat(none.rendering().renderedFlags()).noneMatch(f -> f.startsWith("-XX:ActiveProcessorCount"));
            assertThat(none.warnings()).anyMatch(w -> w.contains("no CPU limit or request"));
        }

        @Test
        void r14_g1ThreadCountsFollowHotspotsFormulaAndStayOrdered() {
            Planned plan = plan("gc: {collector: G1}", container(16, "8Gi"));

            assertThat(plan.values().parallelGcThreads()).isEqualTo(13);
            assertThat(plan.values().concGcThreads()).isEqualTo(3);
        }

        @Test
        void r14_concGcThreadsAboveParallelGcThreadsIsInvalid() {
            Rejected rejected = rejected("jvmOptions: ['-XX:ParallelGCThreads=2', '-XX:ConcGCThreads=4']", container(2, "2Gi"));

            assertThat(rejected.reason()).isEqualTo(Reason.INVALID);
            assertThat(rejected.messages()).anyMatch(m -> m.contains("ConcGCThreads=4 above ParallelGCThreads=2"));
        }
    }

    @Nested
    class AotCache {
        private static final String CACHE = "-XX:AOTCache=/app/app.aot";

        private static ContainerFacts bigHeap(String toolOptions) {
            return new ContainerFacts(4.0, 4.0, 8 * Units.GI, 8 * Units.GI, Map.of("JAVA_TOOL_OPTIONS", toolOptions), Set.of(), List.of(),
                    List.of(), 25, 1);
        }

        @Test
        void theAutomaticChoiceIsNotZgcBesideACacheTheJvmWouldRejectUnderIt() {
            Planned plan = plan("", bigHeap(CACHE));

            assertThat(plan.values().collector()).isEqualTo(Collector.G1);
            assertThat(decision(plan, "gc.collector").rationale()).contains("not ZGC", CACHE, "JAVA_TOOL_OPTIONS");
            assertThat(plan.rendering().renderedFlags()).contains("-Xms" + Units.jvmMebibytes(plan.values().heapBytes()));
        }

        @Test
        void zgcOrTheAgentAskedForInTheProfileAreReportedAndRefusedWhereTheJvmWouldNotStart() {
            Planned warned = plan("gc: {collector: ZGC}\nmetrics: {injectAgent: true}", bigHeap("-XX:SharedArchiveFile=/app/cds.jsa"));
            Rejected refused = rejected("gc: {collector: ZGC}", bigHeap(CACHE + " -XX:AOTMode=on"));

            assertThat(warned.warnings()).anyMatch(w -> w.contains("gc.collector ZGC makes the JVM reject the AOT cache -XX:SharedArchiveFile"))
                    .anyMatch(w -> w.contains("metrics agent (-javaagent)") && w.contains("starts without it"));
            assertThat(refused.reason()).isEqualTo(Reason.CONFLICT);
            assertThat(refused.messages()).anyMatch(m -> m.contains("under -XX:AOTMode=on the JVM then refuses to start"));
        }

        /** An image that sets the cache in its own ENTRYPOINT or ENV: only its JVMs say so. */
        @Test
        void aCacheThePodsJvmsReportCountsAsOneInThePodSpecAndSaysWhereItWasSeen() {
            ContainerFacts image = new ContainerFacts(4.0, 4.0, 8 * Units.GI, 8 * Units.GI, Map.of(), Set.of(), List.of(), List.of(), 25, 2,
                    "-XX:AOTCache on 2 of 2 pods");
            Planned warned = plan("gc: {collector: ZGC}\nmetrics: {injectAgent: true}", image);
            Planned automatic = plan("", image);

            assertThat(warned.warnings()).anyMatch(w -> w.contains("gc.collector ZGC makes the JVM reject the AOT cache -XX:AOTCache on 2 "
                    + "of 2 pods (reported by their JVMs, set outside the pod spec: the image's entrypoint or environment)"))
                    .anyMatch(w -> w.contains("metrics agent (-javaagent)") && w.contains("-XX:AOTCache on 2 of 2 pods"));
            assertThat(automatic.values().collector()).isEqualTo(Collector.G1);
            assertThat(decision(automatic, "gc.collector").rationale()).contains("not ZGC", "reported by their JVMs");
            assertThat(automatic.rendering().renderedFlags()).doesNotContain("-XX:+UseCompactObjectHeaders");
        }

        @Test
        void theSpecsCacheFlagIsNamedBeforeWhatThePodsReport() {
            ContainerFacts both = new ContainerFacts(4.0, 4.0, 8 * Units.GI, 8 * Units.GI, Map.of("JAVA_TOOL_OPTIONS", CACHE), Set.of(),
                    List.of(), List.of(), 25, 1, "-XX:AOTCache on 1 of 1 pods");

            assertThat(plan("metrics: {injectAgent: true}", both).warnings())
                    .anyMatch(w -> w.contains(CACHE + " (in the container's JAVA_TOOL_OPTIONS)"))
                    .noneMatch(w -> w.contains("reported by their JVMs"));
        }

        @Test
        void withoutACacheNothingIsSaid() {
            Planned plan = plan("gc: {collector: ZGC}\nmetrics: {injectAgent: true}", bigHeap("-Xshare:auto"));

            assertThat(plan.warnings()).noneMatch(w -> w.contains("AOT cache"));
        }
    }

    static ContainerFacts withEnv(String variable, String value) {
        return new ContainerFacts(2.0, 2.0, 2 * Units.GI, 2 * Units.GI, Map.of(variable, value), Set.of(), List.of(), List.of(), 17, 1);
    }

    @Nested
    class JvmOptionsAndTheContainer {
        @Test
        void conflictingCollectorsAreInvalid() {
            Rejected rejected = rejected("gc: {collector: Parallel}\njvmOptions: ['-XX:+UseG1GC']", container(2, "2Gi"));

            assertThat(rejected.messages()).containsExactly("jvmOptions select G1 but gc.collector is Parallel; set the collector in one place");
        }

        @Test
        void heapFlagsBesideAHeapSectionAreInvalid() {
            Rejected rejected = rejected("heap: {size: 1Gi}\njvmOptions: ['-Xmx512m']", container(2, "2Gi"));

            assertThat(rejected.messages()).anyMatch(m -> m.contains("-Xmx512m") && m.contains("set it in one place"));
        }

        @Test
        void undertowIsToldToCountItsBusyWorkersWhereTheAgentReadsThem() {
            Planned withAgent = plan("runtime: SpringBootUndertow\nmetrics: {injectAgent: true}", container(2, "2Gi"));
            Planned withoutAgent = plan("runtime: SpringBootUndertow", container(2, "2Gi"));
            Planned tomcat = plan("runtime: SpringBootTomcat\nmetrics: {injectAgent: true}", container(2, "2Gi"));

            assertThat(withAgent.rendering().renderedFlags()).contains("-Djboss.threads.eqe.statistics.active-count=true");
            assertThat(withoutAgent.rendering().renderedFlags()).noneMatch(f -> f.contains("jboss.threads"));
            assertThat(tomcat.rendering().renderedFlags()).noneMatch(f -> f.contains("jboss.threads"));
        }

        @Test
        void theUsersOwnJvmOptionsValueIsKeptFirstAndTheProfilesOptionsLast() {
            ContainerFacts facts = new ContainerFacts(2.0, 2.0, 2 * Units.GI, 2 * Units.GI,
                    Map.of("JAVA_TOOL_OPTIONS", "-Dfile.encoding=UTF-8 -javaagent:/otel.jar"), Set.of(), List.of(), List.of(), 17, 1);
            Planned plan = plan("jvmOptions: ['-XX:+ExitOnOutOfMemoryError']", facts);

            String value = plan.rendering().jvmOptionsValue();
            assertThat(plan.rendering().jvmOptionsVariable()).isEqualTo("JAVA_TOOL_OPTIONS");
            assertThat(value).startsWith("-Dfile.encoding=UTF-8 -javaagent:/otel.jar -XX:ActiveProcessorCount=2 ")
                    .endsWith(" -XX:+ExitOnOutOfMemoryError");
        }

        @Test
        void aJvmOptionsVariableFromAReferenceCannotBeMerged() {
            ContainerFacts facts = new ContainerFacts(2.0, 2.0, 2 * Units.GI, 2 * Units.GI, Map.of(), Set.of("JAVA_TOOL_OPTIONS"),
                    List.of(), List.of(), 17, 1);

            assertThat(rejected("", facts).messages()).anyMatch(m -> m.contains("JAVA_TOOL_OPTIONS is set from a reference"));
        }

        @Test
        void flagsAndPropertiesHardCodedInTheCommandAreReportedAsOverrides() {
            ContainerFacts facts = new ContainerFacts(2.0, 2.0, 2 * Units.GI, 2 * Units.GI, Map.of("SERVER_TOMCAT_THREADS_MAX", "300"), Set.of(),
                    List.of("sh", "-c"), List.of("exec java -Xmx512m -jar app.jar --server.tomcat.accept-count=50"), 17, 1);
            Planned plan = plan("runtime: SpringBootTomcat\nheap: {size: 1Gi}\nthreads: {max: 100}\nqueue: {acceptCount: 300}", facts);

            assertThat(plan.warnings())
                    .anyMatch(w -> w.contains("command/args set -Xmx512m, which overrides the rendered -Xmx1024m"))
                    .anyMatch(w -> w.contains("--server.tomcat.accept-count=50, which overrides the rendered server.tomcat.accept-count"))
                    .anyMatch(w -> w.contains("env sets SERVER_TOMCAT_THREADS_MAX itself"));
        }

        @Test
        void aCollectorTheContainerSelectsIsKeptWhenTheProfileLeavesItOpen() {
            ContainerFacts inTheVariable = withEnv("JAVA_TOOL_OPTIONS", "-Dfile.encoding=UTF-8 -XX:+UseZGC");
            ContainerFacts inTheCommand = new ContainerFacts(2.0, 2.0, 2 * Units.GI, 2 * Units.GI, Map.of(), Set.of(),
                    List.of("java"), List.of("-XX:+UseZGC", "-jar", "app.jar"), 17, 1);

            for (String spec : List.of("", "gc: {collector: Auto}")) {
                Planned kept = plan(spec, inTheVariable);
                assertThat(kept.rendering().jvmOptionsValue()).startsWith("-Dfile.encoding=UTF-8 -XX:+UseZGC ")
                        .doesNotContain("-XX:+UseParallelGC", "-XX:+UseG1GC", "-XX:+UseSerialGC");
                assertThat(decision(kept, "gc.collector").value()).isEqualTo("ZGC");
                assertThat(decision(kept, "gc.collector").rationale()).contains("kept as selected in the container's JAVA_TOOL_OPTIONS");
                // ZGC has no young generation to fix and no thread counts of G1's or Parallel's to render
                assertThat(kept.rendering().renderedFlags()).noneMatch(f -> f.startsWith("-Xmn") || f.contains("GCThreads"));
            }
            Planned fromTheCommand = plan("", inTheCommand);
            assertThat(fromTheCommand.rendering().renderedFlags()).noneMatch(f -> f.startsWith("-XX:+Use"));
            assertThat(decision(fromTheCommand, "gc.collector").rationale()).contains("the container's command/args");
        }

        @Test
        void aProfileCollectorBesideAnotherOneInTheContainerIsAConflict() {
            Rejected inTheVariable = rejected("gc: {collector: G1}", withEnv("JAVA_TOOL_OPTIONS", "-XX:+UseZGC"));
            Rejected inAnotherVariable = rejected("gc: {collector: G1}\njvmOptionsVariable: JDK_JAVA_OPTIONS",
                    withEnv("JAVA_TOOL_OPTIONS", "-XX:+UseZGC"));
            Rejected withJvmOptions = rejected("jvmOptions: ['-XX:+UseG1GC']", withEnv("JAVA_OPTS", "-XX:+UseSerialGC"));

            assertThat(inTheVariable.reason()).isEqualTo(Reason.CONFLICT);
            assertThat(inTheVariable.messages()).containsExactly("gc.collector is G1 but ZGC in the container's JAVA_TOOL_OPTIONS selects a "
                    + "collector already, and the JVM refuses to start with two; remove it there, or set gc.collector to ZGC or Auto to keep it");
            assertThat(inAnotherVariable.reason()).isEqualTo(Reason.CONFLICT);
            assertThat(withJvmOptions.reason()).isEqualTo(Reason.CONFLICT);
            assertThat(withJvmOptions.messages()).singleElement().asString()
                    .contains("more than one garbage collector (G1 in jvmOptions, Serial in the container's JAVA_OPTS)");
            // the same collector in both places is one collector: it is not rendered again
            Planned same = plan("gc: {collector: ZGC}", withEnv("JAVA_TOOL_OPTIONS", "-XX:+UseZGC"));
            assertThat(same.rendering().renderedFlags()).doesNotContain("-XX:+UseZGC");
            assertThat(decision(same, "gc.collector").rationale()).contains("not rendered a second time");
        }

        @Test
        void heapAndCpuFlagsTheContainerSetsAreKeptAndBudgeted() {
            Planned plan = plan("", withEnv("JAVA_TOOL_OPTIONS", "-XX:MaxRAMPercentage=50.0 -XX:ActiveProcessorCount=4"));

            assertThat(plan.rendering().renderedFlags()).noneMatch(f -> f.startsWith("-Xm") || f.startsWith("-XX:ActiveProcessorCount"));
            assertThat(decision(plan, "heap.size").value()).isEqualTo("1024Mi");
            assertThat(decision(plan, "heap.size").rationale())
                    .contains("kept as sized by -XX:MaxRAMPercentage=50.0 in the container's JAVA_TOOL_OPTIONS");
            assertThat(decision(plan, "jvm.activeProcessorCount").rationale()).contains("the container's JAVA_TOOL_OPTIONS");
            // a heap sized on the command line is the user's too: no -Xmx of the operator's beneath it to warn about
            Planned commandLine = plan("", new ContainerFacts(2.0, 2.0, 2 * Units.GI, 2 * Units.GI, Map.of(), Set.of(),
                    List.of("sh", "-c"), List.of("exec java -Xms1g -jar app.jar"), 17, 1));
            assertThat(commandLine.rendering().renderedFlags()).noneMatch(f -> f.startsWith("-Xm"));
            assertThat(commandLine.warnings()).noneMatch(w -> w.contains("overrides the rendered -X"));
        }

        @Test
        void genericRendersJvmFlagsOnlyAndSaysWhatItCouldNotRender() {
            Planned plan = plan("runtime: Generic\nthreads: {max: 50}", container(2, "2Gi"));

            assertThat(plan.rendering().serverEnvironment()).isEmpty();
            assertThat(plan.warnings()).anyMatch(w -> w.contains("runtime Generic has no property for threads.max"));
        }

        @Test
        void quarkusAndSpringBindPropertiesToDifferentlyNamedVariables() {
            Planned quarkus = plan("runtime: Quarkus\nthreads: {max: 64, minSpare: 8}\nqueue: {maxQueueSize: 100}", container(2, "2Gi"));
            Planned tomcat = plan("runtime: SpringBootTomcat\nthreads: {max: 64, minSpare: 8}\nqueue: {maxQueueSize: 100}", container(2, "2Gi"));

            assertThat(quarkus.rendering().serverEnvironment()).containsOnly(
                    Map.entry("QUARKUS_THREAD_POOL_MAX_THREADS", "64"), Map.entry("QUARKUS_THREAD_POOL_CORE_THREADS", "8"),
                    Map.entry("QUARKUS_THREAD_POOL_QUEUE_SIZE", "100"));
            assertThat(tomcat.rendering().serverEnvironment()).containsOnly(
                    Map.entry("SERVER_TOMCAT_THREADS_MAX", "64"), Map.entry("SERVER_TOMCAT_THREADS_MINSPARE", "8"),
                    Map.entry("SERVER_TOMCAT_THREADS_MAXQUEUECAPACITY", "100"), Map.entry("SERVER_TOMCAT_MBEANREGISTRY_ENABLED", "true"));
        }
    }
}
