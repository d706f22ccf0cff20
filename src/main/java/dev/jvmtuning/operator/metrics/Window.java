package dev.jvmtuning.operator.metrics;

import dev.jvmtuning.operator.api.v1alpha1.Observed;
import dev.jvmtuning.operator.model.Units;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** Rates over the window between two snapshots of each pod, averaged over the pods. Pure. */
public final class Window {

    private Window() {
    }

    /** What the previous poll left: each pod's snapshot and the last observed window. */
    public record History(Map<String, PodSnapshot> snapshots, Observed observed) {
        public static final History EMPTY = new History(Map.of(), null);
    }

    /** One pod's rates; null where either snapshot lacks the figure. */
    record PodRates(Double gcTimePercent, Double involuntaryPerCorePerSecond, Double throttlePercent, Double cpuCores,
            Double busyThreads, Double maxThreads, Double pendingConnections, Double heapAfterGcPercent, ServiceRates service) {
    }

    /** Per-request figures of one pod; null where the pod served no requests in the window. */
    record ServiceRates(Double requestsPerSecond, Double latencyMillis, Double cpuMillis, Double runQueueMillis,
            Double connectionWaitMillis, Double connectionHoldMillis, Double errorPercent) {

        static ServiceRates of(PodSnapshot.Service before, PodSnapshot.Service now, Double cpuSeconds, double seconds) {
            Double requests = increase(before.requests(), now.requests());
            if (requests == null || requests <= 0) {
                return new ServiceRates(requests == null ? null : 0.0, null, null, null, null, null, null);
            }
            return new ServiceRates(requests / seconds,
                    perRequest(increase(before.requestSeconds(), now.requestSeconds()), requests),
                    perRequest(cpuSeconds, requests),
                    perRequest(increase(before.runQueueDelaySeconds(), now.runQueueDelaySeconds()), requests),
                    perRequest(increase(before.connectionWaitSeconds(), now.connectionWaitSeconds()), requests),
                    perRequest(increase(before.connectionHoldSeconds(), now.connectionHoldSeconds()), requests),
                    percentOf(increase(before.serverErrors(), now.serverErrors()), requests));
        }

        private static Double perRequest(Double seconds, double requests) {
            return seconds == null ? null : 1000 * seconds / requests;
        }
    }

    /**
     * The observed figures for pods that have a previous snapshot. A counter that went down was
     * reset (the pod restarted): its whole current value counts as the increase, as in PromQL.
     */
    public static Observed observe(Map<String, PodSnapshot> previous, Map<String, PodSnapshot> current, Double containerCores) {
        List<PodRates> rates = new ArrayList<>();
        long windowMillis = 0;
        long endMillis = 0;
        for (Map.Entry<String, PodSnapshot> entry : current.entrySet()) {
            PodSnapshot before = previous.get(entry.getKey());
            PodSnapshot now = entry.getValue();
            if (before == null || now.atMillis() <= before.atMillis()) {
                continue;
            }
            double seconds = (now.atMillis() - before.atMillis()) / 1000.0;
            windowMillis = Math.max(windowMillis, now.atMillis() - before.atMillis());
            endMillis = Math.max(endMillis, now.atMillis());
            Double cores = now.cpuLimitCores() != null ? now.cpuLimitCores() : containerCores;
            Double periods = increase(before.cfsPeriods(), now.cfsPeriods());
            Double throttled = increase(before.cfsThrottledPeriods(), now.cfsThrottledPeriods());
            Double switches = increase(before.involuntarySwitches(), now.involuntarySwitches());
            Double gc = increase(before.gcPauseSeconds(), now.gcPauseSeconds());
            Double cpu = increase(before.cpuSeconds(), now.cpuSeconds());
            rates.add(new PodRates(
                    gc == null ? null : Math.min(100, 100 * gc / seconds),
                    switches == null || cores == null || cores <= 0 ? null : switches / seconds / cores,
                    periods == null || throttled == null || periods <= 0 ? null : 100 * throttled / periods,
                    cpu == null ? null : cpu / seconds,
                    now.busyThreads(), now.maxThreads(), now.pendingConnections(),
                    now.heapAfterGcRatio() == null ? null : 100 * now.heapAfterGcRatio(),
                    ServiceRates.of(before.service(), now.service(), cpu, seconds)));
        }
        if (rates.isEmpty()) {
            return null;
        }
        Observed observed = new Observed();
        observed.setWindow(Math.round(windowMillis / 1000.0) + "s");
        observed.setEnd(Instant.ofEpochMilli(endMillis).toString());
        observed.setPods(rates.size());
        observed.setGcTimePercent(mean(rates, PodRates::gcTimePercent));
        observed.setInvoluntarySwitchesPerCorePerSecond(mean(rates, PodRates::involuntaryPerCorePerSecond));
        observed.setCpuThrottlePercent(mean(rates, PodRates::throttlePercent));
        observed.setCpuCores(mean(rates, PodRates::cpuCores));
        observed.setBusyThreads(mean(rates, PodRates::busyThreads));
        observed.setMaxThreads(mean(rates, PodRates::maxThreads));
        observed.setPendingConnections(mean(rates, PodRates::pendingConnections));
        observed.setHeapAfterGcPercent(mean(rates, PodRates::heapAfterGcPercent));
        observed.setRequestsPerSecond(mean(rates, r -> r.service().requestsPerSecond()));
        observed.setMeanLatencyMillis(mean(rates, r -> r.service().latencyMillis()));
        observed.setCpuMillisPerRequest(mean(rates, r -> r.service().cpuMillis()));
        observed.setRunQueueMillisPerRequest(mean(rates, r -> r.service().runQueueMillis()));
        observed.setConnectionWaitMillisPerRequest(mean(rates, r -> r.service().connectionWaitMillis()));
        observed.setConnectionHoldMillisPerRequest(mean(rates, r -> r.service().connectionHoldMillis()));
        observed.setErrorPercent(mean(rates, r -> r.service().errorPercent()));
        return observed;
    }

    private static Double percentOf(Double part, double whole) {
        return part == null ? null : 100 * part / whole;
    }

    private static Double increase(Double before, Double now) {
        if (before == null || now == null) {
            return null;
        }
        return now >= before ? now - before : now;
    }

    /** Mean over the pods that expose the figure. */
    private static Double mean(List<PodRates> rates, Function<PodRates, Double> figure) {
        return Units.mean(rates, figure);
    }
}
