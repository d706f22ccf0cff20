package dev.jvmtuning.agent;

import com.sun.management.HotSpotDiagnosticMXBean;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricMetadata;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.Unit;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.management.JMException;
import javax.management.ObjectName;

/**
 * What the JVM itself says it has reserved and committed, by category (Java Heap, Class, Thread, Code, GC, Other...),
 * when it runs with -XX:NativeMemoryTracking=summary or detail: the native memory that no MXBean shows and that,
 * with the heap, makes up most of a container's memory. The category names are whatever the running JDK prints.
 * Without tracking the collector is not registered: no series and no cost.
 */
final class NativeMemoryMetrics extends PeriodicCollector {

    /** The summary walks every tracked allocation site's counters: re-read at most this often, as the options. */
    /**
     * JDK 17 prints about 20 categories and 25 a few more; a report beyond these bounds is not one this parser
     * understands, and is cut there rather than grow the exposition.
     */
    static final int MAX_CATEGORIES = 64;
    static final int MAX_TEXT = 256 * 1024;
    private static final int MAX_CATEGORY_NAME = 64;

    /**
     * "-                 Java Heap (reserved=65536KB, committed=65536KB)" and, in 25,
     * "-        Shared class space (reserved=16384KB, committed=13908KB, readonly=0KB)". The scale is KB by default.
     */
    private static final Pattern CATEGORY =
            Pattern.compile("^-\\s+([^()]+?)\\s+\\(reserved=(\\d+)([KMG]?B)?, committed=(\\d+)([KMG]?B)?[,)]");
    private static final Pattern TOTAL = Pattern.compile("^Total: reserved=(\\d+)([KMG]?B)?, committed=(\\d+)([KMG]?B)?");
    private static final Set<String> TRACKING = Set.of("summary", "detail");

    private static final MetricMetadata NATIVE_MEMORY = new MetricMetadata("jvmtuning_native_memory_bytes",
            "Memory the JVM's native memory tracking counts, by category as the JDK names it (category=\"Total\" for all), "
                    + "committed or reserved", Unit.BYTES);

    private final Supplier<String> summary;

    /** @param summary the text of VM.native_memory summary; may throw when the JVM cannot answer */
    NativeMemoryMetrics(Supplier<String> summary, LongSupplier nanoClock) {
        super(nanoClock);
        this.summary = summary;
    }

    /** Registers a collector of this JVM's native memory, only when the JVM tracks it. */
    static void registerIfTracked(PrometheusRegistry registry) {
        String tracking;
        try {
            tracking = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class).getVMOption("NativeMemoryTracking").getValue();
        } catch (RuntimeException | LinkageError e) {
            // Not HotSpot (no such option or no such MXBean): nothing tracked, and the agent serves the rest.
            return;
        }
        if (tracked(tracking)) {
            registry.register(new NativeMemoryMetrics(NativeMemoryMetrics::thisJvmSummary, System::nanoTime));
        }
    }

    static boolean tracked(String nativeMemoryTracking) {
        return TRACKING.contains(nativeMemoryTracking);
    }

    /** jcmd's VM.native_memory summary, through the DiagnosticCommand MBean jcmd's commands are also served by. */
    static String thisJvmSummary() {
        try {
            return String.valueOf(ManagementFactory.getPlatformMBeanServer().invoke(new ObjectName("com.sun.management:type=DiagnosticCommand"),
                    "vmNativeMemory", new Object[] {new String[] {"summary"}}, new String[] {String[].class.getName()}));
        } catch (JMException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    MetricSnapshots read() {
        try {
            return new MetricSnapshots(new GaugeSnapshot(NATIVE_MEMORY, parse(summary.get())));
        } catch (RuntimeException | LinkageError e) {
            // The scrape goes on without these series until the next read, as with the other collectors (FailSafe).
            return new MetricSnapshots();
        }
    }

    /** The total and each category, committed and reserved, in bytes; lines it does not know are skipped. */
    static List<GaugeDataPointSnapshot> parse(String text) {
        List<GaugeDataPointSnapshot> points = new ArrayList<>();
        int categories = 0;
        for (String line : text.substring(0, Math.min(text.length(), MAX_TEXT)).split("\n")) {
            Matcher total = TOTAL.matcher(line);
            Matcher category = CATEGORY.matcher(line);
            if (total.find()) {
                add(points, "Total", total.group(1), total.group(2), total.group(3), total.group(4));
            } else if (category.find() && categories < MAX_CATEGORIES && category.group(1).length() <= MAX_CATEGORY_NAME) {
                add(points, category.group(1), category.group(2), category.group(3), category.group(4), category.group(5));
                categories++;
            }
        }
        return points;
    }

    private static void add(List<GaugeDataPointSnapshot> points, String category, String reserved, String reservedUnit, String committed,
            String committedUnit) {
        points.add(new GaugeDataPointSnapshot(bytes(committed, committedUnit), Labels.of("category", category, "kind", "committed"), null));
        points.add(new GaugeDataPointSnapshot(bytes(reserved, reservedUnit), Labels.of("category", category, "kind", "reserved"), null));
    }

    /** NMT's scale: B, KB, MB or GB (powers of 1024), KB when the command names none; none written at all means bytes. */
    static double bytes(String number, String unit) {
        double value = Double.parseDouble(number);
        return switch (unit == null ? "B" : unit) {
            case "KB" -> value * 1024;
            case "MB" -> value * 1024 * 1024;
            case "GB" -> value * 1024 * 1024 * 1024;
            default -> value;
        };
    }
}
