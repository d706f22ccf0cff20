package dev.jvmtuning.operator.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jvmtuning.operator.model.EffectiveOptions;
import dev.jvmtuning.operator.model.EffectiveOptions.Option;
import dev.jvmtuning.operator.model.EffectiveOptions.Origin;
import dev.jvmtuning.operator.model.MemoryUse;
import dev.jvmtuning.operator.model.NativeMemory;
import dev.jvmtuning.operator.model.ThreadingReport;
import dev.jvmtuning.operator.model.VirtualThreads;
import dev.jvmtuning.operator.model.VirtualThreads.Pinned;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PodReadingTest {
    private static final Set<String> READ = Set.copyOf(PodReading.SERIES);

    private static PodReading read(String exposition) {
        return PodReading.of(PrometheusTextParser.parse(exposition, READ::contains, 100), 0);
    }

    @Test
    void whetherEachJvmRanVirtualThreadsIsCountedOverThePodsThatSay() {
        PodReading ran = read("jvmtuning_virtual_threads_seen 1.0\n");
        PodReading notYet = read("jvmtuning_virtual_threads_seen 0.0\n");
        PodReading silent = read("jvmtuning_available_processors 2\n");

        assertThat(ran.ranVirtualThreads()).isTrue();
        assertThat(notYet.ranVirtualThreads()).isFalse();
        assertThat(silent.ranVirtualThreads()).as("JDK 17, or no agent").isNull();
        assertThat(PodReading.threading(List.of(ran, notYet, silent))).isEqualTo(new ThreadingReport(2, 1));
        assertThat(PodReading.threading(List.of(silent))).isNull();
    }

    @Test
    void theAgentsOptionSeriesBecomeTheJvmsEffectiveOptions() {
        PodReading reading = read("""
                # HELP jvmtuning_vm_option HotSpot option as this JVM runs with it
                # TYPE jvmtuning_vm_option gauge
                jvmtuning_vm_option{option="MaxHeapSize",origin="VM_CREATION"} 6.7108864E7
                jvmtuning_vm_option{option="ThreadStackSize",origin="ENVIRON_VAR"} 512.0
                jvmtuning_vm_option{option="UseG1GC",origin="DEFAULT"} 0.0
                jvmtuning_vm_option{option="UseZGC",origin="A_LATER_ORIGIN"} 1.0
                jvmtuning_vm_option{origin="DEFAULT"} 1.0
                jvmtuning_available_processors 2
                """);

        assertThat(reading.options()).isEqualTo(new EffectiveOptions(Map.of(
                "MaxHeapSize", new Option(64.0 * 1024 * 1024, Origin.VM_CREATION),
                "ThreadStackSize", new Option(512, Origin.ENVIRON_VAR),
                "UseG1GC", new Option(0, Origin.DEFAULT),
                "UseZGC", new Option(1, Origin.OTHER))));
        assertThat(reading.snapshot().cpuLimitCores()).isEqualTo(2.0);
    }

    @Test
    void theJavaVersionIsTheFeatureOfTheRuntimeInfoOfEitherDialect() {
        assertThat(read("""
                # HELP jvm_runtime_info JVM runtime info
                # TYPE jvm_runtime_info gauge
                jvm_runtime_info{runtime="OpenJDK Runtime Environment",vendor="Eclipse Adoptium",version="25.0.3+9"} 1
                """).javaVersion()).as("the Prometheus Java client's (the agent's)").isEqualTo(25);
        assertThat(read("""
                # TYPE jvm_info gauge
                jvm_info{runtime="OpenJDK Runtime Environment",vendor="Eclipse Adoptium",version="21.0.5+11-LTS",} 1.0
                """).javaVersion()).as("Micrometer's").isEqualTo(21);
        assertThat(read("jvm_info{version=\"1.8.0_392-b08\"} 1\n").javaVersion()).isEqualTo(8);
        assertThat(read("jvm_runtime_info{version=\"unknown\"} 1\njvm_info{version=\"17.0.13+11\"} 1\n").javaVersion())
                .as("the first that reads as a version").isEqualTo(17);
        assertThat(read("jvm_runtime_info{vendor=\"x\"} 1\njvm_runtime_info{version=\"garbage\"} 1\n").javaVersion()).isNull();
        assertThat(read("jvm_threads_current 10\n").javaVersion()).isNull();
    }

    @Test
    void theOldestJavaVersionOfThePodsIsPlannedFor() {
        PodReading jdk21 = read("jvm_runtime_info{version=\"21.0.5+11\"} 1\n");
        PodReading jdk25 = read("jvm_runtime_info{version=\"25.0.1+8\"} 1\n");
        PodReading none = read("jvm_threads_current 10\n");

        assertThat(PodReading.oldestJavaVersion(List.of(jdk25, none, jdk21))).isEqualTo(21);
        assertThat(PodReading.oldestJavaVersion(List.of(none, jdk25))).isEqualTo(25);
        assertThat(PodReading.oldestJavaVersion(List.of(none))).isNull();
    }

    @Test
    void theAgentsMemorySeriesAndNativeMemoryTrackingBecomeTheJvmsMemoryUse() {
        PodReading reading = read("""
                jvm_memory_used_bytes{area="heap"} 5954536.0
                jvm_memory_used_bytes{area="nonheap"} 1.0684336E7
                jvm_memory_committed_bytes{area="heap"} 1.34217728E8
                jvm_memory_pool_committed_bytes{pool="Metaspace"} 6356992.0
                jvm_memory_pool_committed_bytes{pool="Compressed Class Space"} 786432.0
                jvm_buffer_pool_used_bytes{pool="direct"} 1.00671488E8
                jvm_buffer_pool_used_bytes{pool="mapped"} 4096.0
                jvm_threads_current 10.0
                process_resident_memory_bytes 1.67288832E8
                jvmtuning_native_memory_bytes{category="Total",kind="committed"} 3.0E8
                jvmtuning_native_memory_bytes{category="Total",kind="reserved"} 1.5E9
                jvmtuning_native_memory_bytes{category="Java Heap",kind="committed"} 1.34217728E8
                jvmtuning_native_memory_bytes{category="Other",kind="committed"} 1.00671488E8
                jvmtuning_native_memory_bytes{category="Other",kind="reserved"} 1.00671488E8
                jvmtuning_native_memory_bytes{kind="committed"} 1.0
                """);

        assertThat(reading.memory()).isEqualTo(new MemoryUse(5954536L, 134217728L, 6356992L, 100671488L, 10L, 167288832L,
                new NativeMemory(Map.of("Java Heap", 134217728L, "Other", 100671488L), 300_000_000L)));
    }

    @Test
    void micrometersMemorySeriesAreReadAndAMissingTotalIsTheCategoriesSum() {
        PodReading reading = read("""
                jvm_memory_used_bytes{area="heap",id="G1 Eden Space"} 1000.0
                jvm_memory_used_bytes{area="heap",id="G1 Old Gen"} 2000.0
                jvm_memory_committed_bytes{area="nonheap",id="Metaspace"} 5000.0
                jvm_buffer_memory_used_bytes{id="direct"} 7000.0
                jvm_threads_live_threads 12.0
                jvmtuning_native_memory_bytes{category="Thread",kind="committed"} 100.0
                jvmtuning_native_memory_bytes{category="Code",kind="committed"} 200.0
                """);

        assertThat(reading.memory()).isEqualTo(new MemoryUse(3000L, null, 5000L, 7000L, 12L, null,
                new NativeMemory(Map.of("Thread", 100L, "Code", 200L), 300)));
    }

    @Test
    void aPodWithoutTheSeriesReportsNoOptionsAndNoMemory() {
        assertThat(read("jvmtuning_available_processors 2\n").memory()).isEqualTo(MemoryUse.NONE);
        assertThat(read("jvmtuning_available_processors 2\n").options()).isEqualTo(EffectiveOptions.NONE);
        assertThat(EffectiveOptions.NONE.reported()).isFalse();
    }

    @Test
    void theAgentsVirtualThreadSeriesBecomePinningByFrameAndTheSchedulersFigures() {
        PodReading reading = read("""
                # TYPE jvmtuning_virtual_thread_pinned counter
                jvmtuning_virtual_thread_pinned_total{frame="com.example.Dao.load"} 12.0
                jvmtuning_virtual_thread_pinned_total{frame="other"} 3.0
                # TYPE jvmtuning_virtual_thread_pinned_seconds counter
                jvmtuning_virtual_thread_pinned_seconds_total{frame="com.example.Dao.load"} 1.5
                jvmtuning_virtual_thread_pinned_seconds_total{frame="other"} 0.25
                jvmtuning_virtual_thread_pinned_seconds_total{frame="com.example.Only.seconds"} 0.5
                jvmtuning_virtual_thread_pinned_total 1.0
                jvmtuning_virtual_thread_scheduler{figure="parallelism"} 4.0
                jvmtuning_virtual_thread_scheduler{figure="queued"} 7.0
                jvmtuning_virtual_thread_scheduler{figure="mounted"} NaN
                """);

        assertThat(reading.virtualThreads()).isEqualTo(new VirtualThreads(
                Map.of("com.example.Dao.load", new Pinned(12, 1.5), "other", new Pinned(3, 0.25), "com.example.Only.seconds", new Pinned(0, 0.5)),
                Map.of("parallelism", 4.0, "queued", 7.0)));
        assertThat(reading.virtualThreads().total()).isEqualTo(new Pinned(15, 2.25));
    }

    @Test
    void aJvmWithoutVirtualThreadsReportsNone() {
        assertThat(read("jvmtuning_available_processors 2\n").virtualThreads()).isEqualTo(VirtualThreads.NONE);
    }

    /** A Spring Boot pod's /actuator/prometheus without the agent: G1 on JDK 17 with -Xmx300m, Tomcat, Hikari. */
    private static final String MICROMETER = """
            # HELP jvm_memory_max_bytes The maximum amount of memory in bytes that can be used for memory management
            # TYPE jvm_memory_max_bytes gauge
            jvm_memory_max_bytes{area="heap",id="G1 Survivor Space"} -1.0
            jvm_memory_max_bytes{area="heap",id="G1 Old Gen"} 3.145728E8
            jvm_memory_max_bytes{area="nonheap",id="Metaspace"} -1.0
            jvm_memory_max_bytes{area="nonheap",id="CodeHeap 'non-nmethods'"} 5828608.0
            jvm_memory_max_bytes{area="heap",id="G1 Eden Space"} -1.0
            jvm_memory_max_bytes{area="nonheap",id="Compressed Class Space"} 1.073741824E9
            # HELP jvm_gc_pause_seconds Time spent in GC pause
            # TYPE jvm_gc_pause_seconds summary
            jvm_gc_pause_seconds_count{action="end of minor GC",cause="G1 Evacuation Pause",gc="G1 Young Generation"} 3
            jvm_gc_pause_seconds_sum{action="end of minor GC",cause="G1 Evacuation Pause",gc="G1 Young Generation"} 0.012
            # HELP tomcat_threads_config_max_threads
            # TYPE tomcat_threads_config_max_threads gauge
            tomcat_threads_config_max_threads{name="http-nio-8080"} 200.0
            # HELP hikaricp_connections_max Max connections
            # TYPE hikaricp_connections_max gauge
            hikaricp_connections_max{pool="HikariPool-1"} 10.0
            """;

    @Test
    void withoutTheAgentTheRuntimesMetricsShowTheHeapTheCollectorAndTheMaxima() {
        EffectiveOptions options = read(MICROMETER).options();

        assertThat(options.fromRuntimeMetrics()).isTrue();
        assertThat(options.options()).containsEntry("MaxHeapSize", new Option(314_572_800, Origin.RUNTIME_METRICS))
                .containsEntry("UseG1GC", new Option(1, Origin.RUNTIME_METRICS))
                .containsEntry("UseParallelGC", new Option(0, Origin.RUNTIME_METRICS))
                .containsEntry("threads.max", new Option(200, Origin.RUNTIME_METRICS))
                .containsEntry("connectionPool.maxSize", new Option(10, Origin.RUNTIME_METRICS));
    }

    @Test
    void jettysMaximumWhenNoTomcatsAndNoneFromTwoConnectors() {
        assertThat(read("jetty_threads_config_max 48.0\n").options().option("threads.max")).contains(new Option(48, Origin.RUNTIME_METRICS));
        assertThat(read("""
                tomcat_threads_config_max_threads{name="http-nio-8080"} 200.0
                tomcat_threads_config_max_threads{name="http-nio-8081"} 200.0
                hikaricp_connections_max{pool="HikariPool-1"} 10.0
                """).options().shows("threads.max")).isFalse();
    }

    @Test
    void theAgentsReportWinsOverTheRuntimesMetrics() {
        EffectiveOptions options = read(MICROMETER + "jvmtuning_vm_option{option=\"MaxHeapSize\",origin=\"VM_CREATION\"} 6.7108864E7\n").options();

        assertThat(options).isEqualTo(new EffectiveOptions(Map.of("MaxHeapSize", new Option(64.0 * 1024 * 1024, Origin.VM_CREATION))));
    }
}
