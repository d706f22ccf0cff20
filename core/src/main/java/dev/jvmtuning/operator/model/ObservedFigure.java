package dev.jvmtuning.operator.model;

import dev.jvmtuning.operator.api.v1alpha1.Observed;
import dev.jvmtuning.operator.api.v1alpha1.ObservedMemory;
import java.util.List;
import java.util.Objects;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * A figure of a metrics window ({@link Observed}), declared once with how it is had from several readings of it: a
 * window's from its pods' (the operator's Window), a period's from its windows' (the closed loop's Measures). Both
 * aggregate through {@link #overPods} and {@link #overWindows}, figure by figure; ObservedFigureTest fails when Observed
 * has a figure not declared here. Pure.
 */
public final class ObservedFigure<T> {

    /** How a figure of several readings is had. */
    public enum Rule {
        /** The mean over the readings that have it, to hundredths; a count's to the nearest whole. */
        MEAN,
        /** The sum over the readings that have it. */
        SUM,
        /** The last reading's. */
        LATEST,
        /** Not from the readings' own figures: the aggregating code sets it from more than they say, or nothing does. */
        APART
    }

    /** Over the pods: the longest pod's window, as status shows it. */
    private static final ObservedFigure<String> WINDOW = other("window", Observed::getWindow, Observed::setWindow,
            Rule.APART, Rule.LATEST);
    /** Over the pods: the latest pod's end. */
    private static final ObservedFigure<String> END = other("end", Observed::getEnd, Observed::setEnd, Rule.APART, Rule.LATEST);
    private static final ObservedFigure<Integer> PODS = count("pods", Observed::getPods, Observed::setPods, Rule.SUM, Rule.LATEST);
    /** Over the pods: the endpoints they were read from; a period has none. */
    private static final ObservedFigure<List<String>> SOURCES = other("sources", Observed::getSources, Observed::setSources,
            Rule.APART, Rule.APART);
    private static final ObservedFigure<Double> GC_TIME_PERCENT = mean("gcTimePercent", Observed::getGcTimePercent,
            Observed::setGcTimePercent);
    private static final ObservedFigure<Double> HEAP_AFTER_GC_PERCENT = mean("heapAfterGcPercent", Observed::getHeapAfterGcPercent,
            Observed::setHeapAfterGcPercent);
    /** A gauge of each pod's heap: over the pods and the windows the mean. */
    private static final ObservedFigure<Double> LIVE_HEAP_MIB = mean("liveHeapMib", Observed::getLiveHeapMib, Observed::setLiveHeapMib);
    private static final ObservedFigure<Double> INVOLUNTARY_SWITCHES = mean("involuntarySwitchesPerCorePerSecond",
            Observed::getInvoluntarySwitchesPerCorePerSecond, Observed::setInvoluntarySwitchesPerCorePerSecond);
    private static final ObservedFigure<Double> CPU_THROTTLE_PERCENT = mean("cpuThrottlePercent", Observed::getCpuThrottlePercent,
            Observed::setCpuThrottlePercent);
    private static final ObservedFigure<Double> CPU_CORES = mean("cpuCores", Observed::getCpuCores, Observed::setCpuCores);
    private static final ObservedFigure<Double> BUSY_THREADS = mean("busyThreads", Observed::getBusyThreads, Observed::setBusyThreads);
    /** Over the pods: whether every pod that reports busy threads sums them over time, and absent where none reports them. */
    private static final ObservedFigure<Boolean> BUSY_THREADS_AVERAGED = other("busyThreadsAveraged", Observed::getBusyThreadsAveraged,
            Observed::setBusyThreadsAveraged, Rule.APART, Rule.LATEST);
    private static final ObservedFigure<Double> MAX_THREADS = mean("maxThreads", Observed::getMaxThreads, Observed::setMaxThreads);
    private static final ObservedFigure<Double> PENDING_CONNECTIONS = mean("pendingConnections", Observed::getPendingConnections,
            Observed::setPendingConnections);
    private static final ObservedFigure<Double> REQUESTS_PER_SECOND = mean("requestsPerSecond", Observed::getRequestsPerSecond,
            Observed::setRequestsPerSecond);
    private static final ObservedFigure<Double> MEAN_LATENCY_MILLIS = mean("meanLatencyMillis", Observed::getMeanLatencyMillis,
            Observed::setMeanLatencyMillis);
    /** Over the pods: a percentile of their requests together, not a mean of their percentiles. */
    private static final ObservedFigure<Double> P99_LATENCY_MILLIS = number("p99LatencyMillis", Observed::getP99LatencyMillis,
            Observed::setP99LatencyMillis, Rule.APART, Rule.MEAN);
    /** Over the pods: whether the window's queue wait was measured, where it has a latency. */
    private static final ObservedFigure<Boolean> LATENCY_INCLUDES_QUEUE_WAIT = other("latencyIncludesQueueWait",
            Observed::getLatencyIncludesQueueWait, Observed::setLatencyIncludesQueueWait, Rule.APART, Rule.LATEST);
    private static final ObservedFigure<Double> QUEUE_WAIT_MILLIS_PER_REQUEST = mean("queueWaitMillisPerRequest",
            Observed::getQueueWaitMillisPerRequest, Observed::setQueueWaitMillisPerRequest);
    private static final ObservedFigure<Double> QUEUED_REQUESTS = mean("queuedRequests", Observed::getQueuedRequests,
            Observed::setQueuedRequests);
    private static final ObservedFigure<Double> CPU_MILLIS_PER_REQUEST = mean("cpuMillisPerRequest", Observed::getCpuMillisPerRequest,
            Observed::setCpuMillisPerRequest);
    private static final ObservedFigure<Double> COMPILATION_MILLIS_PER_REQUEST = mean("compilationMillisPerRequest",
            Observed::getCompilationMillisPerRequest, Observed::setCompilationMillisPerRequest);
    private static final ObservedFigure<Double> GC_CPU_MILLIS_PER_REQUEST = mean("gcCpuMillisPerRequest", Observed::getGcCpuMillisPerRequest,
            Observed::setGcCpuMillisPerRequest);
    private static final ObservedFigure<Double> RUN_QUEUE_MILLIS_PER_REQUEST = mean("runQueueMillisPerRequest",
            Observed::getRunQueueMillisPerRequest, Observed::setRunQueueMillisPerRequest);
    private static final ObservedFigure<Double> CONNECTION_WAIT_MILLIS_PER_REQUEST = mean("connectionWaitMillisPerRequest",
            Observed::getConnectionWaitMillisPerRequest, Observed::setConnectionWaitMillisPerRequest);
    private static final ObservedFigure<Double> CONNECTION_HOLD_MILLIS_PER_REQUEST = mean("connectionHoldMillisPerRequest",
            Observed::getConnectionHoldMillisPerRequest, Observed::setConnectionHoldMillisPerRequest);
    private static final ObservedFigure<Double> ALLOCATED_KIB_PER_REQUEST = mean("allocatedKibPerRequest",
            Observed::getAllocatedKibPerRequest, Observed::setAllocatedKibPerRequest);
    /** A gauge: over a period the newest. */
    private static final ObservedFigure<Integer> LOADED_CLASSES = count("loadedClasses", Observed::getLoadedClasses,
            Observed::setLoadedClasses, Rule.MEAN, Rule.LATEST);
    private static final ObservedFigure<Double> ERROR_PERCENT = mean("errorPercent", Observed::getErrorPercent, Observed::setErrorPercent);
    /** The query's, over the pods together: the metrics fetcher sets it apart. */
    private static final ObservedFigure<Double> GUARDRAIL = number("guardrail", Observed::getGuardrail, Observed::setGuardrail,
            Rule.APART, Rule.MEAN);
    /** One pod's, read apart from the window; no period has one. */
    private static final ObservedFigure<ObservedMemory> MEMORY = other("memory", Observed::getMemory, Observed::setMemory,
            Rule.APART, Rule.APART);

    /** Every figure of Observed, in its order. */
    static final List<ObservedFigure<?>> ALL = List.of(WINDOW, END, PODS, SOURCES, GC_TIME_PERCENT, HEAP_AFTER_GC_PERCENT, LIVE_HEAP_MIB,
            INVOLUNTARY_SWITCHES, CPU_THROTTLE_PERCENT, CPU_CORES, BUSY_THREADS, BUSY_THREADS_AVERAGED, MAX_THREADS, PENDING_CONNECTIONS,
            REQUESTS_PER_SECOND, MEAN_LATENCY_MILLIS, P99_LATENCY_MILLIS, LATENCY_INCLUDES_QUEUE_WAIT, QUEUE_WAIT_MILLIS_PER_REQUEST,
            QUEUED_REQUESTS, CPU_MILLIS_PER_REQUEST, COMPILATION_MILLIS_PER_REQUEST, GC_CPU_MILLIS_PER_REQUEST,
            RUN_QUEUE_MILLIS_PER_REQUEST, CONNECTION_WAIT_MILLIS_PER_REQUEST, CONNECTION_HOLD_MILLIS_PER_REQUEST,
            ALLOCATED_KIB_PER_REQUEST, LOADED_CLASSES, ERROR_PERCENT, GUARDRAIL, MEMORY);

    private final String name;
    private final Function<Observed, T> value;
    private final BiConsumer<Observed, T> setter;
    private final Rule acrossPods;
    private final Rule acrossWindows;
    /** The figure's mean and sum of several readings' values, absent among them; null where the figure has none. */
    private final Function<List<T>, T> mean;
    private final Function<List<T>, T> sum;

    private ObservedFigure(String name, Function<Observed, T> value, BiConsumer<Observed, T> setter, Rule acrossPods, Rule acrossWindows,
            Function<List<T>, T> mean, Function<List<T>, T> sum) {
        for (Rule rule : List.of(acrossPods, acrossWindows)) {
            if (rule == Rule.MEAN && mean == null || rule == Rule.SUM && sum == null) {
                throw new IllegalArgumentException(name + " has no " + rule);
            }
        }
        this.name = name;
        this.value = value;
        this.setter = setter;
        this.acrossPods = acrossPods;
        this.acrossWindows = acrossWindows;
        this.mean = mean;
        this.sum = sum;
    }

    /** The figure's property in Observed. */
    String name() {
        return name;
    }

    T of(Observed observed) {
        return value.apply(observed);
    }

    void set(Observed observed, T figure) {
        setter.accept(observed, figure);
    }

    /** A window's figures from its pods' (each pod's as an Observed of one pod); the figures had APART are left to the caller. */
    public static Observed overPods(List<Observed> pods) {
        Observed window = new Observed();
        ALL.forEach(figure -> figure.aggregate(figure.acrossPods, pods, window));
        return window;
    }

    /** A period's figures from its windows', oldest first; the figures had APART are absent. */
    public static Observed overWindows(List<Observed> windows) {
        Observed period = new Observed();
        ALL.forEach(figure -> figure.aggregate(figure.acrossWindows, windows, period));
        return period;
    }

    private void aggregate(Rule rule, List<Observed> readings, Observed into) {
        List<T> values = readings.stream().map(this::of).toList();
        switch (rule) {
            case MEAN -> set(into, mean.apply(values));
            case SUM -> set(into, sum.apply(values));
            case LATEST -> set(into, values.get(values.size() - 1));
            case APART -> {
            }
        }
    }

    private static ObservedFigure<Double> mean(String name, Function<Observed, Double> value, BiConsumer<Observed, Double> setter) {
        return number(name, value, setter, Rule.MEAN, Rule.MEAN);
    }

    private static ObservedFigure<Double> number(String name, Function<Observed, Double> value, BiConsumer<Observed, Double> setter,
            Rule acrossPods, Rule acrossWindows) {
        return new ObservedFigure<>(name, value, setter, acrossPods, acrossWindows, values -> Units.mean(values, v -> v), null);
    }

    private static ObservedFigure<Integer> count(String name, Function<Observed, Integer> value, BiConsumer<Observed, Integer> setter,
            Rule acrossPods, Rule acrossWindows) {
        return new ObservedFigure<>(name, value, setter, acrossPods, acrossWindows, values -> {
            Double mean = Units.mean(values, v -> v == null ? null : v.doubleValue());
            return mean == null ? null : (int) Math.round(mean);
        }, values -> values.stream().filter(Objects::nonNull).reduce(Integer::sum).orElse(null));
    }

    private static <T> ObservedFigure<T> other(String name, Function<Observed, T> value, BiConsumer<Observed, T> setter, Rule acrossPods,
            Rule acrossWindows) {
        return new ObservedFigure<>(name, value, setter, acrossPods, acrossWindows, null, null);
    }
}
