package dev.jvmtuning.operator.metrics;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The PromQL the operator sends to the install-time Prometheus and the reading of its answer. Pure:
 * strings in, snapshots out. Instant queries of the raw series; rates come from consecutive answers,
 * as for scrapes.
 */
final class PrometheusQuery {
    private static final ObjectMapper JSON = new ObjectMapper();

    private PrometheusQuery() {
    }

    /** Every series the snapshot reads, for the named pods of one namespace. */
    static String seriesOfPods(String namespace, List<String> pods) {
        return "{__name__=~\"" + String.join("|", PodSnapshot.SERIES) + "\",namespace=\"" + namespace + "\",pod=~\""
                + pods.stream().collect(Collectors.joining("|")) + "\"}";
    }

    /** An /api/v1/query answer as one snapshot per pod label, taken at the newest sample time of that pod. */
    static Map<String, PodSnapshot> snapshotsByPod(String body) throws JsonProcessingException {
        Map<String, List<Sample>> byPod = new LinkedHashMap<>();
        Map<String, Long> timeByPod = new LinkedHashMap<>();
        for (JsonNode series : JSON.readTree(body).path("data").path("result")) {
            Map<String, String> labels = new LinkedHashMap<>();
            series.path("metric").fields().forEachRemaining(f -> labels.put(f.getKey(), f.getValue().asText()));
            String pod = labels.get("pod");
            double value = value(series.path("value").path(1).asText());
            long at = (long) (series.path("value").path(0).asDouble() * 1000);
            byPod.computeIfAbsent(pod, k -> new ArrayList<>()).add(new Sample(labels.remove("__name__"), labels, value, at));
            timeByPod.merge(pod, at, Math::max);
        }
        Map<String, PodSnapshot> snapshots = new LinkedHashMap<>();
        byPod.forEach((pod, samples) -> snapshots.put(pod, PodSnapshot.of(new Scrape(samples, 0, List.of()), timeByPod.get(pod))));
        return snapshots;
    }

    /**
     * The one number an instant query answers: a scalar, or the first sample of a vector; null when
     * the vector is empty or the answer holds no number.
     */
    static Double number(String body) throws JsonProcessingException {
        JsonNode data = JSON.readTree(body).path("data");
        JsonNode result = data.path("result");
        JsonNode pair = "scalar".equals(data.path("resultType").asText()) ? result : result.path(0).path("value");
        return pair.isArray() && pair.size() == 2 ? value(pair.path(1).asText()) : null;
    }

    /** Prometheus writes the special values as Go does; Java's parser rejects "+Inf". */
    private static double value(String text) {
        return switch (text) {
            case "+Inf" -> Double.POSITIVE_INFINITY;
            case "-Inf" -> Double.NEGATIVE_INFINITY;
            case "NaN" -> Double.NaN;
            default -> Double.parseDouble(text);
        };
    }
}
