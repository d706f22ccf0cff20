package dev.jvmtuning.lab;

import dev.jvmtuning.lab.TuningLab.ScenarioResult;
import dev.jvmtuning.operator.api.v1alpha1.Auto;
import dev.jvmtuning.operator.api.v1alpha1.ThreadingModel;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.geom.Ellipse2D;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;
import java.util.jar.JarFile;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.category.DefaultCategoryDataset;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * Writes a run of the lab into a folder of its own under runs/: its report (machine, method, summary, every measurement),
 * runs.csv and the plots; then the summary of the latest run of each scenario (LabSummary).
 */
final class LabReport {
    static final double PLANNER_TO_BEST = 0.95;
    static final double P99_TO_BEST = 1.2;
    static final double IO_BOUND_TO_DEFAULT = 3;

    private LabReport() {
    }

    /**
     * Writes the run's folder {@code dir} (from {@link #runFolder}, again after each scenario) and the summary of the results
     * folder it is in; returns the run's report.
     */
    static Path write(Path dir, List<ScenarioResult> results, double elapsedSeconds, Path appJar) throws IOException {
        StringBuilder md = new StringBuilder();
        md.append("# Tuning lab run\n\n");
        md.append("Written by `deploy/local/lab.sh`").append(TuningLab.QUICK ? " in quick mode (`LAB_QUICK=1`)" : "").append(" on ")
                .append(LocalDate.now()).append(" in ").append(Math.round(elapsedSeconds / 60)).append(" min. Machine: ").append(machine(appJar))
                .append(".\n\n");
        md.append("""
                Each setting runs the workload app on the scenario's runtime (Spring Boot on Tomcat, Jetty or Undertow, `lab/workload-app`;
                Quarkus, `lab/quarkus-app`) as a real process inside a cgroup of its own with the scenario's CPU and memory
                limits, confined to CPU %s (a cpuset), so the JVM picks its defaults as it would in a pod. The lab's JVM, the
                closed-loop load generator (keep-alive connections, each client sending its next request when the last is
                answered, on 127.0.0.1), runs on the other CPU, so a saturated app cannot starve the clients that time it. A
                setting's process is started and warmed up for %d s under load, then the operator's observation window (what the
                closed loop and mode Auto plan from) takes %d s more of the same load. The settings of a phase then stay up side
                by side and are measured in %d interleaved rounds (A B C, C B A, ...), one under load at a time: each run opens
                fresh connections, settles %d s and measures %d s. Drift of the VM (its *steal*, the share of CPU time the
                hypervisor gave other guests, swings by tens of percent) so hits every setting of a round alike.
                Phase 1 holds the defaults, the first knob's sweep, the planner's settings and the closed loop's; each later knob's
                phase its sweep from the best so far, with the best and the settings below compared with it. After the phases,
                the planner's and the closed loop's settings whose ratio to the best is not yet known within +/-%.2f run more
                rounds with the best, two at a time, up to %d more.
                *req/s* is the mean of a setting's runs with its 95%% confidence interval (Student's t over the runs).
                A ratio such as *planner/best* comes from the rounds both settings ran in: the geometric mean of the per-round
                ratios with a 95%% interval (t on their logarithms), so drift shared by a round cancels. A target is met when the
                point estimate meets it; the interval says how far the figure can be trusted, and an interval that only reaches
                the target does not meet it.
                *best* is the sweep's highest mean throughput (the defaults included); each sweep starts from the best setting
                found so far. *planner* is the plan from the scenario's workload figures, *loop 1* the plan from the metrics the
                operator's own window read once the defaults ran %d s more under load, the profile's `metrics.warmUp`
                (`ObservedWorkload`: the target rate, the server time without CPU and connection waits, CPU and connection time
                per request), *loop 2* the same from loop 1's. *auto n*
                is mode Auto's loop itself (`AutoLoop`, `MeasuredReplan`: the operator's classes with their defaults, step
                limit, threshold, regression guard and %d windows a period, each taken fresh from the setting in force under the
                same load) from the defaults; each new setting it
                moves to is measured in rounds with a new process of the best started beside it (*best, restarted for auto n*),
                since a process serves more for many minutes after it starts and the best's own process is by then the oldest:
                *Auto iterations to 0.95* counts its iterations until a setting's
                ratio to the best reaches 0.95 by the rule above (0: the defaults already do), *stable* says whether it then kept
                its settings for %d more iterations. *app cores* is the app's CPU during the runs, *generator cores* the lab
                JVM's. *clients/req/s* is what Little's law gives a closed loop without think time as its mean response time:
                a *mean* well below it would mean the clients waited on the generator between answer and request; p99 and mean
                near it are the queueing that many clients on one CPU make. Throughput counts 2xx answers; *acquisition
                timeouts* are the requests the connection pool failed for want of a connection (HikariCP's own count). Effective
                settings are read back from the app's metrics.

                """.formatted(TuningLab.APP_CPUS, TuningLab.WARMUP_SECONDS, TuningLab.OBSERVE_SECONDS, TuningLab.ROUNDS, TuningLab.SETTLE_SECONDS,
                TuningLab.RUN_SECONDS, TuningLab.TIGHT_HALF_WIDTH, TuningLab.MAX_EXTRA_ROUNDS, TuningLab.METRICS_WARMUP_SECONDS, new Auto().getObservationWindows(), TuningLab.STABLE_ITERATIONS));
        md.append("## Summary\n\n");
        md.append(LabSummary.COLUMNS).append('\n').append(LabSummary.COLUMNS_RULE).append('\n');
        List<String> findings = new ArrayList<>();
        for (ScenarioResult r : results) {
            String name = r.scenario().name();
            Stats.Interval toBest = throughputRatio(r.planner(), r.best());
            Stats.Interval toDefault = throughputRatio(r.planner(), r.defaults());
            Stats.Interval p99 = r.planner().ratio(r.best(), Measurement.Run::p99Millis);
            Stats.Interval loop1 = throughputRatio(r.loop1(), r.best());
            Stats.Interval loop2 = throughputRatio(r.loop2(), r.best());
            md.append("| %s | %s | %s | %s (%s) | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n".formatted(name, r.scenario().runtime(),
                    rate(r.defaults()), rate(r.best()), r.best().label(), rate(r.planner()), ratio(r.planner(), r.best(), toBest),
                    ratio(r.planner(), r.defaults(), toDefault), ratio(r.planner(), r.best(), p99), ratio(r.loop1(), r.best(), loop1),
                    ratio(r.loop2(), r.best(), loop2),
                    r.auto().iterationsTo95() == null ? "not within " + (r.auto().iterations().size() - 1) : r.auto().iterationsTo95(),
                    r.auto().iterationsTo95() == null ? "-" : r.auto().stable() ? "yes" : "no", steal(r)));
            check(findings, name + ": Auto reaches " + TuningLab.AUTO_TARGET + " of the best and stays there",
                    r.auto().iterationsTo95() != null && r.auto().stable());
            check(findings, name + ": planner/best throughput >= " + PLANNER_TO_BEST, both(r.planner(), r.best())
                    && Stats.meetsAtLeast(toBest, PLANNER_TO_BEST));
            check(findings, name + ": planner p99 <= " + P99_TO_BEST + " x best's", both(r.planner(), r.best()) && Stats.meetsAtMost(p99, P99_TO_BEST));
            check(findings, name + ": closed loop reaches planner/best >= " + PLANNER_TO_BEST + " within two iterations",
                    (both(r.loop1(), r.best()) && Stats.meetsAtLeast(loop1, PLANNER_TO_BEST))
                            || (both(r.loop2(), r.best()) && Stats.meetsAtLeast(loop2, PLANNER_TO_BEST)));
            if (r.scenario().service().threading() == ThreadingModel.Virtual) {
                check(findings, name + ": no request fails for want of a connection with the planner's settings",
                        r.planner().ok() && r.planner().acquisitionTimeouts() == 0);
            }
            if (name.equals("io-bound")) {
                check(findings, "io-bound: planner/default throughput >= " + IO_BOUND_TO_DEFAULT, both(r.planner(), r.defaults())
                        && Stats.meetsAtLeast(toDefault, IO_BOUND_TO_DEFAULT));
            }
        }
        md.append("\nTargets (met: the point estimate meets the target):\n\n");
        findings.forEach(f -> md.append("- ").append(f).append('\n'));

        StringBuilder csv = new StringBuilder("scenario,origin,setting,round,requests_per_second,mean_ms,p99_ms,errors,acquisition_timeouts,app_cores,generator_cores,"
                + "steal_percent\n");
        for (ScenarioResult r : results) {
            Scenario s = r.scenario();
            md.append("\n## ").append(s.name()).append("\n\n").append(s.shape()).append(" (runtime ").append(s.runtime()).append(", Java ")
                    .append(s.service().java()).append("). ").append(s.clients()).append(" closed-loop clients on `").append(s.query())
                    .append("`; container ").append(limits(s)).append(".\n\n");
            md.append("| origin | setting | max threads | pool | heap MiB | GC | req/s (95% interval) | mean ms | clients/req/s ms "
                    + "| p99 ms | errors | acquisition timeouts | app cores | generator cores | steal % | runs | peak RSS MiB |\n");
            md.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
            for (Measurement m : all(r)) {
                Measurement.Effective e = m.effective();
                md.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n".formatted(m.origin(), m.label(),
                        text(e.maxThreads()), text(e.poolSize()), text(e.heapMiB()), text(e.collector()), rate(m),
                        figure(m, Measurement.Run::meanMillis), m.ok() ? f(1000.0 * s.clients() / m.throughput().value()) : "-",
                        figure(m, Measurement.Run::p99Millis), errors(m, TuningLab.RUN_SECONDS), m.ok() ? m.acquisitionTimeouts() : "-",
                        cores(m, Measurement.Run::appCores), cores(m, Measurement.Run::generatorCores),
                        m.ok() ? "%.0f".formatted(m.mean(Measurement.Run::stealPercent).value()) : "-", m.runs().size(),
                        m.peakRssBytes() == 0 ? "-" : Long.toString(m.peakRssBytes() >> 20)));
                for (Measurement.Run run : m.runs()) {
                    csv.append(String.join(",", s.name(), m.origin(), '"' + m.label() + '"', Integer.toString(run.round()),
                            f(run.requestsPerSecond()), f(run.meanMillis()), f(run.p99Millis()), Long.toString(run.errors()),
                            Long.toString(run.acquisitionTimeouts()), "%.3f".formatted(run.appCores()), "%.3f".formatted(run.generatorCores()), "%.1f".formatted(run.stealPercent())))
                            .append('\n');
                }
            }
            md.append('\n');
            all(r).stream().filter(m -> m.failure() != null).forEach(m -> md.append("- ").append(m.label()).append(" failed: ")
                    .append(m.failure()).append('\n'));
            r.notes().forEach(n -> md.append("- ").append(n).append('\n'));
            md.append("\n![").append(s.name()).append("](").append(threadsPlot(dir, r)).append(")\n");
            if (!s.sweeps().get(0).knob().equals("max threads")) {
                md.append("\n![").append(s.name()).append(" settings](").append(settingsPlot(dir, r)).append(")\n");
            }
        }
        Path report = dir.resolve(LabSummary.REPORT);
        Files.writeString(report, md);
        Files.writeString(dir.resolve("runs.csv"), csv);
        LabSummary.regenerate(dir.getParent().getParent(), Scenario.ALL.stream().map(Scenario::name).toList(), TuningLab.QUICK);
        return report;
    }

    /** A new folder under {@code results}/runs for a run started at {@code now}, named by the minute ({@code 2026-12-03-1612}), then -2, -3... */
    static Path runFolder(Path results, LocalDateTime now) throws IOException {
        Path runs = results.resolve(LabSummary.RUNS);
        String name = now.format(DateTimeFormatter.ofPattern("yyyy-MM-dd-HHmm", Locale.ROOT));
        Path dir = runs.resolve(name);
        for (int n = 2; Files.exists(dir); n++) {
            dir = runs.resolve(name + "-" + n);
        }
        return Files.createDirectories(dir);
    }

    private static Stats.Interval throughputRatio(Measurement a, Measurement b) {
        return a.ratio(b, Measurement.Run::requestsPerSecond);
    }

    /** The steal the scenario's runs saw: their mean and the worst run's. */
    private static String steal(ScenarioResult r) {
        double[] steal = all(r).stream().flatMap(m -> m.runs().stream()).mapToDouble(Measurement.Run::stealPercent).toArray();
        return steal.length == 0 ? "-" : "%.0f (max %.0f)".formatted(Arrays.stream(steal).average().orElse(0), Arrays.stream(steal).max().orElse(0));
    }

    private static String limits(Scenario s) {
        return s.cpus() + " CPUs, " + s.memory() + (s.liveSetMb() > 0 ? ", app keeps " + s.liveSetMb() + " MiB live" : "");
    }

    private static List<Measurement> all(ScenarioResult r) {
        List<Measurement> all = new ArrayList<>();
        all.add(r.defaults());
        all.addAll(r.sweep());
        all.addAll(List.of(r.planner(), r.loop1(), r.loop2()));
        all.addAll(r.auto().iterations().stream().skip(1).filter(m -> m.origin().startsWith("auto")).distinct().toList());
        all.addAll(r.auto().bestRestarted());
        return all;
    }

    /** Throughput against max threads: the threads sweep as a line, the other settings as marked points. */
    private static String threadsPlot(Path dir, ScenarioResult r) throws IOException {
        XYSeriesCollection data = new XYSeriesCollection();
        XYSeries sweep = new XYSeries("sweep of max threads" + (r.scenario().sweeps().get(0).knob().equals("max threads") ? "" : " (at the best other knobs)"));
        List<Measurement> points = new ArrayList<>(r.sweep().stream().filter(m -> m.label().startsWith("max threads")).toList());
        if (r.scenario().sweeps().get(0).knob().equals("max threads")) {
            points.add(r.defaults());
        }
        points.stream().filter(m -> m.ok() && m.effective().maxThreads() != null).forEach(m -> sweep.add((double) m.effective().maxThreads(), m.throughput().value()));
        data.addSeries(sweep);
        for (Measurement m : List.of(r.defaults(), r.planner(), r.loop1(), r.loop2())) {
            XYSeries marker = new XYSeries(m.origin() + (m.effective().maxThreads() == null ? " (n/a)" : " (" + m.effective().maxThreads() + " threads)"));
            if (m.ok() && m.effective().maxThreads() != null) {
                marker.add((double) m.effective().maxThreads(), m.throughput().value());
            }
            data.addSeries(marker);
        }
        JFreeChart chart = ChartFactory.createXYLineChart(r.scenario().name() + ": throughput against max threads", "max threads (log scale)",
                "requests per second (mean)", data, PlotOrientation.VERTICAL, true, false, false);
        XYPlot plot = chart.getXYPlot();
        plot.setDomainAxis(new LogAxis("max threads (log scale)"));
        plot.setBackgroundPaint(Color.WHITE);
        plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
        plot.setDomainGridlinePaint(Color.LIGHT_GRAY);
        XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer();
        Color[] markers = {Color.GRAY, new Color(0xD62728), new Color(0x2CA02C), new Color(0x9467BD)};
        renderer.setSeriesPaint(0, new Color(0x1F77B4));
        renderer.setSeriesStroke(0, new BasicStroke(2f));
        for (int i = 1; i <= markers.length; i++) {
            renderer.setSeriesLinesVisible(i, false);
            renderer.setSeriesPaint(i, markers[i - 1]);
            renderer.setSeriesShape(i, new Ellipse2D.Double(-6 + i, -6 + i, 12 - 2 * i, 12 - 2 * i));
        }
        plot.setRenderer(renderer);
        String file = r.scenario().name() + ".png";
        ChartUtils.saveChartAsPNG(dir.resolve(file).toFile(), chart, 900, 520);
        return file;
    }

    /** Throughput of every setting measured, for scenarios whose main knob is not the thread count. */
    private static String settingsPlot(Path dir, ScenarioResult r) throws IOException {
        DefaultCategoryDataset data = new DefaultCategoryDataset();
        for (Measurement m : all(r)) {
            data.addValue(m.ok() ? m.throughput().value() : 0, "requests per second (mean)", m.origin() + ": " + m.label());
        }
        JFreeChart chart = ChartFactory.createBarChart(r.scenario().name() + ": throughput of every setting", null,
                "requests per second (mean)", data, PlotOrientation.HORIZONTAL, false, false, false);
        chart.getCategoryPlot().setBackgroundPaint(Color.WHITE);
        String file = r.scenario().name() + "-settings.png";
        ChartUtils.saveChartAsPNG(dir.resolve(file).toFile(), chart, 900, 120 + 28 * all(r).size());
        return file;
    }

    private static void check(List<String> findings, String target, boolean met) {
        findings.add((met ? "met: " : "**missed**: ") + target);
    }

    private static boolean both(Measurement a, Measurement b) {
        return a.ok() && b.ok();
    }

    private static String rate(Measurement m) {
        return m.ok() ? interval(m.throughput()) : "failed";
    }

    /** "1234 (1200-1268)": the figure and its 95% interval, or the figure alone when there is none. */
    static String interval(Stats.Interval i) {
        return i.known() ? "%s (%s-%s)".formatted(f(i.value()), f(i.low()), f(i.high())) : f(i.value());
    }

    private static String ratio(Measurement a, Measurement b, Stats.Interval ratio) {
        if (!both(a, b) || Double.isNaN(ratio.value())) {
            return "-";
        }
        return ratio.known() ? String.format(Locale.ROOT, "%.2f (%.2f-%.2f)", ratio.value(), ratio.low(), ratio.high())
                : String.format(Locale.ROOT, "%.2f", ratio.value());
    }

    private static String figure(Measurement m, ToDoubleFunction<Measurement.Run> figure) {
        return m.ok() ? f(m.mean(figure).value()) : "-";
    }

    private static String cores(Measurement m, ToDoubleFunction<Measurement.Run> figure) {
        return m.ok() ? "%.2f".formatted(m.mean(figure).value()) : "-";
    }

    private static String f(double value) {
        return String.format(Locale.ROOT, value >= 100 ? "%.0f" : "%.1f", value);
    }

    /** Failed answers, and their share of all answers (the rejected share when a bounded queue turns load away). */
    private static String errors(Measurement m, int runSeconds) {
        double answered = m.errors() + m.runs().stream().mapToDouble(run -> run.requestsPerSecond() * runSeconds).sum();
        return m.errors() == 0 ? "0" : "%d (%.0f %%)".formatted(m.errors(), 100 * m.errors() / answered);
    }

    private static String text(Object value) {
        return value == null ? "-" : value.toString();
    }

    private static String machine(Path appJar) {
        String cpu = read("/proc/cpuinfo").lines().filter(l -> l.startsWith("model name")).map(l -> l.substring(l.indexOf(':') + 2))
                .findFirst().orElse("unknown CPU");
        String memory = read("/proc/meminfo").lines().filter(l -> l.startsWith("MemTotal")).map(l -> l.replaceAll("\\D+", ""))
                .map(kb -> (Long.parseLong(kb) >> 20) + " GiB").findFirst().orElse("?");
        String springBoot;
        try (JarFile jar = new JarFile(appJar.toFile())) {
            springBoot = jar.getManifest().getMainAttributes().getValue("Spring-Boot-Version");
        } catch (IOException e) {
            springBoot = "?";
        }
        return "%d x %s, %s RAM, Linux %s, %s %s, Spring Boot %s".formatted(read("/proc/cpuinfo").lines().filter(l -> l.startsWith("processor")).count(), cpu,
                memory, read("/proc/sys/kernel/osrelease").trim(), System.getProperty("java.vm.name"), System.getProperty("java.version"),
                springBoot);
    }

    private static String read(String file) {
        try {
            return Files.readString(Path.of(file));
        } catch (IOException e) {
            return "";
        }
    }
}
