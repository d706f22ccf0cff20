package dev.jvmtuning.operator.closedloop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jvmtuning.operator.model.Units;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SignificanceTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            within the threshold                   | 10 | 200 | 215 | false
            exactly the threshold                  | 10 | 200 | 220 | true
            exactly the threshold, down            | 10 | 200 | 180 | true
            a tenth of 30, which 30 * 0.1 misses   | 10 | 30  | 33  | true
            a larger threshold                     | 30 | 200 | 250 | false
            one is never worth it                  | 10 | 3   | 4   | false
            two are, past the threshold            | 10 | 3   | 5   | true
            two of a hundred are not               | 10 | 100 | 102 | false
            from unset                             | 10 | -   | 10  | true
            to unset                               | 10 | 10  | -   | false
            unchanged                              | 1  | 50  | 50  | false
            """)
    void aCountMovesByTheThresholdAndByTwo(String name, int threshold, Integer from, Integer to, boolean significant) {
        assertThat(new Significance(threshold).count(from, to)).isEqualTo(significant);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            a tenth of 1 GiB                        | 10 | 1024      | 1126      | false
            a tenth of 1 GiB and a MiB              | 10 | 1024      | 1127      | true
            a tenth of a small heap is under 8 MiB  | 10 | 64        | 71        | false
            8 MiB of a small heap                   | 10 | 64        | 72        | true
            8 MiB, then the threshold               | 20 | 64        | 72        | false
            down by the threshold                   | 10 | 1000      | 900       | true
            renders 100m to 110m: a tenth           | 10 | 100.99    | 110.99    | true
            renders 100m to 109m: under a tenth     | 10 | 100       | 109.99    | false
            """)
    void aHeapMovesByTheThresholdAndByEightMibInWholeMib(String name, int threshold, double fromMib, double toMib, boolean significant) {
        assertThat(new Significance(threshold).heap(bytes(fromMib), bytes(toMib))).isEqualTo(significant);
    }

    private static long bytes(double mebibytes) {
        return Math.round(mebibytes * Units.MI);
    }
}
