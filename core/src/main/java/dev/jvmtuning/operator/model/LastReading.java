package dev.jvmtuning.operator.model;

import java.time.Instant;

/**
 * A pod's last reading and when it was taken: what explains an OOM kill when the poll after the kill finds the pod
 * restarting, not Ready, and reads nothing of it.
 *
 * @param at when it was read; null when not known, taken as before any kill
 */
public record LastReading(MemoryUse memory, EffectiveOptions options, Instant at) {

    /** Whether it read the JVM that ended at {@code end}, not the one started after it. */
    public boolean before(Instant end) {
        return at == null || end == null || !at.isAfter(end);
    }
}
