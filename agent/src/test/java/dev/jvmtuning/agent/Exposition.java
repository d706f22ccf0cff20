package dev.jvmtuning.agent;

import io.prometheus.metrics.config.EscapingScheme;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BiConsumer;

/** Scrapes a registry the way the agent's endpoint does and reads the samples back. */
final class Exposition {

    private Exposition() {}

    static String text(PrometheusRegistry registry) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            PrometheusTextFormatWriter.create().write(out, registry.scrape(), EscapingScheme.DEFAULT);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    /** Sample values keyed by series, e.g. {@code jvmtuning_tasks} or {@code x_total{kind="voluntary"}}. */
    static Map<String, Double> samples(String text) {
        Map<String, Double> samples = new LinkedHashMap<>();
        lines(text, (series, fields) -> samples.put(series, Double.parseDouble(fields[0])));
        return samples;
    }

    /** The series that carry a timestamp, and it. */
    static Map<String, Long> timestamps(PrometheusRegistry registry) {
        Map<String, Long> timestamps = new LinkedHashMap<>();
        lines(text(registry), (series, fields) -> {
            if (fields.length > 1) {
                timestamps.put(series, Long.parseLong(fields[1]));
            }
        });
        return timestamps;
    }

    /** Each sample line as its series (name and labels) and what follows: the value, then a timestamp if any. */
    private static void lines(String text, BiConsumer<String, String[]> sample) {
        for (String line : text.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            int seriesEnd = line.indexOf('{') < 0 ? line.indexOf(' ') : line.lastIndexOf('}') + 1;
            sample.accept(line.substring(0, seriesEnd), line.substring(seriesEnd).strip().split(" "));
        }
    }

    static Map<String, Double> samples(PrometheusRegistry registry) {
        return samples(text(registry));
    }
}
