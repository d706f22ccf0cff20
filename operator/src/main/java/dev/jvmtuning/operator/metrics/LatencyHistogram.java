package dev.jvmtuning.operator.metrics;

import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * A request-duration histogram: cumulative request counts by upper bound in seconds, summed over the
 * series of one scrape (every uri, method and status), the +Inf bound included. Only the bounds are
 * kept, not the series, so a pod costs one small map whatever its uris. Pure.
 */
public record LatencyHistogram(NavigableMap<Double, Double> buckets) {
    /** Micrometer's name, for Spring Boot with percentiles-histogram on and for Quarkus alike. */
    public static final String SERIES = "http_server_requests_seconds_bucket";
    private static final double P99 = 0.99;

    public LatencyHistogram {
        buckets = new TreeMap<>(buckets);
    }

    /** The histogram the samples expose, or null: none, or one without its +Inf bucket (the total is unknown). */
    static LatencyHistogram of(Iterable<Sample> samples, Predicate<Sample> counted) {
        TreeMap<Double, Double> buckets = new TreeMap<>();
        for (Sample s : samples) {
            Double bound = s.name().equals(SERIES) && counted.test(s) && !Double.isNaN(s.value()) ? bound(s.label("le")) : null;
            if (bound != null) {
                buckets.merge(bound, s.value(), Double::sum);
            }
        }
        return buckets.containsKey(Double.POSITIVE_INFINITY) ? new LatencyHistogram(buckets) : null;
    }

    /**
     * The requests of each bound between two histograms of one pod, over the bounds both have. A bucket
     * that went down means the pod restarted: the current counts are the increase, as in PromQL.
     */
    static LatencyHistogram increase(LatencyHistogram before, LatencyHistogram now) {
        if (before == null || now == null) {
            return null;
        }
        boolean reset = now.buckets.entrySet().stream()
                .anyMatch(e -> before.buckets.containsKey(e.getKey()) && e.getValue() < before.buckets.get(e.getKey()));
        TreeMap<Double, Double> increase = new TreeMap<>();
        now.buckets.forEach((bound, count) -> {
            Double previous = before.buckets.get(bound);
            if (previous != null) {
                increase.put(bound, reset ? count : count - previous);
            }
        });
        return increase.containsKey(Double.POSITIVE_INFINITY) ? new LatencyHistogram(increase) : null;
    }

    /** The pods' increases summed, over the bounds all of them have: a pod with other bounds would skew the shared ones. */
    static LatencyHistogram sum(Iterable<LatencyHistogram> pods) {
        TreeMap<Double, Double> sum = null;
        for (LatencyHistogram pod : pods) {
            if (sum == null) {
                sum = new TreeMap<>(pod.buckets);
            } else {
                sum.keySet().retainAll(pod.buckets.keySet());
                sum.replaceAll((bound, count) -> count + pod.buckets.get(bound));
            }
        }
        return sum == null ? null : new LatencyHistogram(sum);
    }

    /**
     * The 99th percentile in milliseconds, interpolated linearly within its bucket as PromQL's
     * histogram_quantile does; the highest finite bound when it falls in the +Inf bucket. Null when the
     * histogram counted no request.
     */
    Double p99Millis() {
        double total = buckets.get(Double.POSITIVE_INFINITY);
        if (total <= 0) {
            return null;
        }
        double rank = P99 * total;
        double lowerBound = 0;
        double below = 0;
        for (Map.Entry<Double, Double> bucket : buckets.entrySet()) {
            // Cumulative counts read from a live server can step back by a request or two between series.
            double count = Math.max(below, bucket.getValue());
            if (count >= rank) {
                if (bucket.getKey().isInfinite()) {
                    return buckets.size() == 1 ? null : 1000 * lowerBound;
                }
                double within = count == below ? 0 : (rank - below) / (count - below);
                return 1000 * (lowerBound + (bucket.getKey() - lowerBound) * within);
            }
            lowerBound = bucket.getKey();
            below = count;
        }
        return null;
    }

    private static Double bound(String le) {
        if (le == null) {
            return null;
        }
        if (le.equals("+Inf") || le.equals("Inf")) {
            return Double.POSITIVE_INFINITY;
        }
        try {
            return Double.parseDouble(le);
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
