package dev.jvmtuning.operator.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The rules in the code and in docs/explanation/tuning-rules.md are the same rules. */
class RuleTest {

    @Test
    void everyRuleHasASectionInTheRulesDocumentAndEverySectionARule() throws IOException {
        String doc = Files.readString(Path.of("docs/explanation/tuning-rules.md"));
        long sections = doc.lines().filter(l -> l.matches("^### R[0-9]+[a-z]?: .*")).count();

        Arrays.stream(Rule.values()).filter(r -> r != Rule.SPEC).forEach(rule -> {
            assertThat(doc).as("docs/explanation/tuning-rules.md on %s", rule.id()).contains("### " + rule.id() + ": ");
            assertThat(rule.title()).isNotBlank();
            assertThat(rule.text()).as(rule.id()).hasSizeGreaterThan(40);
        });
        assertThat(sections).isEqualTo(Rule.values().length - 1);
    }

    @Test
    void idsAreUniqueAndTheSpecIsNoRule() {
        assertThat(Arrays.stream(Rule.values()).map(Rule::id)).doesNotHaveDuplicates();
        assertThat(Rule.SPEC.id()).isEqualTo("spec");
        assertThat(Rule.R9A.id()).isEqualTo("R9a");
    }
}
