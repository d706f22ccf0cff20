package dev.jvmtuning.operator.model;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * What one pod's JVM says of its virtual threads (the jvm-tuning agent's series, JDK 21 on): the pinnings that held a
 * carrier thread while the virtual thread blocked, cumulative since the JVM started, by the frame that pinned (the
 * agent names at most five, the rest are "other"), and from JDK 24 the scheduler's figures (parallelism, pool_size,
 * mounted, queued). NONE for a pod that reports none: a JDK without virtual threads, or no agent, or an older one.
 */
public record VirtualThreads(Map<String, Pinned> frames, Map<String, Double> scheduler) {
    public static final VirtualThreads NONE = new VirtualThreads(Map.of(), Map.of());
    /** The frame the agent counts every pinning under that it does not name. */
    public static final String OTHER = "other";
    /** The scheduler figure that says how many carriers it runs virtual threads on. */
    public static final String PARALLELISM = "parallelism";

    /** Pinnings and the seconds they held their carrier. */
    public record Pinned(double count, double seconds) {
        public static final Pinned NONE = new Pinned(0, 0);

        Pinned plus(Pinned other) {
            return new Pinned(count + other.count, seconds + other.seconds);
        }

        /**
         * The increase since an earlier reading; one that went down was reset (the JVM restarted, or the frame lost its
         * name and got it back, from zero), so all of it is new.
         */
        Pinned since(Pinned before) {
            return count >= before.count && seconds >= before.seconds ? new Pinned(count - before.count, seconds - before.seconds) : this;
        }
    }

    /**
     * One pod's pinning over a window: what each frame pinned in it, and the carrier time there was.
     *
     * @param seconds  the window's length
     * @param carriers the carrier threads virtual threads ran on: the scheduler's parallelism, or the pod's CPUs, its default
     */
    public record Pinning(double seconds, double carriers, Map<String, Pinned> frames) {
        public Pinning {
            frames = Map.copyOf(frames);
        }

        public Pinned total() {
            return frames.values().stream().reduce(Pinned.NONE, Pinned::plus);
        }

        /** Carrier time of the window: every carrier, the whole window. */
        public double carrierSeconds() {
            return seconds * carriers;
        }
    }

    public VirtualThreads {
        frames = Map.copyOf(frames);
        scheduler = Map.copyOf(scheduler);
    }

    public boolean reported() {
        return !frames.isEmpty() || !scheduler.isEmpty();
    }

    /**
     * The pinning since an earlier reading of the same pod, {@code seconds} before; empty where this reading has no
     * pinning series or no carrier count is known. A frame new in this reading pinned all it counts within the window:
     * the agent starts a newly named frame from zero. A frame that loses its name hands its counts to "other", so the
     * sum over the frames never goes down: "other" is what that sum rose by beyond the named frames.
     *
     * @param cpus the pod's CPUs, the scheduler's default parallelism, for a JDK that does not report its own (before 24)
     */
    public Optional<Pinning> since(VirtualThreads before, double seconds, Double cpus) {
        Double carriers = scheduler.getOrDefault(PARALLELISM, cpus == null ? null : Math.max(1, Math.ceil(cpus)));
        if (frames.isEmpty() || carriers == null || carriers <= 0 || seconds <= 0) {
            return Optional.empty();
        }
        Pinned all = total().since(before.total());
        // The sum went down: the JVM restarted, and every count is new.
        boolean restarted = total().count() < before.total().count() || total().seconds() < before.total().seconds();
        Map<String, Pinned> increases = new LinkedHashMap<>();
        frames.forEach((frame, pinned) -> {
            if (!frame.equals(OTHER)) {
                increases.put(frame, restarted ? pinned : pinned.since(before.frames.getOrDefault(frame, Pinned.NONE)));
            }
        });
        Pinned named = increases.values().stream().reduce(Pinned.NONE, Pinned::plus);
        increases.put(OTHER, new Pinned(Math.max(0, all.count() - named.count()), Math.max(0, all.seconds() - named.seconds())));
        return Optional.of(new Pinning(seconds, carriers, increases));
    }

    public Pinned total() {
        return frames.values().stream().reduce(Pinned.NONE, Pinned::plus);
    }
}
