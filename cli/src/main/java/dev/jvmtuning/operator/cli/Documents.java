package dev.jvmtuning.operator.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** The CLI's one reader and writer of YAML and JSON: what it reads from files, and every document it prints. */
final class Documents {
    /** YAML as kubectl prints it: no document marker, quotes only where needed, numbers in strings kept as strings. */
    static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory()
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER).enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
            .enable(YAMLGenerator.Feature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS));
    private static final ObjectWriter JSON = new ObjectMapper().writerWithDefaultPrettyPrinter();

    private Documents() {
    }

    static String yaml(Object document) {
        return write(YAML.writer(), document);
    }

    static String json(Object document) {
        return write(JSON, document) + "\n";
    }

    private static String write(ObjectWriter writer, Object document) {
        try {
            return writer.writeValueAsString(document);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the CLI prints plain data", e);
        }
    }

    /** The TuningProfiles and Deployments of a file of YAML documents; other kinds are skipped. */
    static void read(Path file, List<TuningProfile> profiles, List<Deployment> deployments) {
        try (var documents = YAML.readerFor(JsonNode.class).<JsonNode>readValues(Files.newBufferedReader(file))) {
            while (documents.hasNext()) {
                JsonNode document = documents.next();
                if (document == null || document.isNull() || document.isMissingNode()) {
                    continue;
                }
                String kind = document.path("kind").asText();
                if (kind.equals("TuningProfile")) {
                    profiles.add(YAML.treeToValue(document, TuningProfile.class));
                } else if (kind.equals("Deployment")) {
                    deployments.add(YAML.treeToValue(document, Deployment.class));
                }
            }
        } catch (IOException e) {
            throw new InputException("cannot read " + file + ": " + e.getMessage().lines().findFirst().orElse(""));
        }
    }
}
