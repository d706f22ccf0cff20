package dev.jvmtuning.agent;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
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
 * sleep and wake now and then. Each round runs, in turn and in a rotating order, a GET of the real
 * /metrics endpoint of the agent started in this JVM (served from its background collection) from a
 * thread of this JVM and from a JVM in another session, and one collection of the same collectors on
 * the measuring thread, which is what a scrape cost when the endpoint collected on request. It prints every round, then the median, p25, p75 and max of each, and
 * what the responses said about their data: its age, the background collection's duration and how many
 * threads that collection's /proc pass reached.
 * Run by deploy/local/bench-agent.sh with the shaded jar on the class path:
 * {@code java -cp agent/target/test-classes:agent/target/jvm-tuning-agent.jar dev.jvmtuning.agent.ScrapeBenchmark 2000 15}
 */
public final class ScrapeBenchmark {

    /** Lets the measuring thread sleep between runs, as a real scraper does between scrapes. */
    private static final Duration PAUSE = Duration.ofMillis(500);
    private static final String PORT_PROPERTY = "jvmtuning.agent.port";
    private static final String GET = "GET /metrics";
    /** What the response says about itself, reported per round. */
    private static final List<String> REPORTED = List.of(
            "jvmtuning_agent_collect_age_seconds", "jvmtuning_agent_collect_seconds", "jvmtuning_agent_scrape_threads");

    private static volatile long sink;
    private static volatile boolean running = true;
    private static final Map<String, List<Double>> reported = new LinkedHashMap<>();
    private static final CountDownLatch spinnersGo = new CountDownLatch(1);

    private ScrapeBenchmark() {}

    public static void main(String[] args) throws Exception {
        if (args.length == 2 && args[0].equals("client")) {
            serveAsClient(URI.create(args[1]));
            return;
        }
        int threads = args.length > 0 ? Integer.parseInt(args[0]) : 2000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 15;
        int spinning = threads / 2;
        // The agent and the collectors start and warm up first: on a saturated CPU class loading and JIT
        // compilation would take minutes, and they are not what is measured.
        JvmTuningAgent.agentmain("port=0,host=127.0.0.1", null);
        while (System.getProperty(PORT_PROPERTY) == null) {
            Thread.sleep(100);
        }
        URI metrics = URI.create("http://127.0.0.1:" + System.getProperty(PORT_PROPERTY) + "/metrics");
        BackgroundCollector onRequest = JvmTuningAgent.collector(new HostFiles(Path.of("/")));
        OtherProcess otherProcess = new OtherProcess(metrics);
        Map<String, Runnable> candidates = new LinkedHashMap<>();
        candidates.put(GET, () -> get(metrics));
        candidates.put("GET from another session", otherProcess::get);
        candidates.put("one collection (measuring thread)", onRequest::collect);
        for (int warmUp = 0; warmUp < 200; warmUp++) {
            candidates.values().forEach(Runnable::run);
        }
        REPORTED.forEach(name -> reported.put(name, new ArrayList<>()));

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
        System.out.println("columns: " + String.join(", ", names) + "; then what the GET's response reported: "
                + String.join(", ", REPORTED));
        for (int round = 0; round < rounds; round++) {
            for (int i = 0; i < names.size(); i++) {
                String name = names.get((round + i) % names.size());
                Thread.sleep(PAUSE.toMillis());
                long start = System.nanoTime();
                candidates.get(name).run();
                millis.get(name)[round] = name.equals("GET from another session") ? otherProcess.lastMillis
                        : (System.nanoTime() - start) / 1e6;
            }
            StringBuilder line = new StringBuilder("round " + (round + 1) + ", ms:");
            for (String name : names) {
                line.append(String.format(" %.0f", millis.get(name)[round]));
            }
            line.append(";");
            reported.values().forEach(values -> line.append(String.format(" %.3f", values.get(values.size() - 1))));
            System.out.println(line);
        }
        running = false;

        System.out.printf("%nscrape time in ms over %d rounds, %d threads, load average %s%n",
                rounds, threads, loadAverage());
        System.out.printf("%-36s %9s %9s %9s %9s%n", "", "median", "p25", "p75", "max");
        millis.forEach(ScrapeBenchmark::printQuantiles);
        System.out.println("as reported by the GET's responses (seconds, threads):");
        reported.forEach((name, values) -> printQuantiles(name, values.stream().mapToDouble(Double::doubleValue).toArray()));
        System.exit(0);
    }

    private static void printQuantiles(String name, double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        System.out.printf("%-36s %9.3f %9.3f %9.3f %9.3f%n", name,
                quantile(sorted, 0.5), quantile(sorted, 0.25), quantile(sorted, 0.75), sorted[sorted.length - 1]);
    }

    /**
     * A scraper outside this JVM's CPU contention, as the operator in its own container is: a JVM in a
     * session of its own (setsid), so that the kernel's autogroups give it its own CPU share instead of
     * one among the spinners. It times each GET itself, on a line from this process, and answers the
     * milliseconds; the pipe between the two is not timed.
     */
    private static final class OtherProcess {

        private final BufferedWriter commands;
        private final BufferedReader replies;
        double lastMillis;

        OtherProcess(URI metrics) throws IOException {
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            Process process = new ProcessBuilder("setsid", java, "-cp", System.getProperty("java.class.path"),
                    ScrapeBenchmark.class.getName(), "client", metrics.toString())
                    .redirectError(ProcessBuilder.Redirect.INHERIT).start();
            commands = process.outputWriter();
            replies = process.inputReader();
        }

        void get() {
            try {
                commands.write("get\n");
                commands.flush();
                lastMillis = Double.parseDouble(replies.readLine());
            } catch (IOException | RuntimeException e) {
                throw new IllegalStateException("the other process failed", e);
            }
        }
    }

    private static void serveAsClient(URI metrics) throws IOException {
        BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        while (commands.readLine() != null) {
            long start = System.nanoTime();
            get(metrics);
            System.out.println((System.nanoTime() - start) / 1e6);
            System.out.flush();
        }
    }

    /** Reads the whole response, as a scraper does, and notes what it says about its data. */
    private static void get(URI metrics) {
        try {
            HttpURLConnection connection = (HttpURLConnection) metrics.toURL().openConnection();
            try (InputStream in = connection.getInputStream()) {
                String body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
                reported.forEach((name, values) -> body.lines()
                        .filter(line -> line.startsWith(name + " "))
                        .mapToDouble(line -> Double.parseDouble(line.substring(line.indexOf(' ') + 1)))
                        .findFirst().ifPresent(values::add));
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
