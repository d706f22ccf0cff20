package dev.jvmtuning.operator.closedloop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jvmtuning.operator.api.v1alpha1.Auto;
import dev.jvmtuning.operator.api.v1alpha1.AutoSettings;
import dev.jvmtuning.operator.api.v1alpha1.Bounds;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class StepsTest {
    private static final long GI = 1024L * 1024 * 1024;

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            the plan inside every limit           | 200 | 300  | 100 | -  | -   | 300
            doubled at most                       | 200 | 1000 | 100 | -  | -   | 400
            halved at most                        | 200 | 20   | 100 | -  | -   | 100
            a smaller step limit                  | 200 | 1000 | 25  | -  | -   | 250
            the bound wins over the step          | 200 | 1000 | 100 | -  | 300 | 300
            a value outside the bounds comes in   | 200 | 210  | 100 | -  | 100 | 100
            the lower bound                       | 200 | 120  | 100 | 150| -   | 150
            nothing in force: the plan, bounded   | -   | 1000 | 100 | -  | 500 | 500
            the plan leaves the knob: it stays    | 200 | -    | 100 | -  | 100 | 200
            below the lower bound: a step toward it | 7 | 20  | 100 | 20 | 800 | 14
            a pool of 1 below its bound doubles   | 1   | 5    | 100 | 5  | 60  | 2
            above the upper bound: a step toward it | 400 | 50 | 50 | 20 | 100 | 267
            a proposal beyond the bound, stepped  | 7   | 1000 | 100 | -  | 10  | 10
            """)
    void aStepIsLimitedThenBounded(String name, Integer current, Integer proposed, int maxStep, Integer min, Integer max, Integer expected) {
        Auto spec = new Auto().setMaxStepPercent(maxStep).setThreads(new Bounds(min, max));

        AutoSettings limited = Steps.limit(spec, new AutoSettings(current, null, null), new AutoSettings(proposed, null, null));

        assertThat(limited.getThreads()).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            a neighbour within the threshold | 200 | 215 | 10 | false
            a move of the threshold          | 200 | 220 | 10 | true
            a larger threshold               | 200 | 250 | 30 | false
            one thread is never worth it     | 3   | 4   | 10 | false
            two threads are                  | 3   | 5   | 10 | true
            from unset                       | -   | 10  | 10 | true
            """)
    void aStepIsWorthARolloutWhenAKnobMovesByTheThreshold(String name, Integer from, Integer to, int threshold, boolean significant) {
        Auto spec = new Auto().setChangeThresholdPercent(threshold);

        assertThat(Steps.significant(spec, new AutoSettings(from, null, null), new AutoSettings(to, null, null), GI).isPresent())
                .isEqualTo(significant);
    }

    /** The heap as it renders: the percentage of the memory budget in whole MiB, against the threshold and 8 MiB. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            a percent of 1 GiB, within the threshold   | 1024 | 54 | 53 | 10 | false
            a tenth more of 1 GiB                      | 1024 | 50 | 56 | 10 | true
            5 points of 128 MiB are 6 MiB              | 128  | 47 | 52 | 10 | false
            the threshold, in MiB, of a small heap     | 128  | 40 | 50 | 10 | true
            a 1% threshold still needs 8 MiB           | 1024 | 54 | 55 | 1  | true
            a 1% threshold on 256 MiB                  | 256  | 54 | 56 | 1  | false
            no budget: as percentages                  | -    | 50 | 56 | 10 | true
            """)
    void aHeapMoveIsJudgedAsItRenders(String name, Long memoryMib, int from, int to, int threshold, boolean significant) {
        Auto spec = new Auto().setChangeThresholdPercent(threshold);
        Long memory = memoryMib == null ? null : memoryMib * 1024 * 1024;

        assertThat(Steps.significant(spec, new AutoSettings(null, null, from), new AutoSettings(null, null, to), memory).isPresent())
                .isEqualTo(significant);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            threads move, the heap's few MiB stay    | 200 | 54 | 400 | 53 | 400 | 54
            both move                                | 200 | 50 | 400 | 60 | 400 | 60
            only the heap moves                      | 200 | 50 | 210 | 60 | 200 | 60
            """)
    void aStepCarriesOnlyTheMovesWorthARollout(String name, int threads, int heap, int threads2, int heap2, int expectedThreads, int expectedHeap) {
        AutoSettings step = Steps.worthMoving(new Auto(), new AutoSettings(threads, null, heap), new AutoSettings(threads2, null, heap2), GI);

        assertThat(step).isEqualTo(new AutoSettings(expectedThreads, null, expectedHeap));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            heap left to the plan without bounds | -  | -  | 60 | 80 | -
            heap within its bounds               | 50 | 70 | 60 | 80 | 70
            """)
    void theHeapMovesOnlyWithinBoundsTheSpecGives(String name, Integer min, Integer max, int current, int proposed, Integer expected) {
        Auto spec = new Auto().setHeapPercentOfLimit(min == null && max == null ? null : new Bounds(min, max));

        assertThat(Steps.limit(spec, new AutoSettings(null, null, current), new AutoSettings(null, null, proposed)).getHeapPercentOfLimit())
                .isEqualTo(expected);
    }
}
