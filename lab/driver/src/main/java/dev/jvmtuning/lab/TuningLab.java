package dev.jvmtuning.lab;

import dev.jvmtuning.lab.harness.ClosedLoopLoad;
import dev.jvmtuning.lab.harness.Container;
import dev.jvmtuning.lab.harness.LabApp;
import dev.jvmtuning.operator.api.v1alpha1.Auto;
import dev.jvmtuning.operator.api.v1alpha1.AutoIteration;
import dev.jvmtuning.operator.api.v1alpha1.AutoSettings;
import dev.jvmtuning.operator.api.v1alpha1.AutoStatus;
import dev.jvmtuning.operator.api.v1alpha1.ConnectionPool;
import dev.jvmtuning.operator.api.v1alpha1.Mode;
import dev.jvmtuning.operator.api.v1alpha1.Observed;
import dev.jvmtuning.operator.api.v1alpha1.Runtime;
import dev.jvmtuning.operator.api.v1alpha1.TargetRef;
import dev.jvmtuning.operator.api.v1alpha1.Threads;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfileSpec;
import dev.jvmtuning.operator.api.v1alpha1.Workload;
import dev.jvmtuning.operator.auto.AutoLoop;
import dev.jvmtuning.operator.auto.MeasuredReplan;
import dev.jvmtuning.operator.auto.Overlay;
import dev.jvmtuning.operator.auto.Replanner;
import dev.jvmtuning.operator.flags.FlagPolicy;
import dev.jvmtuning.operator.metrics.MetricsEndpoint;
import dev.jvmtuning.operator.metrics.PodSnapshot;
import dev.jvmtuning.operator.metrics.PrometheusTextParser;
import dev.jvmtuning.operator.metrics.Sample;
import dev.jvmtuning.operator.metrics.Scrape;
import dev.jvmtuning.operator.metrics.Window;
import dev.jvmtuning.operator.model.ContainerFacts;
import dev.jvmtuning.operator.planner.ObservedWorkload;
import dev.jvmtuning.operator.planner.PlanResult;
import dev.jvmtuning.operator.planner.Planner;
import dev.jvmtuning.operator.model.Units;
import dev.jvmtuning.operator.render.Renderer;
import dev.jvmtuning.operator.render.Rendering;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The tuning lab: for each scenario, the workload app runs as a real process in a container's
 * limits with the defaults, with every point of an exhaustive sweep, with the planner's settings
 * from the scenario's figures, and with the closed loop's settings (defaults, observe, plan; twice).
 * The load is closed-loop HTTP on loopback. Writes RESULTS.md, runs.csv and a plot per scenario.
 *
 * <p>Usage: TuningLab RESULTS_DIR [SCENARIO ...], with -Dlab.app, -Dlab.app.SpringBootJetty and
 * -Dlab.app.Quarkus naming the workload jars (Tomcat, Jetty, Quarkus) and -Dlab.agent the agent jar.
 */
public final class TuningLab {
    private static final int WARMUP_SECONDS = Integer.getInteger("lab.warmup-seconds", 8);
    private static final int RUN_SECONDS = Integer.getInteger("lab.run-seconds", 5);
    private static final int RUNS = Integer.getInteger("lab.runs", 3);
    /** A run during which the hypervisor gave more than this share of the CPU to other guests measures the VM, not the settings. */
    private static final double MAX_STEAL_PERCENT = 20;
    private static final int MAX_DISCARDED_RUNS = 3;
    static final double AUTO_TARGET = 0.95;
    static final int STABLE_ITERATIONS = 5;
    private static final int MAX_AUTO_ITERATIONS = Integer.getInteger("lab.auto-iterations", 8);

    /** What one scenario produced. {@code best} is the sweep's (defaults included) highest median throughput. */
    record ScenarioResult(Scenario scenario, Measurement defaults, List<Measurement> sweep, Measurement best, Measurement planner,
            Measurement loop1, Measurement loop2, AutoRun auto, List<String> notes) {
    }

    /**
     * Mode Auto's loop from the defaults: the setting measured at each iteration (the defaults first),
     * the first iteration at 0.95 of the best or better (null: never), and whether the loop then kept
     * its settings for {@link #STABLE_ITERATIONS} more iterations.
     */
    record AutoRun(List<Measurement> iterations, Integer iterationsTo95, boolean stable) {
    }

    private final Path appJar;
    private final Path agentJar;
    private final Path logs;

    /** {@code appJar}: the Tomcat app; the other runtimes' jars come from -Dlab.app.RUNTIME. */
    private TuningLab(Path appJar, Path agentJar, Path logs) {
        this.appJar = appJar;
        this.agentJar = agentJar;
        this.logs = logs;
    }

    public static void main(String[] args) throws Exception {
        List<String> names = Scenario.ALL.stream().map(Scenario::name).toList();
        if (args.length < 1) {
            System.err.println("usage: TuningLab RESULTS_DIR [SCENARIO ...]; scenarios: " + names);
            System.exit(2);
        }
        Path results = Path.of(args[0]);
        List<String> chosen = List.of(args).subList(1, args.length);
        // Checked before anything runs: an unknown name would otherwise be skipped without a word, after minutes spent on the others.
        List<String> unknown = chosen.stream().filter(name -> !names.contains(name)).toList();
        if (!unknown.isEmpty()) {
            System.err.println("unknown scenario " + String.join(", ", unknown) + "; scenarios: " + names);
            System.exit(2);
        }
        List<Scenario> scenarios = Scenario.ALL.stream().filter(s -> chosen.isEmpty() || chosen.contains(s.name())).toList();
        Path logs = Files.createDirectories(Path.of(System.getProperty("lab.logs", "target/lab-logs")));
        TuningLab lab = new TuningLab(Path.of(System.getProperty("lab.app")), Path.of(System.getProperty("lab.agent")), logs);
        long start = System.nanoTime();
        List<ScenarioResult> done = new ArrayList<>();
        for (Scenario scenario : scenarios) {
            done.add(lab.run(scenario));
            LabReport.write(results, done, RUNS, RUN_SECONDS, WARMUP_SECONDS, (System.nanoTime() - start) / 1e9, lab.appJar);
        }
        System.out.println(Files.readString(results.resolve("RESULTS.md")));
    }

    ScenarioResult run(Scenario scenario) throws IOException, InterruptedException {
        log("== " + scenario.name() + ": " + scenario.shape());
        Container container = Container.withLimits(scenario.cpus(), Units.bytes(scenario.memory()));
        Map<Map<String, String>, Measurement> measured = new HashMap<>();
        List<String> notes = new ArrayList<>();

        Measurement defaults = measure(scenario, container, measured, "default", "defaults", Map.of());
        List<Measurement> sweep = new ArrayList<>();
        Measurement best = defaults;
        for (Scenario.Sweep knob : scenario.sweeps()) {
            for (String value : knob.values()) {
                Map<String, String> env = new LinkedHashMap<>(best.env());
                env.putAll(knob.env().apply(value));
                sweep.add(measure(scenario, container, measured, "sweep", knob.knob() + " " + value, env));
            }
            best = Stream.concat(Stream.of(defaults), sweep.stream()).filter(m -> m.failure() == null)
                    .max(Comparator.comparingDouble(Measurement::throughput)).orElse(defaults);
        }

        Measurement planner = planned(scenario, container, measured, "planner", scenario.nominal(), notes);
        Measurement loop1 = closedLoop(scenario, container, measured, "loop 1", defaults, notes);
        Measurement loop2 = closedLoop(scenario, container, measured, "loop 2", loop1, notes);
        AutoRun auto = auto(scenario, container, measured, defaults, best, notes);
        return new ScenarioResult(scenario, defaults, sweep, best, planner, loop1, loop2, auto, notes);
    }

    /** Defaults (or the last iteration) -> observe -> plan: the operator's own window and estimate (as in its recommendations), then the planner. */
    private Measurement closedLoop(Scenario scenario, Container container, Map<Map<String, String>, Measurement> measured, String origin,
            Measurement previous, List<String> notes) throws IOException, InterruptedException {
        Optional<Workload> estimate = ObservedWorkload.remeasure(scenario.nominal(), previous.observed());
        if (estimate.isEmpty()) {
            notes.add(origin + ": nothing to plan from, the previous run observed no requests");
            return Measurement.failed(origin, origin, Map.of(), "no observation");
        }
        notes.add(origin + " observed with " + previous.label() + ": " + describe(previous.observed()));
        return planned(scenario, container, measured, origin, estimate.get(), notes);
    }

    /**
     * Mode Auto's own classes driven by the lab's windows: each iteration the loop sees the last
     * setting's measured window (after its rollout and warm-up, as one observation window), judges its
     * last step, and re-plans within its defaults; the lab then measures the settings the loop chose.
     */
    private AutoRun auto(Scenario scenario, Container container, Map<Map<String, String>, Measurement> measured, Measurement defaults,
            Measurement best, List<String> notes) throws IOException, InterruptedException {
        TuningProfileSpec spec = new TuningProfileSpec().setTargetRef(new TargetRef().setName(scenario.name()))
                .setRuntime(scenario.runtime()).setMode(Mode.Auto).setWorkload(new Workload()
                        .setRequestsPerSecond(scenario.nominal().getRequestsPerSecond()))
                .setAuto(new Auto().setMinInterval("0s").setWarmUp("0s").setObservationWindows(1));
        ContainerFacts facts = facts(scenario);
        Replanner replanner = new MeasuredReplan(spec, facts, FlagPolicy.standard());
        Instant now = Instant.parse("2026-01-01T00:00:00Z");
        AutoStatus status = AutoLoop.decide(new AutoLoop.Input(spec.getAuto(), null, new AutoSettings(), null, null, null, replanner, now)).status();
        List<Measurement> iterations = new ArrayList<>(List.of(defaults));
        Measurement current = defaults;
        Integer reached = current.throughput() >= AUTO_TARGET * best.throughput() ? 0 : null;
        int unchangedSince = 0;
        for (int i = 1; i <= MAX_AUTO_ITERATIONS && current.observed() != null && (reached == null || unchangedSince < STABLE_ITERATIONS); i++) {
            now = now.plusSeconds(60);
            Observed window = current.observed().setEnd(now.toString()).setWindow("30s");
            Measurement.Effective e = current.effective();
            AutoSettings inForce = new AutoSettings(e.maxThreads(), e.poolSize(), null);
            AutoStatus next = AutoLoop.decide(new AutoLoop.Input(spec.getAuto(), status, inForce, now.minusSeconds(50), null, window, replanner, now))
                    .status();
            boolean changed = !next.getSettings().equals(status.getSettings());
            status = next;
            unchangedSince = changed ? 0 : unchangedSince + 1;
            AutoIteration last = status.getHistory().isEmpty() ? null : status.getHistory().get(status.getHistory().size() - 1);
            notes.add("auto " + i + ": " + status.getState() + (last == null ? "" : ", iteration " + last.getIteration() + " " + last.getVerdict()
                    + ": " + last.getReason()));
            if (changed) {
                current = planned(scenario, container, measured, "auto " + i, Overlay.spec(spec, status), notes);
            }
            iterations.add(current);
            if (reached == null && current.failure() == null && current.throughput() >= AUTO_TARGET * best.throughput()) {
                reached = i;
                unchangedSince = 0;
            }
        }
        return new AutoRun(iterations, reached, reached != null && unchangedSince >= STABLE_ITERATIONS);
    }

    private Measurement planned(Scenario scenario, Container container, Map<Map<String, String>, Measurement> measured, String origin,
            Workload workload, List<String> notes) throws IOException, InterruptedException {
        TuningProfileSpec spec = new TuningProfileSpec().setTargetRef(new TargetRef().setName(scenario.name()))
                .setRuntime(scenario.runtime()).setWorkload(workload).setThreads(new Threads());
        if (scenario.usesConnectionPool()) {
            spec.setConnectionPool(new ConnectionPool());
        }
        return planned(scenario, container, measured, origin, spec, notes);
    }

    private static ContainerFacts facts(Scenario scenario) {
        long memory = Units.bytes(scenario.memory());
        return ContainerFacts.ofResources(scenario.cpus(), scenario.cpus(), memory, memory);
    }

    private Measurement planned(Scenario scenario, Container container, Map<Map<String, String>, Measurement> measured, String origin,
            TuningProfileSpec spec, List<String> notes) throws IOException, InterruptedException {
        Workload workload = spec.getWorkload();
        PlanResult result = Planner.plan(spec, facts(scenario));
        String figures = "rate " + Units.number(workload.getRequestsPerSecond()) + "/s, latency " + workload.getMeanLatency()
                + (spec.getThreads() == null || spec.getThreads().getMax() == null ? "" : ", threads " + spec.getThreads().getMax())
                + (workload.getCpuPerRequest() == null ? "" : ", CPU " + workload.getCpuPerRequest())
                + (workload.getDbTimePerRequest() == null ? "" : ", db " + workload.getDbTimePerRequest());
        if (result instanceof PlanResult.Rejected rejected) {
            notes.add(origin + " from " + figures + ": " + rejected.reason() + " " + rejected.messages());
            return Measurement.failed(origin, origin, Map.of(), rejected.reason() + ": " + String.join("; ", rejected.messages()));
        }
        PlanResult.Plan plan = (PlanResult.Plan) result;
        Rendering rendering = Renderer.render(plan.values(), spec, facts(scenario));
        Map<String, String> env = new LinkedHashMap<>(rendering.serverEnvironment());
        env.put(rendering.jvmOptionsVariable(), rendering.jvmOptionsValue());
        notes.add(origin + " from " + figures + " -> " + env);
        return measure(scenario, container, measured, origin, origin, env);
    }

    private static String describe(Observed o) {
        return "%s req/s, %s ms in the server, of which %s ms waiting for a CPU and %s ms for a connection; %s ms CPU and %s ms holding a connection per request"
                .formatted(o.getRequestsPerSecond(), o.getMeanLatencyMillis(), o.getRunQueueMillisPerRequest(),
                        o.getConnectionWaitMillisPerRequest(), o.getCpuMillisPerRequest(), o.getConnectionHoldMillisPerRequest());
    }

    /** Measures a setting once per scenario: a setting the search or an earlier step already measured is reused. */
    private Measurement measure(Scenario scenario, Container container, Map<Map<String, String>, Measurement> measured, String origin,
            String label, Map<String, String> env) throws IOException, InterruptedException {
        Measurement earlier = measured.get(env);
        if (earlier != null) {
            log(origin + ": same setting as " + earlier.label());
            return new Measurement(origin, label + " (= " + earlier.label() + ")", env, earlier.runs(), earlier.discardedRuns(),
                    earlier.effective(), earlier.peakRssBytes(), earlier.observed(), earlier.failure());
        }
        Measurement m = measureFresh(scenario, container, origin, label, env);
        measured.put(env, m);
        log("%s %-22s %8.1f req/s  mean %7.1f ms  p99 %7.1f ms  errors %d  cpu %.2f  rss %d MiB  %s%s".formatted(origin, label,
                m.throughput(), m.meanMillis(), m.p99Millis(), m.errors(), m.cpuCores(), m.peakRssBytes() >> 20, m.effective(),
                m.failure() == null ? "" : "  FAILED: " + m.failure()));
        return m;
    }

    private Measurement measureFresh(Scenario scenario, Container container, String origin, String label, Map<String, String> env)
            throws InterruptedException {
        Path log = logs.resolve(scenario.name() + "-" + label.replaceAll("[^A-Za-z0-9]+", "_") + ".log");
        TuningProfileSpec target = new TuningProfileSpec().setRuntime(scenario.runtime());
        try (LabApp app = LabApp.start(app(scenario.runtime()), agentJar, container, env, scenario.liveSetMb(), log, MetricsEndpoint.path(target))) {
            Scrape first;
            PodSnapshot before;
            PodSnapshot after = null;
            List<Measurement.Run> runs = new ArrayList<>();
            int discarded = 0;
            try (ClosedLoopLoad load = new ClosedLoopLoad(app.url(scenario.query()), scenario.clients())) {
                load.measure(WARMUP_SECONDS);
                first = timedScrape(app);
                before = PodSnapshot.of(first, System.currentTimeMillis());
                for (int attempt = 0; runs.size() < RUNS && attempt < RUNS + MAX_DISCARDED_RUNS && app.alive(); attempt++) {
                    double cpuBefore = app.cpuSeconds();
                    long[] machineBefore = machineCpuTicks();
                    long started = System.nanoTime();
                    ClosedLoopLoad.Result r = load.measure(RUN_SECONDS);
                    double cores = (app.cpuSeconds() - cpuBefore) / ((System.nanoTime() - started) / 1e9);
                    double steal = stealPercent(machineBefore, machineCpuTicks());
                    if (steal > MAX_STEAL_PERCENT) {
                        log("%s %s: run discarded, the hypervisor stole %.0f%% of the CPU (%.0f req/s)".formatted(origin, label, steal,
                                r.requestsPerSecond()));
                        discarded++;
                        continue;
                    }
                    runs.add(new Measurement.Run(r.requestsPerSecond(), r.meanMillis(), r.p99Millis(), r.errors(), cores, steal));
                }
                if (app.alive()) {
                    after = PodSnapshot.of(timedScrape(app), System.currentTimeMillis());
                }
            }
            Measurement.Effective effective = Measurement.Effective.of(scenario.runtime(), first.samples(), app.connectorSuffix());
            if (after == null) {
                return new Measurement(origin, label, env, runs, discarded, effective, 0, null,
                        "the app died under load: " + app.tail().lines().reduce((a, b) -> b).orElse(""));
            }
            Observed observed = Window.observe(Map.of("app", before), Map.of("app", after), scenario.cpus());
            return new Measurement(origin, label, env, runs, discarded, effective, app.peakRssBytes(), observed, null);
        } catch (IOException e) {
            return Measurement.failed(origin, label, env, e.getMessage().lines().findFirst().orElse(e.toString()));
        }
    }

    private Path app(Runtime runtime) {
        if (runtime == Runtime.SpringBootTomcat) {
            return appJar;
        }
        String jar = System.getProperty("lab.app." + runtime);
        if (jar == null) {
            throw new IllegalArgumentException("-Dlab.app." + runtime + " names no workload jar for runtime " + runtime);
        }
        return Path.of(jar);
    }

    /** The machine's CPU time so far, in ticks: all states summed, and steal. */
    private static long[] machineCpuTicks() throws IOException {
        String[] fields = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
        long total = 0;
        for (int i = 1; i <= 8 && i < fields.length; i++) {
            total += Long.parseLong(fields[i]);
        }
        return new long[] {total, fields.length > 8 ? Long.parseLong(fields[8]) : 0};
    }

    private static double stealPercent(long[] before, long[] after) {
        long total = after[0] - before[0];
        return total <= 0 ? 0 : 100.0 * (after[1] - before[1]) / total;
    }

    /** A scrape under load, as the operator's would be; a slow one is worth knowing about. */
    private static Scrape timedScrape(LabApp app) throws IOException, InterruptedException {
        long started = System.nanoTime();
        List<Sample> samples = new ArrayList<>();
        for (String text : app.metrics()) {
            samples.addAll(PrometheusTextParser.parse(text).samples());
        }
        Scrape scrape = new Scrape(samples, 0, List.of());
        long millis = (System.nanoTime() - started) / 1_000_000;
        if (millis > 2000) {
            log("scraping the app and the agent under load took " + millis + " ms");
        }
        return scrape;
    }

    private static void log(String line) {
        System.err.println("[lab] " + line);
    }
}
