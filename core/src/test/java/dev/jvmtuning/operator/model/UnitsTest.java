package dev.jvmtuning.operator.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The one parser of HotSpot sizes, which the flag policy and the reading of the container's own flags share. */
class UnitsTest {

    @ParameterizedTest
    @CsvSource({"1048576, 1048576", "256k, 262144", "256K, 262144", "512m, 536870912", "1g, 1073741824", "1G, 1073741824",
            "1t, 1099511627776", "-1, -1", "-2k, -2048", "' 64m ', 67108864", "99999999999t, 109951162776500488372224"})
    void aJvmNumberIsItsDigitsTimesItsSuffix(String text, String value) {
        assertThat(Units.jvmNumber(text)).contains(new BigInteger(value));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "lots", "1.5g", "1gb", "1mi", "$HEAP", "1 g", "+1"})
    void whatTheJvmDoesNotReadAsANumberIsNone(String text) {
        assertThat(Units.jvmNumber(text)).isEmpty();
    }

    @Test
    void aSizeInBytesIsNonNegativeAndFitsALong() {
        assertThat(Units.jvmBytes("1536m")).isEqualTo(1536 * Units.MI);
        assertThatThrownBy(() -> Units.jvmBytes("-1m")).hasMessageContaining("not a JVM size");
        assertThatThrownBy(() -> Units.jvmBytes("9999999999t")).hasMessageContaining("more bytes than a long holds");
    }

    @Test
    void aFigureBelowAMebibyteIsWrittenInKibibytes() {
        assertThat(Units.mebibytesOrKibibytes(2 * Units.MI + 1)).isEqualTo("2Mi");
        assertThat(Units.mebibytesOrKibibytes(Units.MI)).isEqualTo("1Mi");
        assertThat(Units.mebibytesOrKibibytes(49 * Units.KI + 512)).isEqualTo("49Ki");
        assertThat(Units.mebibytesOrKibibytes(100)).isEqualTo("0Ki");
    }

    @Test
    void aKubernetesQuantityCountsDecimalAndBinarySuffixes() {
        assertThat(Units.bytes("1536Mi")).isEqualTo(1536 * Units.MI);
        assertThat(Units.bytes("1.5G")).isEqualTo(1_500_000_000L);
        assertThat(Units.bytes("1073741824")).isEqualTo(Units.GI);
        assertThatThrownBy(() -> Units.bytes("1536m")).hasMessageContaining("not a memory quantity");
    }
}
