package dev.jvmtuning.lab.workload;

/**
 * A blocking call made while holding a monitor: on JDK 21 to 23 a virtual thread that blocks inside synchronized pins
 * its carrier, from JDK 24 (JEP 491) it does not. GET /pinned makes it so a test can see the operator report the
 * pinning on the one and not on the other; the agent names the pinning by this class and method, the first frame below
 * the JDK's.
 */
final class PinningCall {

    private PinningCall() {
    }

    /**
     * Sleeps {@code ms} inside {@code synchronized (monitor)}.
     *
     * @return whether the monitor was still held after the sleep, always true; asking lets the monitor escape into a
     *         native call, so the JIT cannot prove it thread-local and drop the lock
     */
    static boolean holdMonitorWhileBlocked(Object monitor, long ms) throws InterruptedException {
        synchronized (monitor) {
            Thread.sleep(ms);
            return Thread.holdsLock(monitor);
        }
    }
}
