package dev.jvmtuning.operator.model;

/**
 * The tuning rules the planner and the pressure detector cite, as shown in
 * {@code status.settings[].rule}. Each constant carries a short summary with its key figure; the full
 * rules, the measurements behind them and where the operator applies them are in
 * {@code docs/explanation/tuning-rules.md}.
 */
public enum Rule {
    R1("R1", "Little's law",
            "Workers needed = arrival rate x mean time in the server (N = lambda x W), plus 25 % headroom. "
                    + "Lab: 200 workers at 0.3 s per request served 668 req/s (200 / 0.3 s); 800 workers served 2344."),
    R2("R2", "CPU saturation cap",
            "C cores are saturated by C x W / c threads (c = CPU seconds per request); beyond 1.5 x that, threads only add "
                    + "context switches. A pure-CPU Jetty handler on 4 cores peaked at 6 threads (~20,000 req/s)."),
    R3("R3", "Smaller of R1 and R2, within memory",
            "Take the CPU cap when Little's figure is larger, and cut derived threads so their stacks fit the memory limit. "
                    + "A DB-bound Tomcat on 4 cores gave ~725 req/s at 150, 500, 1000 and 5000 threads alike."),
    R4("R4", "Pool state from metrics",
            "All workers busy with idle CPUs: raise threads; CPUs saturated with heavy switching: lower them; threads "
                    + "climbing at flat CPU: a slower downstream. Waits of 2/4/6 s at 100 req/s held ~250/420/620 threads."),
    R5("R5", "Warm minimum threads",
            "Keep the steady concurrency lambda x W as the pool's minimum so it does not shrink and regrow under load; "
                    + "Spring Boot's Tomcat keeps only 10 spare threads by default."),
    R6("R6", "Accept backlog and somaxconn",
            "acceptCount is the listen backlog, capped by net.core.somaxconn (128 before Linux 5.4, 4096 after); past it "
                    + "connections are reset. Planned as one second of arrivals, between 100 and 4096."),
    R7("R7", "Bounded request queue",
            "Queue bound = arrival rate x longest acceptable wait (100 req/s x 60 s = 6000). A queue of 100 behind 500 "
                    + "Tomcat threads raised throughput from ~725 to 1359 req/s at the cost of 43 % rejections."),
    R8("R8", "Connection pool covers database concurrency",
            "Pool >= arrival rate x time holding a connection, and pool x replicas under the database's limit. "
                    + "Ten connections for 5 s queries capped a service at 1.96 req/s; 100 connections gave 12.31."),
    R9("R9", "Memory budget",
            "Heap = memory limit - (metaspace + code cache + thread stacks + direct memory + JVM overhead); a heap that "
                    + "does not fit makes the plan Infeasible instead of an OOM-killed pod."),
    R9A("R9a", "Committed thread stacks",
            "Stacks are reserved at -Xss (1 MiB) but committed lazily: RSS grew ~230 KiB per busy worker "
                    + "(~435 MiB at ~220 threads, ~905 MiB at ~2,260), so the budget counts 256 KiB per thread."),
    R9B("R9b", "An OOM kill answered",
            "After a kernel OOM kill with a known cause, the part that ran over gets max(1.25 x its size at the kill, 1.5 x its "
                    + "budget) and the heap gives way, down to 32 MiB; direct memory is capped there, malloc arenas cut to 2. "
                    + "At most three answers in a row without a healthy rollout; a budget that cannot fit is Infeasible."),
    R9C("R9c", "The container sized around the JVM",
            "With spec.sizing: the heap is heap.size, else three times the live heap after a collection, and the memory limit "
                    + "holds it beside the JVM's native memory (R9) with 10 % headroom, within sizing.memory's bounds; the request "
                    + "equals the limit. The CPU request is requests per second x CPU per request plus 25 %."),
    R10("R10", "Fixed heap size",
            "Initial heap = maximum heap: no resizing pauses, and the memory is claimed at start; explicit sizes "
                    + "instead of the JVM's default quarter of the limit."),
    R10A("R10a", "Soft heap target for a self-sizing collector",
            "ZGC sizes its heap itself: -Xmx is the ceiling the budget allows and -XX:SoftMaxHeapSize 90 % of it (ZGC's own "
                    + "choice when it sizes the heap), which ZGC collects to stay under and exceeds only rather than stall allocation; "
                    + "-Xms is not pinned, so the heap is committed as it is needed rather than all at start."),
    R11("R11", "OutOfMemoryError kinds",
            "Tell apart heap space, GC overhead limit exceeded (98 % of time in GC freeing under 2 %), metaspace, "
                    + "unable to create native thread, and direct buffer memory: each has a different fix."),
    R12("R12", "Generation sizing",
            "G1 gets a heap size and a pause goal and sizes its young generation itself; Parallel and Serial get 40 % of "
                    + "the heap as young generation. A too-small young generation cost 100 minor and 7 full GCs in one test."),
    R12A("R12a", "In-flight garbage fits a survivor space",
            "Threads x half the heap one request allocates must fit a survivor space (a tenth of the young generation), else "
                    + "live request data is promoted early. Lab, 2 MiB per request in 512 MiB: 10 threads 499 req/s, 33 threads 207."),
    R13("R13", "Explicit collector choice",
            "Below 2 CPUs or 1792 MB the JVM silently picks Serial, so the collector is chosen: ZGC from 4 GiB of heap on "
                    + "JDK 17+; without a pause goal Serial on 1 CPU and Parallel on 2; otherwise G1."),
    R14("R14", "Container CPU count",
            "Set -XX:ActiveProcessorCount from the CPU limit (else the request): since JDK 19 / 17.0.5 the JVM ignores CPU "
                    + "shares and sizes GC and JIT threads for the node. ConcGCThreads above ParallelGCThreads stops the JVM."),
    R15("R15", "GC pressure and leaks",
            "GC above ~10 % of wall time or heap over 90 % full after GC means too small a heap; after-GC occupancy that "
                    + "keeps rising means a leak. -Xmx32m paused 55.6 s in total where -Xmx2048m paused 3.05 s."),
    R16("R16", "CFS throttling",
            "Throttled CFS periods above 25 % of all periods starve request and GC threads alike: raise the CPU limit "
                    + "or run fewer threads."),
    R17("R17", "Context switches inside the pod",
            "Involuntary switches per CPU per second and run-queue delay are only readable inside the pod (/proc task "
                    + "status and schedstat). At 200 threads on 2 CPUs, 643 of 669 ms per request were waits for a CPU."),
    R18("R18", "Connection limit on virtual threads",
            "On virtual threads no worker pool bounds the requests in flight, so the connection limit does: what the CPUs "
                    + "(C / c req/s) and the connection pool (pool / t_db req/s) can serve, times the latency plus the longest allowed wait."),
    R19("R19", "Connection timeout twice the queue wait",
            "On virtual threads every request in flight can queue on the connection pool; a connection timeout of twice the "
                    + "longest acceptable wait, the most the connection limit lets a request wait, rejects overload at once instead of after "
                    + "HikariCP's default 30 s, and leaves alone the waits the limit allows."),
    R20("R20", "Carrier threads = CPUs",
            "Virtual threads run on a scheduler with one carrier per CPU (jdk.virtualThreadScheduler.parallelism); sized for "
                    + "the container's CPUs, not the node's, as -XX:ActiveProcessorCount tells it. More carriers only add switches. "
                    + "On Jetty's virtual-thread pool each selector holds a carrier while it waits for I/O: one more per selector."),
    R21("R21", "Compact object headers on JDK 25+",
            "-XX:+UseCompactObjectHeaders (product in JDK 25) cuts object headers from 12 to 8 bytes. Lab, JDK 25, Spring Boot "
                    + "service: live heap after a full GC 21.7 -> 20.0 MiB under G1 (-7.7 %, 95 % CI -8.4 to -7.0 %), no throughput loss "
                    + "shown. Only where the JDK is known to be 25+ and no AOT cache or CDS archive was made under the other setting."),
    /** Not a rule: the profile, its jvmOptions or the container's own JVM flags fixed the value, so status shows where it came from. */
    SPEC("spec", "Set by the user",
            "The value was set in the TuningProfile, its jvmOptions, or the container's own JVM flags (its JVM options "
                    + "variables, command or args), which the plan keeps rather than render a second value beside; no rule derived it.");

    private final String id;
    private final String title;
    private final String text;

    Rule(String id, String title, String text) {
        this.id = id;
        this.title = title;
        this.text = text;
    }

    /** The string shown in status, e.g. "R1", "R9a" or "spec"; differs from {@link #name()} for R9a and spec. */
    public String id() {
        return id;
    }

    public String title() {
        return title;
    }

    public String text() {
        return text;
    }
}
