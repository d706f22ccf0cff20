package dev.jvmtuning.systemtest.support;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Closed-loop clients of an app's pods: each sends a GET, waits for its answer and sends the next, to the newest Ready pod
 * of the app (a rollout's new pod takes them once it may serve). Bounded in number and time: {@code clients} of them,
 * stopping at {@link #close} or after {@code duration}, whichever comes first; to pod addresses only.
 */
public final class Load implements AutoCloseable {

    /** A deleted pod's address answers nothing: a short bound keeps a rollout from stalling the clients into the new pod's windows. */
    private static final int REQUEST_SECONDS = 8;
    private static final Duration ADDRESS_READ = Duration.ofSeconds(2);

    private final Cluster cluster;
    private final String app;
    private final long deadline;
    private final AtomicReference<String> address = new AtomicReference<>();
    private final AtomicReference<String> path;
    private final AtomicInteger answered = new AtomicInteger();
    private final AtomicInteger failed = new AtomicInteger();
    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean running = true;

    private Load(Cluster cluster, String app, String path, Duration duration) {
        this.cluster = cluster;
        this.app = app;
        this.path = new AtomicReference<>(path);
        this.deadline = System.nanoTime() + duration.toNanos();
    }

    /** {@code clients} clients sending GETs of {@code path} ("/work?sleepMinMs=500") to the app's newest Ready pod, for at most {@code duration}. */
    public static Load start(Cluster cluster, String app, String path, int clients, Duration duration) {
        Load load = new Load(cluster, app, path, duration);
        load.run(app + "-address", load::readAddresses);
        for (int i = 1; i <= clients; i++) {
            load.run(app + "-client-" + i, load::send);
        }
        return load;
    }

    /** Where the clients' next requests go, as a workload that moves. */
    public void sendTo(String path) {
        this.path.set(path);
    }

    /** What the clients got since the last call: the figures behind the operator's, from the other side. */
    public String answers() {
        Count count = count();
        return "the clients since the last count: " + count.answered() + " answered, " + count.failed() + " failed or timed out";
    }

    /** The requests answered (200) and those failed or timed out since the last count. */
    public record Count(int answered, int failed) {
    }

    /** The requests since the last count, and a new count started. */
    public Count count() {
        return new Count(answered.getAndSet(0), failed.getAndSet(0));
    }

    /** Stops the clients: each ends its request under way (at most {@value #REQUEST_SECONDS} s) and sends no other. */
    @Override
    public void close() {
        running = false;
        for (Thread thread : threads) {
            try {
                thread.join(Duration.ofSeconds(REQUEST_SECONDS + 2).toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private void run(String name, Runnable task) {
        Thread thread = new Thread(task, name);
        thread.setDaemon(true);
        threads.add(thread);
        thread.start();
    }

    private boolean going() {
        return running && System.nanoTime() < deadline;
    }

    private void readAddresses() {
        while (going()) {
            try {
                cluster.newestReadyPodIp(app).ifPresent(address::set);
            } catch (RuntimeException e) {
                // A read that failed keeps the last address: the next one, two seconds on, may succeed.
            }
            Wait.sleep(ADDRESS_READ);
        }
    }

    private void send() {
        while (going()) {
            String ip = address.get();
            if (ip == null) {
                Wait.sleep(Duration.ofSeconds(1));
                continue;
            }
            // The address is read for each request: after a rollout at most one request goes to the old pod.
            int status = Http.status("http://" + ip + ":8080" + path.get(), REQUEST_SECONDS);
            (status == 200 ? answered : failed).incrementAndGet();
            if (status == 0) {
                // No answer at all (the pod gone, or too slow): a pause before the next, as the address may be changing.
                Wait.sleep(Duration.ofMillis(500));
            }
        }
    }
}
