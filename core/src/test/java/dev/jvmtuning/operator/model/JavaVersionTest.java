package dev.jvmtuning.operator.model;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class JavaVersionTest {

    @ParameterizedTest(name = "\"{0}\" -> {1}")
    @CsvSource(nullValues = "null", value = {
            "25.0.3+9, 25",
            "25-ea, 25",
            "25+36-ea, 25",
            "25, 25",
            "21.0.5+11-LTS, 21",
            "17.0.13+11, 17",
            "' 21.0.1 ', 21",
            "1.8.0_392, 8",
            "1.8.0_392-b08, 8",
            "11.0.25+9, 11",
            "1, null",
            "0.9, null",
            "'', null",
            "null, null",
            "unknown, null",
            "v21, null",
            "OpenJDK 64-Bit Server VM, null",
            "99999999999.0, null",
            "21abc, null",
    })
    void readsTheFeatureVersion(String version, Integer feature) {
        assertThat(JavaVersion.feature(version)).isEqualTo(feature);
    }
}
