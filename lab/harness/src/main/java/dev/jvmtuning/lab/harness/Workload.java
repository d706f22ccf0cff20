package dev.jvmtuning.lab.harness;

import java.lang.management.ManagementFactory;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A JVM that puts one kind of pressure on itself, for tests that run it as a real process with the
 * tuning agent attached and check what the operator makes of the agent's metrics:
 * {@code java [-Xmx24m] -javaagent:... dev.jvmtuning.lab.harness.Workload MODE [SECONDS]}.
 * <ul>
 *   <li>{@code churn}: GC pressure. Run with a tiny heap (-Xmx24m): two threads allocate garbage as fast as
 *       they can while replacing pieces of a live set that fills a good part of the heap, so objects keep
 *       dying after promotion and the collector spends far more than the operator's 10% threshold.
 *   <li>{@code switch}: context-switch pressure. Hundreds of threads each do a sliver of work and yield; a
 *       yielding thread stays runnable, so the kernel counts the switch as involuntary, and with so many
 *       runnable threads on a couple of cores that is far more than 2000 per core per second.
 *   <li>{@code calm}: the baseline. Two threads wake every 100 ms for a little work and allocation.
 * </ul>
 * Prints {@code workload MODE started} once its threads run and exits 0 SECONDS (default 30) after it was
 * launched, whatever the threads are doing. Uses no sockets: the agent's port is the only one in the process.
 */
public final class Workload {

    private static final int DEFAULT_SECONDS = 30;
    private static final String AGENT_PORT_PROPERTY = "jvmtuning.agent.port";
    private static final long AGENT_WAIT_NANOS = TimeUnit.SECONDS.toNanos(20);
    private static final int CHURNING_THREADS = 2;
    private static final int SWITCHING_THREADS = 300;
    private static final int CALM_THREADS = 2;

    private static volatile long sink;

    private Workload() {}

    public static void main(String[] args) throws InterruptedException {
        long launched = System.nanoTime();
        if (args.length < 1 || args.length > 2) {
            System.err.println("usage: Workload churn|switch|calm [SECONDS]");
            System.exit(2);
        }
        String mode = args[0].toLowerCase(Locale.ROOT);
        Runnable load = switch (mode) {
            case "churn" -> Workload::churn;
            case "switch" -> Workload::contextSwitches;
            case "calm" -> Workload::calm;
            default -> null;
        };
        if (load == null) {
            System.err.println("unknown mode '" + mode + "': churn, switch or calm");
            System.exit(2);
        }
        int seconds = args.length == 2 ? Integer.parseInt(args[1]) : DEFAULT_SECONDS;
        long deadline = launched + TimeUnit.SECONDS.toNanos(seconds);
        awaitAgent(Math.min(deadline, launched + AGENT_WAIT_NANOS));
        load.run();
        System.out.println("workload " + mode + " started");
        System.out.flush();
        TimeUnit.NANOSECONDS.sleep(deadline - System.nanoTime());
        // The workers are daemons, but exit explicitly so that nothing they do can keep the JVM alive.
        System.exit(0);
    }

    /**
     * The agent starts on a daemon thread and needs about a CPU-second; on a busy 2-core machine the churn
     * threads starved it for half a minute. So with the agent attached the load waits for it to listen.
     */
    private static void awaitAgent(long until) throws InterruptedException {
        boolean agentAttached = ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .anyMatch(argument -> argument.startsWith("-javaagent:") && argument.contains("jvm-tuning-agent"));
        while (agentAttached && System.getProperty(AGENT_PORT_PROPERTY) == null && System.nanoTime() < until) {
            TimeUnit.MILLISECONDS.sleep(20);
        }
    }

    private static void churn() {
        // 40% of the heap stays live: enough that old collections have real work, little enough that the
        // garbage never runs the heap out. Capped so that a run without -Xmx stays small.
        long liveBytes = Math.min(Runtime.getRuntime().maxMemory() * 2 / 5, 64L << 20);
        for (int i = 0; i < CHURNING_THREADS; i++) {
            start("churn-" + i, new Churn(liveBytes / CHURNING_THREADS));
        }
    }

    /** Small objects with references: their number, not their size, is what a collector pays for. */
    private static final class Churn implements Runnable {

        /** A node (Object[1] 24 bytes, long[4] 48 bytes) and its slot in the live set (4 bytes). */
        private static final int NODE_BYTES = 76;

        private final Object[] liveSet;

        Churn(long liveBytes) {
            liveSet = new Object[(int) (liveBytes / NODE_BYTES)];
            for (int i = 0; i < liveSet.length; i++) {
                liveSet[i] = node();
            }
        }

        private static Object node() {
            return new Object[] {new long[4]};
        }

        @Override
        public void run() {
            ThreadLocalRandom random = ThreadLocalRandom.current();
            while (true) {
                // Short-lived garbage drives young collections; the replaced slot has usually been
                // promoted already, so its death leaves work for the old generation too.
                Object[] garbage = new Object[16];
                for (int i = 0; i < garbage.length; i++) {
                    garbage[i] = new long[random.nextInt(2, 32)];
                }
                liveSet[random.nextInt(liveSet.length)] = node();
                // Read one back so that the JIT cannot drop the allocations as unused.
                sink += ((long[]) garbage[random.nextInt(garbage.length)]).length;
            }
        }
    }

    private static void contextSwitches() {
        for (int i = 0; i < SWITCHING_THREADS; i++) {
            start("switch-" + i, () -> {
                while (true) {
                    spin(200);
                    Thread.yield();
                }
            });
        }
    }

    private static void calm() {
        for (int i = 0; i < CALM_THREADS; i++) {
            start("calm-" + i, () -> {
                while (true) {
                    spin(10_000);
                    sink += new long[128].length;
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
                }
            });
        }
    }

    private static void spin(int iterations) {
        long x = sink;
        for (int i = 0; i < iterations; i++) {
            x = x * 6364136223846793005L + 1442695040888963407L;
        }
        sink = x;
    }

    private static void start(String name, Runnable work) {
        // Small stacks: the switch mode starts hundreds of these threads.
        Thread thread = new Thread(null, work, name, 256 * 1024);
        thread.setDaemon(true);
        thread.start();
    }
}
