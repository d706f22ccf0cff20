package dev.jvmtuning.operator.model;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parsing and printing of the durations and memory sizes the API uses; plain numbers in, plain numbers out. */
public final class Units {
    public static final long KI = 1024L;
    public static final long MI = KI * KI;
    public static final long GI = MI * KI;

    private static final Pattern DURATION = Pattern.compile("([0-9]+(?:\\.[0-9]+)?)(ms|s|m|h)");
    private static final Pattern MEMORY = Pattern.compile("([0-9]+(?:\\.[0-9]+)?)(Ki|Mi|Gi|Ti|k|M|G|T)?");
    private static final Pattern JVM_NUMBER = Pattern.compile("(-?[0-9]+)([kKmMgGtT]?)");

    private Units() {
    }

    /** Seconds in a duration such as 300ms, 1.5s, 2m or 1h. */
    public static double seconds(String duration) {
        Matcher m = DURATION.matcher(duration.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException("not a duration (e.g. 300ms, 2s, 1m): '" + duration + "'");
        }
        double value = Double.parseDouble(m.group(1));
        return switch (m.group(2)) {
            case "ms" -> value / 1000;
            case "s" -> value;
            case "m" -> value * 60;
            default -> value * 3600;
        };
    }

    /** A duration such as 300ms, 1.5s, 2m or 1h, to the millisecond. */
    public static Duration duration(String duration) {
        return Duration.ofMillis(Math.round(seconds(duration) * 1000));
    }

    /** Bytes in a Kubernetes memory quantity such as 1536Mi, 2Gi, 1.5G or 1073741824. */
    public static long bytes(String quantity) {
        Matcher m = MEMORY.matcher(quantity.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException("not a memory quantity (e.g. 1536Mi, 2Gi): '" + quantity + "'");
        }
        long multiplier = m.group(2) == null ? 1 : switch (m.group(2)) {
            case "Ki" -> KI;
            case "Mi" -> MI;
            case "Gi" -> GI;
            case "Ti" -> GI * KI;
            case "k" -> 1_000L;
            case "M" -> 1_000_000L;
            case "G" -> 1_000_000_000L;
            default -> 1_000_000_000_000L;
        };
        try {
            return new BigDecimal(m.group(1)).multiply(BigDecimal.valueOf(multiplier)).setScale(0, RoundingMode.DOWN).longValueExact();
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("more bytes than a long holds: '" + quantity + "'", e);
        }
    }

    /**
     * The number a HotSpot size or integer argument stands for, such as 512m, 1g, 256k, -1 or 1048576 (a k, m, g or t
     * suffix multiplies by powers of 1024, either case), without overflow; empty when the JVM would not read it as one.
     */
    public static Optional<BigInteger> jvmNumber(String text) {
        Matcher m = JVM_NUMBER.matcher(text.trim());
        if (!m.matches()) {
            return Optional.empty();
        }
        int shift = switch (m.group(2).toLowerCase(Locale.ROOT)) {
            case "k" -> 10;
            case "m" -> 20;
            case "g" -> 30;
            case "t" -> 40;
            default -> 0;
        };
        return Optional.of(new BigInteger(m.group(1)).shiftLeft(shift));
    }

    /** Bytes in a HotSpot size argument such as 512m, 1g, 256k or 1048576. */
    public static long jvmBytes(String size) {
        BigInteger bytes = jvmNumber(size).filter(n -> n.signum() >= 0)
                .orElseThrow(() -> new IllegalArgumentException("not a JVM size (e.g. 512m, 1g): '" + size + "'"));
        if (bytes.bitLength() >= Long.SIZE) {
            throw new IllegalArgumentException("more bytes than a long holds: '" + size + "'");
        }
        return bytes.longValue();
    }

    /** Whole MiB, as Kubernetes writes them: 1536Mi. */
    public static String mebibytes(long bytes) {
        return (bytes / MI) + "Mi";
    }

    /** Whole MiB from a MiB up, whole KiB below it, as Kubernetes writes them: 2Mi, 49Ki. */
    public static String mebibytesOrKibibytes(long bytes) {
        return bytes >= MI ? mebibytes(bytes) : (bytes / KI) + "Ki";
    }

    /** A HotSpot size argument in whole MiB: 1536m. */
    public static String jvmMebibytes(long bytes) {
        return (bytes / MI) + "m";
    }

    /** A figure for a rationale: integers without decimals, others with at most two. */
    public static String number(double value) {
        if (value == Math.rint(value) && Math.abs(value) < 1e15) {
            return Long.toString((long) value);
        }
        return BigDecimal.valueOf(value).setScale(2, RoundingMode.HALF_UP).stripTrailingZeros().toPlainString();
    }

    /** Mean of a figure over the items that have it (finite), rounded to two decimals so status only changes when the figure does; null when none has it. */
    public static <T> Double mean(List<T> items, Function<T, Double> figure) {
        double sum = 0;
        int n = 0;
        for (T item : items) {
            Double v = figure.apply(item);
            if (v != null && Double.isFinite(v)) {
                sum += v;
                n++;
            }
        }
        return n == 0 ? null : Math.round(sum / n * 100) / 100.0;
    }
}
