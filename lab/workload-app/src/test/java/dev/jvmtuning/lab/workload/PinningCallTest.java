package dev.jvmtuning.lab.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import jdk.jfr.FlightRecorder;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PinningCallTest {
    private static final String PINNED = "jdk.VirtualThreadPinned";
    private static final String FRAME = PinningCall.class.getName() + ".holdMonitorWhileBlocked";

    @Test
    void holdsTheMonitorForTheWholeSleep() throws Exception {
        Object monitor = new Object();
        AtomicReference<Boolean> held = new AtomicReference<>();
        long start = System.nanoTime();
        Thread blocked = new Thread(() -> held.set(call(monitor, 300)));
        blocked.start();
        while (blocked.getState() != Thread.State.TIMED_WAITING) {
            Thread.onSpinWait();
        }
        long enteredAfterMs;
        synchronized (monitor) {
            enteredAfterMs = (System.nanoTime() - start) / 1_000_000;
        }
        blocked.join();
        assertTrue(enteredAfterMs >= 300, "the monitor was free after " + enteredAfterMs + " ms of a 300 ms sleep");
        assertEquals(Boolean.TRUE, held.get());
    }

    @Test
    void theEndpointNamesItsThreadAndRefusesAnOutOfRangeTime() throws Exception {
        WorkController controller = new WorkController(null);
        var answer = controller.pinned(5);
        assertEquals(200, answer.getStatusCode().value());
        assertTrue(answer.getBody().startsWith("held a monitor 5 ms on Thread["), answer.getBody());
        assertEquals(400, controller.pinned(-1).getStatusCode().value());
        assertEquals(400, controller.pinned(60_001).getStatusCode().value());
    }

    /**
     * What the end-to-end suite relies on: a virtual thread blocked in it pins its carrier on JDK 21 to 23, under this very
     * frame, the first below the JDK's; from JDK 24 (JEP 491) it does not. Runs where the tests' JVM has virtual threads.
     */
    @Test
    void pinsAVirtualThreadOnlyBeforeJdk24(@TempDir Path dir) throws Exception {
        int feature = Runtime.version().feature();
        assumeTrue(feature >= 21 && FlightRecorder.isAvailable(), "virtual threads and " + PINNED + " need JDK 21, this is " + feature);
        Path file = dir.resolve("pinning.jfr");
        try (Recording recording = new Recording()) {
            recording.enable(PINNED).withThreshold(Duration.ofMillis(20)).withStackTrace();
            recording.start();
            Thread virtual = (Thread) Thread.class.getMethod("startVirtualThread", Runnable.class)
                    .invoke(null, (Runnable) () -> call(new Object(), 100));
            virtual.join();
            recording.stop();
            recording.dump(file);
        }
        List<RecordedEvent> pinnings = RecordingFile.readAllEvents(file).stream()
                .filter(event -> event.getEventType().getName().equals(PINNED)).toList();
        if (feature >= 24) {
            assertEquals(List.of(), pinnings, "JEP 491: synchronized no longer pins");
            return;
        }
        assertEquals(1, pinnings.size(), pinnings::toString);
        String firstOwnFrame = pinnings.get(0).getStackTrace().getFrames().stream().filter(RecordedFrame::isJavaFrame)
                .map(frame -> frame.getMethod().getType().getName() + "." + frame.getMethod().getName())
                .filter(frame -> !frame.startsWith("java.") && !frame.startsWith("jdk.")).findFirst().orElseThrow();
        assertEquals(FRAME, firstOwnFrame);
    }

    private static boolean call(Object monitor, long ms) {
        try {
            return PinningCall.holdMonitorWhileBlocked(monitor, ms);
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }
}
