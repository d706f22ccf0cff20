package dev.jvmtuning.lab;

import dev.jvmtuning.operator.api.v1alpha1.Workload;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * One workload shape sized to a container of 1 CPU (of a 2-core machine: the load generator has the other): what each request costs (the query of
 * GET /work), how many closed-loop clients drive it, the container's limits, the figures a team
 * would write into the profile, and the knobs the exhaustive search sweeps.
 *
 * @param nominal the profile's workload: the target rate (the clients' rate if every request took its
 *                nominal time) and the handler's own costs as its authors know them
 * @param sweeps  searched one after the other, each from the best setting found so far (the first from the defaults)
 */
record Scenario(String name, String shape, String query, int clients, double cpus, String memory, int liveSetMb,
        Workload nominal, boolean usesConnectionPool, List<Sweep> sweeps) {

    /** A knob and the values the search tries; env turns a value into the variables that set it. */
    record Sweep(String knob, List<String> values, Function<String, Map<String, String>> env) {
    }

    static Sweep threads(List<Integer> values) {
        return new Sweep("max threads", values.stream().map(String::valueOf).toList(), v -> Map.of("SERVER_TOMCAT_THREADS_MAX", v));
    }

    static Sweep poolSize(List<Integer> values) {
        return new Sweep("pool size", values.stream().map(String::valueOf).toList(),
                v -> Map.of("SPRING_DATASOURCE_HIKARI_MAXIMUMPOOLSIZE", v));
    }

    /** Values like "256m Parallel": a fixed heap (Xms = Xmx) and a collector. */
    static Sweep heapAndCollector(List<String> values) {
        return new Sweep("heap, collector", values, v -> {
            String[] heapAndGc = v.split(" ");
            return Map.of("JAVA_TOOL_OPTIONS", "-Xms" + heapAndGc[0] + " -Xmx" + heapAndGc[0] + " -XX:+Use" + heapAndGc[1] + "GC");
        });
    }

    static Workload workload(double rate, String latency, String cpu, String db) {
        return new Workload().setRequestsPerSecond(rate).setMeanLatency(latency).setCpuPerRequest(cpu).setDbTimePerRequest(db);
    }

    static final List<Scenario> ALL = List.of(
            new Scenario("io-bound", "an I/O-bound handler: a 100-500 ms blocking call per request, almost no CPU",
                    "/work?sleepMinMs=100&sleepMaxMs=500&allocKb=16", 1000, 1, "1Gi", 0,
                    workload(1000 / 0.3, "300ms", null, null), false,
                    List.of(threads(List.of(100, 400, 800, 1600)))),
            new Scenario("cpu-bound", "a CPU-bound handler on Tomcat: 10 ms of CPU per request, no waiting",
                    "/work?cpuMs=10&allocKb=16", 100, 1, "512Mi", 0,
                    workload(100 / 0.010, "10ms", "10ms", null), false,
                    List.of(threads(List.of(1, 2, 4)))),
            new Scenario("mixed", "2 ms of CPU and a 40-60 ms blocking call per request",
                    "/work?cpuMs=2&sleepMinMs=40&sleepMaxMs=60&allocKb=64", 300, 1, "768Mi", 0,
                    workload(300 / 0.052, "52ms", "2ms", null), false,
                    List.of(threads(List.of(25, 50, 100, 400)))),
            new Scenario("allocation-heavy", "2 MiB of garbage, 1 ms of CPU and a 10 ms wait per request; 64 MiB live set in a 512Mi container",
                    "/work?allocKb=2048&cpuMs=1&sleepMinMs=10&sleepMaxMs=10", 50, 1, "512Mi", 64,
                    workload(50 / 0.011, "11ms", "1ms", null), false,
                    List.of(heapAndCollector(List.of("256m Parallel", "256m G1", "320m Parallel")),
                            threads(List.of(10, 50)))),
            new Scenario("pool-bound", "a pool-bound handler: a pooled connection held 100 ms by a slow query, then 20 ms more work",
                    "/work?dbMs=100&sleepMinMs=20&sleepMaxMs=20&allocKb=16", 120, 1, "1Gi", 0,
                    workload(120 / 0.120, "120ms", null, "100ms"), true,
                    List.of(poolSize(List.of(40, 160)), threads(List.of(50, 400)))));
}
