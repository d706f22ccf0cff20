package dev.jvmtuning.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LabReportTest {
    private static Measurement measured(String origin, int threads, double... rateByRound) {
        List<Measurement.Run> runs = new ArrayList<>();
        for (int round = 0; round < rateByRound.length; round++) {
            runs.add(new Measurement.Run(round + 1, rateByRound[round], 10, 20, 0, 0, 1, 0.1, 5));
        }
        return new Measurement(origin, origin, Map.of("SERVER_TOMCAT_THREADS_MAX", Integer.toString(threads)), runs,
                new Measurement.Effective(threads, null, 256L, "Serial"), 300L << 20, null, null);
    }

    @Test
    void aTargetIsMetByThePointEstimateAndNotByAnIntervalThatOnlyReachesIt(@TempDir Path dir) throws Exception {
        Scenario cpuBound = Scenario.ALL.stream().filter(s -> s.name().equals("cpu-bound")).findFirst().orElseThrow();
        Measurement defaults = measured("default", 200, 100, 100, 100);
        Measurement best = measured("sweep", 2, 100, 120, 80);
        // planner/best per round 0.95, 0.97, 1.0: 0.97
        Measurement planner = measured("planner", 4, 95, 116.4, 80);
        // loop 1/best per round 0.90, 0.95, 1.0: 0.949, its interval reaching 0.95; loop 2 wholly below
        Measurement loop1 = measured("loop 1", 50, 90, 114, 80);
        Measurement loop2 = measured("loop 2", 60, 80, 97.2, 64);
        TuningLab.AutoRun auto = new TuningLab.AutoRun(List.of(defaults), null, false, List.of());
        TuningLab.ScenarioResult result = new TuningLab.ScenarioResult(cpuBound, defaults, List.of(best), best, planner, loop1, loop2, auto,
                List.of());
        Path run = LabReport.runFolder(dir, LocalDateTime.of(2026, 12, 3, 16, 12));
        Path report = LabReport.write(run, List.of(result), 60, dir.resolve("no.jar"));
        assertEquals(dir.resolve("runs/2026-12-03-1612/report.md"), report);
        String md = Files.readString(report);
        assertTrue(md.contains("met: cpu-bound: planner/best throughput >= 0.95"), md);
        assertTrue(md.contains("**missed**: cpu-bound: closed loop reaches planner/best >= 0.95 within two iterations"), md);
        assertTrue(md.contains("| 0.97 (0.91-1.04) |"), md);
        assertTrue(md.contains("| 0.95 (0.83-1.08) |"), "loop 1/best, rounded: " + md);
        assertTrue(Files.exists(run.resolve("cpu-bound.png")));
        assertTrue(Files.exists(run.resolve("runs.csv")));
        String summary = Files.readString(dir.resolve("RESULTS.md"));
        assertTrue(summary.contains("| cpu-bound | [" + LocalDate.now() + "](runs/2026-12-03-1612/report.md#cpu-bound) | SpringBootTomcat |"), summary);
        assertTrue(summary.contains("- met: cpu-bound: planner/best throughput >= 0.95"), summary);
        assertEquals(dir.resolve("runs/2026-12-03-1612-2"), LabReport.runFolder(dir, LocalDateTime.of(2026, 12, 3, 16, 12)),
                "a second run in the same minute gets a folder of its own");
    }
}
