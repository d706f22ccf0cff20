package dev.jvmtuning.operator.closedloop;

import dev.jvmtuning.operator.api.v1alpha1.Auto;
import dev.jvmtuning.operator.api.v1alpha1.AutoFigures;
import dev.jvmtuning.operator.api.v1alpha1.Guardrail;
import dev.jvmtuning.operator.api.v1alpha1.Observed;
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
     * GC time is judged only past a few points of wall time: it grows with the allocation rate, so a step
     * that serves twice the requests spends more of it (a good lab step was reverted for that, see
     * docs/development/benchmarks.md), and R15 calls 10% pressure.
     */
    private static final double GC_FLOOR_POINTS = 5;
    private static final double WAIT_FLOOR_MILLIS = 1;

    private Measures() {
    }

    /** The windows averaged figure by figure, each over the windows that have it. */
    public static Observed mean(List<Observed> windows) {
        Observed mean = new Observed();
        Observed last = windows.get(windows.size() - 1);
        mean.setWindow(last.getWindow());
        mean.setEnd(last.getEnd());
        mean.setPods(last.getPods());
        mean.setGcTimePercent(mean(windows, Observed::getGcTimePercent));
        mean.setHeapAfterGcPercent(mean(windows, Observed::getHeapAfterGcPercent));
        mean.setInvoluntarySwitchesPerCorePerSecond(mean(windows, Observed::getInvoluntarySwitchesPerCorePerSecond));
        mean.setCpuThrottlePercent(mean(windows, Observed::getCpuThrottlePercent));
        mean.setCpuCores(mean(windows, Observed::getCpuCores));
        mean.setBusyThreads(mean(windows, Observed::getBusyThreads));
        mean.setMaxThreads(mean(windows, Observed::getMaxThreads));
        mean.setPendingConnections(mean(windows, Observed::getPendingConnections));
        mean.setRequestsPerSecond(mean(windows, Observed::getRequestsPerSecond));
        mean.setMeanLatencyMillis(mean(windows, Observed::getMeanLatencyMillis));
        mean.setP99LatencyMillis(mean(windows, Observed::getP99LatencyMillis));
        mean.setCpuMillisPerRequest(mean(windows, Observed::getCpuMillisPerRequest));
        mean.setRunQueueMillisPerRequest(mean(windows, Observed::getRunQueueMillisPerRequest));
        mean.setConnectionWaitMillisPerRequest(mean(windows, Observed::getConnectionWaitMillisPerRequest));
        mean.setConnectionHoldMillisPerRequest(mean(windows, Observed::getConnectionHoldMillisPerRequest));
        mean.setErrorPercent(mean(windows, Observed::getErrorPercent));
        mean.setGuardrail(mean(windows, Observed::getGuardrail));
        return mean;
    }

    /** The figures a period is judged by. */
    public static AutoFigures figures(Observed mean, int windows) {
        Double rate = mean.getRequestsPerSecond();
        Double cores = mean.getCpuCores();
        return new AutoFigures().setWindows(windows).setRequestsPerSecond(rate)
                .setRequestsPerCpuSecond(rate == null || cores == null || cores <= 0 ? null : round(rate / cores))
                .setMeanLatencyMillis(mean.getMeanLatencyMillis()).setP99LatencyMillis(mean.getP99LatencyMillis()).setErrorPercent(mean.getErrorPercent())
                .setGcTimePercent(mean.getGcTimePercent()).setConnectionWaitMillisPerRequest(mean.getConnectionWaitMillisPerRequest())
                .setGuardrail(mean.getGuardrail());
    }

    /**
     * Why {@code after} is worse than {@code before}, or empty. Throughput per CPU-second is judged at
     * the same load (within the tolerance): more requests served may cost more CPU each, and fewer are not
     * comparable. Mean and p99 latency are each judged unless the load rose at least as much (Little's law: that is more
     * work in flight, not slower work). Errors, GC time, pool waits and the guardrail are judged always.
     */
    public static Optional<String> regression(Auto spec, AutoFigures before, AutoFigures after) {
        double tolerance = spec.getRegressionTolerancePercent() / 100.0;
        List<String> worse = new ArrayList<>();
        Double load = ratio(after.getRequestsPerSecond(), before.getRequestsPerSecond());
        Double efficiency = ratio(after.getRequestsPerCpuSecond(), before.getRequestsPerCpuSecond());
        if (load != null && Math.abs(load - 1) <= tolerance && efficiency != null && efficiency < 1 - tolerance) {
            worse.add("throughput per CPU-second " + text(before.getRequestsPerCpuSecond()) + " -> " + text(after.getRequestsPerCpuSecond())
                    + " at the same load (" + text(before.getRequestsPerSecond()) + " -> " + text(after.getRequestsPerSecond()) + " req/s)");
        }
        latency("mean latency", AutoFigures::getMeanLatencyMillis, before, after, load, tolerance).ifPresent(worse::add);
        latency("p99 latency", AutoFigures::getP99LatencyMillis, before, after, load, tolerance).ifPresent(worse::add);
        if (rose(before.getErrorPercent(), after.getErrorPercent(), tolerance, ERROR_FLOOR_POINTS)) {
            worse.add("server errors " + text(before.getErrorPercent()) + "% -> " + text(after.getErrorPercent()) + "%");
        }
        if (rose(before.getGcTimePercent(), after.getGcTimePercent(), tolerance, GC_FLOOR_POINTS)) {
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

    private static boolean rose(Double before, Double after, double tolerance, double floor) {
        return before != null && after != null && after > before * (1 + tolerance) + floor;
    }

    private static Double ratio(Double after, Double before) {
        return after == null || before == null || before <= 0 ? null : after / before;
    }

    private static Double mean(List<Observed> windows, Function<Observed, Double> figure) {
        return Units.mean(windows, figure);
    }

    private static double round(double value) {
        return Math.round(value * 100) / 100.0;
    }
}
