package dev.jvmtuning.agent;

import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Whether this JVM was seen running virtual threads since it started: the default scheduler's carriers are platform
 * threads of the thread group "CarrierThreads" (JDK 21 on), which exist only while virtual threads run or shortly after.
 * Looked for at each scrape; carriers retire when idle, so what was seen once stays seen. Reads the threads' groups, no stacks.
 */
final class VirtualThreadUse {
    static final String CARRIER_GROUP = "CarrierThreads";
    /** Virtual threads left preview in JDK 21; before it they cannot run without a flag the operator never renders. */
    static final int FIRST_JDK = 21;

    private final ThreadGroup root;
    private final AtomicBoolean seen = new AtomicBoolean();

    VirtualThreadUse(ThreadGroup root) {
        this.root = root;
    }

    static void registerIfPossible(PrometheusRegistry registry) {
        if (Runtime.version().feature() >= FIRST_JDK) {
            new VirtualThreadUse(rootGroup()).register(registry);
        }
    }

    void register(PrometheusRegistry registry) {
        GaugeWithCallback.builder()
                .name("jvmtuning_virtual_threads_seen")
                .help("1 once the JVM was seen running virtual threads (their scheduler's carrier threads, at a scrape), else 0")
                .callback(FailSafe.callback(callback -> callback.call(seen() ? 1 : 0)))
                .register(registry);
    }

    boolean seen() {
        if (!seen.get() && carrierExists()) {
            seen.set(true);
        }
        return seen.get();
    }

    private boolean carrierExists() {
        Thread[] threads = new Thread[root.activeCount() + 16];
        int count = root.enumerate(threads, true);
        for (int i = 0; i < count; i++) {
            ThreadGroup group = threads[i].getThreadGroup();
            if (group != null && CARRIER_GROUP.equals(group.getName())) {
                return true;
            }
        }
        return false;
    }

    private static ThreadGroup rootGroup() {
        ThreadGroup group = Thread.currentThread().getThreadGroup();
        while (group.getParent() != null) {
            group = group.getParent();
        }
        return group;
    }
}
