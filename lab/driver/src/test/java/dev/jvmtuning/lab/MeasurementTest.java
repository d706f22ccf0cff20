package dev.jvmtuning.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.jvmtuning.operator.api.v1alpha1.Runtime;
import dev.jvmtuning.operator.metrics.Sample;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MeasurementTest {
    private static Measurement measured(double... rateByRound) {
        List<Measurement.Run> runs = new ArrayList<>();
        for (int round = 0; round < rateByRound.length; round++) {
            if (rateByRound[round] >= 0) {
                runs.add(new Measurement.Run(round + 1, rateByRound[round], 10, 20, 0, 0, 1, 0.1, 0));
            }
        }
        return new Measurement("sweep", "x", Map.of(), runs, Measurement.Effective.UNKNOWN, 0, null, null);
    }

    @Test
    void aRatioPairsOnlyTheRoundsBothTookPartIn() {
        // -1: not in that round. Rounds 2 and 3 are common: 50/100 and 60/120.
        Measurement a = measured(-1, 50, 60, 999);
        Measurement best = measured(400, 100, 120, -1);
        Stats.Interval ratio = a.ratio(best, Measurement.Run::requestsPerSecond);
        assertEquals(0.5, ratio.value(), 1e-9);
        assertEquals(0.5, ratio.low(), 1e-9);
        assertEquals(0.5, ratio.high(), 1e-9);
    }

    @Test
    void oneCommonRoundGivesNoInterval() {
        Stats.Interval ratio = measured(50, -1).ratio(measured(100, 100), Measurement.Run::requestsPerSecond);
        assertEquals(0.5, ratio.value(), 1e-9);
        assertFalse(ratio.known());
    }

    @Test
    void throughputIsTheMeanOfTheRunsWithItsInterval() {
        Stats.Interval throughput = measured(90, 100, 110).throughput();
        assertEquals(100, throughput.value(), 1e-9);
        assertEquals(100 - 4.303 * 10 / Math.sqrt(3), throughput.low(), 1e-9);
    }

    @Test
    void undertowsMaximumComesFromTheAgentsReadingOfItsWorkerPool() {
        List<Sample> samples = List.of(
                new Sample("executor_pool_max_threads", Map.of("name", "applicationTaskExecutor"), 2147483647, null),
                new Sample("jvmtuning_server_threads_max", Map.of("server", "undertow", "pool", "XNIO-1"), 40, null));
        assertEquals(40, Measurement.Effective.of(Runtime.SpringBootUndertow, samples, "-8080").maxThreads());
    }
}
