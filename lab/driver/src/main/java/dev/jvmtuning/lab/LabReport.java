package dev.jvmtuning.lab;

import dev.jvmtuning.lab.TuningLab.ScenarioResult;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.geom.Ellipse2D;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
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

/** Writes the lab's results: RESULTS.md (machine, method, summary, every measurement), runs.csv and the plots. */
final class LabReport {
    static final double PLANNER_TO_BEST = 0.95;
    static final double P99_TO_BEST = 1.2;
    static final double IO_BOUND_TO_DEFAULT = 3;

    private LabReport() {
    }

    static void write(Path dir, List<ScenarioResult> results, int runs, int runSeconds, int warmupSeconds, double elapsedSeconds, Path appJar)
            throws IOException {
        Files.createDirectories(dir);
        StringBuilder md = new StringBuilder();
        md.append("# Tuning lab results\n\n");
        md.append("Written by `deploy/local/lab.sh` on ").append(LocalDate.now()).append(" in ").append(Math.round(elapsedSeconds / 60))
                .append(" min. Machine: ").append(machine(appJar)).append(".\n\n");
        md.append("""
                Each setting runs the workload app on the scenario's runtime (Spring Boot on Tomcat or Jetty, `lab/workload-app`;
                Quarkus, `lab/quarkus-app`) as a real process inside a
                cgroup with the scenario's CPU and memory limits, so the JVM picks its defaults as it would in a pod. A closed-loop
                load generator in the lab's JVM (keep-alive connections, each client sending its next request when the last is
                answered) drives 127.0.0.1: %d s of warm-up, then %d runs of %d s of the same load on the same process; the
                figures are the runs' medians. Throughput counts 2xx answers. The generator shares the 2 cores, with priority
                (the app's cgroup has a low CPU weight); CPU is the app's own, RSS its peak. The machine is a VM: *steal* is the
                share of its CPU time the hypervisor gave to other guests during the runs, and it moves the figures by tens of
                percent: a run with more than 20 %% steal is discarded and repeated (at most 3 times per setting; *discarded* counts
                them), and differences of less than ~20 %% between settings are best read as noise.
                *best* is the sweep's highest throughput (the defaults included); each sweep starts from the best setting found so far.
                *planner* is the plan from the scenario's workload figures, *loop 1* the plan from the metrics the operator's own
                window read during the defaults' runs (`ObservedWorkload`: the target rate, the server time without CPU and
                connection waits, CPU and connection time per request), *loop 2* the same from loop 1's runs. *auto n* is mode
                Auto's loop itself (`AutoLoop`, `MeasuredReplan`: the operator's classes, each lab measurement one observation
                window, its default step limit, threshold and regression guard) from the defaults: *Auto iterations to 0.95* counts
                its iterations until a setting reaches 0.95 of the best (0: the defaults already do), *stable* says whether it then
                kept its settings for %d more iterations. Effective settings are read back from the app's metrics.

                """.formatted(warmupSeconds, runs, runSeconds, TuningLab.STABLE_ITERATIONS));
        md.append("## Summary\n\n");
        md.append("| scenario | default req/s | best req/s | best setting | planner req/s | planner/best | planner/default | p99 planner/best | loop 1/best | loop 2/best | Auto iterations to 0.95 | stable |\n");
        md.append("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        List<String> findings = new ArrayList<>();
        for (ScenarioResult r : results) {
            double best = r.best().throughput();
            md.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n".formatted(r.scenario().name(), rate(r.defaults()), rate(r.best()),
                    r.best().label(), rate(r.planner()), ratio(r.planner(), r.best(), Measurement::throughput),
                    ratio(r.planner(), r.defaults(), Measurement::throughput), ratio(r.planner(), r.best(), Measurement::p99Millis),
                    ratio(r.loop1(), r.best(), Measurement::throughput), ratio(r.loop2(), r.best(), Measurement::throughput),
                    r.auto().iterationsTo95() == null ? "not within " + (r.auto().iterations().size() - 1) : r.auto().iterationsTo95(),
                    r.auto().iterationsTo95() == null ? "-" : r.auto().stable() ? "yes" : "no"));
            check(findings, r.scenario().name() + ": Auto reaches " + TuningLab.AUTO_TARGET + " of the best and stays there",
                    r.auto().iterationsTo95() != null && r.auto().stable());
            check(findings, r.scenario().name() + ": planner/best throughput >= " + PLANNER_TO_BEST,
                    ok(r.planner()) && r.planner().throughput() >= PLANNER_TO_BEST * best);
            check(findings, r.scenario().name() + ": planner p99 <= " + P99_TO_BEST + " x best's",
                    ok(r.planner()) && r.planner().p99Millis() <= P99_TO_BEST * r.best().p99Millis());
            check(findings, r.scenario().name() + ": closed loop reaches planner/best >= " + PLANNER_TO_BEST + " within two iterations",
                    (ok(r.loop1()) && r.loop1().throughput() >= PLANNER_TO_BEST * best) || (ok(r.loop2()) && r.loop2().throughput() >= PLANNER_TO_BEST * best));
            if (r.scenario().name().equals("io-bound")) {
                check(findings, "io-bound: planner/default throughput >= " + IO_BOUND_TO_DEFAULT,
                        ok(r.planner()) && r.planner().throughput() >= IO_BOUND_TO_DEFAULT * r.defaults().throughput());
            }
        }
        md.append("\nTargets:\n\n");
        findings.forEach(f -> md.append("- ").append(f).append('\n'));

        StringBuilder csv = new StringBuilder("scenario,origin,setting,run,requests_per_second,mean_ms,p99_ms,errors,cpu_cores,steal_percent\n");
        for (ScenarioResult r : results) {
            Scenario s = r.scenario();
            md.append("\n## ").append(s.name()).append("\n\n").append(s.shape()).append(" (runtime ").append(s.runtime()).append("). ").append(s.clients())
                    .append(" closed-loop clients on `").append(s.query()).append("`; container ").append(limits(s)).append(".\n\n");
            md.append("| origin | setting | max threads | pool | heap MiB | GC | req/s | mean ms | p99 ms | errors | CPU cores | steal % | discarded | peak RSS MiB |\n");
            md.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
            for (Measurement m : all(r)) {
                Measurement.Effective e = m.effective();
                md.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n".formatted(m.origin(), m.label(), text(e.maxThreads()),
                        text(e.poolSize()), text(e.heapMiB()), text(e.collector()), rate(m), ok(m) ? f(m.meanMillis()) : "-",
                        ok(m) ? f(m.p99Millis()) : "-", errors(m, runSeconds), ok(m) ? "%.2f".formatted(m.cpuCores()) : "-",
                        ok(m) ? "%.0f".formatted(m.stealPercent()) : "-", m.discardedRuns(),
                        m.peakRssBytes() == 0 ? "-" : Long.toString(m.peakRssBytes() >> 20)));
                for (int i = 0; i < m.runs().size(); i++) {
                    Measurement.Run run = m.runs().get(i);
                    csv.append(String.join(",", s.name(), m.origin(), '"' + m.label() + '"', Integer.toString(i + 1), f(run.requestsPerSecond()),
                            f(run.meanMillis()), f(run.p99Millis()), Long.toString(run.errors()), "%.3f".formatted(run.cpuCores()),
                            "%.1f".formatted(run.stealPercent()))).append('\n');
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
        Files.writeString(dir.resolve("RESULTS.md"), md);
        Files.writeString(dir.resolve("runs.csv"), csv);
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
        points.stream().filter(m -> ok(m) && m.effective().maxThreads() != null).forEach(m -> sweep.add((double) m.effective().maxThreads(), m.throughput()));
        data.addSeries(sweep);
        for (Measurement m : List.of(r.defaults(), r.planner(), r.loop1(), r.loop2())) {
            XYSeries marker = new XYSeries(m.origin() + (m.effective().maxThreads() == null ? " (n/a)" : " (" + m.effective().maxThreads() + " threads)"));
            if (ok(m) && m.effective().maxThreads() != null) {
                marker.add((double) m.effective().maxThreads(), m.throughput());
            }
            data.addSeries(marker);
        }
        JFreeChart chart = ChartFactory.createXYLineChart(r.scenario().name() + ": throughput against max threads", "max threads (log scale)",
                "requests per second (median)", data, PlotOrientation.VERTICAL, true, false, false);
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
            data.addValue(ok(m) ? m.throughput() : 0, "requests per second (median)", m.origin() + ": " + m.label());
        }
        JFreeChart chart = ChartFactory.createBarChart(r.scenario().name() + ": throughput of every setting", null,
                "requests per second (median)", data, PlotOrientation.HORIZONTAL, false, false, false);
        chart.getCategoryPlot().setBackgroundPaint(Color.WHITE);
        String file = r.scenario().name() + "-settings.png";
        ChartUtils.saveChartAsPNG(dir.resolve(file).toFile(), chart, 900, 120 + 28 * all(r).size());
        return file;
    }

    private static void check(List<String> findings, String target, boolean met) {
        findings.add((met ? "met: " : "**missed**: ") + target);
    }

    private static boolean ok(Measurement m) {
        return m.failure() == null && !m.runs().isEmpty();
    }

    private static String rate(Measurement m) {
        return ok(m) ? f(m.throughput()) : "failed";
    }

    private static String ratio(Measurement a, Measurement b, Function<Measurement, Double> figure) {
        return ok(a) && ok(b) && figure.apply(b) > 0 ? "%.2f".formatted(figure.apply(a) / figure.apply(b)) : "-";
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
        return "%d x %s, %s RAM, Linux %s, %s %s, Spring Boot %s".formatted(java.lang.Runtime.getRuntime().availableProcessors(), cpu,
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
