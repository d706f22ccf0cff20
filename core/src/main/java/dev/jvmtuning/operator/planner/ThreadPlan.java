package dev.jvmtuning.operator.planner;

import static dev.jvmtuning.operator.model.Units.mebibytes;
import static dev.jvmtuning.operator.model.Units.mebibytesOrKibibytes;
import static dev.jvmtuning.operator.model.Units.number;

import dev.jvmtuning.operator.api.v1alpha1.Threads;
import dev.jvmtuning.operator.model.RequestThreading;
import dev.jvmtuning.operator.model.Rule;
import dev.jvmtuning.operator.model.ServerVocabulary;
import dev.jvmtuning.operator.model.Setting;
import java.util.List;
import java.util.function.IntFunction;
import java.util.stream.Stream;

/**
 * R1-R3, R5: enough request workers for the target concurrency, no more than the CPUs can keep busy.
 *
 * @param max         threads.max, or null to leave the server's default
 * @param explicit    whether the profile set threads.max (then nothing caps it)
 * @param minSpare    threads.minSpare, or null
 * @param maxDecision why max, when it is set
 * @param minSpareDecision why minSpare, when it is set
 */
record ThreadPlan(Integer max, boolean explicit, Integer minSpare, Decision maxDecision, Decision minSpareDecision) {
    /**
     * R1: a pool sized to the mean concurrency is saturated half of the time; 25 % headroom keeps it
     * near 80 % busy.
     */
    static final double CONCURRENCY_HEADROOM = 1.25;
    /**
     * R2/R3: a CPU-bound Jetty handler on 4 cores peaked at 6 threads, 1.5 x the point where the
     * cores saturate; more threads lowered throughput.
     */
    static final double CPU_SATURATION_HEADROOM = 1.5;
    /**
     * R12a: HotSpot's SurvivorRatio of 8 splits the young generation into eden and two survivor
     * spaces of a tenth each; what is live at a minor collection must fit one of them.
     */
    static final int SURVIVOR_SHARE_OF_YOUNG = 10;
    /** R12a: a request caught by a collection halfway has allocated half of its garbage, all still reachable. */
    static final int IN_FLIGHT_SHARE_OF_ALLOCATION = 2;
    /** Derived counts stay within the bound the CRD puts on an explicit threads.max. */
    static final int MAX_THREADS = 100_000;

    /**
     * @param threading on virtual threads no worker pool runs the requests, so none is derived (R18 bounds them instead)
     */
    static ThreadPlan of(Threads threads, Demand demand, double cores, ServerVocabulary vocabulary, RequestThreading threading,
            PlanNotes notes) {
        Integer explicitMax = threads == null ? null : threads.getMax();
        Integer explicitMinSpare = threads == null ? null : threads.getMinSpare();
        Double saturation = demand.cpuSaturation(cores);
        Integer max = null;
        Decision maxDecision = null;
        if (explicitMax != null) {
            max = explicitMax;
            maxDecision = new Decision(Setting.THREADS_MAX, explicitMax.toString(), Rule.SPEC, "set in the profile");
            if (threading.virtual()) {
                notes.warnings.add("threads.max " + explicitMax + " bounds no request: they run on virtual threads (" + threading.source()
                        + "), outside the worker pool; the connection limit bounds them (R18)");
            } else if (saturation != null && explicitMax > Math.ceil(saturation * CPU_SATURATION_HEADROOM)) {
                notes.warnings.add("threads.max " + explicitMax + " is above the CPU saturation point " + number(Math.ceil(saturation))
                        + " (" + cpuFigures(cores, demand) + " per request, R2): the extra threads only add context switches");
            }
        } else if (demand.inFlight() != null && !threading.virtual()) {
            double inFlight = demand.inFlight();
            int littles = bounded(inFlight * CONCURRENCY_HEADROOM, MAX_THREADS);
            String rationale = number(demand.rate()) + " req/s x " + number(demand.latency() * 1000) + " ms = " + number(inFlight)
                    + " requests in flight (R1), +25% headroom = " + littles;
            max = littles;
            Rule rule = Rule.R1;
            if (saturation != null) {
                int cap = bounded(saturation * CPU_SATURATION_HEADROOM, MAX_THREADS);
                if (cap < littles) {
                    max = cap;
                    rule = Rule.R3;
                    rationale += "; capped at " + cap + " = 1.5 x the CPU saturation point " + cpuFigures(cores, demand)
                            + " (R2): more threads only add context switches";
                } else {
                    rationale += "; below the CPU cap " + cap + " (R2)";
                }
            }
            maxDecision = new Decision(Setting.THREADS_MAX, max.toString(), rule, rationale);
        }

        Integer minSpare = null;
        Decision minSpareDecision = null;
        if (explicitMinSpare != null) {
            if (max != null && explicitMinSpare > max) {
                notes.invalid.add("threads.minSpare " + explicitMinSpare + " exceeds threads.max " + max
                        + (explicitMax != null ? "" : " (derived from the workload)"));
            }
            minSpare = explicitMinSpare;
            minSpareDecision = new Decision(Setting.THREADS_MIN_SPARE, explicitMinSpare.toString(), Rule.SPEC, "set in the profile");
        } else if (max != null && demand.inFlight() != null && vocabulary.has(Setting.THREADS_MIN_SPARE)) {
            double inFlight = demand.inFlight();
            minSpare = (int) Math.min(max, Math.max(1, Math.ceil(inFlight)));
            minSpareDecision = new Decision(Setting.THREADS_MIN_SPARE, minSpare.toString(), Rule.R5,
                    "the steady concurrency " + number(inFlight) + " stays warm, so the pool does not shrink and regrow under load");
        }
        return new ThreadPlan(max, explicitMax != null, minSpare, maxDecision, minSpareDecision);
    }

    /** R3 with R9: derived threads cut down to {@code fit} so their stacks fit beside an explicit heap. */
    ThreadPlan cappedTo(int fit) {
        return cappedTo(fit, Rule.R3, "so thread stacks fit the memory limit beside the heap (R9)");
    }

    /**
     * R12a: derived threads cut down so the garbage of the requests in flight fits a survivor space.
     * Explicit threads are kept, with a warning.
     *
     * @param allocation heap bytes one request allocates, or null when unknown
     * @param youngFor   the young generation the memory left beside a thread count gives, or null when the collector has
     *                   none the rule applies to
     */
    ThreadPlan fitInFlightGarbage(Long allocation, IntFunction<Long> youngFor, PlanNotes notes) {
        if (max == null || allocation == null) {
            return this;
        }
        Long young = youngFor.apply(max);
        if (young == null || fits(max, young, allocation)) {
            return this;
        }
        String figures = inFlightFigures(max, young, allocation);
        if (explicit) {
            notes.warnings.add("threads.max " + max + " leaves " + figures + ": live request data is promoted early and fills "
                    + "the old generation (R12a); " + mostThatFit(young, allocation) + " threads fit");
            return this;
        }
        // Fewer threads leave memory for their own larger heap, so the cap is the most threads whose own young generation
        // holds their garbage: at least as many as fit beside the derived count's stacks, fewer than the derived count.
        int fit = mostThatFit(young, allocation);
        int tooMany = max;
        while (tooMany - fit > 1) {
            int probe = (fit + tooMany) >>> 1;
            Long probeYoung = youngFor.apply(probe);
            if (probeYoung == null || fits(probe, probeYoung, allocation)) {
                fit = probe;
            } else {
                tooMany = probe;
            }
        }
        Long fitYoung = youngFor.apply(fit);
        String why = "so the garbage of the requests in flight fits a survivor space: " + figures
                + (fitYoung == null || fitYoung.equals(young) ? "" : "; " + fit + " threads leave memory for " + inFlightFigures(fit, fitYoung, allocation));
        return cappedTo(fit, Rule.R12A, why);
    }

    private static boolean fits(int threads, long young, long allocation) {
        return threads <= mostThatFit(young, allocation);
    }

    private static int mostThatFit(long young, long allocation) {
        // At least a byte in flight per request: a tiny allocation must not divide by zero.
        return (int) Math.min(MAX_THREADS, Math.max(1, young / SURVIVOR_SHARE_OF_YOUNG / Math.max(1, allocation / IN_FLIGHT_SHARE_OF_ALLOCATION)));
    }

    private static String inFlightFigures(int threads, long young, long allocation) {
        return mebibytes(threads * allocation / IN_FLIGHT_SHARE_OF_ALLOCATION) + " in flight at a minor collection (" + threads + " threads x "
                + mebibytesOrKibibytes(allocation) + " per request / 2) against a survivor space of " + mebibytes(young / SURVIVOR_SHARE_OF_YOUNG)
                + " (young generation " + mebibytes(young) + " / " + SURVIVOR_SHARE_OF_YOUNG + ")";
    }

    private ThreadPlan cappedTo(int fit, Rule rule, String why) {
        Decision capped = new Decision(Setting.THREADS_MAX, Integer.toString(fit), rule, "derived " + max + " capped at " + fit + " " + why);
        if (minSpare != null && minSpare > fit) {
            return new ThreadPlan(fit, false, fit, capped,
                    new Decision(Setting.THREADS_MIN_SPARE, Integer.toString(fit), Rule.R5, "capped at threads.max"));
        }
        return new ThreadPlan(fit, false, minSpare, capped, minSpareDecision);
    }

    List<Decision> decisions() {
        return Stream.of(maxDecision, minSpareDecision).filter(d -> d != null).toList();
    }

    private static String cpuFigures(double cores, Demand demand) {
        return number(cores) + " CPUs x " + number(demand.latency() * 1000) + " ms / " + number(demand.cpuPerRequest() * 1000) + " ms CPU";
    }

    /** A derived count: rounded up, at least 1, at most the bound. */
    static int bounded(double value, int max) {
        return (int) Math.min(max, Math.max(1, Math.ceil(value)));
    }
}
