package dev.jvmtuning.agent;

import java.util.ArrayList;
import java.util.List;

/** The application AgentProcessIT attaches the agent to: a few threads burning CPU for a few seconds. */
public final class BusyMain {

    private static volatile long sink;

    private BusyMain() {}

    public static void main(String[] args) throws InterruptedException {
        double seconds = args.length > 0 ? Double.parseDouble(args[0]) : 3;
        long deadline = System.nanoTime() + (long) (seconds * 1e9);
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Thread thread = new Thread(() -> {
                long x = 1;
                while (System.nanoTime() < deadline) {
                    for (int k = 0; k < 100_000; k++) {
                        x = x * 6364136223846793005L + 1442695040888963407L;
                    }
                    sink = x;
                }
            }, "busy-" + i);
            thread.start();
            threads.add(thread);
        }
        for (Thread thread : threads) {
            thread.join();
        }
    }
}
