package dev.jvmtuning.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.management.VMOption;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

class VmOptionMetricsTest {

    private static String series(String option, String origin) {
        return "jvmtuning_vm_option{option=\"" + option + "\",origin=\"" + origin + "\"}";
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aJvmReportsTheFlagsItWasStartedWithAndWhereEachCameFrom() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder builder = new ProcessBuilder(java, "-XX:MaxGCPauseMillis=123", "-Xms32m", "-XX:+UseSerialGC",
                "-XX:-UseContainerSupport", "-cp", System.getProperty("java.class.path"), VmOptionsMain.class.getName())
                .redirectError(ProcessBuilder.Redirect.DISCARD);
        builder.environment().put("JAVA_TOOL_OPTIONS", "-Xmx64m -XX:+ExitOnOutOfMemoryError -Xss512k");
        Process process = builder.start();
        String text = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();

        Map<String, Double> samples = Exposition.samples(text);
        assertThat(samples).containsAllEntriesOf(Map.of(
                // the command line's: VM_CREATION, -Xms under the options it sets
                series("MaxGCPauseMillis", "VM_CREATION"), 123.0,
                series("InitialHeapSize", "VM_CREATION"), 32.0 * 1024 * 1024,
                series("UseSerialGC", "VM_CREATION"), 1.0,
                series("UseContainerSupport", "VM_CREATION"), 0.0,
                // JAVA_TOOL_OPTIONS': ENVIRON_VAR for an -XX flag, but VM_CREATION for the short forms -Xmx and -Xss
                series("ExitOnOutOfMemoryError", "ENVIRON_VAR"), 1.0,
                series("MaxHeapSize", "VM_CREATION"), 64.0 * 1024 * 1024,
                // in KiB, as HotSpot counts it
                series("ThreadStackSize", "VM_CREATION"), 512.0,
                // set by nobody: the JDK's default
                series("UseG1GC", "DEFAULT"), 0.0,
                // no archive given: empty, reported as 0
                series("SharedArchiveFile", "DEFAULT"), 0.0));
        // every option once, whatever its origin
        assertThat(samples.keySet().stream().filter(s -> s.contains("option=\"MaxHeapSize\""))).hasSize(1);
        assertThat(samples.keySet().stream().filter(s -> s.startsWith("jvmtuning_vm_option{")))
                .hasSizeGreaterThanOrEqualTo(VmOptionMetrics.OPTIONS.size() - 4);
    }

    /** A CDS archive the JVM was given, however it came (an image's ENTRYPOINT, say), is reported as set: 1. */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aJvmGivenAnArchiveReportsItSet(@TempDir Path directory) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String archive = directory.resolve("classes.jsa").toString();
        // A static archive of the JDK's own classes: made in about a second, and valid whatever the class path.
        Process dump = new ProcessBuilder(java, "-Xshare:dump", "-XX:SharedArchiveFile=" + archive)
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        assertThat(dump.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(dump.exitValue()).isZero();
        Process process = new ProcessBuilder(java, "-XX:SharedArchiveFile=" + archive, "-Xshare:on", "-cp",
                System.getProperty("java.class.path"), VmOptionsMain.class.getName())
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String text = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();

        assertThat(Exposition.samples(text)).containsEntry(series("SharedArchiveFile", "VM_CREATION"), 1.0);
    }

    @Test
    void aPathOptionReportsWhetherItIsSet() {
        PrometheusRegistry registry = new PrometheusRegistry();
        new VmOptionMetrics(name -> switch (name) {
            case "AOTCache" -> new VMOption(name, "/app/app.aot", true, VMOption.Origin.ENVIRON_VAR);
            case "SharedArchiveFile" -> new VMOption(name, "", true, VMOption.Origin.DEFAULT);
            default -> new VMOption(name, "1", true, VMOption.Origin.DEFAULT);
        }, () -> 0L).register(registry);

        assertThat(Exposition.samples(registry))
                .containsEntry(series("AOTCache", "ENVIRON_VAR"), 1.0)
                .containsEntry(series("SharedArchiveFile", "DEFAULT"), 0.0);
    }

    @Test
    void optionsTheJdkLacksAreLeftOutAndTheOthersStay() {
        PrometheusRegistry registry = new PrometheusRegistry();
        new VmOptionMetrics(name -> {
            if (name.equals("ZGenerational")) {
                throw new IllegalArgumentException("VM option \"" + name + "\" does not exist");
            }
            return new VMOption(name, name.startsWith("Use") ? "true" : "18446744073709551615", true, VMOption.Origin.ERGONOMIC);
        }, () -> 0L).register(registry);

        Map<String, Double> samples = Exposition.samples(registry);

        assertThat(samples).hasSize(VmOptionMetrics.OPTIONS.size() - 1)
                .containsEntry(series("UseZGC", "ERGONOMIC"), 1.0)
                .containsEntry(series("MaxDirectMemorySize", "ERGONOMIC"), 1.8446744073709552E19);
        assertThat(samples.keySet()).noneMatch(s -> s.contains("ZGenerational"));
    }

    @Test
    void optionsAreReadAtStartThenAtMostOnceAMinute() {
        AtomicInteger reads = new AtomicInteger();
        AtomicLong now = new AtomicLong();
        VmOptionMetrics metrics = new VmOptionMetrics(name -> {
            reads.incrementAndGet();
            return new VMOption(name, "1", true, VMOption.Origin.DEFAULT);
        }, now::get);

        metrics.collect();
        now.addAndGet(VmOptionMetrics.REFRESH.toNanos() - 1);
        metrics.collect();
        assertThat(reads).hasValue(VmOptionMetrics.OPTIONS.size());

        now.addAndGet(1);
        metrics.collect();
        assertThat(reads).hasValue(2 * VmOptionMetrics.OPTIONS.size());
    }

    /** Prints what one reading of every option costs in this JVM; no bound asserted, a loaded machine varies too much. */
    @Test
    void oneReadingCosts() {
        List<Long> nanos = new ArrayList<>();
        MetricSnapshots reading = null;
        for (int i = 0; i < 21; i++) {
            VmOptionMetrics fresh = new VmOptionMetrics(VmOptionMetrics.thisJvm(), () -> 0L);
            long started = System.nanoTime();
            reading = fresh.collect();
            nanos.add(System.nanoTime() - started);
        }
        // the first reading loads the classes, which the agent's start pays once
        System.out.println("jvmtuning_vm_option: first reading " + nanos.get(0) / 1000 + " us, then median "
                + nanos.subList(1, nanos.size()).stream().sorted().toList().get(10) / 1000 + " us for "
                + reading.get(0).getDataPoints().size() + " options");
        assertThat(reading.get(0).getDataPoints()).isNotEmpty();
    }
}
