package dev.jvmtuning.operator.metrics;

import java.util.Map;

/**
 * One sample of an exposition: a series name (with any _total, _sum, _count or _bucket suffix as
 * written), its labels, its value, and its timestamp in milliseconds when the exposition gave one.
 */
public record Sample(String name, Map<String, String> labels, double value, Long timestampMillis) {
    public Sample {
        labels = Map.copyOf(labels);
    }

    public String label(String name) {
        return labels.get(name);
    }
}
