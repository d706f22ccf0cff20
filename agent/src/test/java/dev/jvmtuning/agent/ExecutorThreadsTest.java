package dev.jvmtuning.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.LockSupport;
import javax.management.MBeanServerFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Real threads of a pool without an MBean: idle ones parked on the pool's executor, busy ones running a task. */
class ExecutorThreadsTest {
    /** Stands for jboss-threads' executor, which idle workers park on. */
    static final class Executor {
    }

    private static final ExecutorThreads POOL = new ExecutorThreads("test-executor-thread-", Executor.class.getName());

    private final List<Thread> started = new ArrayList<>();
    private volatile boolean done;

    @AfterEach
    void stop() throws InterruptedException {
        done = true;
        for (Thread thread : started) {
            LockSupport.unpark(thread);
            thread.interrupt();
            thread.join(5000);
        }
    }

    @Test
    void threadsParkedOnTheExecutorAreIdleAndTheRestBusy() throws InterruptedException {
        Executor executor = new Executor();
        CountDownLatch parked = new CountDownLatch(3);
        for (int i = 1; i <= 3; i++) {
            start("test-executor-thread-" + i, () -> {
                parked.countDown();
                while (!done) {
                    LockSupport.park(executor);
                }
            });
        }
        // Busy: one sleeping in a request, one waiting on something of the request's own (a connection, say).
        start("test-executor-thread-4", () -> sleepUntilDone());
        Object connection = new Object();
        start("test-executor-thread-5", () -> {
            while (!done) {
                LockSupport.park(connection);
            }
        });
        start("another-pool-1", () -> sleepUntilDone());
        parked.await();
        Thread.sleep(200);

        assertThat(POOL.busy(ManagementFactory.getThreadMXBean())).isEqualTo(2.0);
    }

    @Test
    void aJvmWithoutThePoolsThreadsHasNoFigure() {
        assertThat(new ExecutorThreads("no-such-pool-", Executor.class.getName()).busy(ManagementFactory.getThreadMXBean())).isNull();
    }

    @Test
    void itIsReportedAsQuarkussPoolWithNoMaximumOfItsOwn() throws InterruptedException {
        start("test-executor-thread-1", () -> sleepUntilDone());
        Thread.sleep(100);
        PrometheusRegistry registry = new PrometheusRegistry();
        new ServerThreadPoolMetrics(MBeanServerFactory.newMBeanServer(), ManagementFactory.getThreadMXBean(), POOL, null, System::nanoTime).register(registry);

        assertThat(Exposition.samples(registry)).containsOnlyKeys(
                "jvmtuning_server_threads_busy{pool=\"executor\",role=\"application\",server=\"quarkus\"}",
                "jvmtuning_server_threads_busy_seconds_total{pool=\"executor\",role=\"application\",server=\"quarkus\"}")
                .containsEntry("jvmtuning_server_threads_busy{pool=\"executor\",role=\"application\",server=\"quarkus\"}", 1.0);
    }

    private void start(String name, Runnable body) {
        Thread thread = new Thread(body, name);
        thread.setDaemon(true);
        started.add(thread);
        thread.start();
    }

    private void sleepUntilDone() {
        while (!done) {
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                return;
            }
        }
    }
}
