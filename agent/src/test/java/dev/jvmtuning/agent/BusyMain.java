package dev.jvmtuning.agent;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * The application AgentProcessIT attaches the agent to: a few threads burning CPU for a few seconds.
 * With "churn" as second argument, the main thread meanwhile keeps starting short-lived threads that
 * sleep and spin and then exit, so that scrapes see threads come and go.
 */
public final class BusyMain {

    private static final int CHURN_THREADS = 20;
    private static volatile long sink;

    private BusyMain() {}

    public static void main(String[] args) throws InterruptedException {
        double seconds = args.length > 0 ? Double.parseDouble(args[0]) : 3;
        boolean churn = args.length > 1 && args[1].equals("churn");
        long deadline = System.nanoTime() + (long) (seconds * 1e9);
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Thread thread = new Thread(() -> spinUntil(deadline), "busy-" + i);
            thread.start();
            threads.add(thread);
        }
        while (churn && System.nanoTime() < deadline) {
            List<Thread> shortLived = new ArrayList<>();
            for (int i = 0; i < CHURN_THREADS; i++) {
                Thread thread = new Thread(BusyMain::sleepAndSpin, "short-lived-" + i);
                thread.start();
                shortLived.add(thread);
            }
            for (Thread thread : shortLived) {
                thread.join();
            }
        }
        for (Thread thread : threads) {
            thread.join();
        }
    }

    /** Voluntary switches while sleeping, involuntary ones and run-queue delay while spinning among the busy threads. */
    private static void sleepAndSpin() {
        for (int i = 0; i < 5; i++) {
            LockSupport.parkNanos(5_000_000L);
        }
        spinUntil(System.nanoTime() + 50_000_000L);
    }

    private static void spinUntil(long deadline) {
        long x = 1;
        while (System.nanoTime() < deadline) {
            for (int k = 0; k < 100_000; k++) {
                x = x * 6364136223846793005L + 1442695040888963407L;
            }
            sink = x;
        }
    }
}
