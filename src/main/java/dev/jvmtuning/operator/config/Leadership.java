package dev.jvmtuning.operator.config;

import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Whether this replica holds the Lease now, and the name it holds it under. JOSDK starts the informers
 * and pollers of every replica but reconciles only on the leader; work that is not a reconcile (the
 * metrics scrapes) asks here, so a standby replica costs the targets' pods nothing.
 */
public final class Leadership {
    private final String identity;
    private final AtomicBoolean leading;

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
        return new LeaderCallbacks(() -> leading.set(true), () -> leading.set(false), leader -> { });
    }

    public boolean isLeading() {
        return leading.get();
    }

    public String identity() {
        return identity;
    }
}
