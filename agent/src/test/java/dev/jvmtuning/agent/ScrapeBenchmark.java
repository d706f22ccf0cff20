package dev.jvmtuning.agent;

import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.LockSupport;

/**
 * Times the agent's scrape in a process with many threads on a saturated CPU: half of them spin, half
 * sleep and wake now and then. Each round runs, in turn and in a rotating order, the previous /proc
 * pass, today's pass with its production budget, today's pass without a budget, and a GET of the real
 * /metrics endpoint of the agent started in this JVM; it prints the median and the p25-p75 of each.
 * Run by deploy/local/bench-agent.sh with the shaded jar on the class path:
 * {@code java -cp agent/target/test-classes:agent/target/jvm-tuning-agent.jar dev.jvmtuning.agent.ScrapeBenchmark 2000 15}
 */
public final class ScrapeBenchmark {

    /** Lets the measuring thread sleep between runs, as a real scrape thread does between scrapes. */
    private static final Duration PAUSE = Duration.ofMillis(500);
    private static final String PORT_PROPERTY = "jvmtuning.agent.port";

    private static volatile long sink;
    private static volatile boolean running = true;
    private static double lastThreadsReached = Double.NaN;
    private static final CountDownLatch spinnersGo = new CountDownLatch(1);

    private ScrapeBenchmark() {}

    public static void main(String[] args) throws Exception {
        int threads = args.length > 0 ? Integer.parseInt(args[0]) : 2000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 15;
        int spinning = threads / 2;
        // The agent and both implementations start and warm up first: on a saturated CPU class loading and
        // JIT compilation would take minutes, and they are not what is measured.
        JvmTuningAgent.agentmain("port=0,host=127.0.0.1", null);
        while (System.getProperty(PORT_PROPERTY) == null) {
            Thread.sleep(100);
        }
        URI metrics = URI.create("http://127.0.0.1:" + System.getProperty(PORT_PROPERTY) + "/metrics");
        PreviousTaskScan previous = new PreviousTaskScan();
        HostFiles proc = new HostFiles(Path.of("/"));
        TaskScan budgeted = new TaskScan(proc, System::nanoTime, ThreadSchedulingMetrics.PASS_BUDGET);
        TaskScan unbounded = new TaskScan(proc, System::nanoTime, Duration.ofHours(1));
        Map<String, Runnable> candidates = new LinkedHashMap<>();
        candidates.put("previous /proc pass", previous::scrape);
        candidates.put("new /proc pass, 100 ms budget", budgeted::snapshot);
        candidates.put("new /proc pass, no budget", unbounded::snapshot);
        candidates.put("GET /metrics (new agent)", () -> get(metrics));
        for (int warmUp = 0; warmUp < 200; warmUp++) {
            candidates.values().forEach(Runnable::run);
        }

        for (int i = 0; i < threads; i++) {
            Thread thread = new Thread(null, i < spinning ? ScrapeBenchmark::spin : ScrapeBenchmark::sleepAndWake,
                    "bench-" + i, 256 * 1024);
            thread.setDaemon(true);
            thread.start();
        }
        // The spinners start together once every thread exists: started one by one, each would slow the
        // creation of the next.
        spinnersGo.countDown();
        Thread.sleep(2000);
        System.out.printf("%d threads started (%d spinning, %d sleeping), %d CPUs, load average %s%n",
                threads, spinning, threads - spinning, Runtime.getRuntime().availableProcessors(), loadAverage());

        List<String> names = new ArrayList<>(candidates.keySet());
        Map<String, double[]> millis = new LinkedHashMap<>();
        names.forEach(name -> millis.put(name, new double[rounds]));
        List<Double> threadsReached = new ArrayList<>();
        System.out.println("columns: " + String.join(", ", names));
        for (int round = 0; round < rounds; round++) {
            for (int i = 0; i < names.size(); i++) {
                String name = names.get((round + i) % names.size());
                Thread.sleep(PAUSE.toMillis());
                long start = System.nanoTime();
                candidates.get(name).run();
                millis.get(name)[round] = (System.nanoTime() - start) / 1e6;
            }
            threadsReached.add(lastThreadsReached);
            StringBuilder line = new StringBuilder("round " + (round + 1) + ", ms:");
            for (String name : names) {
                line.append(String.format(" %.0f", millis.get(name)[round]));
            }
            System.out.println(line);
        }
        running = false;

        System.out.printf("%nscrape time in ms over %d rounds, %d threads, load average %s%n",
                rounds, threads, loadAverage());
        System.out.printf("%-32s %9s %9s %9s %9s%n", "", "median", "p25", "p75", "max");
        millis.forEach((name, values) -> {
            double[] sorted = values.clone();
            Arrays.sort(sorted);
            System.out.printf("%-32s %9.1f %9.1f %9.1f %9.1f%n", name,
                    quantile(sorted, 0.5), quantile(sorted, 0.25), quantile(sorted, 0.75), sorted[sorted.length - 1]);
        });
        double[] reached = threadsReached.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        System.out.printf("threads the endpoint's pass reached (jvmtuning_agent_scrape_threads): median %.0f, min %.0f%n",
                quantile(reached, 0.5), reached[0]);
        System.exit(0);
    }

    /** Reads the whole response, as a scraper does, and notes how many threads the agent's pass reached. */
    private static void get(URI metrics) {
        try {
            HttpURLConnection connection = (HttpURLConnection) metrics.toURL().openConnection();
            try (InputStream in = connection.getInputStream()) {
                String body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
                lastThreadsReached = body.lines()
                        .filter(line -> line.startsWith("jvmtuning_agent_scrape_threads "))
                        .mapToDouble(line -> Double.parseDouble(line.substring(line.indexOf(' ') + 1)))
                        .findFirst().orElse(Double.NaN);
            }
        } catch (IOException e) {
            throw new IllegalStateException("scrape failed", e);
        }
    }

    private static double quantile(double[] sorted, double q) {
        double position = q * (sorted.length - 1);
        int below = (int) Math.floor(position);
        int above = Math.min(below + 1, sorted.length - 1);
        return sorted[below] + (sorted[above] - sorted[below]) * (position - below);
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (IOException e) {
            return "unknown";
        }
    }

    private static void spin() {
        try {
            spinnersGo.await();
        } catch (InterruptedException e) {
            return;
        }
        long x = 1;
        while (running) {
            for (int k = 0; k < 100_000; k++) {
                x = x * 6364136223846793005L + 1442695040888963407L;
            }
            sink = x;
        }
    }

    private static void sleepAndWake() {
        while (running) {
            LockSupport.parkNanos(Duration.ofSeconds(1).toNanos());
        }
    }
}
