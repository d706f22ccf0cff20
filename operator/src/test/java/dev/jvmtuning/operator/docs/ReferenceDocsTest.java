package dev.jvmtuning.operator.docs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jvmtuning.operator.model.ConditionType;
import dev.jvmtuning.operator.model.Reason;
import dev.jvmtuning.operator.testing.LocalControlPlane;
import dev.jvmtuning.operator.testing.StartsProcesses;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The generated reference pages are committed: they must be what the CRD and the enums say today. */
@StartsProcesses
class ReferenceDocsTest {

    @Test
    void committedReferencePagesMatchTheCode() throws IOException {
        Map<String, String> pages = ReferenceDocs.pages(LocalControlPlane.CRD_FILE);
        if (Boolean.getBoolean("docs.update")) {
            Files.createDirectories(ReferenceDocs.DIRECTORY);
            for (Map.Entry<String, String> page : pages.entrySet()) {
                Files.writeString(ReferenceDocs.DIRECTORY.resolve(page.getKey()), page.getValue());
            }
        }
        for (Map.Entry<String, String> page : pages.entrySet()) {
            Path file = ReferenceDocs.DIRECTORY.resolve(page.getKey());
            assertThat(file).as("%s is missing; generate it with: ./mvnw test -Dtest=ReferenceDocsTest -Ddocs.update=true", file).exists();
            assertThat(Files.readString(file))
                    .as("%s is stale; regenerate it with: ./mvnw test -Dtest=ReferenceDocsTest -Ddocs.update=true", file)
                    .isEqualTo(page.getValue());
        }
    }

    @Test
    void everyFieldAndReasonIsDescribed() {
        String fields = ReferenceDocs.pages(LocalControlPlane.CRD_FILE).get("tuningprofile.md");
        assertThat(fields).contains("`spec.targetRef.name`", "`spec.metrics.injectAgent`", "`status.conditions`");
        assertThat(Arrays.stream(Reason.values()).filter(r -> r.description().isBlank())).isEmpty();
        assertThat(Arrays.stream(ConditionType.values()).filter(t -> Arrays.stream(Reason.values()).noneMatch(r -> r.conditions().contains(t))))
                .as("a condition without a reason").isEmpty();
    }
}
