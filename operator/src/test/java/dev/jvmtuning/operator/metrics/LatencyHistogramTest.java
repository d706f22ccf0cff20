package dev.jvmtuning.operator.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class LatencyHistogramTest {
    private static final double INF = Double.POSITIVE_INFINITY;

    private static LatencyHistogram histogram(double... boundsAndCounts) {
        TreeMap<Double, Double> buckets = new TreeMap<>();
        for (int i = 0; i < boundsAndCounts.length; i += 2) {
            buckets.put(boundsAndCounts[i], boundsAndCounts[i + 1]);
        }
        return new LatencyHistogram(buckets);
    }

    private static LatencyHistogram scraped(String body) {
        return PodSnapshot.of(PrometheusTextParser.parse(body), 0).service().latency();
    }

    @Test
    void sumsTheServedSeriesOfAScrapeByBoundAndLeavesOutManagementEndpoints() {
        LatencyHistogram h = scraped("""
                http_server_requests_seconds_bucket{uri="/a",status="200",le="0.1"} 90
                http_server_requests_seconds_bucket{uri="/a",status="200",le="+Inf"} 100
                http_server_requests_seconds_bucket{uri="/b",status="500",le="0.1"} 5
                http_server_requests_seconds_bucket{uri="/b",status="500",le="+Inf"} 10
                http_server_requests_seconds_bucket{uri="/actuator/prometheus",status="200",le="0.1"} 1000
                http_server_requests_seconds_bucket{uri="/actuator/prometheus",status="200",le="+Inf"} 1000
                http_server_requests_seconds_count{uri="/a",status="200"} 100
                """);

        assertThat(h.buckets()).containsExactly(Map.entry(0.1, 95.0), Map.entry(INF, 110.0));
    }

    @Test
    void noHistogramWithoutItsInfBucket() {
        assertThat(scraped("http_server_requests_seconds_bucket{uri=\"/a\",le=\"0.1\"} 90\n")).isNull();
        assertThat(scraped("http_server_requests_seconds_count{uri=\"/a\"} 90\n")).isNull();
    }

    @Test
    void p99InterpolatesWithinItsBucketAsHistogramQuantileDoes() {
        // 1000 requests: 900 under 10 ms, 980 under 50 ms, 1000 under 100 ms; the 990th lies half way in (50, 100].
        assertThat(histogram(0.01, 900, 0.05, 980, 0.1, 1000, INF, 1000).p99Millis()).isCloseTo(75.0, within(1e-9));
        // In the first bucket the lower bound is zero.
        assertThat(histogram(0.02, 1000, INF, 1000).p99Millis()).isCloseTo(19.8, within(1e-9));
    }

    @Test
    void p99BeyondTheHighestBoundIsThatBound() {
        assertThat(histogram(0.01, 900, 0.05, 950, INF, 1000).p99Millis()).isEqualTo(50.0);
        assertThat(histogram(INF, 1000).p99Millis()).as("no finite bound: nothing to tell").isNull();
    }

    @Test
    void noRequestsNoP99() {
        assertThat(histogram(0.01, 0, INF, 0).p99Millis()).isNull();
    }

    @Test
    void aCountThatStepsBackBetweenSeriesIsReadAsTheCountBelowIt() {
        // 0.1 read 895 after 0.05 read 900 (the series were read while requests completed).
        assertThat(histogram(0.05, 900, 0.1, 895, 0.2, 1000, INF, 1000).p99Millis()).isCloseTo(190.0, within(1e-9));
    }

    @Test
    void theIncreaseIsOverTheBoundsBothScrapesHave() {
        LatencyHistogram before = histogram(0.01, 100, 0.05, 150, INF, 200);
        LatencyHistogram now = histogram(0.01, 300, 0.1, 420, INF, 500);

        assertThat(LatencyHistogram.increase(before, now).buckets()).containsExactly(Map.entry(0.01, 200.0), Map.entry(INF, 300.0));
        assertThat(LatencyHistogram.increase(null, now)).isNull();
    }

    @Test
    void aBucketThatWentDownIsARestartAndTheCurrentCountsAreTheIncrease() {
        LatencyHistogram before = histogram(0.01, 900, INF, 1000);
        LatencyHistogram now = histogram(0.01, 40, INF, 50);

        assertThat(LatencyHistogram.increase(before, now).buckets()).containsExactly(Map.entry(0.01, 40.0), Map.entry(INF, 50.0));
    }

    @Test
    void podsSumOverTheBoundsAllOfThemHave() {
        LatencyHistogram a = histogram(0.01, 90, 0.05, 99, INF, 100);
        LatencyHistogram b = histogram(0.01, 10, 0.1, 50, INF, 100);

        assertThat(LatencyHistogram.sum(List.of(a, b)).buckets()).containsExactly(Map.entry(0.01, 100.0), Map.entry(INF, 200.0));
        assertThat(LatencyHistogram.sum(List.of())).isNull();
    }
}
