package dev.jvmtuning.lab;

import java.util.Arrays;

/**
 * The lab's statistics, pure: 95% confidence intervals from Student's t, for one setting's mean
 * and for the ratio of two settings measured in the same rounds, and the verdict on a target.
 */
final class Stats {
    /** Two-sided 97.5% quantiles of Student's t for 1 to 30 degrees of freedom. */
    private static final double[] T975 = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
            2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};
    private static final double Z975 = 1.959964;

    /** A figure and its 95% interval; low and high are NaN when there are too few samples for one. */
    record Interval(double value, double low, double high) {
        boolean known() {
            return !Double.isNaN(low);
        }
    }

    private Stats() {
    }

    static double t975(int degreesOfFreedom) {
        if (degreesOfFreedom < 1) {
            throw new IllegalArgumentException("no t quantile for " + degreesOfFreedom + " degrees of freedom");
        }
        if (degreesOfFreedom <= T975.length) {
            return T975[degreesOfFreedom - 1];
        }
        // Cornish-Fisher's first two terms: within 0.001 of the exact quantile past 30 degrees of freedom.
        double z = Z975;
        double v = degreesOfFreedom;
        return z + (Math.pow(z, 3) + z) / (4 * v) + (5 * Math.pow(z, 5) + 16 * Math.pow(z, 3) + 3 * z) / (96 * v * v);
    }

    /** The mean and its t interval (the runs as independent samples of the setting). */
    static Interval mean(double[] samples) {
        double mean = Arrays.stream(samples).average().orElse(Double.NaN);
        if (samples.length < 2) {
            return new Interval(mean, Double.NaN, Double.NaN);
        }
        double half = t975(samples.length - 1) * Math.sqrt(variance(samples, mean) / samples.length);
        return new Interval(mean, mean - half, mean + half);
    }

    /**
     * The ratio a/b from rounds in which both were measured one after the other (a[i] with b[i]): the
     * geometric mean of the per-round ratios with a t interval on their logarithms. Pairing cancels
     * what the VM does to both within a round (steal, a neighbour's load), which a ratio of two means'
     * intervals would count twice; logarithms make the interval for b/a the reciprocal of a/b's.
     */
    static Interval pairedRatio(double[] a, double[] b) {
        if (a.length != b.length) {
            throw new IllegalArgumentException("paired samples differ in number: " + a.length + " and " + b.length);
        }
        double[] logs = new double[a.length];
        for (int i = 0; i < a.length; i++) {
            if (!(a[i] > 0 && b[i] > 0)) {
                // A round with no answers has no ratio; zero there would make the log infinite, so the interval is unknown.
                return new Interval(a.length == 0 ? Double.NaN : sum(a) / sum(b), Double.NaN, Double.NaN);
            }
            logs[i] = Math.log(a[i] / b[i]);
        }
        Interval log = mean(logs);
        return new Interval(Math.exp(log.value()), Math.exp(log.low()), Math.exp(log.high()));
    }

    /**
     * A floor target ("at least"): met when the point estimate meets it. An interval that merely reaches the target is
     * noise that could go either way, not a result.
     */
    static boolean meetsAtLeast(Interval figure, double target) {
        return figure.value() >= target;
    }

    /** A ceiling target ("at most"): met when the point estimate is at most the limit. */
    static boolean meetsAtMost(Interval figure, double limit) {
        return figure.value() <= limit;
    }

    /** Whether the figure's interval is known and lies within halfWidth of its value on either side. */
    static boolean within(Interval figure, double halfWidth) {
        return figure.known() && figure.high() - figure.value() <= halfWidth && figure.value() - figure.low() <= halfWidth;
    }

    private static double variance(double[] samples, double mean) {
        double squares = 0;
        for (double x : samples) {
            squares += (x - mean) * (x - mean);
        }
        return squares / (samples.length - 1);
    }

    private static double sum(double[] values) {
        return Arrays.stream(values).sum();
    }
}
