package dev.jvmtuning.operator.closedloop;

import dev.jvmtuning.operator.api.v1alpha1.Auto;
import dev.jvmtuning.operator.api.v1alpha1.AutoFigures;
import dev.jvmtuning.operator.api.v1alpha1.Guardrail;
import dev.jvmtuning.operator.api.v1alpha1.Observed;
import dev.jvmtuning.operator.model.ObservedFigure;
import dev.jvmtuning.operator.model.Units;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * What the loop measures a period by, and when one period is worse than another. Figures are per
 * pod, so a Deployment scaled by an autoscaler compares load per pod, not the total. Pure.
 */
public final class Measures {
    /** Differences below these are the counters' and the scheduler's noise, whatever the tolerance says. */
    private static final double LATENCY_FLOOR_MILLIS = 1;
    private static final double ERROR_FLOOR_POINTS = 0.1;
    /**
     * GC time is judged only past a few points of wall time: at the same load its share moves by that much
     * from window to window, and R15 calls 10% pressure.
     */
    private static final double GC_FLOOR_POINTS = 5;
    private static final double WAIT_FLOOR_MILLIS = 1;
    /** A pool this busy has no worker free: what comes in waits, in the accept backlog where the server's clock does not see it. */
    private static final double SATURATED_POOL_PERCENT = 95;
    /**
     * Standard errors a difference must exceed to count: two, so a change the windows' own spread explains
     * passes for one about one period in twenty.
     */
    private static final double NOISE_ERRORS = 2;

    private Measures() {
    }

    /** The windows aggregated figure by figure, each by its rule across windows (ObservedFigure): most the mean over the windows that have it. */
    public static Observed mean(List<Observed> windows) {
        return ObservedFigure.overWindows(windows);
    }

    /**
     * The figures a period is judged by: the windows' means, and for the figures judged against each other
     * their standard error over the windows, the period's own noise.
     */
    public static AutoFigures figures(List<Observed> windows) {
        Observed mean = mean(windows);
        Double rate = mean.getRequestsPerSecond();
        return new AutoFigures().setWindows(windows.size()).setRequestsPerSecond(rate)
                .setRequestsPerSecondError(standardError(windows, Observed::getRequestsPerSecond))
                .setRequestsPerCpuSecond(requestsPerCpuSecond(mean))
                .setRequestsPerCpuSecondError(standardError(windows, Measures::requestsPerCpuSecond))
                .setMeanLatencyMillis(mean.getMeanLatencyMillis())
                .setMeanLatencyMillisError(standardError(windows, Observed::getMeanLatencyMillis))
                .setP99LatencyMillis(mean.getP99LatencyMillis()).setErrorPercent(mean.getErrorPercent())
                .setGcTimePercent(mean.getGcTimePercent()).setConnectionWaitMillisPerRequest(mean.getConnectionWaitMillisPerRequest())
                .setQueueWaitMillisPerRequest(mean.getMeanLatencyMillis() == null ? null : round(ObservedWorkload.queueWaitMillis(mean)))
                .setBusyWorkersPercent(busyWorkersPercent(mean)).setGuardrail(mean.getGuardrail());
    }

    private static Double busyWorkersPercent(Observed window) {
        Double busy = window.getBusyThreads();
        Double max = window.getMaxThreads();
        return busy == null || max == null || max <= 0 ? null : round(100 * Math.min(busy, max) / max);
    }

    /**
     * The CPU a request costs, in milliseconds, without the JIT compilers' share or the garbage collector's. Compilation is
     * warm-up work that fades, and a short window after a rollout counts plenty of it; a plan whose CPU bound (R2) is sized
     * by it keeps an I/O-bound pool too small for good (docs/explanation/closed-loop.md). The collector's CPU depends on the
     * settings as much as on the requests: each collection scans every thread's stack and the garbage the requests in
     * flight hold, so it grows with the threads, and counted as the requests' own it capped the lab's io-bound app at half
     * its best (docs/development/lab.md). The heap rules (R12a, R15) answer for it, and the loop's judgement of each step.
     */
    public static Double workCpuMillisPerRequest(Observed window) {
        Double cpu = window.getCpuMillisPerRequest();
        Double compilation = window.getCompilationMillisPerRequest();
        Double collector = window.getGcCpuMillisPerRequest();
        if (cpu == null || (compilation == null && collector == null)) {
            return cpu;
        }
        return Math.max(0, cpu - ObservedWorkload.zeroIfAbsent(compilation) - ObservedWorkload.zeroIfAbsent(collector));
    }

    /** Requests per CPU-second of the window, the JIT compilers' CPU taken out. */
    private static Double requestsPerCpuSecond(Observed window) {
        Double rate = window.getRequestsPerSecond();
        Double cores = window.getCpuCores();
        if (rate == null || cores == null) {
            return null;
        }
        Double compilation = window.getCompilationMillisPerRequest();
        double working = compilation == null ? cores : cores - compilation * rate / 1000;
        return working <= 0 ? null : round(rate / working);
    }

    /**
     * Why {@code after} is worse than {@code before}, or empty. Throughput per CPU-second is judged at
     * the same load (within the tolerance): more requests served may cost more CPU each, and fewer are not
     * comparable, unless every worker was busy after the step: then the load did not fall, the server served less of it,
     * and the rest waited in the accept backlog, where the server's clock does not see it (the lab's io-bound app, 1251 ->
     * 417 threads, served 0.6 of what it had while its latency in the server stayed the call's 300 ms, and the step was
     * kept, docs/development/lab.md). Mean and p99 latency are each judged unless the load rose at least as much (Little's law: that is more
     * work in flight, not slower work), or more was served of a queue ({@link #servedMoreOfAQueue}). GC time is judged
     * unless more was served beyond the noise: it grows with the requests served, their allocation and the threads whose
     * stacks every collection scans, and such a step is judged by what it served (a step of the lab's io-bound app that
     * served half as much again was reverted for its GC time, docs/development/lab.md). Errors, pool waits and the
     * guardrail are judged always.
     */
    public static Optional<String> regression(Auto spec, AutoFigures before, AutoFigures after) {
        double tolerance = spec.getRegressionTolerancePercent() / 100.0;
        List<String> worse = new ArrayList<>();
        Double load = ratio(after.getRequestsPerSecond(), before.getRequestsPerSecond());
        Double efficiency = ratio(after.getRequestsPerCpuSecond(), before.getRequestsPerCpuSecond());
        if (load != null && Math.abs(load - 1) <= tolerance && efficiency != null && efficiency < 1 - tolerance
                && beyondNoise(before, after, AutoFigures::getRequestsPerCpuSecond, AutoFigures::getRequestsPerCpuSecondError)) {
            worse.add("throughput per CPU-second " + text(before.getRequestsPerCpuSecond()) + " -> " + text(after.getRequestsPerCpuSecond())
                    + " at the same load (" + text(before.getRequestsPerSecond()) + " -> " + text(after.getRequestsPerSecond()) + " req/s)");
        }
        if (load != null && load < 1 - tolerance && after.getBusyWorkersPercent() != null && after.getBusyWorkersPercent() >= SATURATED_POOL_PERCENT
                && servedMore(spec, after, before)) {
            worse.add("requests served " + text(before.getRequestsPerSecond()) + " -> " + text(after.getRequestsPerSecond())
                    + " req/s with " + text(after.getBusyWorkersPercent()) + "% of the workers busy");
        }
        if (!servedMoreOfAQueue(spec, before, after)) {
            if (beyondNoise(before, after, AutoFigures::getMeanLatencyMillis, AutoFigures::getMeanLatencyMillisError)) {
                latency("mean latency", AutoFigures::getMeanLatencyMillis, before, after, load, tolerance).ifPresent(worse::add);
            }
            latency("p99 latency", AutoFigures::getP99LatencyMillis, before, after, load, tolerance).ifPresent(worse::add);
        }
        if (rose(before.getErrorPercent(), after.getErrorPercent(), tolerance, ERROR_FLOOR_POINTS)) {
            worse.add("server errors " + text(before.getErrorPercent()) + "% -> " + text(after.getErrorPercent()) + "%");
        }
        if (!servedMore(spec, before, after)
                && rose(before.getGcTimePercent(), after.getGcTimePercent(), tolerance, GC_FLOOR_POINTS)) {
            worse.add("GC time " + text(before.getGcTimePercent()) + "% -> " + text(after.getGcTimePercent()) + "%");
        }
        if (rose(before.getConnectionWaitMillisPerRequest(), after.getConnectionWaitMillisPerRequest(), tolerance, WAIT_FLOOR_MILLIS)) {
            worse.add("connection waits " + text(before.getConnectionWaitMillisPerRequest()) + " -> "
                    + text(after.getConnectionWaitMillisPerRequest()) + " ms per request");
        }
        Guardrail guardrail = spec.getGuardrail();
        if (guardrail != null && after.getGuardrail() != null && after.getGuardrail() > guardrail.getMax()
                && (before.getGuardrail() == null || before.getGuardrail() <= guardrail.getMax()
                        || after.getGuardrail() > before.getGuardrail() * (1 + tolerance))) {
            worse.add("guardrail " + text(before.getGuardrail()) + " -> "
                    + text(after.getGuardrail()) + ", above its max " + text(guardrail.getMax()));
        }
        return worse.isEmpty() ? Optional.empty()
                : Optional.of(String.join("; ", worse) + " (tolerance " + spec.getRegressionTolerancePercent() + "%)");
    }

    /**
     * Whether a period served more than the one before it, beyond the noise, where requests had waited for a worker
     * before. The server times a request from its arrival, so the requests served then wait more of their time on its
     * clock and less outside it (in the accept backlog, at the clients): its latency rises while the clients' falls, as
     * clients that wait for their answers are a fixed number in flight (the lab's overloaded Quarkus pod: 200 -> 100
     * threads served 238 -> 260 req/s in the loop's window, its server-side latency 2862 -> 3735 ms, 182 against 106
     * req/s in rounds, and the loop reverted it). Not slower work, so latency does not judge such a step.
     */
    private static boolean servedMoreOfAQueue(Auto spec, AutoFigures before, AutoFigures after) {
        Double queued = before.getQueueWaitMillisPerRequest();
        return queued != null && queued > WAIT_FLOOR_MILLIS
                && servedMore(spec, before, after);
    }

    /** Whether {@code after} served more requests than {@code before}, beyond the noise. */
    private static boolean servedMore(Auto spec, AutoFigures before, AutoFigures after) {
        return rose(spec, before, after, AutoFigures::getRequestsPerSecond, AutoFigures::getRequestsPerSecondError);
    }

    /** The latency figure's rise beyond the tolerance, unless the load rose at least as much. */
    private static Optional<String> latency(String name, Function<AutoFigures, Double> figure, AutoFigures before, AutoFigures after,
            Double load, double tolerance) {
        Double latency = ratio(figure.apply(after), figure.apply(before));
        if (latency != null && rose(figure.apply(before), figure.apply(after), tolerance, LATENCY_FLOOR_MILLIS)
                && (load == null || load < latency)) {
            return Optional.of(name + " " + text(figure.apply(before)) + " -> " + text(figure.apply(after)) + " ms at "
                    + text(before.getRequestsPerSecond()) + " -> " + text(after.getRequestsPerSecond()) + " req/s");
        }
        return Optional.empty();
    }

    /**
     * Whether {@code now} beats {@code best} beyond the noise: more requests served, or as many served with
     * less CPU each or a lower mean latency, and no measure worse ({@link #regression}). Figures without a
     * measured spread (one window per period) count past the regression tolerance instead.
     */
    public static boolean better(Auto spec, AutoFigures best, AutoFigures now) {
        if (regression(spec, best, now).isPresent()) {
            return false;
        }
        boolean moreServed = servedMore(spec, best, now);
        boolean sameLoad = !moreServed && !servedMore(spec, now, best);
        return moreServed || sameLoad && (rose(spec, best, now, AutoFigures::getRequestsPerCpuSecond, AutoFigures::getRequestsPerCpuSecondError)
                || rose(spec, now, best, AutoFigures::getMeanLatencyMillis, AutoFigures::getMeanLatencyMillisError));
    }

    /** Whether {@code now} differs from {@code best} by no more than the noise in throughput, throughput per CPU-second and mean latency. */
    public static boolean withinNoise(Auto spec, AutoFigures best, AutoFigures now) {
        List<Function<AutoFigures, Double>> figures = List.of(AutoFigures::getRequestsPerSecond, AutoFigures::getRequestsPerCpuSecond,
                AutoFigures::getMeanLatencyMillis);
        List<Function<AutoFigures, Double>> errors = List.of(AutoFigures::getRequestsPerSecondError, AutoFigures::getRequestsPerCpuSecondError,
                AutoFigures::getMeanLatencyMillisError);
        for (int i = 0; i < figures.size(); i++) {
            if (rose(spec, best, now, figures.get(i), errors.get(i)) || rose(spec, now, best, figures.get(i), errors.get(i))) {
                return false;
            }
        }
        return true;
    }

    /** The noise of a period, as status says it: the standard errors it measured, relative to their figures. */
    public static String noise(AutoFigures period) {
        List<String> parts = new ArrayList<>();
        relative(parts, "throughput", period.getRequestsPerSecond(), period.getRequestsPerSecondError());
        relative(parts, "per CPU-second", period.getRequestsPerCpuSecond(), period.getRequestsPerCpuSecondError());
        relative(parts, "latency", period.getMeanLatencyMillis(), period.getMeanLatencyMillisError());
        return parts.isEmpty() ? "noise not measured (one window per period)" : "noise " + String.join(", ", parts);
    }

    /** How the workload moved, when its rate or its latency per pod moved by more than the spec's shift; else empty. */
    public static Optional<String> shift(Auto spec, AutoFigures baseline, AutoFigures now) {
        double shift = spec.getWorkloadShiftPercent() / 100.0;
        Double load = ratio(now.getRequestsPerSecond(), baseline.getRequestsPerSecond());
        Double latency = ratio(now.getMeanLatencyMillis(), baseline.getMeanLatencyMillis());
        if ((load != null && Math.abs(load - 1) > shift) || (latency != null && Math.abs(latency - 1) > shift)) {
            return Optional.of("the workload moved beyond " + spec.getWorkloadShiftPercent() + "%: " + text(baseline.getRequestsPerSecond())
                    + " -> " + text(now.getRequestsPerSecond()) + " req/s per pod, " + text(baseline.getMeanLatencyMillis()) + " -> "
                    + text(now.getMeanLatencyMillis()) + " ms");
        }
        return Optional.empty();
    }

    /** A figure for a message; an absent one (the metrics do not expose it) as "n/a". */
    static String text(Double value) {
        return value == null ? "n/a" : Units.number(value);
    }

    /**
     * Whether the figure rose from {@code low} to {@code high} by more than the noise: twice the standard error of
     * the difference, from both periods' spreads; the regression tolerance where neither period measured one.
     */
    private static boolean rose(Auto spec, AutoFigures low, AutoFigures high, Function<AutoFigures, Double> figure,
            Function<AutoFigures, Double> error) {
        Double a = figure.apply(low);
        Double b = figure.apply(high);
        if (a == null || b == null) {
            return false;
        }
        Double noise = noise(low, high, error);
        return b - a > (noise == null ? a * spec.getRegressionTolerancePercent() / 100.0 : noise);
    }

    /** Whether the figure moved by more than the noise the two periods measured; true where neither measured it. */
    private static boolean beyondNoise(AutoFigures before, AutoFigures after, Function<AutoFigures, Double> figure,
            Function<AutoFigures, Double> error) {
        Double a = figure.apply(before);
        Double b = figure.apply(after);
        Double noise = noise(before, after, error);
        return a == null || b == null || noise == null || Math.abs(b - a) > noise;
    }

    /** Twice the standard error of the difference of two periods' figures; null where neither measured its spread. */
    private static Double noise(AutoFigures a, AutoFigures b, Function<AutoFigures, Double> error) {
        Double ea = error.apply(a);
        Double eb = error.apply(b);
        if (ea == null && eb == null) {
            return null;
        }
        double x = ea == null ? 0 : ea;
        double y = eb == null ? 0 : eb;
        return NOISE_ERRORS * Math.sqrt(x * x + y * y);
    }

    private static void relative(List<String> parts, String name, Double value, Double error) {
        if (value != null && error != null && value > 0) {
            parts.add(name + " ±" + Units.number(100 * error / value) + "%");
        }
    }

    /** The standard error of the windows' mean of a figure, over the windows that have it; null below two. */
    private static Double standardError(List<Observed> windows, Function<Observed, Double> figure) {
        List<Double> values = windows.stream().map(figure).filter(v -> v != null && Double.isFinite(v)).toList();
        int n = values.size();
        if (n < 2) {
            return null;
        }
        double mean = values.stream().mapToDouble(Double::doubleValue).sum() / n;
        double squares = values.stream().mapToDouble(v -> (v - mean) * (v - mean)).sum();
        return round(Math.sqrt(squares / (n - 1) / n));
    }

    private static boolean rose(Double before, Double after, double tolerance, double floor) {
        return before != null && after != null && after > before * (1 + tolerance) + floor;
    }

    private static Double ratio(Double after, Double before) {
        return after == null || before == null || before <= 0 ? null : after / before;
    }

    private static double round(double value) {
        return Math.round(value * 100) / 100.0;
    }
}
