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
        for (String line : text.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            int valueStart = line.lastIndexOf(' ');
            samples.put(line.substring(0, valueStart), Double.parseDouble(line.substring(valueStart + 1)));
        }
        return samples;
    }

    static Map<String, Double> samples(PrometheusRegistry registry) {
        return samples(text(registry));
    }
}
