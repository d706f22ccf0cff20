package dev.jvmtuning.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class LabSummaryTest {
    private static final Path RESULTS = Path.of("../results");
    private static final List<String> SCENARIOS = Scenario.ALL.stream().map(Scenario::name).toList();

    /** A run's report as the lab writes it: its line, then its summary of one row a scenario and its targets. */
    private static String run(String date, boolean quick, String... scenarioAndRatio) {
        StringBuilder md = new StringBuilder("# Tuning lab run\n\nWritten by `deploy/local/lab.sh`" + (quick ? " in quick mode (`LAB_QUICK=1`)" : "")
                + " on " + date + " in 12 min. Machine: 2 x test CPU.\n\n## Summary\n\n" + LabSummary.COLUMNS + "\n"
                + "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (int i = 0; i < scenarioAndRatio.length; i += 2) {
            md.append("| ").append(scenarioAndRatio[i]).append(" | SpringBootTomcat | 100 | 200 (max threads 50) | 190 | ").append(scenarioAndRatio[i + 1])
                    .append(" | 1.90 | 1.00 | 0.90 | 0.95 | 2 | yes | 0 (max 0) |\n");
        }
        md.append("\nTargets (met: the point estimate meets the target):\n\n");
        for (int i = 0; i < scenarioAndRatio.length; i += 2) {
            md.append("- met: ").append(scenarioAndRatio[i]).append(": planner/best throughput >= 0.95 (").append(date).append(")\n");
        }
        for (int i = 0; i < scenarioAndRatio.length; i += 2) {
            md.append("\n## ").append(scenarioAndRatio[i]).append("\n\nIts settings.\n");
        }
        return md.toString();
    }

    @Test
    void theSummaryShowsTheLatestFullRunOfEachScenarioAndWhichRunThatWas() {
        SortedMap<String, String> reports = new TreeMap<>();
        reports.put("runs/2026-11-23/report.md", run("2026-11-23", false, "io-bound", "0.87", "allocation-heavy", "0.68"));
        reports.put("runs/2026-11-27-1020/report.md", run("2026-11-27", false, "allocation-heavy", "1.05"));
        reports.put("runs/2026-11-28-quick/report.md", run("2026-11-28", true, "io-bound", "0.50"));
        String summary = LabSummary.of(reports, List.of("io-bound", "allocation-heavy", "cpu-bound"), false);

        assertContains(summary, "| io-bound | [2026-11-23](runs/2026-11-23/report.md#io-bound) | SpringBootTomcat | 100 | 200 (max threads 50) | 190 | 0.87 |");
        // A later run of a scenario replaces its row; a quick run is not a full run's figure.
        assertContains(summary, "| allocation-heavy | [2026-11-27](runs/2026-11-27-1020/report.md#allocation-heavy) | SpringBootTomcat | 100 | 200 (max threads 50) | 190 | 1.05 |");
        assertFalse(summary.contains("| 0.68 |"), summary);
        assertFalse(summary.contains("| 0.50 |"), summary);
        assertContains(summary, "- met: allocation-heavy: planner/best throughput >= 0.95 (2026-11-27)");
        assertFalse(summary.contains("(2026-11-28)"), summary);
        assertContains(summary, "No full run yet of: cpu-bound.");
        assertContains(summary, "| [runs/2026-11-27-1020/report.md](runs/2026-11-27-1020/report.md) | 2026-11-27 | 12 | 2 x test CPU | allocation-heavy |");
        assertTrue(summary.indexOf("| io-bound |") < summary.indexOf("| allocation-heavy |"), "rows in the scenarios' order: " + summary);
        String quick = LabSummary.of(reports, List.of("io-bound"), true);
        assertContains(quick, "| 0.50 |");
        assertFalse(quick.contains("| 0.87 |"), "a quick summary, of the quick runs: " + quick);
    }

    @Test
    void severalRunsInOneReportTakeTheirOwnSectionsAndTheLastOfADayWins() {
        String twoRuns = "# Runs of a day\n\n# Run 1: vt-pool-bound\n\n" + run("2026-11-26", false, "vt-pool-bound", "0.80").replace("# Tuning lab run\n\n", "")
                + "\n# Run 2: vt-pool-bound again\n\n" + run("2026-11-26", false, "vt-pool-bound", "1.00").replace("# Tuning lab run\n\n", "");
        SortedMap<String, String> reports = new TreeMap<>(Map.of("runs/2026-11-26/report.md", twoRuns));
        String summary = LabSummary.of(reports, List.of("vt-pool-bound"), false);
        // GitHub numbers a repeated heading's anchor: the second "vt-pool-bound" section is #vt-pool-bound-1.
        assertContains(summary, "| vt-pool-bound | [2026-11-26](runs/2026-11-26/report.md#vt-pool-bound-1) | SpringBootTomcat | 100 | 200 (max threads 50) | 190 | 1.00 |");
        assertFalse(summary.contains("| 0.80 |"), summary);
    }

    @Test
    void aSummaryOfOtherColumnsIsAnOlderMethodsAndStaysOutOfIt() {
        String older = "Written by `deploy/local/lab.sh` on 2026-11-22 in 28 min. Machine: 2 x test CPU.\n\n"
                + "| scenario | default req/s | best req/s | best setting | planner req/s | planner/best |\n|---|---|---|---|---|---|\n"
                + "| mixed | 100 | 200 | max threads 50 | 150 | 0.75 |\n";
        assertEquals(List.of(), LabSummary.measured("runs/2026-11-22/report.md", older, false));
    }

    /** The committed summary is what the committed run reports give: regenerated after every run, never edited by hand. */
    @Test
    void theCommittedSummaryIsTheLatestOfTheCommittedRuns() throws Exception {
        String regenerated = LabSummary.of(LabSummary.reports(RESULTS), SCENARIOS, false);
        if (Boolean.getBoolean("lab.summary.update")) {
            Files.writeString(RESULTS.resolve(LabSummary.FILE), regenerated);
        }
        assertEquals(regenerated, Files.readString(RESULTS.resolve(LabSummary.FILE)),
                "lab/results/RESULTS.md against its run reports (rewrite it: -Dlab.summary.update=true)");
        assertContains(regenerated, "](runs/2026-11-26/report.md#");
        for (String link : regenerated.lines().flatMap(line -> Pattern.compile("\\]\\((runs/[^)#]+)").matcher(line).results())
                .map(match -> match.group(1)).distinct().toList()) {
            assertTrue(Files.exists(RESULTS.resolve(link)), "a run the summary links: " + link);
        }
    }

    private static void assertContains(String text, String part) {
        assertTrue(text.contains(part), () -> "expected " + part + " in:\n" + text);
    }
}
