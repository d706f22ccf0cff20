package dev.jvmtuning.agent;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import jdk.jfr.FlightRecorder;
import jdk.jfr.RecordingState;

/**
 * Pins virtual threads in each way a JDK pins them, then prints the virtual-thread series of its own JVM as the agent
 * registers them, once they count the pinnings its argument expects (or after half a minute), for a test that runs it
 * on JDK 17, 21 and 25. Compiled for 17, like the agent, so the virtual threads are started through a method handle.
 */
public final class PinningMain {

    /** Above the threshold the test passes the agent. */
    static final long PINNED_MILLIS = 60;
    /** Below it. */
    static final long SHORT_MILLIS = 1;
    private static final Object LOCK = new Object();

    // Each sleeps itself, not through a helper, so that the frame that blocks is the one the test expects.

    /** Every JDK with virtual threads: a class initializer on the stack pins. */
    static final class SlowInit {
        static {
            try {
                Thread.sleep(PINNED_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        static void touch() {}
    }

    static final class QuickInit {
        static {
            try {
                Thread.sleep(SHORT_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        static void touch() {}
    }

    private PinningMain() {}

    /** JDK 21 to 23: blocking inside synchronized pins; from 24 on it does not. */
    static void blockInsideSynchronized() {
        synchronized (LOCK) {
            try {
                Thread.sleep(PINNED_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    public static void main(String[] args) throws Throwable {
        long expected = Long.parseLong(args[0]);
        Duration threshold = Duration.ofMillis(Long.parseLong(args[1]));
        PrometheusRegistry registry = new PrometheusRegistry();
        VirtualThreadSchedulerMetrics.registerIfPresent(registry, ManagementFactory.getPlatformMBeanServer());
        VirtualThreadPinningMetrics.registerIfRecordable(registry, threshold);
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        if (Runtime.version().feature() >= 21) {
            // The agent's recording starts on its own thread: pinnings before it runs are not seen.
            while (!recording() && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            pin();
        }
        while (pinnings(registry) < expected && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        System.out.print(Exposition.text(registry));
    }

    private static void pin() throws Throwable {
        MethodHandle startVirtualThread = MethodHandles.publicLookup().findStatic(Thread.class, "startVirtualThread",
                MethodType.methodType(Thread.class, Runnable.class));
        List<Thread> threads = new ArrayList<>();
        for (Runnable task : List.<Runnable>of(SlowInit::touch, QuickInit::touch, PinningMain::blockInsideSynchronized,
                PinningMain::blockInsideSynchronized)) {
            threads.add((Thread) startVirtualThread.invokeExact(task));
        }
        for (Thread thread : threads) {
            thread.join();
        }
    }

    private static boolean recording() {
        return FlightRecorder.getFlightRecorder().getRecordings().stream().anyMatch(r -> r.getState() == RecordingState.RUNNING);
    }

    private static double pinnings(PrometheusRegistry registry) {
        return Exposition.samples(registry).entrySet().stream().filter(e -> e.getKey().startsWith("jvmtuning_virtual_thread_pinned_total{"))
                .mapToDouble(e -> e.getValue()).sum();
    }
}
