package dev.jvmtuning.operator.flaglists;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.jvmtuning.operator.flags.Jdks;
import dev.jvmtuning.operator.flags.KnownFlags;
import dev.jvmtuning.operator.testing.StartsProcesses;
import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The committed flag lists are what the JDKs print today: regenerated from every supported JDK this machine has. */
@StartsProcesses
class KnownFlagsDriftTest {

    static List<Integer> supported() {
        return KnownFlags.SUPPORTED;
    }

    @ParameterizedTest(name = "JDK {0}")
    @MethodSource("supported")
    void committedListMatchesWhatTheJdkPrints(int feature) throws IOException {
        Optional<Jdks.Jdk> jdk = Jdks.available().stream().filter(j -> j.feature() == feature).findFirst();
        assumeTrue(jdk.isPresent(), "JDK " + feature + " is not on this machine");

        String committed = Files.readString(KnownFlagsGenerator.OUTPUT.resolve(KnownFlags.resourceName(feature)));
        assertThat(facts(committed))
                .as("core/src/main/resources/jvm-flags/%s differs from what JDK %d prints; regenerate it with deploy/generate-jvm-flags.sh",
                        KnownFlags.resourceName(feature), feature)
                .isEqualTo(facts(KnownFlagsGenerator.generate(jdk.get())));
    }

    /** The lines that carry facts: the comment names the exact build, which may change without any flag changing. */
    private static List<String> facts(String list) {
        return list.lines().filter(l -> !l.startsWith("#")).toList();
    }
}
