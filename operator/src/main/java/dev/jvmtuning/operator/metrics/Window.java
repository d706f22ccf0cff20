package dev.jvmtuning.operator.metrics;

import dev.jvmtuning.operator.api.v1alpha1.Observed;
import dev.jvmtuning.operator.model.ObservedFigure;
import dev.jvmtuning.operator.model.Units;
import java.time.Instant;
import dev.jvmtuning.operator.model.VirtualThreads;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/** Rates over the window between two snapshots of each pod, averaged over the pods; p99 latency over their requests together. Pure. */
public final class Window {
    private static final long SHOWN_LENGTH_STEP = 5;

    private Window() {
    }

    /** What the previous poll left: each pod's snapshot and virtual threads, and the last observed window. */
    public record History(Map<String, SourcedSnapshot> snapshots, Map<String, VirtualThreads> virtualThreads, Observed observed) {
        public static final History EMPTY = new History(Map.of(), Map.of(), null);
    }

    /**
     * A pod's snapshot of the endpoints that answered, and of each alone (a single endpoint's is the snapshot itself); none
     * for a snapshot from Prometheus. A window compares the figures of the endpoints that answered at both its ends: the agent
     * and the runtime each have a dialect of some figures (GC pauses, allocation), and a counter read in one at one end and
     * in the other at the other end would measure nothing.
     */
    public record SourcedSnapshot(PodSnapshot all, Map<MetricsEndpoint, PodSnapshot> byEndpoint) {
        public SourcedSnapshot {
            byEndpoint = Map.copyOf(byEndpoint);
        }

        /** The snapshot of these endpoints, if there is one. */
        Optional<PodSnapshot> over(Set<MetricsEndpoint> endpoints) {
            if (endpoints.equals(byEndpoint.keySet())) {
                return Optional.of(all);
            }
            return endpoints.size() == 1 ? Optional.ofNullable(byEndpoint.get(endpoints.iterator().next())) : Optional.empty();
        }
    }

    /** A window's two snapshots of each pod that has one, and the endpoints both were read from. */
    public record Ends(Map<String, PodSnapshot> before, Map<String, PodSnapshot> now, Map<String, Set<MetricsEndpoint>> endpoints) {
    }

    /**
     * The pods read at both ends, later now, over the endpoints that answered at both; a pod whose endpoints have none in
     * common has no window.
     */
    public static Ends ends(Map<String, SourcedSnapshot> previous, Map<String, SourcedSnapshot> current) {
        Map<String, PodSnapshot> before = new LinkedHashMap<>();
        Map<String, PodSnapshot> now = new LinkedHashMap<>();
        Map<String, Set<MetricsEndpoint>> endpoints = new LinkedHashMap<>();
        current.forEach((pod, latest) -> {
            SourcedSnapshot earlier = previous.get(pod);
            if (earlier == null) {
                return;
            }
            Set<MetricsEndpoint> common = new TreeSet<>(MetricsEndpoint.ORDER);
            common.addAll(earlier.byEndpoint().keySet());
            common.retainAll(latest.byEndpoint().keySet());
            Optional<PodSnapshot> from = earlier.over(common);
            Optional<PodSnapshot> to = latest.over(common);
            if (from.isPresent() && to.isPresent() && to.get().atMillis() > from.get().atMillis()) {
                before.put(pod, from.get());
                now.put(pod, to.get());
                endpoints.put(pod, common);
            }
        });
        return new Ends(before, now, endpoints);
    }

    /** The observed figures of a window's ends, with the endpoints they were read from. */
    public static Observed observe(Ends ends, Double containerCores) {
        Observed observed = observe(ends.before(), ends.now(), containerCores);
        if (observed != null) {
            observed.setSources(sources(ends.endpoints()));
        }
        return observed;
    }

    /** Each endpoint, agent's first, with the pods it answered on where not all did; null when none was a pod's. */
    static List<String> sources(Map<String, Set<MetricsEndpoint>> endpoints) {
        Map<MetricsEndpoint, Long> pods = endpoints.values().stream().flatMap(Set::stream)
                .collect(Collectors.groupingBy(e -> e, () -> new TreeMap<>(MetricsEndpoint.ORDER), Collectors.counting()));
        if (pods.isEmpty()) {
            return null;
        }
        return pods.entrySet().stream().map(e -> e.getKey() + (e.getValue() == endpoints.size() ? "" : " on " + e.getValue() + " of "
                + endpoints.size() + " pods")).toList();
    }

    /**
     * Per-request figures of one pod, into its figures; absent where the pod served no requests in the window. The latency
     * is the server's time plus the queue wait where the runtime exposes its queue, as a client waits both.
     */
    private static void serviceRates(Observed pod, PodSnapshot.Service before, PodSnapshot.Service now, Double cpuSeconds, double seconds) {
        Double requests = increase(before.requests(), now.requests());
        // A gauge read at both ends of the window: their mean stands for the window's (a stuck server queues, serving nothing).
        pod.setQueuedRequests(Units.mean(List.of(before.queue(), now.queue()), PodSnapshot.Queue::queued));
        if (requests == null || requests <= 0) {
            pod.setRequestsPerSecond(requests == null ? null : 0.0);
            return;
        }
        Double queueWait = millisPerRequest(increase(before.queue().waitSeconds(), now.queue().waitSeconds()), requests);
        if (queueWait == null && pod.getQueuedRequests() != null) {
            // Little's law: requests queued = arrival rate x time each waits.
            queueWait = 1000 * pod.getQueuedRequests() / (requests / seconds);
        }
        Double server = millisPerRequest(increase(before.requestSeconds(), now.requestSeconds()), requests);
        Double failed = increase(before.serverErrors(), now.serverErrors());
        // A request the server failed (under overload most often one that timed out waiting for a connection) held none:
        // counted, they would make the connections look held for a fraction of the time they are.
        double served = failed == null || failed >= requests ? requests : requests - failed;
        Double allocated = perRequest(allocated(before.allocatedBytes(), now.allocatedBytes()), requests);
        pod.setRequestsPerSecond(requests / seconds);
        pod.setMeanLatencyMillis(plus(server, queueWait));
        pod.setCpuMillisPerRequest(millisPerRequest(cpuSeconds, requests));
        pod.setRunQueueMillisPerRequest(millisPerRequest(increase(before.runQueueDelaySeconds(), now.runQueueDelaySeconds()), requests));
        pod.setConnectionWaitMillisPerRequest(millisPerRequest(increase(before.connectionWaitSeconds(), now.connectionWaitSeconds()), requests));
        pod.setConnectionHoldMillisPerRequest(millisPerRequest(increase(before.connectionHoldSeconds(), now.connectionHoldSeconds()), served));
        pod.setErrorPercent(percentOf(failed, requests));
        pod.setAllocatedKibPerRequest(allocated == null ? null : allocated / 1024);
        pod.setQueueWaitMillisPerRequest(queueWait);
        pod.setCompilationMillisPerRequest(millisPerRequest(increase(before.compilationSeconds(), now.compilationSeconds()), requests));
        pod.setGcCpuMillisPerRequest(millisPerRequest(increase(before.collectorCpuSeconds(), now.collectorCpuSeconds()), requests));
    }

    /** The JVM's allocation counters move at collections: a window without one says nothing, it does not say zero. */
    private static Double allocated(Double before, Double now) {
        Double increase = increase(before, now);
        return increase == null || increase <= 0 ? null : increase;
    }

    private static Double millisPerRequest(Double seconds, double requests) {
        return seconds == null ? null : perRequest(1000 * seconds, requests);
    }

    private static Double perRequest(Double total, double requests) {
        return total == null ? null : total / requests;
    }

    /**
     * The window's mean busy threads where the pod sums them over time (this project's agent); null where it does not. The
     * sum's timestamps, where it has them, are when the agent collected it: a scrape serves its latest collection, seconds old
     * on a busy CPU, so the increase spans the collections, not the scrapes (over the scrapes, a 4 s window of a saturated
     * Tomcat pool read 344.7 busy of 200). Null too when no collection fell between the two.
     */
    private static Double meanBusyThreads(PodSnapshot before, PodSnapshot now, double seconds) {
        Double busySeconds = increase(before.busyThreadSeconds(), now.busyThreadSeconds());
        Long from = before.busyThreadSecondsAtMillis();
        Long to = now.busyThreadSecondsAtMillis();
        if (busySeconds == null || from == null || to == null) {
            return busySeconds == null ? null : Double.valueOf(busySeconds / seconds);
        }
        return to > from ? Double.valueOf(1000 * busySeconds / (to - from)) : null;
    }

    /**
     * The observed figures for pods that have a previous snapshot: each pod's over its window, then the window's from the
     * pods' by each figure's rule across pods (ObservedFigure), most the mean over the pods that have it. A counter that went
     * down was reset (the pod restarted): its whole current value counts as the increase, as in PromQL.
     */
    public static Observed observe(Map<String, PodSnapshot> previous, Map<String, PodSnapshot> current, Double containerCores) {
        List<Observed> pods = new ArrayList<>();
        List<LatencyHistogram> latencies = new ArrayList<>();
        long windowMillis = 0;
        boolean busyAveraged = true;
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
            LatencyHistogram latency = LatencyHistogram.increase(before.service().latency(), now.service().latency());
            if (latency != null) {
                latencies.add(latency);
            }
            Double meanBusy = meanBusyThreads(before, now, seconds);
            busyAveraged &= now.busyThreads() == null || meanBusy != null;
            // One pod's figures; null where either snapshot lacks the figure.
            Observed pod = new Observed().setPods(1)
                    .setGcTimePercent(gc == null ? null : Math.min(100, 100 * gc / seconds))
                    .setInvoluntarySwitchesPerCorePerSecond(switches == null || cores == null || cores <= 0 ? null : switches / seconds / cores)
                    .setCpuThrottlePercent(periods == null || throttled == null || periods <= 0 ? null : 100 * throttled / periods)
                    .setCpuCores(cpu == null ? null : cpu / seconds)
                    .setBusyThreads(meanBusy != null ? meanBusy : now.busyThreads()).setMaxThreads(now.maxThreads())
                    .setPendingConnections(now.pendingConnections())
                    .setHeapAfterGcPercent(now.heapAfterGcRatio() == null ? null : 100 * now.heapAfterGcRatio())
                    .setLiveHeapMib(now.liveHeapBytes() == null || !Double.isFinite(now.liveHeapBytes()) ? null
                            : Math.round(10 * now.liveHeapBytes() / Units.MI) / 10.0)
                    .setLoadedClasses(now.loadedClasses() == null || !Double.isFinite(now.loadedClasses()) ? null
                            : (int) Math.round(now.loadedClasses()));
            serviceRates(pod, before.service(), now.service(), cpu, seconds);
            pods.add(pod);
        }
        if (pods.isEmpty()) {
            return null;
        }
        Observed observed = ObservedFigure.overPods(pods);
        observed.setWindow(shownLength(windowMillis));
        observed.setEnd(Instant.ofEpochMilli(endMillis).toString());
        observed.setBusyThreadsAveraged(observed.getBusyThreads() == null ? null : busyAveraged);
        Double queueWait = observed.getQueueWaitMillisPerRequest();
        observed.setLatencyIncludesQueueWait(observed.getMeanLatencyMillis() == null ? null : queueWait != null);
        // A percentile of the pods' requests together, not a mean of the pods' percentiles. The histogram times the
        // server only; under overload the queue wait is much the same for every request (first come, first served).
        LatencyHistogram latency = LatencyHistogram.sum(latencies);
        Double serverP99 = latency == null ? null : latency.p99Millis();
        observed.setP99LatencyMillis(plus(serverP99, queueWait));
        return observed;
    }

    /**
     * Each pod's virtual-thread pinning between its previous reading and this one, for the pods that report pinning
     * at both ends: a pod that started reporting since counted its earlier pinnings too, before the window.
     *
     * @param containerCores the CPU limit of the profile's container, for pods that report no CPU count of their own
     */
    public static Map<String, VirtualThreads.Pinning> pinning(History past, Map<String, PodSnapshot> snapshots,
            Map<String, VirtualThreads> virtualThreads, Double containerCores) {
        Map<String, VirtualThreads.Pinning> pinning = new LinkedHashMap<>();
        virtualThreads.forEach((pod, now) -> {
            SourcedSnapshot before = past.snapshots().get(pod);
            PodSnapshot after = snapshots.get(pod);
            VirtualThreads earlier = past.virtualThreads().getOrDefault(pod, VirtualThreads.NONE);
            if (before == null || after == null || earlier.frames().isEmpty()) {
                return;
            }
            now.since(earlier, (after.atMillis() - before.all().atMillis()) / 1000.0,
                    after.cpuLimitCores() != null ? after.cpuLimitCores() : containerCores).ifPresent(p -> pinning.put(pod, p));
        });
        return pinning;
    }

    /**
     * The window's length as status shows it: to 5 s, so that polls a second or two late (a busy CPU,
     * a collection) do not rewrite an otherwise unchanged status every time. Rates use the exact length.
     */
    static String shownLength(long windowMillis) {
        long seconds = Math.round(windowMillis / 1000.0);
        return (seconds < SHOWN_LENGTH_STEP ? Math.max(1, seconds) : Math.round(seconds / (double) SHOWN_LENGTH_STEP) * SHOWN_LENGTH_STEP) + "s";
    }

    /** A time with the queue wait added where there is one. */
    private static Double plus(Double time, Double queueWait) {
        return time == null || queueWait == null ? time : Double.valueOf(time + queueWait);
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

}
