package dev.jvmtuning.operator.model;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Why a container ran out of memory, from how it ended and the last account of its memory before: whether the JVM
 * gave up on its own (an OutOfMemoryError, exit code 3 under ExitOnOutOfMemoryError) or the kernel killed it at the
 * container's limit, and then which part of the memory most likely took it there, with the figures. Pure: the caller
 * brings the pod's last termination, its limit, the plan and the pod's last reading.
 *
 * <p>At a kernel kill the heap is not the cause: the JVM keeps it within its maximum, the one it reports rather than the
 * planned one, which a flag after the operator's (an -Xmx in the image's entrypoint) overrides. A JVM that runs another
 * heap than planned is named first (HEAP_NOT_PLANNED): the plan's budgets are not what it ran. Otherwise either the plan
 * cannot fit in the limit (LIMIT_BELOW_HEAP), or what is beyond the heap grew, and the largest part of that is named. The
 * last reading is from before the kill, so a part that grew after it is seen smaller than it was.
 */
public final class OomKill {

    public enum Cause {
        /** The JVM's own OutOfMemoryError for its heap: not a kernel kill. */
        HEAP,
        METASPACE,
        DIRECT_MEMORY,
        THREAD_STACKS,
        /** Native memory beyond the heap and what the JVM accounts for: malloc arenas, native libraries. */
        NATIVE_OTHER,
        /** The planned heap and the least a JVM needs beyond it exceed the limit: the plan itself cannot fit. */
        LIMIT_BELOW_HEAP,
        /**
         * The JVM runs another maximum heap than planned, set outside the operator (an -Xmx on the image's command line, after
         * the operator's variable): a larger one takes the room the plan leaves beside it, and no budget of the plan holds it.
         */
        HEAP_NOT_PLANNED,
        /** No reading to judge by. */
        UNKNOWN
    }

    /**
     * A container's last termination as the kubelet reports it (ContainerStateTerminated).
     *
     * @param reason   {@link #KERNEL_KILL_REASON} for a kernel kill at the limit; null when not given
     * @param exitCode 137 after SIGKILL, 3 after ExitOnOutOfMemoryError; null when not given
     * @param message  the termination message, null when the container wrote none
     */
    public record Termination(String reason, Integer exitCode, String message) {
    }

    /**
     * The most likely cause and one line naming the figures it rests on.
     *
     * @param partBytes what the part named as the cause held at the last reading; null when no part was measured (a JVM's own
     *                  OutOfMemoryError, the limit below the heap, no reading)
     */
    public record Attribution(Cause cause, String explanation, Long partBytes) {
        public Attribution(Cause cause, String explanation) {
            this(cause, explanation, null);
        }
    }

    /**
     * The reason the kubelet gives a container's termination when the kernel's OOM killer ended it at the container's
     * memory limit: the one word that tells a kernel kill from any other SIGKILL (exit code 137 alone is a failed liveness
     * probe's too).
     */
    public static final String KERNEL_KILL_REASON = "OOMKilled";
    /**
     * What a JVM needs beyond its heap even when it runs no code of its own: JDK 17 printing its resident set with a
     * pre-touched 64 MiB heap held 106 to 108 MiB (Serial and G1, class data sharing on). An application needs more.
     */
    public static final long MIN_NON_HEAP_BYTES = 40L * 1024 * 1024;
    /** HotSpot's stack size on 64-bit Linux when ThreadStackSize is not reported. */
    static final long DEFAULT_STACK_BYTES = 1024L * 1024;
    /** How close to its maximum a figure must be to have run out, at a JVM's own OutOfMemoryError without a message. */
    private static final double NEAR_MAX = 0.9;
    private static final int EXIT_ON_OUT_OF_MEMORY = 3;
    private static final double UNLIMITED = Math.pow(2, 60);
    private static final String NO_READING = "no memory reading of the pod before it ended";

    private OomKill() {
    }

    /**
     * The cause of an out-of-memory end, or empty when the container ended some other way.
     *
     * @param limitBytes       the container's memory limit; null when it has none
     * @param plannedHeapBytes the maximum heap planned for it; null for the JVM's own choice
     * @param lastReading      the pod's last memory reading before it ended; MemoryUse.NONE when there is none
     * @param options          the options the JVM reported running with, its MaxHeapSize the heap it ran whatever was
     *                         planned; EffectiveOptions.NONE when none
     */
    public static Optional<Attribution> attribute(Termination termination, Long limitBytes, Long plannedHeapBytes, MemoryUse lastReading,
            EffectiveOptions options) {
        Long reportedHeapMax = optionBytes(options, "MaxHeapSize");
        Long heapMax = reportedHeapMax != null ? reportedHeapMax : plannedHeapBytes;
        if (KERNEL_KILL_REASON.equals(termination.reason())) {
            return Optional.of(heapNotPlanned(plannedHeapBytes, reportedHeapMax)
                    ? heapNotPlannedKill(limitBytes, plannedHeapBytes, reportedHeapMax, lastReading, options)
                    : kernelKill(limitBytes, heapMax, lastReading, options));
        }
        boolean exitedOnError = Integer.valueOf(EXIT_ON_OUT_OF_MEMORY).equals(termination.exitCode())
                && options.option("ExitOnOutOfMemoryError").map(o -> o.value() == 1).orElse(false);
        if (mentionsOutOfMemory(termination.message()) || exitedOnError) {
            return Optional.of(jvmOutOfMemory(termination.message(), heapMax, lastReading, options));
        }
        return Optional.empty();
    }

    private static boolean mentionsOutOfMemory(String message) {
        return message != null && message.contains("OutOfMemoryError");
    }

    /** The JVM threw OutOfMemoryError: its message names what ran out; without one, the figure at its maximum does. */
    private static Attribution jvmOutOfMemory(String message, Long heapMax, MemoryUse reading, EffectiveOptions options) {
        String lead = mentionsOutOfMemory(message) ? "the JVM ended on " + firstOutOfMemoryLine(message)
                : "the JVM exited with code 3 on an OutOfMemoryError (ExitOnOutOfMemoryError)";
        String said = message == null ? "" : message.toLowerCase(Locale.ROOT);
        String heap = "heap used " + mib(reading.heapUsedBytes()) + " of max " + mib(heapMax);
        if (said.contains("java heap space") || said.contains("gc overhead limit exceeded") || said.contains("requested array size")) {
            return new Attribution(Cause.HEAP, lead + ": " + heap + "; not a kernel kill");
        }
        String metaspace = "metaspace committed " + mib(reading.metaspaceCommittedBytes()) + " of MaxMetaspaceSize "
                + mib(optionBytes(options, "MaxMetaspaceSize"));
        if (said.contains("metaspace") || said.contains("compressed class space")) {
            return new Attribution(Cause.METASPACE, lead + ": " + metaspace);
        }
        if (said.contains("direct buffer memory")) {
            return new Attribution(Cause.DIRECT_MEMORY, lead + ": direct buffers " + mib(reading.directBufferBytes()) + " of MaxDirectMemorySize "
                    + mib(optionBytes(options, "MaxDirectMemorySize")));
        }
        if (said.contains("native thread")) {
            return new Attribution(Cause.THREAD_STACKS, lead + ": " + reading.threads() + " threads");
        }
        if (near(reading.metaspaceCommittedBytes(), optionBytes(options, "MaxMetaspaceSize"))) {
            return new Attribution(Cause.METASPACE, lead + ": " + metaspace);
        }
        if (near(reading.heapUsedBytes(), heapMax)) {
            return new Attribution(Cause.HEAP, lead + ": " + heap + "; not a kernel kill");
        }
        return new Attribution(Cause.UNKNOWN, lead + "; no figure was near its maximum at the last reading: " + heap + ", " + metaspace);
    }

    private static String firstOutOfMemoryLine(String message) {
        String line = message.lines().filter(l -> l.contains("OutOfMemoryError")).findFirst().orElse(message).strip();
        String from = line.substring(line.indexOf("java.lang.OutOfMemoryError") < 0 ? 0 : line.indexOf("java.lang.OutOfMemoryError"));
        return from.length() > 160 ? from.substring(0, 160) + "..." : from;
    }

    private static boolean near(Long used, Long max) {
        return used != null && max != null && max > 0 && used >= NEAR_MAX * max;
    }

    /** One part of the memory beyond the heap, as the explanation names it. */
    private record Part(Cause cause, long bytes, String text) {
    }

    /** Whether the JVM reports another maximum heap than was planned, beyond HotSpot's alignment of the planned one. */
    private static boolean heapNotPlanned(Long plannedHeapBytes, Long reportedHeapMax) {
        return plannedHeapBytes != null && reportedHeapMax != null
                && Math.abs(reportedHeapMax - plannedHeapBytes) > Attestation.Tolerance.HEAP.of(plannedHeapBytes);
    }

    /** A kill of a JVM that runs another heap than planned: the heap is named, the parts beside it are figures, not a cause. */
    private static Attribution heapNotPlannedKill(Long limitBytes, long plannedHeapBytes, long reportedHeapMax, MemoryUse reading,
            EffectiveOptions options) {
        StringBuilder line = new StringBuilder(lead(limitBytes)).append(": the JVM runs max heap ").append(mib(reportedHeapMax))
                .append(", not the planned ").append(mib(plannedHeapBytes)).append(": its heap is set outside the operator (an -Xmx on the "
                        + "image's command line, after the operator's variable)");
        if (limitBytes != null && reportedHeapMax > plannedHeapBytes) {
            line.append(", and ").append(mib(reportedHeapMax)).append(" with the ").append(mib(limitBytes - plannedHeapBytes))
                    .append(" the plan leaves beside its heap exceeds the limit");
        }
        line.append("; no memory budget is planned anew until the JVM runs the planned heap; ")
                .append(reading.reported() ? account(reading, options).describe() : NO_READING);
        return new Attribution(Cause.HEAP_NOT_PLANNED, line.toString());
    }

    private static String lead(Long limitBytes) {
        return "OOM-killed at limit " + mib(limitBytes);
    }

    private static Attribution kernelKill(Long limitBytes, Long heapMax, MemoryUse reading, EffectiveOptions options) {
        String lead = lead(limitBytes);
        if (limitBytes != null && heapMax != null && heapMax + MIN_NON_HEAP_BYTES > limitBytes) {
            return new Attribution(Cause.LIMIT_BELOW_HEAP, lead + ": max heap " + mib(heapMax) + " plus the " + mib(MIN_NON_HEAP_BYTES)
                    + " any JVM needs beyond it does not fit; the plan itself cannot fit");
        }
        if (!reading.reported()) {
            return new Attribution(Cause.UNKNOWN, lead + ": " + NO_READING);
        }
        Account account = account(reading, options);
        return new Attribution(account.largest().cause(), lead + ": " + account.describe(), account.largest().bytes());
    }

    /**
     * The reading's memory part by part beside the committed heap.
     *
     * @param jvmInternal what else the JVM accounts for, null without native memory tracking
     */
    private record Account(long heap, List<Part> parts, Long jvmInternal) {
        Part largest() {
            return parts.stream().max(Comparator.comparingLong(Part::bytes)).orElseThrow();
        }

        /** The largest part first, e.g. "metaspace 180 MiB beyond heap committed 256 MiB, direct buffers 0.0 MiB, ...". */
        String describe() {
            Part largest = largest();
            StringBuilder line = new StringBuilder(largest.text()).append(" beyond heap committed ").append(mib(heap));
            parts.stream().filter(p -> p != largest).forEach(p -> line.append(", ").append(p.text()));
            if (jvmInternal != null) {
                line.append(", JVM internals (GC, code, symbols...) ").append(mib(jvmInternal));
            }
            return line.toString();
        }
    }

    private static Account account(MemoryUse reading, EffectiveOptions options) {
        NativeMemory nmt = reading.nativeMemory();
        long heap = orZero(reading.heapCommittedBytes() != null ? reading.heapCommittedBytes() : reading.heapUsedBytes());
        List<Part> parts = new ArrayList<>();
        // Native memory tracking counts class metadata under Class and Metaspace, and direct buffers (Unsafe) under Other,
        // Netty's cleaner-less ones included, which no buffer pool shows.
        long metaspace = nmt.reported() ? nmt.committed("Class", "Metaspace") : orZero(reading.metaspaceCommittedBytes());
        parts.add(new Part(Cause.METASPACE, metaspace, "metaspace " + mib(metaspace)));
        long direct = Math.max(orZero(reading.directBufferBytes()), nmt.committed("Other"));
        parts.add(new Part(Cause.DIRECT_MEMORY, direct, "direct buffers " + mib(direct)));
        long stackBytes = Math.round(options.option("ThreadStackSize").map(o -> o.value() * 1024).orElse((double) DEFAULT_STACK_BYTES));
        long stacks = nmt.reported() ? nmt.committed("Thread") : orZero(reading.threads()) * stackBytes;
        parts.add(new Part(Cause.THREAD_STACKS, stacks, nmt.reported() ? "threads " + mib(stacks) + " (" + reading.threads() + " threads)"
                : "threads " + reading.threads() + " x " + mib(stackBytes) + " stacks = " + mib(stacks) + " at most"));
        // What else the JVM accounts for (GC, code, symbols, compiler), known only with tracking.
        long jvmInternal = nmt.reported()
                ? Math.max(0, nmt.totalCommittedBytes() - nmt.committed("Java Heap", "Class", "Metaspace", "Other", "Thread")) : 0;
        long accounted = heap + metaspace + direct + stacks + jvmInternal;
        Long resident = reading.residentBytes();
        if (resident != null) {
            long other = Math.max(0, resident - accounted);
            parts.add(new Part(Cause.NATIVE_OTHER, other, (nmt.reported() ? "native beyond the JVM's account " : "native beyond these ")
                    + mib(other) + " (resident " + mib(resident) + ")"));
        }
        return new Account(heap, List.copyOf(parts), nmt.reported() ? jvmInternal : null);
    }

    /** A size option in bytes; null when not reported or unlimited (HotSpot's 2^64 - 1 for MaxMetaspaceSize unset). */
    private static Long optionBytes(EffectiveOptions options, String name) {
        return options.option(name).filter(o -> o.value() < UNLIMITED).map(o -> (long) o.value()).orElse(null);
    }

    private static long orZero(Long value) {
        return value == null ? 0 : value;
    }

    /** Bytes in MiB as people read them: whole from 10 MiB, one decimal below; "?" for a figure not reported. */
    static String mib(Long bytes) {
        if (bytes == null) {
            return "?";
        }
        double mib = bytes / (1024.0 * 1024);
        return (mib >= 10 ? String.valueOf(Math.round(mib)) : String.format(Locale.ROOT, "%.1f", mib)) + " MiB";
    }
}
