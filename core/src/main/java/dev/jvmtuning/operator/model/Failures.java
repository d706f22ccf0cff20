package dev.jvmtuning.operator.model;

/** How status and Events name an exception: its class, and its message where it has one. */
public final class Failures {
    private Failures() {
    }

    /** "TimeoutException", or "IllegalStateException: informer not synced". */
    public static String named(Throwable failure) {
        return failure.getClass().getSimpleName() + (failure.getMessage() == null ? "" : ": " + failure.getMessage());
    }
}
