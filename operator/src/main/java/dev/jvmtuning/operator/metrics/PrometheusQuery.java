package dev.jvmtuning.operator.metrics;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
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

    /** Every series a reading reads, for the named pods of one namespace. */
    static String seriesOfPods(String namespace, List<String> pods) {
        return "{__name__=~\"" + String.join("|", PodReading.SERIES) + "\",namespace=\"" + namespace + "\",pod=~\""
                + pods.stream().collect(Collectors.joining("|")) + "\"}";
    }

    /**
     * An /api/v1/query answer as one reading per pod label, taken at the newest sample time of that pod.
     *
     * @throws IOException when the answer is not JSON or holds more than {@code maxSamples} samples
     */
    static Map<String, PodReading> readingsByPod(String body, int maxSamples) throws IOException {
        Map<String, List<Sample>> byPod = new LinkedHashMap<>();
        Map<String, Long> timeByPod = new LinkedHashMap<>();
        for (JsonNode series : read(body, maxSamples).result()) {
            Map<String, String> labels = new LinkedHashMap<>();
            series.path("metric").fields().forEachRemaining(f -> labels.put(f.getKey(), f.getValue().asText()));
            String pod = labels.get("pod");
            double value = value(series.path("value").path(1).asText());
            long at = (long) (series.path("value").path(0).asDouble() * 1000);
            byPod.computeIfAbsent(pod, k -> new ArrayList<>()).add(new Sample(labels.remove("__name__"), labels, value, at));
            timeByPod.merge(pod, at, Math::max);
        }
        Map<String, PodReading> readings = new LinkedHashMap<>();
        byPod.forEach((pod, samples) -> readings.put(pod, PodReading.of(new Scrape(samples, 0, List.of()), timeByPod.get(pod))));
        return readings;
    }

    /**
     * The one number an instant query answers: a scalar, or the sample of a one-series vector; null
     * when the vector is empty or the answer holds no number.
     *
     * @throws IOException when the answer is not JSON or is a vector of more than one series: which
     *                     of them is the service level would be a guess
     */
    static Double number(String body) throws IOException {
        // a scalar's result is its [time, value] pair: two elements
        Answer answer = read(body, 2);
        if ("scalar".equals(answer.type())) {
            return answer.result().size() == 2 ? value(answer.result().get(1).asText()) : null;
        }
        if (answer.result().size() > 1) {
            throw new IOException("the query answered more than one series; a guardrail query must answer one number (aggregate it, e.g. max(...))");
        }
        JsonNode pair = answer.result().isEmpty() ? null : answer.result().get(0).path("value");
        return pair != null && pair.isArray() && pair.size() == 2 ? value(pair.path(1).asText()) : null;
    }

    private record Answer(String type, List<JsonNode> result) {
    }

    /**
     * An answer's result type and result, read as a stream: at most {@code maxElements} elements of the
     * result are kept, and an answer with more is refused where it passes the cap, not read on.
     */
    private static Answer read(String body, int maxElements) throws IOException {
        String type = null;
        List<JsonNode> result = List.of();
        try (JsonParser parser = JSON.getFactory().createParser(body)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                throw new JsonParseException(parser, "not a Prometheus API answer");
            }
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                boolean data = "data".equals(parser.currentName());
                if (parser.nextToken() != JsonToken.START_OBJECT || !data) {
                    parser.skipChildren();
                    continue;
                }
                while (parser.nextToken() == JsonToken.FIELD_NAME) {
                    String field = parser.currentName();
                    JsonToken value = parser.nextToken();
                    if ("resultType".equals(field)) {
                        type = parser.getValueAsString();
                    } else if ("result".equals(field) && value == JsonToken.START_ARRAY) {
                        result = elements(parser, maxElements);
                    } else {
                        parser.skipChildren();
                    }
                }
            }
        }
        return new Answer(type, result);
    }

    private static List<JsonNode> elements(JsonParser parser, int max) throws IOException {
        List<JsonNode> elements = new ArrayList<>();
        while (parser.nextToken() != JsonToken.END_ARRAY) {
            if (elements.size() == max) {
                throw new IOException("the answer holds more than " + max + " samples");
            }
            elements.add(JSON.readTree(parser));
        }
        return elements;
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
