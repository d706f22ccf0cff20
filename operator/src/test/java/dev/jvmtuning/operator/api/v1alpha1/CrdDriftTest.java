package dev.jvmtuning.operator.api.v1alpha1;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jvmtuning.operator.testing.LocalControlPlane;
import dev.jvmtuning.operator.testing.StartsProcesses;
import io.fabric8.crdv2.generator.CRDGenerator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The committed CRD is what users install: it must be exactly what the model generates. */
@StartsProcesses
class CrdDriftTest {

    @Test
    void committedCrdMatchesTheModel() throws IOException {
        Path outputDir = Files.createDirectories(Path.of("target", "crd-drift"));
        new CRDGenerator()
                .customResourceClasses(TuningProfile.class)
                .forCRDVersions("v1")
                .inOutputDir(outputDir.toFile())
                .generate();
        Path generated = outputDir.resolve(LocalControlPlane.CRD_FILE.getFileName());

        assertThat(Files.readString(LocalControlPlane.CRD_FILE))
                .as("crds/ is stale; regenerate it with: ./mvnw package -DskipTests && cp %s %s",
                        "operator/target/kubernetes/" + generated.getFileName(), LocalControlPlane.CRD_FILE)
                .isEqualTo(Files.readString(generated));
    }
}
