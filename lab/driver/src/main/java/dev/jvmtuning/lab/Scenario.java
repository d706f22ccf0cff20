package dev.jvmtuning.lab;

import dev.jvmtuning.operator.api.v1alpha1.Runtime;
import dev.jvmtuning.operator.api.v1alpha1.ThreadingModel;
import dev.jvmtuning.operator.api.v1alpha1.Workload;
import dev.jvmtuning.operator.model.ServerVocabulary;
import dev.jvmtuning.operator.model.Setting;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * One workload shape sized to a container of 1 CPU (of a 2-core machine: the load generator has the other): what each request costs (the query of
 * GET /work), how many closed-loop clients drive it, the container's limits, the figures a team
 * would write into the profile, and the knobs the exhaustive search sweeps.
 *
 * @param runtime the server stack of the workload app the scenario runs (and the profile's runtime)
 * @param nominal the profile's workload: the target rate (the clients' rate if every request took its
 *                nominal time) and the handler's own costs as its authors know them
 * @param sweeps  searched one after the other, each from the best setting found so far (the first from the defaults)
 * @param service what the service is before any tuning, in every setting the scenario runs
 */
record Scenario(String name, Runtime runtime, String shape, String query, int clients, double cpus, String memory, int liveSetMb,
        Workload nominal, boolean usesConnectionPool, List<Sweep> sweeps, Service service) {

    /** A service on platform threads, on the Java release the lab itself runs on. */
    Scenario(String name, Runtime runtime, String shape, String query, int clients, double cpus, String memory, int liveSetMb,
            Workload nominal, boolean usesConnectionPool, List<Sweep> sweeps) {
        this(name, runtime, shape, query, clients, cpus, memory, liveSetMb, nominal, usesConnectionPool, sweeps, Service.PLATFORM);
    }

    /**
     * The service as its team ships it: the Java release it runs on, what runs its requests (the profile says so), the
     * connection pool's size where the database fixes it (the profile states it), and the environment it always has.
     */
    record Service(int java, ThreadingModel threading, Integer poolMaxSize, Map<String, String> environment) {
        static final Service PLATFORM = new Service(17, ThreadingModel.Platform, null, Map.of());

        /**
         * Spring Boot on virtual threads with HikariCP's 10 connections, all the database grants, failing a request
         * that waits 250 ms for one (HikariCP's shortest timeout) instead of 30 s.
         */
        static Service springOnVirtualThreads(int java) {
            return new Service(java, ThreadingModel.Virtual, 10, Map.of("SPRING_THREADS_VIRTUAL_ENABLED", "true",
                    "SPRING_DATASOURCE_HIKARI_MAXIMUMPOOLSIZE", "10", "SPRING_DATASOURCE_HIKARI_CONNECTIONTIMEOUT", "250"));
        }

        /**
         * The same on Jetty, whose virtual-thread pool runs its selectors on virtual threads too: each holds a carrier while it
         * waits for I/O, so the team gives the scheduler one carrier for each of the two servers' selectors beside the one for
         * the requests (R20). With the default single carrier the service stops accepting once the selectors hold it.
         */
        static Service jettyOnVirtualThreads(int java) {
            Service spring = springOnVirtualThreads(java);
            Map<String, String> environment = new HashMap<>(spring.environment());
            environment.put("JDK_JAVA_OPTIONS", "-Djdk.virtualThreadScheduler.parallelism=3");
            return new Service(java, spring.threading(), spring.poolMaxSize(), Map.copyOf(environment));
        }
    }

    /** A knob and the values the search tries; env turns a value into the variables that set it. */
    record Sweep(String knob, List<String> values, Function<String, Map<String, String>> env) {
    }

    static Sweep threads(Runtime runtime, List<Integer> values) {
        return setting("max threads", runtime, Setting.THREADS_MAX, values);
    }

    static Sweep poolSize(Runtime runtime, List<Integer> values) {
        return setting("pool size", runtime, Setting.POOL_MAX_SIZE, values);
    }

    static Sweep connectionLimit(Runtime runtime, List<Integer> values) {
        return setting("connection limit", runtime, Setting.QUEUE_MAX_CONNECTIONS, values);
    }

    /** The variable the product renders for this setting on this runtime, so the sweep and the planner set the same knob. */
    private static Sweep setting(String knob, Runtime runtime, Setting setting, List<Integer> values) {
        ServerVocabulary vocabulary = ServerVocabulary.of(runtime);
        String variable = vocabulary.environmentVariable(vocabulary.properties().get(setting));
        return new Sweep(knob, values.stream().map(String::valueOf).toList(), v -> Map.of(variable, v));
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

    private static final Runtime TOMCAT = Runtime.SpringBootTomcat;
    private static final Runtime JETTY = Runtime.SpringBootJetty;
    private static final Runtime UNDERTOW = Runtime.SpringBootUndertow;
    private static final Runtime QUARKUS = Runtime.Quarkus;
    private static final String VT_POOL_BOUND = "pool-bound on virtual threads, twice overloaded: a pooled connection (10, all the database "
            + "grants) held 100 ms, then 20 ms more work, 74 clients";
    private static final String VT_POOL_QUERY = "/work?dbMs=100&sleepMinMs=20&sleepMaxMs=20&allocKb=16";
    private static final Workload VT_POOL_WORKLOAD = workload(74 / 0.120, "120ms", null, "100ms").setMaxQueueWait("250ms");
    private static final List<Integer> VT_LIMITS = List.of(10, 20, 40, 80);

    static final List<Scenario> ALL = List.of(
            new Scenario("io-bound", TOMCAT, "an I/O-bound handler: a 100-500 ms blocking call per request, almost no CPU",
                    "/work?sleepMinMs=100&sleepMaxMs=500&allocKb=16", 1000, 1, "1Gi", 0,
                    workload(1000 / 0.3, "300ms", null, null), false,
                    List.of(threads(TOMCAT, List.of(100, 400, 800, 1600)))),
            new Scenario("cpu-bound", TOMCAT, "a CPU-bound handler on Tomcat: 10 ms of CPU per request, no waiting",
                    "/work?cpuMs=10&allocKb=16", 100, 1, "512Mi", 0,
                    workload(100 / 0.010, "10ms", "10ms", null), false,
                    List.of(threads(TOMCAT, List.of(1, 2, 4)))),
            new Scenario("mixed", TOMCAT, "2 ms of CPU and a 40-60 ms blocking call per request",
                    "/work?cpuMs=2&sleepMinMs=40&sleepMaxMs=60&allocKb=64", 300, 1, "768Mi", 0,
                    workload(300 / 0.052, "52ms", "2ms", null), false,
                    List.of(threads(TOMCAT, List.of(25, 50, 100, 400)))),
            new Scenario("allocation-heavy", TOMCAT, "2 MiB of garbage, 1 ms of CPU and a 10 ms wait per request; 64 MiB live set in a 512Mi container",
                    "/work?allocKb=2048&cpuMs=1&sleepMinMs=10&sleepMaxMs=10", 50, 1, "512Mi", 64,
                    workload(50 / 0.011, "11ms", "1ms", null).setAllocationPerRequest("2Mi"), false,
                    // The collectors again at the best thread count: at 200 threads the garbage in flight overflows any survivor space.
                    List.of(heapAndCollector(List.of("256m Parallel", "320m Parallel")), threads(TOMCAT, List.of(5, 10, 20, 50)),
                            heapAndCollector(List.of("320m Serial", "256m G1")))),
            new Scenario("pool-bound", TOMCAT, "a pool-bound handler: a pooled connection held 100 ms by a slow query, then 20 ms more work",
                    "/work?dbMs=100&sleepMinMs=20&sleepMaxMs=20&allocKb=16", 120, 1, "1Gi", 0,
                    workload(120 / 0.120, "120ms", null, "100ms"), true,
                    List.of(poolSize(TOMCAT, List.of(40, 160)), threads(TOMCAT, List.of(50, 400)))),
            new Scenario("quarkus-pool-bound", QUARKUS, "pool-bound on Quarkus: a pooled Agroal connection held 50 ms, then 10 ms more work, 1 ms CPU",
                    "/work?dbMs=50&sleepMinMs=10&sleepMaxMs=10&cpuMs=1&allocKb=16", 200, 1, "768Mi", 0,
                    workload(200 / 0.061, "61ms", "1ms", "50ms"), true,
                    List.of(poolSize(QUARKUS, List.of(10, 40, 160)), threads(QUARKUS, List.of(40, 200, 400)))),
            new Scenario("jetty-mixed", JETTY, "mixed on Jetty: 2 ms of CPU and a 40-60 ms blocking call per request",
                    "/work?cpuMs=2&sleepMinMs=40&sleepMaxMs=60&allocKb=64", 300, 1, "768Mi", 0,
                    workload(300 / 0.052, "52ms", "2ms", null), false,
                    List.of(threads(JETTY, List.of(10, 25, 50, 400)))),
            new Scenario("undertow-mixed", UNDERTOW, "mixed on Undertow: 2 ms of CPU and a 40-60 ms blocking call per request",
                    "/work?cpuMs=2&sleepMinMs=40&sleepMaxMs=60&allocKb=64", 300, 1, "768Mi", 0,
                    workload(300 / 0.052, "52ms", "2ms", null), false,
                    List.of(threads(UNDERTOW, List.of(10, 25, 50, 400)))),
            // Virtual threads in front of a pool the database fixes at 10 connections, each held 100 ms: the pool serves 100 req/s,
            // 12 in flight at 120 ms. 74 clients are twice what a 250 ms wait for a connection lets in flight (100/s x 370 ms):
            // unbounded, every request gets a virtual thread and queues for a connection until HikariCP times it out.
            new Scenario("vt-pool-bound", TOMCAT, VT_POOL_BOUND, VT_POOL_QUERY, 74, 1, "1Gi", 0, VT_POOL_WORKLOAD, true,
                    List.of(connectionLimit(TOMCAT, VT_LIMITS)), Service.springOnVirtualThreads(21)),
            new Scenario("vt-jetty-pool-bound", JETTY, VT_POOL_BOUND + " on Jetty", VT_POOL_QUERY, 74, 1, "1Gi", 0, VT_POOL_WORKLOAD, true,
                    List.of(connectionLimit(JETTY, VT_LIMITS)), Service.jettyOnVirtualThreads(21)),
            new Scenario("vt-pool-bound-jdk25", TOMCAT, VT_POOL_BOUND + " on JDK 25", VT_POOL_QUERY, 74, 1, "1Gi", 0, VT_POOL_WORKLOAD, true,
                    List.of(connectionLimit(TOMCAT, VT_LIMITS)), Service.springOnVirtualThreads(25)),
            // Offered load far above capacity (5 ms of CPU on 1 CPU: ~200 req/s, 1000 clients): an unbounded queue makes every
            // request wait; a bound rejects the excess at once. The profile states the capacity as its rate and a 100 ms
            // workload.maxQueueWait, from which the planner renders the bound: on Quarkus at the connections
            // (quarkus.http.limits.max-connections), as a worker-queue bound would reject the metrics scrape with the load.
            new Scenario("overload", QUARKUS, "overload on Quarkus: 1000 clients, 5 ms of CPU and a 20 ms wait per request on 1 CPU",
                    "/work?cpuMs=5&sleepMinMs=20&sleepMaxMs=20&allocKb=16", 1000, 1, "768Mi", 0,
                    workload(200, "25ms", "5ms", null).setMaxQueueWait("100ms"), false,
                    List.of(connectionLimit(QUARKUS, List.of(20, 50, 200)))));
}
