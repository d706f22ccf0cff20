package dev.jvmtuning.agent;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * What one pass over /proc/self/task costs the agent's thread in CPU, with and without the pass's CPU budget, and
 * what the agent's whole collection (every collector, its own pass included) costs, in this process of THREADS
 * extra threads: idle ones (parked), or busy ones (each wakes once a second, so every pass reads its status file
 * too). The variants run over the same threads in turn, one collection interval apart as in the agent. Prints the median, p25 and p75 of each variant's CPU milliseconds a pass and the threads
 * it read, and the CPU microseconds a read thread cost. Linux only; after {@code ./mvnw -f agent/pom.xml package}:
 * {@code java -cp agent/target/jvm-tuning-agent.jar:agent/target/test-classes dev.jvmtuning.agent.PassCostBenchmark THREADS idle|busy ROUNDS}
 */
public final class PassCostBenchmark {

    private static final Duration WAKE_INTERVAL = Duration.ofSeconds(1);

    private PassCostBenchmark() {}

    public static void main(String[] args) throws InterruptedException {
        int threads = Integer.parseInt(args[0]);
        boolean busy = args[1].equals("busy");
        int rounds = Integer.parseInt(args[2]);
        for (int i = 0; i < threads; i++) {
            Thread thread = new Thread(busy ? () -> wakeForever(WAKE_INTERVAL) : () -> wakeForever(null));
            thread.setDaemon(true);
            thread.start();
        }
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        HostFiles files = new HostFiles(Path.of("/"));
        TaskScan unbounded = new TaskScan(files, System::nanoTime, TaskScan.PASS_BUDGET, () -> -1, Duration.ZERO);
        TaskScan budgeted = TaskScan.ofThisProcess(files);
        BackgroundCollector agent = JvmTuningAgent.collector(files, Optional.empty());
        List<Variant> variants = List.of(
                new Variant("pass, no CPU budget", () -> unbounded.snapshot().orElseThrow().threadsRead()),
                new Variant("pass, CPU budget " + TaskScan.PASS_CPU_BUDGET.toMillis() + " ms", () -> budgeted.snapshot().orElseThrow().threadsRead()),
                new Variant("agent's collection", () -> {
                    agent.collect();
                    return null;
                }));
        for (int round = -5; round < rounds; round++) {
            for (Variant variant : variants) {
                Thread.sleep(BackgroundCollector.INTERVAL.toMillis() / variants.size());
                long started = mx.getCurrentThreadCpuTime();
                Integer read = variant.collection.get();
                long cpuNanos = mx.getCurrentThreadCpuTime() - started;
                if (round >= 0) {
                    variant.cpuMillis.add(cpuNanos / 1e6);
                    if (read != null) {
                        variant.threadsRead.add((double) read);
                        variant.microsPerThread.add(cpuNanos / 1e3 / read);
                    }
                }
            }
        }
        System.out.printf("%d %s threads, %d rounds, %s%n", threads, busy ? "busy" : "idle", rounds, System.getProperty("java.version"));
        for (Variant variant : variants) {
            System.out.printf("%-28s CPU ms %s   threads read %s   CPU us a thread read %s%n", variant.name,
                    quartiles(variant.cpuMillis), quartiles(variant.threadsRead), quartiles(variant.microsPerThread));
        }
    }

    private static void wakeForever(Duration interval) {
        while (true) {
            if (interval == null) {
                LockSupport.park();
            } else {
                LockSupport.parkNanos(interval.toNanos());
            }
        }
    }

    /** The median and, in brackets, p25-p75; "-" for none. */
    private static String quartiles(List<Double> values) {
        if (values.isEmpty()) {
            return "-";
        }
        double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return String.format("%.1f (%.1f-%.1f)", at(sorted, 0.5), at(sorted, 0.25), at(sorted, 0.75));
    }

    private static double at(double[] sorted, double quantile) {
        return sorted[(int) Math.round(quantile * (sorted.length - 1))];
    }

    /** One way to collect; it returns the threads its pass read, or null where it does not say. */
    private record Variant(String name, Supplier<Integer> collection, List<Double> cpuMillis, List<Double> threadsRead,
            List<Double> microsPerThread) {
        Variant(String name, Supplier<Integer> collection) {
            this(name, collection, new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        }
    }
}
