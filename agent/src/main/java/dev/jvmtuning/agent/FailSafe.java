package dev.jvmtuning.agent;

import java.util.function.Consumer;

/** Scrapes must never fail because of one collector: a callback that throws reports nothing this time. */
final class FailSafe {

    private FailSafe() {}

    static <C> Consumer<C> callback(Consumer<C> callback) {
        return reporter -> {
            try {
                callback.accept(reporter);
            } catch (RuntimeException | LinkageError e) {
                // Nothing for this scrape; the next one tries again.
            }
        };
    }
}
