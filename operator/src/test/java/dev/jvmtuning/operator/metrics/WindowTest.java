package dev.jvmtuning.operator.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jvmtuning.operator.api.v1alpha1.Observed;
import dev.jvmtuning.operator.model.Units;
import dev.jvmtuning.operator.model.VirtualThreads;
import dev.jvmtuning.operator.model.VirtualThreads.Pinned;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WindowTest {

    static PodSnapshot snapshot(long at, double gc, double switches, double periods, double throttled, double cpu) {
        return new PodSnapshot(at, gc, switches, periods, throttled, cpu, 2.0, 10.0, 200.0, 0.0, 0.5, null, PodSnapshot.Service.NONE);
    }

    @Test
    void ratesAreIncreasesOverTheWindowAveragedOverPods() {
        Map<String, PodSnapshot> before = Map.of("a", snapshot(0, 1.0, 1000, 100, 10, 5), "b", snapshot(0, 2.0, 0, 100, 0, 5));
        Map<String, PodSnapshot> after = Map.of("a", snapshot(10_000, 2.0, 41_000, 200, 60, 15), "b", snapshot(10_000, 2.0, 20_000, 200, 0, 10));

        Observed o = Window.observe(before, after, null);

        assertThat(o.getWindow()).isEqualTo("10s");
        assertThat(o.getPods()).isEqualTo(2);
        assertThat(o.getGcTimePercent()).isEqualTo(5.0);                         // (10 % + 0 %) / 2
        assertThat(o.getInvoluntarySwitchesPerCorePerSecond()).isEqualTo(1500.0); // (2000 + 1000) / 2 per core
        assertThat(o.getCpuThrottlePercent()).isEqualTo(25.0);                    // (50 % + 0 %) / 2
        assertThat(o.getCpuCores()).isEqualTo(0.75);
        assertThat(o.getHeapAfterGcPercent()).isEqualTo(50.0);
    }

    @Test
    void eachPodIsComparedOverTheEndpointsThatAnsweredAtBothEndsOfTheWindow() {
        MetricsEndpoint agent = new MetricsEndpoint(MetricsEndpoint.Role.AGENT, 9404, "/metrics");
        MetricsEndpoint runtime = new MetricsEndpoint(MetricsEndpoint.Role.RUNTIME, 8080, "/actuator/prometheus");
        // Read from both, the pauses are the runtime's count, far above the agent's.
        Window.SourcedSnapshot bothBefore = new Window.SourcedSnapshot(snapshot(0, 100, 0, 0, 0, 0),
                Map.of(agent, snapshot(0, 1, 0, 0, 0, 0), runtime, snapshot(0, 100, 0, 0, 0, 0)));
        Window.SourcedSnapshot bothAfter = new Window.SourcedSnapshot(snapshot(10_000, 101, 0, 0, 0, 0),
                Map.of(agent, snapshot(10_000, 2, 0, 0, 0, 0), runtime, snapshot(10_000, 101, 0, 0, 0, 0)));
        Window.SourcedSnapshot agentAfter = new Window.SourcedSnapshot(snapshot(10_000, 2, 0, 0, 0, 0), Map.of(agent, snapshot(10_000, 2, 0, 0, 0, 0)));
        Window.SourcedSnapshot agentBefore = new Window.SourcedSnapshot(snapshot(0, 1, 0, 0, 0, 0), Map.of(agent, snapshot(0, 1, 0, 0, 0, 0)));
        Window.SourcedSnapshot runtimeAfter = new Window.SourcedSnapshot(snapshot(10_000, 101, 0, 0, 0, 0),
                Map.of(runtime, snapshot(10_000, 101, 0, 0, 0, 0)));

        Window.Ends ends = Window.ends(Map.of("a", bothBefore, "b", bothBefore, "c", agentBefore),
                Map.of("a", bothAfter, "b", agentAfter, "c", runtimeAfter));
        Observed o = Window.observe(ends, null);

        assertThat(ends.endpoints()).as("c has no endpoint in common").containsOnlyKeys("a", "b");
        assertThat(o.getPods()).isEqualTo(2);
        assertThat(o.getGcTimePercent()).as("b's the agent's pauses at both ends, not the runtime's then and the agent's now").isEqualTo(10.0);
        assertThat(o.getSources()).containsExactly("agent :9404/metrics", "runtime :8080/actuator/prometheus on 1 of 2 pods");
    }

    @Test
    void theBusyThreadsAreTheWindowsMeanWhereThePodSumsThemElseTheLastReading() {
        // The agent's sum grew by 1800 thread-seconds over 10 s; the last reading fell on a moment the pool drained to 82.
        PodSnapshot.Service none = PodSnapshot.Service.NONE;
        PodSnapshot summedBefore = new PodSnapshot(0, 0.0, 0.0, 0.0, 0.0, 10.0, 1.0, 200.0, 5_000.0, null, 200.0, 0.0, 0.5, null, null, none);
        PodSnapshot summedAfter = new PodSnapshot(10_000, 0.0, 0.0, 0.0, 0.0, 19.0, 1.0, 82.0, 6_800.0, null, 200.0, 0.0, 0.5, 300.25 * Units.MI,
                null, none);

        Observed summed = Window.observe(Map.of("a", summedBefore), Map.of("a", summedAfter), null);
        assertThat(summed.getLiveHeapMib()).as("the live heap as its last reading has it, in MiB").isEqualTo(300.3);
        assertThat(summed.getBusyThreads()).isEqualTo(180.0);
        assertThat(summed.getBusyThreadsAveraged()).isTrue();
        Observed read = Window.observe(Map.of("a", snapshot(0, 0, 0, 0, 0, 10)), Map.of("a", snapshot(10_000, 0, 0, 0, 0, 19)), null);
        assertThat(read.getBusyThreads()).as("no sum: the reading").isEqualTo(10.0);
        assertThat(read.getBusyThreadsAveraged()).isFalse();
        Observed mixed = Window.observe(Map.of("a", summedBefore, "b", snapshot(0, 0, 0, 0, 0, 10)),
                Map.of("a", summedAfter, "b", snapshot(10_000, 0, 0, 0, 0, 19)), null);
        assertThat(mixed.getBusyThreadsAveraged()).as("a mean only when every pod's is").isFalse();
        Observed unread = Window.observe(Map.of("a", new PodSnapshot(0, 0.0, 0.0, 0.0, 0.0, 10.0, 1.0, null, null, 0.0, 0.5, null, none)),
                Map.of("a", new PodSnapshot(10_000, 0.0, 0.0, 0.0, 0.0, 19.0, 1.0, null, null, 0.0, 0.5, null, none)), null);
        assertThat(unread.getBusyThreads()).as("a server that counts no busy threads").isNull();
        assertThat(unread.getBusyThreadsAveraged()).isNull();
    }

    @Test
    void theBusyThreadsMeanSpansTheCollectionsTheSumsWereTakenAt() {
        // Scraped 4 s apart, collected 5.9 s apart: the later scrape served a fresher collection than the earlier one.
        PodSnapshot.Service none = PodSnapshot.Service.NONE;
        PodSnapshot before = new PodSnapshot(0, 0.0, 0.0, 0.0, 0.0, 10.0, 1.0, 200.0, 5_000.0, 1_000L, 200.0, 0.0, 0.5, null, null, none);
        PodSnapshot after = new PodSnapshot(4_000, 0.0, 0.0, 0.0, 0.0, 19.0, 1.0, 200.0, 6_180.0, 6_900L, 200.0, 0.0, 0.5, null, null, none);

        Observed o = Window.observe(Map.of("a", before), Map.of("a", after), null);
        assertThat(o.getBusyThreads()).as("1180 thread-seconds over 5.9 s, not 4").isEqualTo(200.0);
        assertThat(o.getBusyThreadsAveraged()).isTrue();

        PodSnapshot sameCollection = new PodSnapshot(4_000, 0.0, 0.0, 0.0, 0.0, 19.0, 1.0, 150.0, 5_000.0, 1_000L, 200.0, 0.0, 0.5, null, null, none);
        Observed stale = Window.observe(Map.of("a", before), Map.of("a", sameCollection), null);
        assertThat(stale.getBusyThreads()).as("no collection in between: the reading").isEqualTo(150.0);
        assertThat(stale.getBusyThreadsAveraged()).isFalse();
    }

    @Test
    void pinningIsJudgedForPodsThatReportItAtBothEndsOnTheirOwnCpus() {
        VirtualThreads earlier = new VirtualThreads(Map.of("other", new Pinned(1, 0.5)), Map.of());
        VirtualThreads later = new VirtualThreads(Map.of("other", new Pinned(3, 2.5)), Map.of());
        Window.History past = new Window.History(Map.of("a", new Window.SourcedSnapshot(snapshot(0, 0, 0, 0, 0, 0), Map.of()),
                "b", new Window.SourcedSnapshot(snapshot(0, 0, 0, 0, 0, 0), Map.of())),
                Map.of("a", earlier, "b", VirtualThreads.NONE), null);
        Map<String, PodSnapshot> now = Map.of("a", snapshot(20_000, 0, 0, 0, 0, 0), "b", snapshot(20_000, 0, 0, 0, 0, 0),
                "c", snapshot(20_000, 0, 0, 0, 0, 0));

        Map<String, VirtualThreads.Pinning> pinning = Window.pinning(past, now, Map.of("a", later, "b", later, "c", later), 4.0);

        // b reported none before and c is new: what they count may predate the window
        assertThat(pinning).containsOnlyKeys("a");
        assertThat(pinning.get("a")).isEqualTo(new VirtualThreads.Pinning(20, 2, Map.of("other", new Pinned(2, 2.0))));
    }

    @Test
    void requestCountersBecomePerRequestFigures() {
        PodSnapshot before = new PodSnapshot(0, 0.0, 0.0, 0.0, 0.0, 10.0, 2.0, 10.0, 200.0, 0.0, 0.5, 9000.0,
                new PodSnapshot.Service(1000.0, 300.0, 5.0, 2.0, 20.0, 10.0, 1.0e9, null, PodSnapshot.Queue.NONE, 30.0, 40.0));
        PodSnapshot after = new PodSnapshot(10_000, 0.0, 0.0, 0.0, 0.0, 14.0, 2.0, 10.0, 200.0, 0.0, 0.5, 9001.0,
                new PodSnapshot.Service(3000.0, 900.0, 7.0, 2.0, 120.0, 50.0, 1.0e9 + 2000 * 2 * 1024 * 1024.0, null, PodSnapshot.Queue.NONE, 31.0, 40.4));

        Observed o = Window.observe(Map.of("a", before), Map.of("a", after), null);

        assertThat(o.getRequestsPerSecond()).isEqualTo(200.0);
        assertThat(o.getMeanLatencyMillis()).isEqualTo(300.0);
        assertThat(o.getCpuMillisPerRequest()).isEqualTo(2.0);
        assertThat(o.getCompilationMillisPerRequest()).as("1 s of JIT over 2000 requests").isEqualTo(0.5);
        assertThat(o.getGcCpuMillisPerRequest()).as("0.4 s of the collector's CPU over 2000 requests").isEqualTo(0.2);
        assertThat(o.getRunQueueMillisPerRequest()).isEqualTo(1.0);
        assertThat(o.getConnectionWaitMillisPerRequest()).isEqualTo(0.0);
        assertThat(o.getConnectionHoldMillisPerRequest()).as("100 s held by the 1960 requests served").isEqualTo(51.02);
        assertThat(o.getAllocatedKibPerRequest()).isEqualTo(2048.0);   // 4000 MiB over 2000 requests
        assertThat(o.getLoadedClasses()).isEqualTo(9001);              // a gauge: the newest value
        assertThat(o.getErrorPercent()).as("40 of 2000 requests answered 5xx").isEqualTo(2.0);
        assertThat(o.getEnd()).isEqualTo("1970-01-01T00:00:10Z");
    }

    @Test
    void connectionsAreHeldByTheRequestsServedNotByThoseThatTimedOutWaitingForOne() {
        // 1000 requests in 10 s, 600 of them failed after waiting for a connection; the 400 served held one 100 ms each.
        PodSnapshot before = new PodSnapshot(0, 0.0, 0.0, 0.0, 0.0, 10.0, 2.0, 10.0, 200.0, 0.0, 0.5, null,
                new PodSnapshot.Service(0.0, 0.0, null, 0.0, 0.0, 0.0, null));
        PodSnapshot after = new PodSnapshot(10_000, 0.0, 0.0, 0.0, 0.0, 11.0, 2.0, 10.0, 200.0, 0.0, 0.5, null,
                new PodSnapshot.Service(1000.0, 300.0, null, 150.0, 40.0, 600.0, null));

        Observed o = Window.observe(Map.of("a", before), Map.of("a", after), null);

        assertThat(o.getConnectionHoldMillisPerRequest()).isEqualTo(100.0);
        assertThat(o.getErrorPercent()).isEqualTo(60.0);
    }

    /** A pod serving 100 req/s at 20 ms each in the server, with {@code queue} in front of its workers at both ends of 10 s. */
    static Observed overloaded(PodSnapshot.Queue before, PodSnapshot.Queue after) {
        return Window.observe(
                Map.of("a", new PodSnapshot(0, 0.0, 0.0, 0.0, 0.0, 10.0, 2.0, 200.0, 200.0, 0.0, 0.5, null,
                        new PodSnapshot.Service(1000.0, 20.0, null, null, null, 0.0, null, histogram(1000, 0.02), before, null, null))),
                Map.of("a", new PodSnapshot(10_000, 0.0, 0.0, 0.0, 0.0, 12.0, 2.0, 200.0, 200.0, 0.0, 0.5, null,
                        new PodSnapshot.Service(2000.0, 40.0, null, null, null, 0.0, null, histogram(2000, 0.02), after, null, null))),
                null);
    }

    /** All requests within {@code seconds}. */
    private static LatencyHistogram histogram(double requests, double seconds) {
        return new LatencyHistogram(new java.util.TreeMap<>(Map.of(seconds, requests, Double.POSITIVE_INFINITY, requests)));
    }

    @Test
    void theLatencyIncludesTheTimeRequestsQueuedForAWorker() {
        // Overload: 140 requests queued on average at 100 req/s wait 1.4 s each (Little's law), 70 times the 20 ms in the server.
        Observed jetty = overloaded(new PodSnapshot.Queue(130.0, null), new PodSnapshot.Queue(150.0, null));
        // Quarkus times the queue itself: 1400 s of waiting over 1000 requests.
        Observed quarkus = overloaded(new PodSnapshot.Queue(140.0, 600.0), new PodSnapshot.Queue(140.0, 2000.0));

        for (Observed o : java.util.List.of(jetty, quarkus)) {
            assertThat(o.getQueueWaitMillisPerRequest()).isCloseTo(1400.0, org.assertj.core.data.Offset.offset(1e-6));
            assertThat(o.getQueuedRequests()).isEqualTo(140.0);
            assertThat(o.getMeanLatencyMillis()).as("what a client waits: queue and server").isCloseTo(1420.0, org.assertj.core.data.Offset.offset(1e-6));
            assertThat(o.getP99LatencyMillis()).isGreaterThan(1400.0);
            assertThat(o.getLatencyIncludesQueueWait()).isTrue();
        }
    }

    @Test
    void withoutAQueueSeriesTheLatencyIsLabelledServerSideOnly() {
        Observed tomcat = overloaded(PodSnapshot.Queue.NONE, PodSnapshot.Queue.NONE);

        assertThat(tomcat.getMeanLatencyMillis()).isEqualTo(20.0);
        assertThat(tomcat.getLatencyIncludesQueueWait()).isFalse();
        assertThat(tomcat.getQueueWaitMillisPerRequest()).isNull();
    }

    @Test
    void aWindowWithoutRequestsHasNoPerRequestFigures() {
        PodSnapshot.Service idle = new PodSnapshot.Service(1000.0, 300.0, 5.0, null, null, null, null);
        Observed o = Window.observe(Map.of("a", new PodSnapshot(0, 0.0, 0.0, 0.0, 0.0, 10.0, 2.0, 0.0, 200.0, 0.0, 0.5, null, idle)),
                Map.of("a", new PodSnapshot(10_000, 0.0, 0.0, 0.0, 0.0, 11.0, 2.0, 0.0, 200.0, 0.0, 0.5, null, idle)), null);

        assertThat(o.getRequestsPerSecond()).isEqualTo(0.0);
        assertThat(o.getMeanLatencyMillis()).isNull();
        assertThat(o.getCpuMillisPerRequest()).isNull();
    }

    @Test
    void aWindowWithoutACollectionSaysNothingAboutAllocation() {
        // The allocation counters move at collections: requests served, but none ran in these ten seconds.
        PodSnapshot before = new PodSnapshot(0, 0.0, 0.0, 0.0, 0.0, 10.0, 2.0, 10.0, 200.0, 0.0, 0.5, null,
                new PodSnapshot.Service(1000.0, 300.0, 5.0, 2.0, 20.0, null, 5.0e8));
        PodSnapshot after = new PodSnapshot(10_000, 0.0, 0.0, 0.0, 0.0, 14.0, 2.0, 10.0, 200.0, 0.0, 0.5, null,
                new PodSnapshot.Service(3000.0, 900.0, 7.0, 2.0, 120.0, null, 5.0e8));

        Observed o = Window.observe(Map.of("a", before), Map.of("a", after), null);

        assertThat(o.getRequestsPerSecond()).isEqualTo(200.0);
        assertThat(o.getAllocatedKibPerRequest()).as("unknown, not zero").isNull();
        assertThat(o.getLoadedClasses()).isNull();
    }

    @Test
    void aCounterThatWentDownWasResetByARestart() {
        Observed o = Window.observe(Map.of("a", snapshot(0, 50.0, 9_000_000, 1000, 0, 500)),
                Map.of("a", snapshot(20_000, 1.0, 40_000, 200, 0, 3)), null);

        assertThat(o.getGcTimePercent()).isEqualTo(5.0);
        assertThat(o.getInvoluntarySwitchesPerCorePerSecond()).isEqualTo(1000.0);
    }

    @Test
    void theShownLengthIgnoresPollsASecondOrTwoLateSoACalmPodsStatusStaysTheSame() {
        assertThat(Window.shownLength(30_000)).isEqualTo("30s");
        assertThat(Window.shownLength(31_400)).isEqualTo("30s");
        assertThat(Window.shownLength(32_400)).isEqualTo("30s");
        assertThat(Window.shownLength(33_000)).isEqualTo("35s");
        assertThat(Window.shownLength(3_000)).isEqualTo("3s");
        assertThat(Window.shownLength(200)).isEqualTo("1s");
    }

    @Test
    void aPodSeenForTheFirstTimeHasNoRatesYet() {
        assertThat(Window.observe(Map.of(), Map.of("a", snapshot(0, 1, 1, 1, 1, 1)), 2.0)).isNull();
    }

    @Test
    void snapshotsReadEachDialect() {
        Scrape micrometer = new Scrape(List.of(
                new Sample("jvm_gc_pause_seconds_sum", Map.of("action", "end of minor GC", "gc", "G1 Young Generation"), 1.5, null),
                new Sample("jvm_gc_pause_seconds_sum", Map.of("action", "end of major GC", "gc", "G1 Old Generation"), 0.5, null),
                new Sample("tomcat_threads_busy_threads", Map.of("name", "http-nio-8080"), 12, null),
                new Sample("tomcat_threads_config_max_threads", Map.of("name", "http-nio-8080"), 200, null),
                new Sample("hikaricp_connections_pending", Map.of("pool", "HikariPool-1"), 3, null),
                new Sample("jvm_memory_usage_after_gc_percent", Map.of("area", "heap", "pool", "long-lived"), 0.42, null),
                new Sample("jvm_gc_live_data_size_bytes", Map.of(), 2.0e8, null),
                new Sample("process_cpu_time_ns_total", Map.of(), 2.5e9, null),
                new Sample("http_server_requests_seconds_count", Map.of("uri", "/work", "status", "200"), 90, null),
                new Sample("http_server_requests_seconds_count", Map.of("uri", "/work", "status", "500"), 10, null),
                new Sample("http_server_requests_seconds_count", Map.of("uri", "/actuator/prometheus", "status", "200"), 7, null),
                // Quarkus counts a request whose connection closed before an answer (a connection limit shedding) as RESET.
                new Sample("http_server_requests_seconds_count", Map.of("uri", "/work", "status", "RESET"), 42_000, null),
                new Sample("http_server_requests_seconds_sum", Map.of("uri", "/work", "status", "200"), 30, null),
                new Sample("http_server_requests_seconds_sum", Map.of("uri", "/work", "status", "RESET"), 6, null),
                new Sample("http_server_requests_seconds_sum", Map.of("uri", "/actuator/prometheus", "status", "200"), 1, null),
                new Sample("hikaricp_connections_acquire_seconds_sum", Map.of("pool", "HikariPool-1"), 4, null),
                new Sample("hikaricp_connections_usage_seconds_sum", Map.of("pool", "HikariPool-1"), 5, null),
                new Sample("jvm_gc_memory_allocated_bytes_total", Map.of(), 6.0e9, null),
                new Sample("jvm_classes_loaded_classes", Map.of(), 11_500, null),
                new Sample("jvm_compilation_time_ms_total", Map.of("compiler", "HotSpot 64-Bit Tiered Compilers"), 1500, null)), 0, List.of());
        Scrape prometheusClient = new Scrape(List.of(
                new Sample("jvm_gc_collection_seconds_sum", Map.of("gc", "G1 Young Generation"), 1.0, null),
                new Sample("jvm_gc_collection_seconds_sum", Map.of("gc", "G1 Concurrent GC"), 9.0, null),
                new Sample("jvmtuning_context_switches_total", Map.of("kind", "involuntary"), 500, null),
                new Sample("jvmtuning_context_switches_total", Map.of("kind", "voluntary"), 7000, null),
                new Sample("jvm_memory_pool_collection_used_bytes", Map.of("pool", "G1 Old Gen"), 300, null),
                new Sample("jvm_memory_pool_collection_max_bytes", Map.of("pool", "G1 Old Gen"), 1000, null),
                new Sample("process_cpu_seconds_total", Map.of(), 3.0, null),
                new Sample("jvmtuning_run_queue_delay_seconds_total", Map.of(), 0.25, null),
                new Sample("jvm_memory_pool_allocated_bytes_total", Map.of("pool", "G1 Eden Space"), 4.0e9, null),
                new Sample("jvm_memory_pool_allocated_bytes_total", Map.of("pool", "G1 Survivor Space"), 1.0e8, null),
                new Sample("jvm_memory_pool_allocated_bytes_total", Map.of("pool", "G1 Old Gen"), 3.0e8, null),
                new Sample("jvm_classes_currently_loaded", Map.of(), 9_800, null),
                new Sample("jvm_compilation_time_seconds_total", Map.of(), 2.0, null)), 0, List.of());

        PodSnapshot m = PodSnapshot.of(micrometer, 1);
        PodSnapshot p = PodSnapshot.of(prometheusClient, 1);

        assertThat(m.gcPauseSeconds()).isEqualTo(2.0);
        assertThat(m.busyThreads()).isEqualTo(12);
        assertThat(m.maxThreads()).isEqualTo(200);
        assertThat(m.pendingConnections()).isEqualTo(3);
        assertThat(m.heapAfterGcRatio()).isEqualTo(0.42);
        assertThat(p.gcPauseSeconds()).as("concurrent cycles are not pauses").isEqualTo(1.0);
        assertThat(p.involuntarySwitches()).isEqualTo(500);
        assertThat(p.heapAfterGcRatio()).isEqualTo(0.3);
        assertThat(m.liveHeapBytes()).as("Micrometer's live data size").isEqualTo(2.0e8);
        assertThat(p.liveHeapBytes()).as("the old generation right after its collection").isEqualTo(300);
        assertThat(p.busyThreads()).isNull();
        assertThat(m.cpuSeconds()).as("Micrometer counts nanoseconds").isEqualTo(2.5);
        assertThat(m.service()).as("management endpoints and requests never answered are not the workload")
                .isEqualTo(new PodSnapshot.Service(100.0, 30.0, null, 4.0, 5.0, 10.0, 6.0e9, null, PodSnapshot.Queue.NONE, 1.5, null));
        assertThat(p.cpuSeconds()).isEqualTo(3.0);
        assertThat(p.service()).as("allocation is counted in eden only: the other pools count copies of the same bytes")
                .isEqualTo(new PodSnapshot.Service(null, null, 0.25, null, null, null, 4.0e9, null, PodSnapshot.Queue.NONE, 2.0, null));
        assertThat(m.loadedClasses()).isEqualTo(11_500);
        assertThat(p.loadedClasses()).isEqualTo(9_800);
    }

    @Test
    void theJitCompilersTimeIsTheirThreadsCpuWhereTheAgentReadsIt() {
        // The JVM's own figure is wall time: 9 s while the compilers waited for the CPU, 2 s of it on the CPU.
        Scrape agent = new Scrape(List.of(
                new Sample("jvm_compilation_time_seconds_total", Map.of(), 9.0, null),
                new Sample("jvmtuning_jit_compiler_cpu_seconds_total", Map.of(), 2.0, null)), 0, List.of());

        assertThat(PodSnapshot.of(agent, 1).service().compilationSeconds()).isEqualTo(2.0);
    }

    @Test
    void theCollectorsCpuIsReadFromTheAgentOnlyNeverFromPauses() {
        Scrape agent = new Scrape(List.of(
                new Sample("jvm_gc_collection_seconds_sum", Map.of("gc", "G1 Young Generation"), 3.0, null),
                new Sample("jvmtuning_gc_cpu_seconds_total", Map.of(), 4.5, null)), 0, List.of());
        Scrape withoutAgent = new Scrape(List.of(new Sample("jvm_gc_pause_seconds_sum", Map.of(), 3.0, null)), 0, List.of());

        assertThat(PodSnapshot.of(agent, 1).service().collectorCpuSeconds()).isEqualTo(4.5);
        assertThat(PodSnapshot.of(withoutAgent, 1).service().collectorCpuSeconds()).isNull();
    }

    @Test
    void p99IsOverThePodsRequestsTogetherAndAbsentWithoutAHistogram() {
        // Pod a: 1000 fast requests (under 10 ms). Pod b: 100 requests, 20 of them between 100 and 200 ms.
        // Together 1100: the 1089th is the 9th of b's 20 slow ones, not a's p99 averaged with b's.
        Map<String, PodSnapshot> before = Map.of("a", served(0, 0, 0, 0), "b", served(0, 0, 0, 0), "c", served(0, 0, 0, 0));
        Map<String, PodSnapshot> after = Map.of("a", served(10_000, 1000, 1000, 1000), "b", served(10_000, 80, 80, 100),
                "c", new PodSnapshot(10_000, 0.0, 0.0, 0.0, 0.0, 14.0, 2.0, 10.0, 200.0, 0.0, 0.5, null, PodSnapshot.Service.NONE));

        Observed o = Window.observe(before, after, null);

        assertThat(o.getP99LatencyMillis()).isCloseTo(145.0, org.assertj.core.api.Assertions.within(1e-9));
        assertThat(Window.observe(Map.of("c", before.get("c")), Map.of("c", after.get("c")), null).getP99LatencyMillis()).isNull();
    }

    private static PodSnapshot served(long at, double under10ms, double under100ms, double all) {
        java.util.TreeMap<Double, Double> buckets = new java.util.TreeMap<>(Map.of(0.01, under10ms, 0.1, under100ms, 0.2, all,
                Double.POSITIVE_INFINITY, all));
        return new PodSnapshot(at, 0.0, 0.0, 0.0, 0.0, 10.0, 2.0, 10.0, 200.0, 0.0, 0.5, null,
                new PodSnapshot.Service(all, all * 0.01, null, null, null, null, null, new LatencyHistogram(buckets), PodSnapshot.Queue.NONE, null, null));
    }

    /** Spring Boot on Undertow with a management port of its own: a second XNIO worker, labelled by the agent. */
    @Test
    void theManagementPortsPoolIsNotTheWorkloads() {
        Scrape undertow = new Scrape(List.of(
                new Sample("jvmtuning_server_threads_busy", Map.of("server", "undertow", "pool", "XNIO-1", "role", "application"), 14, null),
                new Sample("jvmtuning_server_threads_max", Map.of("server", "undertow", "pool", "XNIO-1", "role", "application"), 16, null),
                new Sample("jvmtuning_server_threads_busy", Map.of("server", "undertow", "pool", "XNIO-2", "role", "management"), 1, null),
                new Sample("jvmtuning_server_threads_max", Map.of("server", "undertow", "pool", "XNIO-2", "role", "management"), 16, null),
                new Sample("jvmtuning_server_threads_busy_seconds_total", Map.of("server", "undertow", "pool", "XNIO-1", "role", "application"), 700, 5_000L),
                new Sample("jvmtuning_server_threads_busy_seconds_total", Map.of("server", "undertow", "pool", "XNIO-2", "role", "management"), 50, 9_000L)),
                0, List.of());

        PodSnapshot u = PodSnapshot.of(undertow, 1);

        assertThat(u.busyThreads()).isEqualTo(14);
        assertThat(u.busyThreadSeconds()).isEqualTo(700);
        assertThat(u.busyThreadSecondsAtMillis()).as("when the agent collected the application's sum").isEqualTo(5_000L);
        assertThat(u.maxThreads()).isEqualTo(16);
    }

    /** As Quarkus 3.34 exposes its worker pool (quarkus.thread-pool.max-threads=37, one request in flight); the internal pool is not the server's. */
    @Test
    void snapshotsReadQuarkusWorkerPool() {
        Scrape quarkus = new Scrape(List.of(
                new Sample("worker_pool_active", Map.of("pool_name", "vert.x-worker-thread", "pool_type", "worker"), 1, null),
                new Sample("worker_pool_idle", Map.of("pool_name", "vert.x-worker-thread", "pool_type", "worker"), 36, null),
                new Sample("worker_pool_active", Map.of("pool_name", "vert.x-internal-blocking", "pool_type", "worker"), 2, null),
                new Sample("worker_pool_idle", Map.of("pool_name", "vert.x-internal-blocking", "pool_type", "worker"), 18, null),
                new Sample("agroal_awaiting_count", Map.of("datasource", "default"), 4, null)), 0, List.of());

        PodSnapshot q = PodSnapshot.of(quarkus, 1);

        assertThat(q.busyThreads()).isEqualTo(1);
        assertThat(q.maxThreads()).isEqualTo(37);
        assertThat(q.pendingConnections()).isEqualTo(4);

        // Vert.x's series do not see the requests Quarkus REST runs on the pool; the agent counts them from the JVM's threads.
        List<Sample> withAgent = new java.util.ArrayList<>(quarkus.samples());
        withAgent.add(new Sample("jvmtuning_server_threads_busy", Map.of("server", "quarkus", "pool", "executor", "role", "application"), 30, null));
        PodSnapshot agent = PodSnapshot.of(new Scrape(withAgent, 0, List.of()), 1);
        assertThat(agent.busyThreads()).isEqualTo(30);
        assertThat(agent.maxThreads()).as("the maximum is still Vert.x's").isEqualTo(37);
    }
}
