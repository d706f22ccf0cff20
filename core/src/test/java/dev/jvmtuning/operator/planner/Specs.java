package dev.jvmtuning.operator.planner;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfileSpec;
import dev.jvmtuning.operator.model.ContainerFacts;
import dev.jvmtuning.operator.model.Units;
import java.io.UncheckedIOException;

/** Builds specs from the YAML a user would write, so tests read like profiles. */
public final class Specs {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private Specs() {
    }

    static TuningProfileSpec spec(String yaml) {
        try {
            return YAML.readValue("targetRef: {name: web}\n" + yaml, TuningProfileSpec.class);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static ContainerFacts container(double cpus, String memory) {
        return ContainerFacts.ofResources(cpus, cpus, Units.bytes(memory), Units.bytes(memory));
    }
}
