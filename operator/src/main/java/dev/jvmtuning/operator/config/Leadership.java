package dev.jvmtuning.operator.config;

import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jboss.logging.Logger;

/**
 * Whether this replica holds the Lease now, and the name it holds it under. JOSDK starts the informers
 * and pollers of every replica but reconciles only on the leader; work that is not a reconcile (the
 * metrics scrapes) asks here, so a standby replica costs the targets' pods nothing.
 */
public final class Leadership {
    private static final Logger LOG = Logger.getLogger(Leadership.class);
    private final String identity;
    private final AtomicBoolean leading;
    private final List<Runnable> onLeading = new CopyOnWriteArrayList<>();

    private Leadership(String identity, boolean leading) {
        this.identity = identity;
        this.leading = new AtomicBoolean(leading);
    }

    /** A replica that runs without leader election: it leads from the start. */
    public static Leadership alone(String identity) {
        return new Leadership(identity, true);
    }

    /** A replica that leads once elected, until it loses the Lease. */
    public static Leadership elected(String identity) {
        return new Leadership(identity, false);
    }

    /** The callbacks to hand the leader election, which keep this in step with the Lease. */
    public LeaderCallbacks callbacks() {
        return new LeaderCallbacks(this::startLeading, () -> leading.set(false), leader -> { });
    }

    /**
     * Runs {@code task} once this replica leads: now if it does, else when it is elected (before it reconciles:
     * the framework starts the controllers after these callbacks). Work no standby may do, such as
     * writes outside a reconcile while an old leader may still run.
     */
    public synchronized void whenLeading(Runnable task) {
        if (leading.get()) {
            run(task);
        } else {
            onLeading.add(task);
        }
    }

    private synchronized void startLeading() {
        leading.set(true);
        onLeading.forEach(Leadership::run);
    }

    /** A failed task is logged: the election's callback and the controllers' start go on. */
    private static void run(Runnable task) {
        try {
            task.run();
        } catch (RuntimeException e) {
            LOG.errorf(e, "a task on taking the lead failed");
        }
    }

    public boolean isLeading() {
        return leading.get();
    }

    public String identity() {
        return identity;
    }
}
