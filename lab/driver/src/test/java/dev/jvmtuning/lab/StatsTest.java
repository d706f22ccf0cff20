package dev.jvmtuning.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class StatsTest {
    @Test
    void meanIntervalIsStudentsT() {
        // mean 10, sample standard deviation 1, n 4: half width t(3) * 1 / 2 = 1.5915
        Stats.Interval i = Stats.mean(new double[] {9, 10, 10, 11});
        double sd = Math.sqrt(2.0 / 3);
        assertEquals(10, i.value(), 1e-9);
        assertEquals(10 - 3.182 * sd / 2, i.low(), 1e-9);
        assertEquals(10 + 3.182 * sd / 2, i.high(), 1e-9);
    }

    @Test
    void oneSampleHasNoInterval() {
        Stats.Interval i = Stats.mean(new double[] {5});
        assertEquals(5, i.value());
        assertFalse(i.known());
    }

    @Test
    void tQuantilesPastTheTableStayClose() {
        assertEquals(2.042, Stats.t975(30));
        assertEquals(2.021, Stats.t975(40), 0.001);
        assertEquals(2.000, Stats.t975(60), 0.001);
    }

    @Test
    void pairedRatioCancelsDriftSharedByARound() {
        // b drifts by a factor 3 across rounds (steal), a stays at 0.9 of b in every round: the ratio is exact.
        Stats.Interval i = Stats.pairedRatio(new double[] {90, 180, 270}, new double[] {100, 200, 300});
        assertEquals(0.9, i.value(), 1e-9);
        assertEquals(0.9, i.low(), 1e-9);
        assertEquals(0.9, i.high(), 1e-9);
    }

    @Test
    void pairedRatioIntervalIsTheLogMeansExponentiated() {
        double[] a = {110, 90, 100};
        double[] b = {100, 100, 100};
        double[] logs = {Math.log(1.1), Math.log(0.9), 0};
        double mean = (logs[0] + logs[1]) / 3;
        double sd = Math.sqrt(((logs[0] - mean) * (logs[0] - mean) + (logs[1] - mean) * (logs[1] - mean) + mean * mean) / 2);
        double half = 4.303 * sd / Math.sqrt(3);
        Stats.Interval i = Stats.pairedRatio(a, b);
        assertEquals(Math.exp(mean), i.value(), 1e-9);
        assertEquals(Math.exp(mean - half), i.low(), 1e-9);
        assertEquals(Math.exp(mean + half), i.high(), 1e-9);
        // b/a is the reciprocal interval
        Stats.Interval inverse = Stats.pairedRatio(b, a);
        assertEquals(1 / i.high(), inverse.low(), 1e-9);
    }

    @Test
    void aRoundWithoutAnswersLeavesTheRatioWithoutInterval() {
        Stats.Interval i = Stats.pairedRatio(new double[] {0, 100}, new double[] {100, 100});
        assertEquals(0.5, i.value(), 1e-9);
        assertFalse(i.known());
    }

    @Test
    void aFloorIsMetByThePointEstimateNotByAnIntervalThatReachesIt() {
        assertFalse(Stats.meetsAtLeast(new Stats.Interval(0.90, 0.85, 0.96), 0.95), "only the interval reaches 0.95");
        assertTrue(Stats.meetsAtLeast(new Stats.Interval(0.95, 0.80, 1.10), 0.95), "a wide interval around a point that meets it");
        assertTrue(Stats.meetsAtLeast(new Stats.Interval(0.95, Double.NaN, Double.NaN), 0.95), "no interval: the figure itself");
        assertFalse(Stats.meetsAtLeast(new Stats.Interval(0.94, Double.NaN, Double.NaN), 0.95));
    }

    @Test
    void aCeilingIsMetByThePointEstimate() {
        assertFalse(Stats.meetsAtMost(new Stats.Interval(1.3, 1.19, 1.4), 1.2), "only the interval reaches under 1.2");
        assertTrue(Stats.meetsAtMost(new Stats.Interval(1.2, 1.1, 1.4), 1.2));
    }

    @Test
    void aFigureIsKnownWithinAHalfWidthOnBothSidesOfItsValueOnly() {
        assertTrue(Stats.within(new Stats.Interval(1.00, 0.96, 1.04), 0.05));
        assertFalse(Stats.within(new Stats.Interval(1.00, 0.94, 1.02), 0.05), "wide below");
        assertFalse(Stats.within(new Stats.Interval(1.00, 0.99, 1.06), 0.05), "wide above: a ratio's interval is not symmetric");
        assertFalse(Stats.within(new Stats.Interval(1.00, Double.NaN, Double.NaN), 0.05), "no interval yet");
    }
}
