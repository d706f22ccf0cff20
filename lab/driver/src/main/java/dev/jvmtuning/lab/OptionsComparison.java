package dev.jvmtuning.lab;

import dev.jvmtuning.lab.harness.ClosedLoopLoad;
import dev.jvmtuning.lab.harness.LabApp;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * JVM options side by side on one JDK, before the planner uses them: the workload app runs once per
 * variant and round, in interleaved rounds (A B A B ...), so that a neighbour's load hits every variant
 * alike and cancels out of the paired ratios. Each run: start, warm up under closed-loop load on
 * loopback, measure throughput, read the resident set, then the live heap after a full collection
 * (the total of {@code jcmd GC.class_histogram}, which collects first: exact bytes, whatever the collector).
 * The app runs on CPU 1, this JVM (the load) should run on CPU 0.
 * <pre>
 * java -cp ... dev.jvmtuning.lab.OptionsComparison JAVA_HOME APP_JAR ROUNDS WARMUP_S RUN_S CLIENTS QUERY NAME=OPTIONS...
 * </pre>
 * OPTIONS are space-separated JVM options; the first variant is the baseline of the ratios.
 */
public final class OptionsComparison {
    private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(120);
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private record Variant(String name, List<String> options) {
        static Variant parse(String argument) {
            int equals = argument.indexOf('=');
            return new Variant(argument.substring(0, equals), List.of(argument.substring(equals + 1).trim().split("\\s+")));
        }
    }

    private record Run(double requestsPerSecond, long liveHeapBytes, long rssBytes) {
    }

    private OptionsComparison() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 8) {
            System.err.println("usage: OptionsComparison JAVA_HOME APP_JAR ROUNDS WARMUP_S RUN_S CLIENTS QUERY NAME=OPTIONS...");
            System.exit(2);
        }
        Path javaHome = Path.of(args[0]);
        Path appJar = Path.of(args[1]);
        int rounds = Integer.parseInt(args[2]);
        int warmup = Integer.parseInt(args[3]);
        int seconds = Integer.parseInt(args[4]);
        int clients = Integer.parseInt(args[5]);
        String query = args[6];
        List<Variant> variants = Arrays.stream(args, 7, args.length).map(Variant::parse).toList();
        Run[][] runs = new Run[variants.size()][rounds];
        System.out.printf("%s %s, %d rounds, %d s warm-up, %d s measured, %d clients, %s%n", Instant.now(), javaHome, rounds, warmup,
                seconds, clients, query);
        for (int round = 0; round < rounds; round++) {
            for (int v = 0; v < variants.size(); v++) {
                Run run = run(javaHome, appJar, variants.get(v), warmup, seconds, clients, query);
                runs[v][round] = run;
                System.out.printf(Locale.ROOT, "round %d %-12s %8.1f req/s  live heap %7.2f MiB  RSS %7.1f MiB%n", round + 1,
                        variants.get(v).name(), run.requestsPerSecond(), mib(run.liveHeapBytes()), mib(run.rssBytes()));
            }
        }
        System.out.println("| variant | options | req/s (95% CI) | live heap after full GC, MiB (95% CI) | RSS, MiB (95% CI) "
                + "| req/s vs " + variants.get(0).name() + " | live heap vs " + variants.get(0).name() + " | RSS vs " + variants.get(0).name() + " |");
        System.out.println("|---|---|---|---|---|---|---|---|");
        for (int v = 0; v < variants.size(); v++) {
            double[] rps = Arrays.stream(runs[v]).mapToDouble(Run::requestsPerSecond).toArray();
            double[] live = Arrays.stream(runs[v]).mapToDouble(run -> mib(run.liveHeapBytes())).toArray();
            double[] rss = Arrays.stream(runs[v]).mapToDouble(run -> mib(run.rssBytes())).toArray();
            double[] baseRps = Arrays.stream(runs[0]).mapToDouble(Run::requestsPerSecond).toArray();
            double[] baseLive = Arrays.stream(runs[0]).mapToDouble(run -> mib(run.liveHeapBytes())).toArray();
            double[] baseRss = Arrays.stream(runs[0]).mapToDouble(run -> mib(run.rssBytes())).toArray();
            System.out.printf(Locale.ROOT, "| %s | `%s` | %s | %s | %s | %s | %s | %s |%n", variants.get(v).name(),
                    String.join(" ", variants.get(v).options()), interval(Stats.mean(rps), "%.0f"), interval(Stats.mean(live), "%.2f"),
                    interval(Stats.mean(rss), "%.0f"), interval(Stats.pairedRatio(rps, baseRps), "%.3f"),
                    interval(Stats.pairedRatio(live, baseLive), "%.3f"), interval(Stats.pairedRatio(rss, baseRss), "%.3f"));
        }
    }

    private static Run run(Path javaHome, Path appJar, Variant variant, int warmup, int seconds, int clients, String query)
            throws IOException, InterruptedException {
        int port = LabApp.freePort();
        List<String> command = new ArrayList<>(List.of("taskset", "-c", "1", javaHome.resolve("bin/java").toString()));
        command.addAll(variant.options());
        command.addAll(List.of("-Dserver.address=127.0.0.1", "-Dserver.port=" + port, "-jar", appJar.toString()));
        Path log = Files.createTempFile("options-comparison-", ".log");
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            String url = "http://127.0.0.1:" + port + query;
            awaitAnswer(process, url, log);
            try (ClosedLoopLoad load = new ClosedLoopLoad(url, clients)) {
                load.measure(warmup);
                ClosedLoopLoad.Result result = load.measure(seconds);
                if (result.errors() > 0) {
                    throw new IOException(variant.name() + ": " + result.errors() + " failed requests");
                }
                long rss = rssBytes(process.pid());
                return new Run(result.requestsPerSecond(), liveHeapBytes(javaHome, process.pid()), rss);
            }
        } finally {
            process.destroy();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
            Files.deleteIfExists(log);
        }
    }

    private static void awaitAnswer(Process process, String url, Path log) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + STARTUP_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IOException("the app exited with " + process.exitValue() + ": " + Files.readString(log));
            }
            try {
                HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.discarding());
                return;
            } catch (IOException notYet) {
                Thread.sleep(200);
            }
        }
        throw new IOException("the app did not answer in " + STARTUP_TIMEOUT.toSeconds() + " s");
    }

    /** The histogram's last line, "Total INSTANCES BYTES", after the full collection it starts with. */
    private static long liveHeapBytes(Path javaHome, long pid) throws IOException, InterruptedException {
        Process jcmd = new ProcessBuilder(javaHome.resolve("bin/jcmd").toString(), Long.toString(pid), "GC.class_histogram")
                .redirectErrorStream(true).start();
        String output = new String(jcmd.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        jcmd.waitFor();
        return output.lines().filter(line -> line.trim().startsWith("Total")).map(line -> line.trim().split("\\s+"))
                .map(fields -> Long.parseLong(fields[2])).findFirst()
                .orElseThrow(() -> new IOException("no histogram total from jcmd: " + output));
    }

    private static long rssBytes(long pid) throws IOException {
        return Files.readAllLines(Path.of("/proc/" + pid + "/status")).stream().filter(line -> line.startsWith("VmRSS:"))
                .map(line -> Long.parseLong(line.replaceAll("\\D", "")) * 1024).findFirst().orElseThrow();
    }

    private static double mib(long bytes) {
        return bytes / (1024.0 * 1024.0);
    }

    private static String interval(Stats.Interval interval, String format) {
        return String.format(Locale.ROOT, format + " [" + format + ", " + format + "]", interval.value(), interval.low(), interval.high());
    }
}
