package dev.jvmtuning.agent;

import com.sun.management.HotSpotDiagnosticMXBean;
import com.sun.management.VMOption;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricMetadata;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;

/**
 * The HotSpot options the operator plans, or that decide how the JVM sizes itself in a container, as the
 * running JVM holds them and where each value came from: what the JVM really runs, whatever the operator
 * rendered. Options of the list that this JDK lacks are left out.
 *
 * <p>Origins as HotSpot 17 reports them (VmOptionMetricsTest): a flag on the command line is VM_CREATION; an -XX flag
 * from JAVA_TOOL_OPTIONS is ENVIRON_VAR, but the short forms -Xmx, -Xms, -Xmn and -Xss are VM_CREATION wherever
 * they were written, so the origin cannot tell JAVA_TOOL_OPTIONS' -Xmx from the command line's; a value the JVM
 * chose itself (NewSize from the heap, say) is ERGONOMIC. JDK_JAVA_OPTIONS reaches the JVM through the launcher's
 * command line, so its flags are VM_CREATION.
 */
final class VmOptionMetrics extends PeriodicCollector {

    /** The lines of vm-options.txt beside this class, the list the operator reads too (EffectiveOptions), split in words. */
    private static final List<String[]> LISTED = listed();

    /**
     * Everything the operator renders, what sizes the JVM in a container, and the archives whose options the plan must
     * keep. ThreadStackSize is in KiB, as HotSpot counts it; the other sizes in bytes.
     */
    static final List<String> OPTIONS = LISTED.stream().map(words -> words[0]).toList();

    /**
     * The options the list marks "path", of an AOT cache (JDK 24+) or CDS archive the JVM was given: a series holds
     * numbers, so each reports whether it is set, 1 or 0. Set means given, not mapped: a JVM that rejected the archive
     * (other options than it was made under) still reports the path. AOTMode is left out: a word (on, auto, off, or
     * empty by default) whose presence would not tell on from off.
     */
    static final Set<String> PRESENCE_OPTIONS = LISTED.stream().filter(words -> words.length > 1 && words[1].equals("path"))
            .map(words -> words[0]).collect(Collectors.toUnmodifiableSet());

    /** Options change only through the management interface, and rarely: re-read at most this often. */

    private static final MetricMetadata VM_OPTION = new MetricMetadata("jvmtuning_vm_option",
            "HotSpot option as this JVM runs with it, labelled with where its value came from (VMOption.Origin); "
                    + "booleans 1 or 0, sizes in bytes except ThreadStackSize in KiB; AOTCache and SharedArchiveFile 1 when set, 0 when not");

    private final Function<String, VMOption> reader;

    VmOptionMetrics() {
        this(thisJvm(), System::nanoTime);
    }

    /** @param reader the JVM's option of a name; throws IllegalArgumentException for an option this JDK lacks */
    VmOptionMetrics(Function<String, VMOption> reader, LongSupplier nanoClock) {
        super(nanoClock);
        this.reader = reader;
    }

    /** This JVM's options, by name. */
    static Function<String, VMOption> thisJvm() {
        return ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)::getVMOption;
    }

    void register(PrometheusRegistry registry) {
        registry.register(this);
    }

    @Override
    MetricSnapshots read() {
        List<GaugeDataPointSnapshot> points = new ArrayList<>();
        for (String name : OPTIONS) {
            try {
                VMOption option = reader.apply(name);
                double value = PRESENCE_OPTIONS.contains(name) ? (option.getValue().isEmpty() ? 0 : 1) : value(option.getValue());
                points.add(new GaugeDataPointSnapshot(value,
                        Labels.of("option", name, "origin", option.getOrigin().name()), null));
            } catch (IllegalArgumentException e) {
                // This JDK lacks the option (ZGenerational before 21, AOTCache before 24, UseShenandoahGC in some builds):
                // nothing to say.
            } catch (RuntimeException | LinkageError e) {
                // Whatever else fails, the scrape goes on without this option, as with the other collectors (FailSafe).
            }
        }
        return new MetricSnapshots(new GaugeSnapshot(VM_OPTION, points));
    }

    private static List<String[]> listed() {
        try (InputStream in = VmOptionMetrics.class.getResourceAsStream("vm-options.txt")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().filter(line -> !line.isBlank() && !line.startsWith("#"))
                    .map(line -> line.strip().split(" ")).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** HotSpot writes booleans as true/false and numbers in decimal, unsigned 64-bit ones up to 18446744073709551615. */
    static double value(String text) {
        return switch (text) {
            case "true" -> 1;
            case "false" -> 0;
            default -> Double.parseDouble(text);
        };
    }
}
