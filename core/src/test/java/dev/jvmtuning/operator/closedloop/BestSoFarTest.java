package dev.jvmtuning.operator.closedloop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jvmtuning.operator.api.v1alpha1.Auto;
import dev.jvmtuning.operator.api.v1alpha1.AutoBest;
import dev.jvmtuning.operator.api.v1alpha1.AutoFigures;
import dev.jvmtuning.operator.api.v1alpha1.AutoIteration;
import dev.jvmtuning.operator.api.v1alpha1.AutoSettings;
import dev.jvmtuning.operator.api.v1alpha1.AutoStatus;
import dev.jvmtuning.operator.api.v1alpha1.AutoVerdict;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class BestSoFarTest {

    private static AutoFigures served(double rate) {
        return new AutoFigures().setRequestsPerSecond(rate).setRequestsPerSecondError(10.0).setMeanLatencyMillis(100.0)
                .setMeanLatencyMillisError(1.0);
    }

    private static AutoSettings threads(int threads) {
        return new AutoSettings(threads, null, null);
    }

    /**
     * Iteration 1 stepped 200 -> 400 and was kept, iteration 2 stepped 400 -> 100 and was reverted; the loop now
     * serves 800 req/s at 400 threads and the re-plan wants {@code target}.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            back to settings measured clearly better              | 200 | 1000 | 1 | -
            back to settings measured no better                   | 200 | 810  | 1 | threads 200, pool default, heap as planned showed 810 req/s per pod at 100 ms before iteration 1
            to settings a step took and a revert took back        | 100 | 1000 | 1 | showed 500 req/s per pod at 100 ms after iteration 2, which was reverted
            a setting within the threshold of a reverted one      | 95  | 1000 | 1 | after iteration 2, which was reverted
            settings never measured                               | 800 | 810  | 1 | -
            the periods before the workload shifted predict nothing| 100 | 810  | 3 | -
            """)
    void aStepIsPredictedByThePeriodsAtItsSettings(String name, int target, double rateAt200, int since, String notTaken) {
        AutoStatus status = new AutoStatus().setBest(new AutoBest().setSettings(threads(400)).setFigures(served(800)).setIteration(1).setSince(since));
        status.setHistory(List.of(
                new AutoIteration().setIteration(1).setFrom(threads(200)).setTo(threads(400)).setBefore(served(rateAt200)).setAfter(served(800))
                        .setVerdict(AutoVerdict.Kept),
                new AutoIteration().setIteration(2).setFrom(threads(400)).setTo(threads(100)).setBefore(served(800)).setAfter(served(500))
                        .setVerdict(AutoVerdict.Reverted)));

        Optional<String> why = BestSoFar.measuredNoBetter(new Auto(), status, threads(target), served(800), null);

        if (notTaken == null) {
            assertThat(why).isEmpty();
        } else {
            assertThat(why).hasValueSatisfying(w -> assertThat(w).contains(notTaken));
        }
    }
}
