package dev.jvmtuning.systemtest.support;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Bounded waits, as deploy/local/env.sh's wait_for: a condition polled twice a second, a failure naming what was awaited. */
public final class Wait {

    private static final Duration POLL = Duration.ofMillis(500);

    private Wait() {
    }

    /**
     * Polls {@code condition} until it holds; a condition that throws counts as not holding yet (a read of an object that
     * is not there yet). Fails after {@code seconds}, naming {@code what}.
     */
    public static void until(int seconds, String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + Duration.ofSeconds(seconds).toNanos();
        RuntimeException last = null;
        while (true) {
            try {
                if (condition.getAsBoolean()) {
                    return;
                }
            } catch (RuntimeException e) {
                last = e;
            }
            if (System.nanoTime() >= deadline) {
                throw new AssertionError("timed out after " + seconds + "s waiting for " + what
                        + (last == null ? "" : " (last read failed: " + last.getMessage() + ")"));
            }
            sleep(POLL);
        }
    }

    /** A pause a check makes on purpose: time for something that must not happen to have its chance. */
    public static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
