package dev.jvmtuning.lab;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * RESULTS.md, the lab's summary: the latest run of each scenario, read from the run reports under {@code runs/}. A run of
 * some scenarios replaces their rows and keeps the others', so what the summary shows is what the lab last measured of
 * each, however the runs were split to fit the machine. Only runs of the kind summarised count (full runs, or quick ones
 * for a quick summary), and only summaries of today's columns: a report of an older method stays a record of its own.
 */
final class LabSummary {
    static final String FILE = "RESULTS.md";
    static final String RUNS = "runs";
    static final String REPORT = "report.md";
    static final String COLUMNS = "| scenario | runtime | default req/s | best req/s (setting) | planner req/s | planner/best | planner/default "
            + "| p99 planner/best | loop 1/best | loop 2/best | Auto iterations to 0.95 | stable | steal % |";
    /** The Markdown line under {@link #COLUMNS}. */
    static final String COLUMNS_RULE = "|---".repeat(COLUMNS.split("\\|", -1).length - 2) + "|";

    private static final Pattern WRITTEN = Pattern.compile("^Written by `deploy/local/lab\\.sh`( in quick mode \\(`LAB_QUICK=1`\\))? on (\\d{4}-\\d{2}-\\d{2}) "
            + "in (\\d+) min\\. Machine: (.*)\\.$");
    private static final Pattern HEADING = Pattern.compile("^#+ (.*)$");
    /** Later runs last: by the date a report states, then by its folder, then by its place in the report. */
    private static final Comparator<Run> RUN_ORDER = Comparator.comparing(Run::date).thenComparing(Run::report).thenComparingInt(Run::section);
    private static final Pattern TARGET = Pattern.compile("^- (met|\\*\\*missed\\*\\*): (.*)$");

    private LabSummary() {
    }

    /** One scenario as one run measured it: its summary row, its targets and where its section is. */
    record Measured(String scenario, String row, List<String> targets, Run run, String anchor) {
    }

    /** One run of the lab: its report (relative to the results folder), the date and machine it states, its order there. */
    record Run(String report, String date, String minutes, String machine, int section) {
    }

    /** Reads every run report under {@code dir/runs} and writes {@code dir/RESULTS.md}. */
    static void regenerate(Path dir, List<String> scenarios, boolean quick) throws IOException {
        Files.writeString(dir.resolve(FILE), of(reports(dir), scenarios, quick));
    }

    /** The run reports under {@code dir/runs}, by their path relative to {@code dir} (slashes), in that path's order. */
    static SortedMap<String, String> reports(Path dir) throws IOException {
        SortedMap<String, String> reports = new TreeMap<>();
        Path runs = dir.resolve(RUNS);
        if (!Files.isDirectory(runs)) {
            return reports;
        }
        try (Stream<Path> files = Files.walk(runs, 2)) {
            files.filter(file -> file.getFileName().toString().equals(REPORT)).forEach(file -> {
                try {
                    reports.put(dir.relativize(file).toString().replace('\\', '/'), Files.readString(file));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
        return reports;
    }

    /** The summary of the latest run of each of {@code scenarios} among {@code reports} (by path, in run order). */
    static String of(SortedMap<String, String> reports, List<String> scenarios, boolean quick) {
        Map<String, Measured> latest = new HashMap<>();
        reports.forEach((report, text) -> measured(report, text, quick).forEach(m -> latest.merge(m.scenario(), m, LabSummary::later)));
        StringBuilder md = new StringBuilder("# Tuning lab results").append(quick ? " (quick runs)" : "").append("\n\n");
        md.append("""
                The latest %s of each scenario of `deploy/local/lab.sh`, from the run reports under [runs/](runs/). Each report
                states its method, its machine and every measurement, with its plots. The lab writes a run's report there and then
                rewrites this summary from all of them, so a run of some scenarios replaces those rows and keeps the others. How to
                read the figures, and what each run changed: docs/development/lab.md.

                ## Summary

                """.formatted(quick ? "quick run (`LAB_QUICK=1`)" : "full run"));
        md.append("| scenario | run ").append(COLUMNS.substring("| scenario ".length())).append('\n');
        md.append("|---").append(COLUMNS_RULE).append('\n');
        List<Measured> shown = scenarios.stream().filter(latest::containsKey).map(latest::get).toList();
        for (Measured m : shown) {
            md.append("| ").append(m.scenario()).append(" | [").append(m.run().date()).append("](").append(m.run().report()).append('#')
                    .append(m.anchor()).append(") ").append(m.row()).append('\n');
        }
        List<String> never = scenarios.stream().filter(name -> !latest.containsKey(name)).toList();
        if (!never.isEmpty()) {
            md.append("\nNo ").append(quick ? "quick" : "full").append(" run yet of: ").append(String.join(", ", never)).append(".\n");
        }
        md.append("\nTargets, as each scenario's run judged them (its report states the rule):\n\n");
        shown.forEach(m -> m.targets().forEach(target -> md.append("- ").append(target).append('\n')));
        md.append("\n## Runs\n\n| report | written | minutes | machine | scenarios shown above |\n|---|---|---|---|---|\n");
        Map<Run, List<String>> byRun = new LinkedHashMap<>();
        shown.stream().sorted(Comparator.comparing(Measured::run, RUN_ORDER)).forEach(m -> byRun.computeIfAbsent(m.run(), run -> new ArrayList<>()).add(m.scenario()));
        Map<String, Long> runsOfReport = byRun.keySet().stream().collect(Collectors.groupingBy(Run::report, Collectors.counting()));
        byRun.forEach((run, names) -> md.append("| [").append(run.report()).append("](").append(run.report()).append(")")
                .append(runsOfReport.get(run.report()) > 1 ? ", its run " + (run.section() + 1) : "").append(" | ").append(run.date())
                .append(" | ").append(run.minutes()).append(" | ").append(run.machine()).append(" | ").append(String.join(", ", names)).append(" |\n"));
        return md.toString();
    }

    private static Measured later(Measured a, Measured b) {
        return RUN_ORDER.compare(a.run(), b.run()) >= 0 ? a : b;
    }

    /** Every scenario a report's runs of the kind asked for summarise in today's columns, with its targets and anchor. */
    static List<Measured> measured(String report, String text, boolean quick) {
        List<String> lines = List.of(text.split("\n", -1));
        List<Heading> headings = headings(lines);
        List<Measured> measured = new ArrayList<>();
        int section = 0;
        for (int at = 0; at < lines.size(); at++) {
            Matcher written = WRITTEN.matcher(lines.get(at));
            if (!written.matches()) {
                continue;
            }
            Run run = new Run(report, written.group(2), written.group(3), written.group(4), section++);
            if ((written.group(1) != null) != quick) {
                continue;
            }
            int end = at + 1;
            while (end < lines.size() && !WRITTEN.matcher(lines.get(end)).matches()) {
                end++;
            }
            List<String> part = lines.subList(at + 1, end);
            List<Matcher> targets = part.stream().map(TARGET::matcher).filter(Matcher::matches).toList();
            int header = part.indexOf(COLUMNS);
            for (int row = header + 2; header >= 0 && row < part.size() && part.get(row).startsWith("| "); row++) {
                String[] cells = part.get(row).split("\\|", 3);
                String scenario = cells[1].trim();
                // Its section: the first heading of its name after its run's line.
                String anchor = headings.subList(at + 1, end).stream().filter(heading -> heading != null && heading.name().equals(scenario))
                        .map(Heading::anchor).findFirst().orElse(slug(scenario));
                measured.add(new Measured(scenario, "|" + cells[2], targets.stream().filter(target -> target.group(2).startsWith(scenario + ": "))
                        .map(target -> target.group().substring(2)).toList(), run, anchor));
            }
        }
        return measured;
    }

    /** A heading of a report: its text and its anchor. */
    private record Heading(String name, String anchor) {
    }

    /** Each line's heading (null where it is none), its anchor numbered as GitHub numbers a heading's repeats. */
    private static List<Heading> headings(List<String> lines) {
        Map<String, Integer> seen = new HashMap<>();
        List<Heading> headings = new ArrayList<>();
        for (String line : lines) {
            Matcher heading = HEADING.matcher(line);
            if (heading.matches()) {
                String slug = slug(heading.group(1));
                int before = seen.merge(slug, 1, Integer::sum) - 1;
                headings.add(new Heading(heading.group(1).trim(), before == 0 ? slug : slug + "-" + before));
            } else {
                headings.add(null);
            }
        }
        return headings;
    }

    /** A heading's anchor as GitHub makes it: lower case, punctuation but hyphens and underscores dropped, blanks as hyphens. */
    static String slug(String heading) {
        return heading.trim().toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-');
    }
}
