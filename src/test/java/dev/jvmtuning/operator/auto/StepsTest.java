package dev.jvmtuning.operator.auto;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jvmtuning.operator.api.v1alpha1.Auto;
import dev.jvmtuning.operator.api.v1alpha1.AutoSettings;
import dev.jvmtuning.operator.api.v1alpha1.Bounds;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class StepsTest {

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

        assertThat(Steps.significant(spec, new AutoSettings(from, null, null), new AutoSettings(to, null, null)).isPresent())
                .isEqualTo(significant);
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
