package dev.jvmtuning.lab;

import com.sun.management.OperatingSystemMXBean;
import dev.jvmtuning.lab.harness.ClosedLoopLoad;
import dev.jvmtuning.lab.harness.Container;
import dev.jvmtuning.lab.harness.LabApp;
import dev.jvmtuning.operator.api.v1alpha1.Auto;
import dev.jvmtuning.operator.api.v1alpha1.AutoIteration;
import dev.jvmtuning.operator.api.v1alpha1.AutoSettings;
import dev.jvmtuning.operator.api.v1alpha1.AutoStatus;
import dev.jvmtuning.operator.api.v1alpha1.Bounds;
import dev.jvmtuning.operator.api.v1alpha1.ConnectionPool;
import dev.jvmtuning.operator.api.v1alpha1.Mode;
import dev.jvmtuning.operator.api.v1alpha1.Observed;
import dev.jvmtuning.operator.api.v1alpha1.Runtime;
import dev.jvmtuning.operator.api.v1alpha1.TargetRef;
import dev.jvmtuning.operator.api.v1alpha1.Threading;
import dev.jvmtuning.operator.api.v1alpha1.Threads;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfileSpec;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfileStatus;
import dev.jvmtuning.operator.api.v1alpha1.Workload;
import dev.jvmtuning.operator.closedloop.AutoLoop;
import dev.jvmtuning.operator.closedloop.MeasuredReplan;
import dev.jvmtuning.operator.closedloop.ObservedWorkload;
import dev.jvmtuning.operator.closedloop.Replanner;
import dev.jvmtuning.operator.decision.Conditions;
import dev.jvmtuning.operator.decision.Decide;
import dev.jvmtuning.operator.decision.Observation;
import dev.jvmtuning.operator.decision.Write;
import dev.jvmtuning.operator.flags.FlagPolicy;
import dev.jvmtuning.operator.installation.PublishedSettings;
import dev.jvmtuning.operator.metrics.MetricsEndpoint;
import dev.jvmtuning.operator.metrics.PodSnapshot;
import dev.jvmtuning.operator.metrics.PrometheusTextParser;
import dev.jvmtuning.operator.metrics.Sample;
import dev.jvmtuning.operator.metrics.Scrape;
import dev.jvmtuning.operator.metrics.Window;
import dev.jvmtuning.operator.model.ConditionStatus;
import dev.jvmtuning.operator.model.ConditionType;
import dev.jvmtuning.operator.model.ContainerFacts;
import dev.jvmtuning.operator.model.Units;
import dev.jvmtuning.operator.preview.Preview;
import dev.jvmtuning.operator.render.DeploymentTuning;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The tuning lab: for each scenario, the workload app runs as a real process in a container's
 * limits with the defaults, with every point of an exhaustive sweep, with the planner's settings
 * from the scenario's figures, with the closed loop's settings (defaults, observe, plan; twice) and
 * with mode Auto's. The load is closed-loop HTTP on loopback. The settings of a phase run as
 * processes side by side and are measured in interleaved rounds, so that the VM's drift (steal, a
 * neighbour's load) hits all of them and cancels out of their ratios. Writes the run into RESULTS_DIR/runs/DATE-TIME (report.md, runs.csv and
 * a plot per scenario), then RESULTS_DIR/RESULTS.md from the latest run of each scenario.
 *
 * <p>Usage: TuningLab RESULTS_DIR [SCENARIO ...], with -Dlab.app, -Dlab.app.SpringBootJetty, -Dlab.app.SpringBootUndertow
 * and -Dlab.app.Quarkus naming the workload jars (Tomcat, Jetty, Undertow, Quarkus) and -Dlab.agent the agent jar.
 */
public final class TuningLab {
    /** The lab's own CPU time, nearly all of it the load generator's. */
    private static final OperatingSystemMXBean OWN_CPU = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    /** Rougher and about half as long, for development. */
    static final boolean QUICK = Boolean.getBoolean("lab.quick");
    /** Per process, before its rounds. */
    static final int WARMUP_SECONDS = Integer.getInteger("lab.warmup-seconds", QUICK ? 4 : 6);
    /**
     * The operator's observation window, right after the warm-up and under the same load. Apart from it:
     * the first scrape must already hold the request series, which appear with the first answers and
     * the agent's first background collection, both late in a cold JVM on one CPU.
     */
    static final int OBSERVE_SECONDS = Integer.getInteger("lab.observe-seconds", QUICK ? 3 : 4);
    /**
     * The profile's metrics.warmUp in the lab: the closed loop plans from a window of the previous setting taken after its
     * process ran this much longer under load, as the operator advises only from windows of warm JVMs.
     */
    static final int METRICS_WARMUP_SECONDS = Integer.getInteger("lab.metrics-warmup-seconds", QUICK ? 12 : 20);
    static final int RUN_SECONDS = Integer.getInteger("lab.run-seconds", QUICK ? 2 : 3);
    /** Before each run: the clients connect (one a millisecond) and the app wakes its idle threads. */
    static final int SETTLE_SECONDS = 1;
    static final int ROUNDS = Integer.getInteger("lab.rounds", QUICK ? 3 : 4);
    /** The widest a verdict's ratio may be known to, either side of its value: past it, {@link #tighten} adds rounds. */
    static final double TIGHT_HALF_WIDTH = 0.05;
    static final int MAX_EXTRA_ROUNDS = Integer.getInteger("lab.extra-rounds", QUICK ? 0 : 12);
    /** The CPUs of the app's container; the lab's JVM, the load generator, runs on the others (lab.sh pins it). */
    static final String APP_CPUS = System.getProperty("lab.app-cpus", "1");
    static final double AUTO_TARGET = 0.95;
    static final int STABLE_ITERATIONS = 5;
    private static final int MAX_AUTO_ITERATIONS = Integer.getInteger("lab.auto-iterations", 8);
    /** The operator as installed by default: the standard flag policy, no guardrail queries, no agent to inject. */
    private static final Decide.Installation INSTALLATION = new Decide.Installation(new Preview.Installation(FlagPolicy.standard(),
            guardrail -> Optional.empty()), PublishedSettings.DEFAULT_AGENT_IMAGE, PublishedSettings.DEFAULT_AGENT_JAR_PATH);
    /** The namespace of the profiles and Deployments the lab decides on, which only name the scenario. */
    private static final String NAMESPACE = "lab";
    /** When the lab's profiles were created and decided on: the settings depend on no time. */
    private static final Instant PLANNED_AT = Instant.parse("2026-01-01T00:00:00Z");

    /** What one scenario produced. {@code best} is the sweep's (defaults included) highest mean throughput. */
    record ScenarioResult(Scenario scenario, Measurement defaults, List<Measurement> sweep, Measurement best, Measurement planner,
            Measurement loop1, Measurement loop2, AutoRun auto, List<String> notes) {
    }

    /**
     * Mode Auto's loop from the defaults: the setting measured at each iteration (the defaults first),
     * the first iteration whose ratio to the best reaches 0.95 (its point estimate does; null: not within the cap),
     * whether the loop then kept its settings for {@link #STABLE_ITERATIONS} more iterations, and the best's
     * processes started beside the loop's new settings, against which those were judged.
     */
    record AutoRun(List<Measurement> iterations, Integer iterationsTo95, boolean stable, List<Measurement> bestRestarted) {
    }

    /** A process of one setting, alive while the scenario may measure it again. */
    private static final class Instance {
        final String label;
        final Map<String, String> env;
        final int slot;
        Container container;
        LabApp app;
        Measurement.Effective effective = Measurement.Effective.UNKNOWN;
        /** The operator's latest window of it: the one after its start, or the closed loop's once warm. */
        Observed observed;
        String failure;
        long peakRssBytes;
        final List<Measurement.Run> runs = new ArrayList<>();

        Instance(String label, Map<String, String> env, int slot) {
            this.label = label;
            this.env = env;
            this.slot = slot;
        }

        boolean measurable() {
            return failure == null && app != null && app.alive();
        }

        /** What went wrong, its first line: the setting is measured no more. */
        void fail(IOException e) {
            failure = e.getMessage().lines().findFirst().orElse(e.toString());
        }

        /** The process is gone: its last line says why. */
        void died() throws IOException {
            failure = "the app died under load: " + app.tail().lines().reduce((a, b) -> b).orElse("");
        }
    }

    /** A step of the search naming a process; several steps may name the same setting, measured once. */
    private record Setting(String origin, String label, Instance process) {
        Map<String, String> env() {
            return process.env;
        }

        Measurement measurement() {
            return new Measurement(origin, label, process.env, List.copyOf(process.runs), process.effective, process.peakRssBytes,
                    process.observed, process.failure);
        }
    }

    private final Path appJar;
    private final Path agentJar;
    private final Path logs;
    private int round;
    /** Per scenario: the process of each setting so far, by its environment, for the steps that name it again. */
    private final Map<Map<String, String>, Instance> processes = new HashMap<>();
    /** Per scenario: every process started, each in a cgroup (slot) of its own. */
    private final List<Instance> started = new ArrayList<>();

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
        Path run = LabReport.runFolder(results, LocalDateTime.now());
        List<ScenarioResult> done = new ArrayList<>();
        Path report = null;
        for (Scenario scenario : scenarios) {
            done.add(lab.run(scenario));
            report = LabReport.write(run, done, (System.nanoTime() - start) / 1e9, lab.appJar);
            log("%s done, %.1f min so far".formatted(scenario.name(), (System.nanoTime() - start) / 60e9));
        }
        if (report != null) {
            System.out.println(Files.readString(report));
        }
        log("elapsed: %.1f min".formatted((System.nanoTime() - start) / 60e9));
    }

    /**
     * Phase 1 interleaves the defaults, the first knob's sweep, the planner's settings and the closed
     * loop's; each later knob's phase interleaves its sweep from the best so far with the best and the
     * settings the summary compares with it, so that every ratio reported is one of paired rounds.
     */
    ScenarioResult run(Scenario scenario) throws IOException, InterruptedException {
        log("== " + scenario.name() + ": " + scenario.shape());
        List<String> notes = new ArrayList<>();
        try {
            Setting defaults = prepare(scenario, "default", "defaults", Map.of());
            List<Setting> sweep = new ArrayList<>(sweep(scenario, scenario.sweeps().get(0), defaults));
            Setting planner = planned(scenario, "planner", scenario.nominal(), notes);
            Setting loop1 = closedLoop(scenario, "loop 1", defaults, notes);
            Setting loop2 = closedLoop(scenario, "loop 2", loop1, notes);
            List<Setting> compared = List.of(defaults, planner, loop1, loop2);
            List<Setting> phase = new ArrayList<>(sweep);
            phase.addAll(compared);
            rounds(scenario, phase);
            Setting best = best(defaults, sweep);
            for (Scenario.Sweep knob : scenario.sweeps().subList(1, scenario.sweeps().size())) {
                List<Setting> next = sweep(scenario, knob, best);
                sweep.addAll(next);
                phase = new ArrayList<>(next);
                phase.add(best);
                phase.addAll(compared);
                rounds(scenario, phase);
                best = best(defaults, sweep);
            }
            tighten(scenario, best, compared);
            AutoRun auto = auto(scenario, defaults, best, notes);
            return new ScenarioResult(scenario, defaults.measurement(), sweep.stream().map(Setting::measurement).toList(), best.measurement(),
                    planner.measurement(), loop1.measurement(), loop2.measurement(), auto, notes);
        } finally {
            for (Instance p : started) {
                close(p);
            }
            started.clear();
            processes.clear();
        }
    }

    private List<Setting> sweep(Scenario scenario, Scenario.Sweep knob, Setting from) throws IOException, InterruptedException {
        List<Setting> points = new ArrayList<>();
        for (String value : knob.values()) {
            Map<String, String> env = new LinkedHashMap<>(from.env());
            env.putAll(knob.env().apply(value));
            points.add(prepare(scenario, "sweep", knob.knob() + " " + value, env));
        }
        return points;
    }

    private static Setting best(Setting defaults, List<Setting> sweep) {
        return Stream.concat(Stream.of(defaults), sweep.stream()).filter(s -> s.measurement().ok())
                .max(Comparator.comparingDouble(s -> s.measurement().throughput().value())).orElse(defaults);
    }

    /**
     * Defaults (or the last iteration) -> observe once warm -> plan: the operator's own window and estimate (as in its
     * recommendations), then the planner.
     */
    private Setting closedLoop(Scenario scenario, String origin, Setting previous, List<String> notes) throws IOException, InterruptedException {
        Instance observedProcess = previous.process();
        Observed observed = observe(scenario, observedProcess, 1, METRICS_WARMUP_SECONDS).stream().findFirst().orElse(null);
        if (observed != null) {
            observedProcess.observed = observed;
        }
        Optional<Workload> estimate = observed == null ? Optional.empty() : ObservedWorkload.remeasure(scenario.nominal(), observed);
        if (estimate.isEmpty()) {
            notes.add(origin + ": nothing to plan from, the previous setting observed no requests");
            return failed(origin, "no observation");
        }
        notes.add(origin + " observed with " + previous.label() + ": " + describe(observed));
        return planned(scenario, origin, estimate.get(), notes);
    }

    /**
     * Mode Auto's own classes driven by the lab's windows: each iteration is one of the loop's periods, the product's
     * number of windows of the setting in force, each taken fresh under the scenario's load (so the loop weighs each
     * figure's noise across them, as in a cluster); the loop judges its last step and re-plans within its defaults; the lab
     * then starts the settings the loop chose and measures them in rounds interleaved with the best, so that each
     * iteration's ratio to the best has an interval.
     */
    private AutoRun auto(Scenario scenario, Setting defaults, Setting best, List<String> notes) throws IOException, InterruptedException {
        TuningProfileSpec spec = profile(scenario).setMode(Mode.Auto).setWorkload(new Workload()
                        .setRequestsPerSecond(scenario.nominal().getRequestsPerSecond()))
                .setAuto(new Auto().setMinInterval("0s").setWarmUp("0s"));
        if (scenario.service().poolMaxSize() != null) {
            // The database grants no more connections: the loop's bound, as a team would write it.
            spec.getAuto().setConnectionPool(new Bounds().setMax(scenario.service().poolMaxSize()));
        }
        ContainerFacts facts = facts(scenario);
        Replanner replanner = new MeasuredReplan(spec, facts, FlagPolicy.standard());
        Instant now = PLANNED_AT;
        AutoStatus status = AutoLoop.decide(new AutoLoop.Input(spec.getAuto(), null, new AutoSettings(), null, null, null, null, null, replanner, now, null)).status();
        List<Setting> iterations = new ArrayList<>(List.of(defaults));
        // A process serves more for many minutes after it starts (the JIT, the heap's shape), so a setting Auto starts is
        // judged against the best started with it; the earlier phases' processes, the defaults among them, against the best's.
        Map<Instance, Setting> judges = new LinkedHashMap<>();
        Setting current = defaults;
        Integer reached = nearBest(current, best) ? 0 : null;
        int unchangedSince = 0;
        int windowsPerPeriod = spec.getAuto().getObservationWindows();
        // The cap bounds the search for the best; a loop that reached it runs on until it kept its settings that long.
        for (int i = 1; reached == null ? i <= MAX_AUTO_ITERATIONS : unchangedSince < STABLE_ITERATIONS && i <= MAX_AUTO_ITERATIONS + STABLE_ITERATIONS; i++) {
            List<Observed> period = observe(scenario, current.process(), windowsPerPeriod, SETTLE_SECONDS);
            if (period.size() < windowsPerPeriod) {
                notes.add("auto " + i + ": " + current.label() + " failed under load, the loop stopped: " + current.process().failure);
                break;
            }
            Measurement.Effective e = current.process().effective;
            AutoSettings inForce = new AutoSettings(e.maxThreads(), e.poolSize(), null);
            AutoStatus next = status;
            for (Observed window : period) {
                now = now.plusSeconds(OBSERVE_SECONDS);
                window.setEnd(now.toString()).setWindow(OBSERVE_SECONDS + "s");
                next = AutoLoop.decide(new AutoLoop.Input(spec.getAuto(), next, inForce, facts.memoryBudgetBytes(), now.minusSeconds(OBSERVE_SECONDS),
                        null, null, window, replanner, now, null)).status();
            }
            boolean changed = !next.getSettings().equals(status.getSettings());
            status = next;
            unchangedSince = changed ? 0 : unchangedSince + 1;
            AutoIteration last = status.getHistory().isEmpty() ? null : status.getHistory().get(status.getHistory().size() - 1);
            notes.add("auto " + i + ": " + status.getState() + (last == null ? "" : ", iteration " + last.getIteration() + " " + last.getVerdict()
                    + ": " + last.getReason()) + "; waiting for " + status.getWaitingFor());
            if (changed) {
                int before = started.size();
                current = planned(scenario, "auto " + i, spec, status, notes);
                if (started.size() > before) { // a process of its own, not an earlier one's
                    Setting restarted = start(scenario, "auto " + i, "best, restarted for auto " + i, best.env());
                    judges.put(current.process(), restarted);
                    rounds(scenario, List.of(restarted, current));
                    notes.add("auto " + i + ": " + current.label() + " / the best restarted beside it: "
                            + LabReport.interval(current.measurement().ratio(restarted.measurement(), Measurement.Run::requestsPerSecond)));
                } else if (!judges.containsKey(current.process())
                        && !current.measurement().ratio(best.measurement(), Measurement.Run::requestsPerSecond).known()) {
                    rounds(scenario, List.of(best, current));
                }
            }
            iterations.add(current);
            if (reached == null && nearBest(current, judges.getOrDefault(current.process(), best))) {
                reached = i;
                unchangedSince = 0;
            }
        }
        return new AutoRun(iterations.stream().map(Setting::measurement).toList(), reached,
                reached != null && unchangedSince >= STABLE_ITERATIONS, judges.values().stream().map(Setting::measurement).toList());
    }

    private static boolean nearBest(Setting setting, Setting best) {
        Measurement m = setting.measurement();
        return m.ok() && Stats.meetsAtLeast(m.ratio(best.measurement(), Measurement.Run::requestsPerSecond), AUTO_TARGET);
    }

    private Setting planned(Scenario scenario, String origin, Workload workload, List<String> notes) throws IOException, InterruptedException {
        TuningProfileSpec spec = profile(scenario).setWorkload(workload).setThreads(new Threads());
        return planned(scenario, origin, spec, null, notes);
    }

    /** What the scenario's profile states before its figures: the target, its runtime and what the team knows of the service. */
    static TuningProfileSpec profile(Scenario scenario) {
        TuningProfileSpec spec = new TuningProfileSpec().setTargetRef(new TargetRef().setName(scenario.name())).setRuntime(scenario.runtime())
                .setThreading(new Threading().setModel(scenario.service().threading()));
        if (scenario.usesConnectionPool()) {
            spec.setConnectionPool(new ConnectionPool().setMaxSize(scenario.service().poolMaxSize()));
        }
        return spec;
    }

    /** The planner sees the container's limit, as in a pod: the app's cgroup has exactly {@code scenario.cpus()} of CPU. */
    static ContainerFacts facts(Scenario scenario) {
        long memory = Units.bytes(scenario.memory());
        return ContainerFacts.ofResources(scenario.cpus(), scenario.cpus(), memory, memory);
    }

    /** Starts the settings the operator writes for the profile ({@link #decided}); notes where they come from. */
    private Setting planned(Scenario scenario, String origin, TuningProfileSpec spec, AutoStatus auto, List<String> notes)
            throws IOException, InterruptedException {
        Workload workload = spec.getWorkload();
        String figures = "rate " + Units.number(workload.getRequestsPerSecond()) + "/s, latency " + workload.getMeanLatency()
                + (spec.getThreads() == null || spec.getThreads().getMax() == null ? "" : ", threads " + spec.getThreads().getMax())
                + (workload.getCpuPerRequest() == null ? "" : ", CPU " + workload.getCpuPerRequest())
                + (workload.getDbTimePerRequest() == null ? "" : ", db " + workload.getDbTimePerRequest())
                + (workload.getAllocationPerRequest() == null ? "" : ", allocating " + workload.getAllocationPerRequest());
        Decided decided = decided(scenario, spec, auto);
        if (decided.notApplied() != null) {
            notes.add(origin + " from " + figures + ": " + decided.notApplied());
            return failed(origin, decided.notApplied());
        }
        Map<String, String> env = decided.env();
        notes.add(origin + " from " + figures + " -> " + env);
        return prepare(scenario, origin, origin, env);
    }

    /** The environment the operator writes into the app's container, or why it writes none (the Applied reason and message). */
    record Decided(Map<String, String> env, String notApplied) {
    }

    /**
     * The operator's own decision on a Deployment of the scenario's container, no pod of it running yet, in mode Auto with the
     * loop's status laid over the profile.
     *
     * @param auto the loop's status.auto, or null outside mode Auto
     */
    static Decided decided(Scenario scenario, TuningProfileSpec spec, AutoStatus auto) {
        Decide.Decision decision = Decide.of(new Observation(stored(scenario, spec, auto), Optional.of(deployment(scenario)), List.of(),
                List.of(), List.of(), List.of(), Optional.empty(), List.of(), List.of(), PLANNED_AT), INSTALLATION);
        Condition applied = Conditions.find(decision.status().getConditions(), ConditionType.APPLIED).orElseThrow();
        if (!ConditionStatus.TRUE.is(applied.getStatus())) {
            return new Decided(Map.of(), applied.getReason() + ": " + applied.getMessage());
        }
        Map<String, Map<String, String>> created = new HashMap<>();
        Deployment desired = null;
        for (Write write : decision.writes()) {
            if (write instanceof Write.CreateConfigMap create) {
                created.put(create.configMap().getMetadata().getName(), create.configMap().getData());
            } else if (write instanceof Write.ApplyDeployment apply) {
                desired = apply.desired();
            }
        }
        return new Decided(DeploymentTuning.tunedEnv(Objects.requireNonNull(desired, "an applied decision on an untuned Deployment writes it"),
                scenario.name()).orElseThrow().values(created::get), null);
    }

    /** The scenario's profile as the cluster would hold it. */
    private static TuningProfile stored(Scenario scenario, TuningProfileSpec spec, AutoStatus auto) {
        TuningProfile profile = new TuningProfile();
        profile.setMetadata(new ObjectMetaBuilder().withName(scenario.name()).withNamespace(NAMESPACE).withGeneration(1L)
                .withCreationTimestamp(PLANNED_AT.toString()).build());
        profile.setSpec(spec);
        profile.setStatus(new TuningProfileStatus().setAuto(auto));
        return profile;
    }

    /** A Deployment of one pod of the app's container: requests at its limits, which the app's cgroup has exactly. */
    private static Deployment deployment(Scenario scenario) {
        Map<String, Quantity> resources = Map.of("cpu", new Quantity(Double.toString(scenario.cpus())), "memory",
                new Quantity(Long.toString(Units.bytes(scenario.memory()))));
        return new DeploymentBuilder().withNewMetadata().withName(scenario.name()).withNamespace(NAMESPACE).endMetadata()
                .withNewSpec().withReplicas(1).withNewSelector().addToMatchLabels("app", scenario.name()).endSelector()
                .withNewTemplate().withNewMetadata().addToLabels("app", scenario.name()).endMetadata().withNewSpec().addNewContainer().withName(scenario.name())
                .withNewResources().withLimits(resources).withRequests(resources).endResources().endContainer()
                .endSpec().endTemplate().endSpec().build();
    }

    private static Setting failed(String origin, String failure) {
        Instance nothing = new Instance(origin, Map.of(), -1);
        nothing.failure = failure;
        return new Setting(origin, origin, nothing);
    }

    private static String describe(Observed o) {
        return ("%s req/s, %s ms in the server, of which %s ms waiting for a CPU and %s ms for a connection; %s ms CPU and %s ms holding "
                + "a connection per request; %s of %s workers busy (%s)")
                .formatted(o.getRequestsPerSecond(), o.getMeanLatencyMillis(), o.getRunQueueMillisPerRequest(),
                        o.getConnectionWaitMillisPerRequest(), o.getCpuMillisPerRequest(), o.getConnectionHoldMillisPerRequest(),
                        o.getBusyThreads(), o.getMaxThreads(), Boolean.TRUE.equals(o.getBusyThreadsAveraged()) ? "the window's mean" : "one reading");
    }

    /**
     * Starts a setting's process in a cgroup of its own (the scenario's limits, the app's CPUs), warms
     * it up under load and takes the operator's observation window under the same load. A setting
     * the search or an earlier step already started is reused: its rounds count for every step that names it.
     */
    private Setting prepare(Scenario scenario, String origin, String label, Map<String, String> env) throws IOException, InterruptedException {
        Instance earlier = processes.get(env);
        if (earlier != null) {
            log(origin + ": same setting as " + earlier.label);
            return new Setting(origin, label + " (= " + earlier.label + ")", earlier);
        }
        Setting setting = start(scenario, origin, label, env);
        processes.put(env, setting.process());
        return setting;
    }

    /** Starts a new process of the setting, warmed up and observed as {@link #prepare} says, whether or not one runs already. */
    private Setting start(Scenario scenario, String origin, String label, Map<String, String> env) throws InterruptedException {
        Instance p = new Instance(label, env, started.size());
        started.add(p);
        Path log = logs.resolve(scenario.name() + "-" + label.replaceAll("[^A-Za-z0-9]+", "_") + ".log");
        Container container = Container.withLimits(Integer.toString(p.slot), scenario.cpus(), Units.bytes(scenario.memory()), APP_CPUS);
        try {
            p.container = container;
            favour(p);
            TuningProfileSpec target = new TuningProfileSpec().setRuntime(scenario.runtime());
            Map<String, String> environment = new LinkedHashMap<>(scenario.service().environment());
            environment.putAll(env);
            p.app = LabApp.start(java(scenario.service().java()), app(scenario.runtime()), agentJar, container, environment, scenario.liveSetMb(),
                    log, MetricsEndpoint.runtimePath(target));
            try (ClosedLoopLoad load = new ClosedLoopLoad(p.app.url(scenario.query()), scenario.clients())) {
                load.measure(WARMUP_SECONDS);
                Scrape first = timedScrape(p.app);
                p.effective = Measurement.Effective.of(scenario.runtime(), first.samples(), p.app.connectorSuffix());
                p.observed = windows(scenario, p.app, load, first, 1).stream().findFirst().orElse(null);
            }
            if (!p.app.alive()) {
                p.died();
            }
        } catch (IOException e) {
            p.fail(e);
        }
        log("%s %-22s started and warmed%s  %s".formatted(origin, label, p.failure == null ? "" : ", FAILED: " + p.failure, p.effective));
        return new Setting(origin, label, p);
    }

    /** Consecutive observation windows under the load already running, from the scrape that opens the first; fewer if the app dies. */
    private static List<Observed> windows(Scenario scenario, LabApp app, ClosedLoopLoad load, Scrape first, int count)
            throws IOException, InterruptedException {
        List<Observed> windows = new ArrayList<>();
        PodSnapshot before = PodSnapshot.of(first, System.currentTimeMillis());
        for (int i = 0; i < count; i++) {
            load.measure(OBSERVE_SECONDS);
            if (!app.alive()) {
                break;
            }
            PodSnapshot after = PodSnapshot.of(timedScrape(app), System.currentTimeMillis());
            windows.add(Window.observe(Map.of("app", before), Map.of("app", after), scenario.cpus()));
            before = after;
        }
        return windows;
    }

    /**
     * Fresh observation windows of a setting that is up, after it ran {@code loadedSecondsBefore} under load: mode Auto's
     * next period, or the closed loop's window once warm, as its pods would serve it now. Empty when the setting fails,
     * which marks it as a round does.
     */
    private List<Observed> observe(Scenario scenario, Instance p, int count, int loadedSecondsBefore) throws InterruptedException {
        if (!p.measurable()) {
            return List.of();
        }
        try (ClosedLoopLoad load = startLoad(scenario, p)) {
            load.measure(loadedSecondsBefore);
            List<Observed> windows = windows(scenario, p.app, load, timedScrape(p.app), count);
            if (!p.app.alive()) {
                p.died();
            }
            return windows;
        } catch (IOException e) {
            p.fail(e);
            log(p.label + " FAILED: " + p.failure);
            return List.of();
        }
    }

    private void rounds(Scenario scenario, List<Setting> settings) throws IOException, InterruptedException {
        rounds(scenario, settings, ROUNDS);
    }

    /**
     * More rounds of the best with each compared setting whose ratio to it is not yet known within +/-{@value #TIGHT_HALF_WIDTH}
     * (95%), two at a time so that each goes first as often as the best, until none is wide or {@link #MAX_EXTRA_ROUNDS} ran:
     * the verdicts rest on these ratios, and a setting whose runs agree costs no more time than its phase took.
     */
    private void tighten(Scenario scenario, Setting best, List<Setting> compared) throws IOException, InterruptedException {
        for (int extra = 0; extra < MAX_EXTRA_ROUNDS; extra += 2) {
            List<Setting> wide = compared.stream().filter(s -> s.process() != best.process() && s.process().measurable()
                    && !Stats.within(s.measurement().ratio(best.measurement(), Measurement.Run::requestsPerSecond), TIGHT_HALF_WIDTH)).toList();
            if (wide.isEmpty()) {
                return;
            }
            List<Setting> paired = new ArrayList<>(List.of(best));
            paired.addAll(wide);
            log("2 more rounds: %s to the best not yet within +/-%.2f".formatted(wide.stream().map(Setting::label).toList(), TIGHT_HALF_WIDTH));
            rounds(scenario, paired, 2);
        }
    }

    /**
     * Measures the settings in rounds, one after the other, one under load at a time; every other
     * round runs them in reverse, so that a steady drift within a round favours none of them.
     */
    private void rounds(Scenario scenario, List<Setting> settings, int count) throws IOException, InterruptedException {
        List<Instance> distinct = settings.stream().map(Setting::process).filter(Instance::measurable).distinct().toList();
        for (int r = 0; r < count; r++) {
            round++;
            List<Instance> order = new ArrayList<>(distinct);
            if (r % 2 == 1) {
                Collections.reverse(order);
            }
            for (Instance p : order) {
                if (p.measurable()) {
                    run(scenario, p);
                }
            }
        }
        for (Instance p : distinct) {
            Measurement m = new Setting(p.label, p.label, p).measurement();
            log("%-22s %s req/s  p99 %.0f ms  app %.2f cores  generator %.2f cores  steal %.0f%%  (%d runs)".formatted(p.label,
                    LabReport.interval(m.throughput()), m.mean(Measurement.Run::p99Millis).value(), m.mean(Measurement.Run::appCores).value(),
                    m.mean(Measurement.Run::generatorCores).value(), m.mean(Measurement.Run::stealPercent).value(), m.runs().size()));
        }
    }

    /** One run of the current round: fresh connections, a moment to settle, then the measured window. */
    private void run(Scenario scenario, Instance p) throws IOException, InterruptedException {
        try {
            measureOnce(scenario, p);
        } catch (IOException e) {
            // One setting's process that stops answering costs that setting, not the run.
            p.fail(e);
            log(p.label + " FAILED: " + p.failure);
        }
    }

    private void measureOnce(Scenario scenario, Instance p) throws IOException, InterruptedException {
        double timeoutsBefore = acquisitionTimeouts(p.app);
        ClosedLoopLoad.Result r;
        double appCores;
        double generatorCores;
        double steal;
        try (ClosedLoopLoad load = startLoad(scenario, p)) {
            load.measure(SETTLE_SECONDS);
            double appBefore = p.app.cpuSeconds();
            long generatorBefore = OWN_CPU.getProcessCpuTime();
            long[] machineBefore = machineCpuTicks();
            long started = System.nanoTime();
            r = load.measure(RUN_SECONDS);
            double seconds = (System.nanoTime() - started) / 1e9;
            if (!p.app.alive()) {
                p.died();
                return;
            }
            appCores = (p.app.cpuSeconds() - appBefore) / seconds;
            generatorCores = (OWN_CPU.getProcessCpuTime() - generatorBefore) / 1e9 / seconds;
            steal = stealPercent(machineBefore, machineCpuTicks());
        }
        // Read once the load has stopped and its last answers are in: the run's timeouts (and its settling second's).
        long timeouts = Math.round(acquisitionTimeouts(p.app) - timeoutsBefore);
        p.runs.add(new Measurement.Run(round, r.requestsPerSecond(), r.meanMillis(), r.p99Millis(), r.errors(), timeouts, appCores,
                generatorCores, steal));
        p.peakRssBytes = p.app.peakRssBytes();
    }

    /** The scenario's clients on the process, which first gets the CPU's full weight. */
    private ClosedLoopLoad startLoad(Scenario scenario, Instance p) throws IOException {
        favour(p);
        return new ClosedLoopLoad(p.app.url(scenario.query()), scenario.clients());
    }

    /** The process about to be loaded gets the CPU's full weight, every other one started the least (see {@link Container#measured}). */
    private void favour(Instance p) throws IOException {
        for (Instance other : started) {
            if (other.container != null) {
                other.container.measured(other == p);
            }
        }
    }

    /** The requests HikariCP failed for want of a connection so far (0 without a pool). */
    private static double acquisitionTimeouts(LabApp app) throws IOException, InterruptedException {
        return timedScrape(app).samples().stream().filter(s -> s.name().equals("hikaricp_connections_timeout_total"))
                .mapToDouble(Sample::value).sum();
    }

    private static void close(Instance p) throws InterruptedException {
        if (p.app != null) {
            p.app.close();
        }
    }

    /** The lab's own java for its own release; another release's launcher from -Dlab.java.RELEASE. */
    private static String java(int release) {
        if (release == java.lang.Runtime.version().feature()) {
            return "java";
        }
        String launcher = System.getProperty("lab.java." + release);
        if (launcher == null) {
            throw new IllegalArgumentException("-Dlab.java." + release + " names no launcher for Java " + release);
        }
        return launcher;
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
        String appText = app.appMetrics();
        long appDone = System.nanoTime();
        String agentText = app.agentMetrics();
        long appMillis = (appDone - started) / 1_000_000;
        long agentMillis = (System.nanoTime() - appDone) / 1_000_000;
        if (appMillis + agentMillis > 2000) {
            log("scraping under load took " + appMillis + " ms (the app) and " + agentMillis + " ms (the agent)");
        }
        List<Sample> samples = new ArrayList<>(PrometheusTextParser.parse(appText).samples());
        samples.addAll(PrometheusTextParser.parse(agentText).samples());
        return new Scrape(samples, 0, List.of());
    }

    private static void log(String line) {
        System.err.println("[lab] " + line);
    }
}
