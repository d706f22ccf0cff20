package dev.jvmtuning.operator.metrics;

import dev.jvmtuning.operator.model.EffectiveOptions;
import dev.jvmtuning.operator.model.EffectiveOptions.Option;
import dev.jvmtuning.operator.model.EffectiveOptions.Origin;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * What one scrape (or one pod's share of a Prometheus answer) says about a pod: the figures of the window and
 * the HotSpot options its JVM reports running with.
 */
record PodReading(PodSnapshot snapshot, EffectiveOptions options) {

    /** The agent's series of the JVM's options, labelled option and origin. */
    static final String VM_OPTION = "jvmtuning_vm_option";
    /** Every series name a reading reads, for the scrape's filter and for a Prometheus query. */
    static final List<String> SERIES = Stream.concat(PodSnapshot.SERIES.stream(), Stream.of(VM_OPTION)).toList();

    static PodReading of(Scrape scrape, long atMillis) {
        return new PodReading(PodSnapshot.of(scrape, atMillis), options(scrape.samples()));
    }

    /** The options a scrape reports; an option reported twice (two origins across a re-read) keeps its last sample. */
    static EffectiveOptions options(List<Sample> samples) {
        Map<String, Option> options = new LinkedHashMap<>();
        for (Sample s : samples) {
            if (s.name().equals(VM_OPTION) && s.label("option") != null && !Double.isNaN(s.value())) {
                options.put(s.label("option"), new Option(s.value(), Origin.of(s.label("origin"))));
            }
        }
        return options.isEmpty() ? EffectiveOptions.NONE : new EffectiveOptions(options);
    }
}
