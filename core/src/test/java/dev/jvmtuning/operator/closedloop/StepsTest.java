package dev.jvmtuning.operator.closedloop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jvmtuning.operator.api.v1alpha1.Auto;
import dev.jvmtuning.operator.api.v1alpha1.AutoIteration;
import dev.jvmtuning.operator.api.v1alpha1.AutoSettings;
import dev.jvmtuning.operator.api.v1alpha1.AutoVerdict;
import dev.jvmtuning.operator.api.v1alpha1.Bounds;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
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

        AutoSettings limited = Steps.limit(spec, List.of(), new AutoSettings(current, null, null), new AutoSettings(proposed, null, null), List.of());

        assertThat(limited.getThreads()).isEqualTo(expected);
    }

    /** History: the loop's iterations, oldest first, each "threads from > threads to, verdict" (pool moves as "p from > to"). */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            no step before: halved at most                 | -                                                         | 200 | 1    | 100
            after a kept step down: a third                | 400>200 Kept                                              | 200 | 1    | 67
            after two: a fifth                             | 800>400 Kept; 400>200 Kept                                | 200 | 1    | 40
            after three: a ninth                           | 1600>800 Kept; 800>400 Kept; 400>200 Kept                 | 200 | 1    | 23
            no faster after four                           | 3200>1600 Kept; 1600>800 Kept; 800>400 Kept; 400>200 Kept | 200 | 1    | 23
            the plan still ends the gallop                 | 800>400 Kept; 400>200 Kept                                | 200 | 150  | 150
            a turn starts again                            | 100>200 Kept                                              | 200 | 1    | 100
            a revert starts again                          | 800>400 Kept; 400>200 Reverted                            | 200 | 1    | 100
            a rest starts again                            | 800>400 Kept; 400>400 Converged                           | 400 | 1    | 200
            only the run just before counts                | 800>400 Kept; 400>800 Reverted; 800>400 Kept              | 400 | 1    | 134
            a kept step of the pool alone breaks the run   | 800>400 Kept; p10>20 Kept                                 | 400 | 1    | 200
            up, after two kept steps up: five times        | 50>100 Kept; 100>200 Kept                                 | 200 | 5000 | 1000
            """)
    void keptStepsTheSameWayLengthenTheNextOne(String name, String history, int current, int proposed, int expected) {
        AutoSettings limited = Steps.limit(new Auto(), history(history), new AutoSettings(current, 10, null), new AutoSettings(proposed, null, null), List.of());

        assertThat(limited.getThreads()).isEqualTo(expected);
    }

    /** Windows: the threads each window of the period planned alone. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            every window past every limit: a ninth               | -             | 10 20 12   | 200 | 11   | 23
            every window past a half, one not past a third       | -             | 10 80 12   | 200 | 11   | 67
            every window past a third, one not past a fifth      | -             | 10 50 12   | 200 | 11   | 40
            one window within the limit: halved at most          | -             | 10 120 12  | 200 | 11   | 100
            the plan nearer than the windows: the plan           | -             | 10 20 12   | 200 | 150  | 150
            one window alone is no agreement                     | -             | 10         | 200 | 11   | 100
            no window planned the knob                           | -             | -          | 200 | 11   | 100
            windows the other way                                | -             | 500 600    | 200 | 11   | 100
            up, after a kept step up: nine times                 | 100>200 Kept  | 5000 4000  | 200 | 5000 | 1800
            up, after a kept step up, one window short of nine   | 100>200 Kept  | 5000 800   | 200 | 5000 | 1000
            no faster than a run of three kept steps             | 1600>800 Kept; 800>400 Kept; 400>200 Kept | 10 12 | 200 | 1 | 23
            after one kept step, no faster than three doublings  | 400>200 Kept  | 10 12      | 200 | 1    | 23
            right after a revert: halved at most                 | 200>400 Reverted | 10 20 12 | 200 | 11   | 100
            """)
    void windowsThatAgreePastTheLimitLengthenTheStepAsFarAsTheyAgree(String name, String history, String windows, int current, int proposed,
            int expected) {
        List<AutoSettings> windowPlans = windows == null ? List.of(new AutoSettings(null, 10, null), new AutoSettings(null, 10, null))
                : Arrays.stream(windows.split(" ")).map(w -> new AutoSettings(Integer.parseInt(w), 10, null)).toList();

        AutoSettings limited = Steps.limit(new Auto(), history(history), new AutoSettings(current, 10, null), new AutoSettings(proposed, null, null),
                windowPlans);

        assertThat(limited.getThreads()).isEqualTo(expected);
    }

    private static List<AutoIteration> history(String text) {
        if (text == null) {
            return List.of();
        }
        return Arrays.stream(text.split(";\\s*")).map(step -> {
            String[] fields = step.split("[> ]");
            AutoVerdict verdict = AutoVerdict.valueOf(fields[2]);
            if (fields[0].startsWith("p")) {
                int from = Integer.parseInt(fields[0].substring(1));
                return new AutoIteration().setFrom(new AutoSettings(400, from, null)).setTo(new AutoSettings(400, Integer.parseInt(fields[1]), null))
                        .setVerdict(verdict);
            }
            return new AutoIteration().setFrom(new AutoSettings(Integer.parseInt(fields[0]), 10, null))
                    .setTo(new AutoSettings(Integer.parseInt(fields[1]), 10, null)).setVerdict(verdict);
        }).toList();
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

        assertThat(Steps.limit(spec, List.of(), new AutoSettings(null, null, current), new AutoSettings(null, null, proposed), List.of()).getHeapPercentOfLimit())
                .isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            down from the heap in force, half at most      | 400 | 100 | 200 | true
            up after the measured live heap, twice at most | 100 | 400 | 200 | true
            a few MiB are not worth a rollout              | 100 | 105 | 100 | false
            no heap in force: the measured one at once     | -   | 180 | 180 | true
            """)
    void theLiveHeapTheMemoryIsSizedForMovesAStepAtATime(String name, Integer current, int proposed, int expected, boolean significant) {
        Auto spec = new Auto();
        AutoSettings from = new AutoSettings(null, null, null, current);

        AutoSettings step = Steps.worthMoving(spec, from, Steps.limit(spec, List.of(), from, new AutoSettings(null, null, null, proposed), List.of()), GI);

        assertThat(step.getLiveHeapMib()).as("maxStepPercent %d", spec.getMaxStepPercent()).isEqualTo(expected);
        assertThat(Steps.significant(spec, from, step, GI)).as(name).isEqualTo(significant
                ? Optional.of("workload.liveHeap " + (current == null ? "unset" : current + "Mi") + " -> " + expected + "Mi") : Optional.empty());
    }
}
