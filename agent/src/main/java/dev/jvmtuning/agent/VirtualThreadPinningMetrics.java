package dev.jvmtuning.agent;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.CounterSnapshot.CounterDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricMetadata;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.Unit;
import java.time.Duration;
import java.util.List;
import jdk.jfr.FlightRecorder;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingStream;

/**
 * Virtual threads that blocked while pinned to their carrier, from the flight recorder's jdk.VirtualThreadPinned
 * events (JDK 21 on): how often, for how long, and from which frame. A pinned virtual thread holds a carrier,
 * one of the few platform threads all virtual threads share, for as long as it blocks. On JDK 21 to 23 a blocking
 * call inside synchronized pins; from JDK 24 (JEP 491) only a native frame or a class initializer on the stack does.
 * On a JDK without the event the collector is not registered: no series and no recording.
 */
final class VirtualThreadPinningMetrics implements MultiCollector {

    static final String EVENT = "jdk.VirtualThreadPinned";
    /** Long enough for any frame a label should show; a longer one keeps its end, where class and method are. */
    static final int MAX_FRAME_LENGTH = 160;
    /** Packages whose frames are the JDK's own: the pinning frame is the first of the application's below them. */
    private static final List<String> JDK_PACKAGES = List.of("java.", "javax.", "jdk.", "sun.", "com.sun.");
    private static final String NAME = "jvm-tuning-agent-pinning";
    /**
     * The stream keeps the recording's chunks on disk until it has read them; these bound the disk it may use if
     * it falls behind. Pinning events alone fill a chunk slowly.
     */
    private static final Duration MAX_AGE = Duration.ofMinutes(5);
    private static final long MAX_BYTES = 16 * 1024 * 1024;

    private static final MetricMetadata PINNED = new MetricMetadata("jvmtuning_virtual_thread_pinned",
            "Virtual threads that blocked while pinned to their carrier for at least the agent's pinnedThreshold, by the top "
                    + "application frame of the pinned stack (at most " + PinnedFrames.MAX_FRAMES + ", the rest frame=\"other\")");
    private static final MetricMetadata PINNED_SECONDS = new MetricMetadata("jvmtuning_virtual_thread_pinned_seconds",
            "Time those pinned virtual threads held their carrier, by frame as jvmtuning_virtual_thread_pinned", Unit.SECONDS);

    private final PinnedFrames frames;

    VirtualThreadPinningMetrics(PinnedFrames frames) {
        this.frames = frames;
    }

    /**
     * Starts recording pinnings of at least {@code threshold} and registers their collector, when this JDK has the
     * event. The version is asked first: on JDK 17 asking for the event types would start the flight recorder, its
     * threads and buffers, for nothing.
     */
    static void registerIfRecordable(PrometheusRegistry registry, Duration threshold) {
        if (Runtime.version().feature() < 21 || !FlightRecorder.isAvailable()
                || FlightRecorder.getFlightRecorder().getEventTypes().stream().noneMatch(type -> type.getName().equals(EVENT))) {
            return;
        }
        PinnedFrames frames = new PinnedFrames();
        VirtualThreadPinningMetrics collector = new VirtualThreadPinningMetrics(frames);
        RecordingStream stream = new RecordingStream();
        stream.enable(EVENT).withThreshold(threshold).withStackTrace();
        stream.setMaxAge(MAX_AGE);
        stream.setMaxSize(MAX_BYTES);
        stream.onEvent(EVENT, event -> frames.record(frame(event), event.getDuration().toNanos()));
        registry.register(collector);
        // start(), not startAsync(): the stream's own thread is not a daemon and would keep the application from exiting.
        Thread reader = new Thread(() -> {
            try {
                stream.start();
            } catch (RuntimeException e) {
                // No recording after all (its repository cannot be written, say): no series rather than zeros that say none pinned.
                registry.unregister(collector);
                System.err.println(NAME + ": not recording " + EVENT + ": " + String.valueOf(e).replace('\n', ' '));
            }
        }, NAME);
        reader.setDaemon(true);
        reader.start();
    }

    /** The top application frame of the pinned stack, "class.method". */
    private static String frame(RecordedEvent event) {
        RecordedStackTrace stack = event.getStackTrace();
        return stack == null ? PinnedFrames.OTHER
                : pinningFrame(stack.getFrames().stream().filter(RecordedFrame::isJavaFrame)
                        .map(f -> f.getMethod().getType().getName() + "." + f.getMethod().getName()).toList());
    }

    /**
     * The first frame, from the top, that is not the JDK's: where the application blocked (or the JDK's top frame when
     * the stack holds nothing else), cut to {@link #MAX_FRAME_LENGTH}.
     */
    static String pinningFrame(List<String> frames) {
        String frame = frames.stream().filter(f -> JDK_PACKAGES.stream().noneMatch(f::startsWith)).findFirst()
                .orElse(frames.isEmpty() ? PinnedFrames.OTHER : frames.get(0));
        return frame.length() <= MAX_FRAME_LENGTH ? frame : frame.substring(frame.length() - MAX_FRAME_LENGTH);
    }

    @Override
    public MetricSnapshots collect() {
        List<PinnedFrames.Tally> tallies = frames.tallies();
        return new MetricSnapshots(
                new CounterSnapshot(PINNED, tallies.stream().map(t -> counter(t.count(), t.frame())).toList()),
                new CounterSnapshot(PINNED_SECONDS, tallies.stream().map(t -> counter(Unit.nanosToSeconds(t.nanos()), t.frame())).toList()));
    }

    private static CounterDataPointSnapshot counter(double value, String frame) {
        return new CounterDataPointSnapshot(value, Labels.of("frame", frame), null, 0L);
    }
}
