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
 * Times the agent's scrape as the operator sees it: the application is a process in a cgroup of its own
 * with a CPU limit (a container), saturated by its own threads (half of them spin, half sleep and wake
 * once a second); the scraper is this process, in another cgroup (another pod). Each variant is an agent
 * jar attached to an application process of its own, all of them running at once, so that variants
 * meet the same machine. Each round, in a rotating order, GETs every variant's /metrics from here and
 * has every application GET its own /metrics from one of its threads (the secondary figure: a client
 * inside the saturated container). Prints every round, then the median, p25, p75 and max of each in
 * milliseconds, and what the responses said about their data (age, collection time, threads reached).
 * Run by deploy/local/bench-agent.sh, which creates the cgroups:
 * {@code java -cp agent/target/test-classes dev.jvmtuning.agent.ScrapeBenchmark THREADS ROUNDS NAME=JAR=CGROUP_PROCS_FILE...}
 */
public final class ScrapeBenchmark {

    /** Lets the scraper sleep between GETs, as a real one does between scrapes. */
    private static final Duration PAUSE = Duration.ofMillis(500);
    private static final String PORT_PROPERTY = "jvmtuning.agent.port";
    private static final int WARM_UP_GETS = 200;
    /** What the response says about itself, reported per variant. */
    private static final List<String> REPORTED = List.of("jvmtuning_agent_collect_age_seconds",
            "jvmtuning_agent_collect_seconds", "jvmtuning_agent_scrape_seconds", "jvmtuning_agent_scrape_threads");

    private ScrapeBenchmark() {}

    public static void main(String[] args) throws Exception {
        if (args.length == 2 && args[0].equals("app")) {
            App.run(Integer.parseInt(args[1]));
            return;
        }
        int threads = Integer.parseInt(args[0]);
        int rounds = Integer.parseInt(args[1]);
        List<Variant> variants = new ArrayList<>();
        for (String spec : Arrays.copyOfRange(args, 2, args.length)) {
            String[] parts = spec.split("=", 3);
            variants.add(new Variant(parts[0], Path.of(parts[1]), Path.of(parts[2]), threads));
        }
        try {
            run(threads, rounds, variants);
        } finally {
            variants.forEach(Variant::stop);
        }
    }

    private static void run(int threads, int rounds, List<Variant> variants) throws Exception {
        Map<String, Runnable> candidates = new LinkedHashMap<>();
        Map<String, double[]> millis = new LinkedHashMap<>();
        Map<String, Map<String, List<Double>>> reported = new LinkedHashMap<>();
        for (Variant variant : variants) {
            Map<String, List<Double>> values = new LinkedHashMap<>();
            REPORTED.forEach(name -> values.put(name, new ArrayList<>()));
            reported.put(variant.name, values);
            candidates.put(variant.name + ", other cgroup", () -> get(variant.metrics, values));
            candidates.put(variant.name + ", same JVM", variant::getFromInside);
        }
        // Class loading and JIT compilation on a saturated CPU would take minutes and are not measured.
        for (int warmUp = 0; warmUp < WARM_UP_GETS; warmUp++) {
            candidates.values().forEach(Runnable::run);
        }
        reported.values().forEach(values -> values.values().forEach(List::clear));
        for (Variant variant : variants) {
            variant.startThreads();
        }
        Thread.sleep(3000);
        System.out.printf("%d variants x %d threads (half spinning, half sleeping), %s CPUs each, %d CPUs, "
                        + "load average %s%n", variants.size(), threads, System.getenv().getOrDefault("APP_CPUS", "?"),
                Runtime.getRuntime().availableProcessors(), loadAverage());

        List<String> names = new ArrayList<>(candidates.keySet());
        names.forEach(name -> millis.put(name, new double[rounds]));
        System.out.println("columns (ms): " + String.join(" | ", names));
        for (int round = 0; round < rounds; round++) {
            StringBuilder line = new StringBuilder("round " + (round + 1) + ":");
            for (int i = 0; i < names.size(); i++) {
                String name = names.get((round + i) % names.size());
                Thread.sleep(PAUSE.toMillis());
                long start = System.nanoTime();
                candidates.get(name).run();
                millis.get(name)[round] = name.endsWith("same JVM") ? variantNamed(variants, name).lastMillis
                        : (System.nanoTime() - start) / 1e6;
            }
            int done = round;
            names.forEach(name -> line.append(String.format(" %.0f", millis.get(name)[done])));
            System.out.println(line);
        }

        System.out.printf("%nscrape time in ms over %d rounds, %d threads, load average %s%n",
                rounds, threads, loadAverage());
        System.out.printf("%-40s %9s %9s %9s %9s%n", "", "median", "p25", "p75", "max");
        millis.forEach(ScrapeBenchmark::printQuantiles);
        System.out.println("as reported by the responses to the other cgroup's GETs (seconds, threads):");
        reported.forEach((variant, values) -> values.forEach((name, samples) -> printQuantiles(
                variant + " " + name.replace("jvmtuning_agent_", ""),
                samples.stream().mapToDouble(Double::doubleValue).toArray())));
    }

    private static Variant variantNamed(List<Variant> variants, String candidate) {
        return variants.stream().filter(variant -> candidate.startsWith(variant.name + ",")).findFirst().orElseThrow();
    }

    private static void printQuantiles(String name, double[] values) {
        if (values.length == 0) {
            System.out.printf("%-40s (none)%n", name);
            return;
        }
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        System.out.printf("%-40s %9.3f %9.3f %9.3f %9.3f%n", name,
                quantile(sorted, 0.5), quantile(sorted, 0.25), quantile(sorted, 0.75), sorted[sorted.length - 1]);
    }

    /**
     * One application process with one agent jar, started in its cgroup by a shell that moves itself
     * there before it becomes the JVM. It answers commands on stdin: "start" its threads, "get" its own
     * /metrics from one of its threads and answer the milliseconds (the pipe is not timed).
     */
    private static final class Variant {

        final String name;
        final URI metrics;
        private final Process process;
        private final BufferedWriter commands;
        private final BufferedReader replies;
        double lastMillis;

        Variant(String name, Path agentJar, Path cgroupProcs, int threads) throws IOException {
            this.name = name;
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            List<String> command = new ArrayList<>(List.of("sh", "-c", "echo $$ >\"$1\" && shift && exec \"$@\"", "sh",
                    cgroupProcs.toString(), java));
            String options = System.getenv("APP_JAVA_OPTS");
            if (options != null && !options.isBlank()) {
                command.addAll(List.of(options.replace("%name%", name).trim().split("\\s+")));
            }
            command.addAll(List.of("-javaagent:" + agentJar + "=port=0,host=127.0.0.1",
                    "-cp", System.getProperty("java.class.path"), ScrapeBenchmark.class.getName(),
                    "app", String.valueOf(threads)));
            process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
            commands = process.outputWriter();
            replies = process.inputReader();
            metrics = URI.create("http://127.0.0.1:" + replies.readLine() + "/metrics");
        }

        void startThreads() {
            command("start");
        }

        void getFromInside() {
            lastMillis = Double.parseDouble(command("get"));
        }

        private String command(String command) {
            try {
                commands.write(command + "\n");
                commands.flush();
                return replies.readLine();
            } catch (IOException | RuntimeException e) {
                throw new IllegalStateException(name + " failed", e);
            }
        }

        void stop() {
            process.destroyForcibly();
        }
    }

    /** The saturated application: its agent was attached with -javaagent. */
    private static final class App {

        private static volatile long sink;
        private static final CountDownLatch spinnersGo = new CountDownLatch(1);

        static void run(int threads) throws Exception {
            while (System.getProperty(PORT_PROPERTY) == null) {
                Thread.sleep(100);
            }
            URI metrics = URI.create("http://127.0.0.1:" + System.getProperty(PORT_PROPERTY) + "/metrics");
            System.out.println(System.getProperty(PORT_PROPERTY));
            System.out.flush();
            BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            for (String command = commands.readLine(); command != null; command = commands.readLine()) {
                if (command.equals("start")) {
                    startThreads(threads);
                    System.out.println("started");
                } else {
                    long start = System.nanoTime();
                    get(metrics, Map.of());
                    System.out.println((System.nanoTime() - start) / 1e6);
                }
                System.out.flush();
            }
            // The scraper is gone: so is the application.
            System.exit(0);
        }

        private static void startThreads(int threads) {
            int spinning = threads / 2;
            for (int i = 0; i < threads; i++) {
                Thread thread = new Thread(null, i < spinning ? App::spin : App::sleepAndWake, "bench-" + i, 256 * 1024);
                thread.setDaemon(true);
                thread.start();
            }
            // The spinners start together once every thread exists: started one by one, each would slow
            // the creation of the next.
            spinnersGo.countDown();
        }

        private static void spin() {
            try {
                spinnersGo.await();
            } catch (InterruptedException e) {
                return;
            }
            long x = 1;
            while (true) {
                for (int k = 0; k < 100_000; k++) {
                    x = x * 6364136223846793005L + 1442695040888963407L;
                }
                sink = x;
            }
        }

        private static void sleepAndWake() {
            while (true) {
                LockSupport.parkNanos(Duration.ofSeconds(1).toNanos());
            }
        }
    }

    /** Reads the whole response, as a scraper does, and notes what it says about its data. */
    private static void get(URI metrics, Map<String, List<Double>> reported) {
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
}
