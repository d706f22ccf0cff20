package dev.jvmtuning.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/** The tests run on JDK 17, without virtual threads: a thread of a group named as the scheduler's carriers stands for one. */
class VirtualThreadUseTest {
    private final CountDownLatch stop = new CountDownLatch(1);

    @Test
    void noCarrierNoVirtualThreadsAndACarrierOnceSeenStaysSeen() throws InterruptedException {
        ThreadGroup root = new ThreadGroup("test-root");
        VirtualThreadUse use = new VirtualThreadUse(root);
        PrometheusRegistry registry = new PrometheusRegistry();
        use.register(registry);
        assertThat(Exposition.samples(registry)).isEqualTo(Map.of("jvmtuning_virtual_threads_seen", 0.0));

        Thread carrier = runningIn(new ThreadGroup(root, VirtualThreadUse.CARRIER_GROUP));
        assertThat(Exposition.samples(registry)).isEqualTo(Map.of("jvmtuning_virtual_threads_seen", 1.0));

        stop.countDown();
        carrier.join();
        assertThat(use.seen()).as("the carrier retired; what was seen stays seen").isTrue();
    }

    @Test
    void otherThreadsAreNoSign() throws InterruptedException {
        ThreadGroup root = new ThreadGroup("test-root-2");
        Thread other = runningIn(new ThreadGroup(root, "ForkJoinPool"));
        try {
            assertThat(new VirtualThreadUse(root).seen()).isFalse();
        } finally {
            stop.countDown();
            other.join();
        }
    }

    /** A thread named as a carrier is, in the group given, running until the test stops it. */
    private Thread runningIn(ThreadGroup group) throws InterruptedException {
        CountDownLatch running = new CountDownLatch(1);
        Thread thread = new Thread(group, () -> {
            running.countDown();
            try {
                stop.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "ForkJoinPool-1-worker-1");
        thread.start();
        running.await();
        return thread;
    }
}
