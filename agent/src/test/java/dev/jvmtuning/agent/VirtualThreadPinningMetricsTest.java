package dev.jvmtuning.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The pinning frame, and real JVMs that pin their virtual threads: JDK 25 from /usr/lib/jvm (or -Djdk25.home), and
 * JDK 21 where the operator's tests find it, Debian's in a root file system under ~/.cache/jvm-tuning-operator, started
 * in a chroot as root (-Djdk21.rootfs to name another). A JDK that is not there skips its test.
 */
class VirtualThreadPinningMetricsTest {

    private static final String SLOW_INIT = "dev.jvmtuning.agent.PinningMain$SlowInit.<clinit>";
    private static final String SYNCHRONIZED = "dev.jvmtuning.agent.PinningMain.blockInsideSynchronized";
    private static final String QUICK_INIT = "dev.jvmtuning.agent.PinningMain$QuickInit.<clinit>";
    private static final String THRESHOLD_MILLIS = "20";
    private static final String JAVA_21 = "usr/lib/jvm/java-21-openjdk-amd64";

    private static String pinned(String frame) {
        return "jvmtuning_virtual_thread_pinned_total{frame=\"" + frame + "\"}";
    }

    private static String pinnedSeconds(String frame) {
        return "jvmtuning_virtual_thread_pinned_seconds_total{frame=\"" + frame + "\"}";
    }

    private static String scheduler(String figure) {
        return "jvmtuning_virtual_thread_scheduler{figure=\"" + figure + "\"}";
    }

    @Test
    void thePinningFrameIsTheTopmostOfTheApplication() {
        assertThat(VirtualThreadPinningMetrics.pinningFrame(List.of("java.lang.VirtualThread.parkOnCarrierThread", "java.lang.Thread.sleep",
                "jdk.internal.misc.Blocker.begin", "sun.nio.ch.Net.poll", "com.sun.crypto.provider.Foo.bar", "javax.net.Socket.read",
                "com.example.Dao.load", "com.example.Service.handle"))).isEqualTo("com.example.Dao.load");
        // nothing but the JDK's: its top frame says where
        assertThat(VirtualThreadPinningMetrics.pinningFrame(List.of("java.lang.Object.wait0", "java.lang.Thread.run"))).isEqualTo("java.lang.Object.wait0");
        assertThat(VirtualThreadPinningMetrics.pinningFrame(List.of())).isEqualTo(PinnedFrames.OTHER);
    }

    @Test
    void aLongFrameKeepsItsEnd() {
        String frame = "com.example." + "generated.".repeat(30) + "Handler.handle";
        String cut = VirtualThreadPinningMetrics.pinningFrame(List.of(frame));
        assertThat(cut).hasSize(VirtualThreadPinningMetrics.MAX_FRAME_LENGTH).endsWith("Handler.handle");
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void onJdk25OnlyTheClassInitializerPinsAndTheSchedulerIsReported() throws Exception {
        Path java = Path.of(System.getProperty("jdk25.home", "/usr/lib/jvm/temurin-25-jdk-amd64"), "bin", "java");
        assumeTrue(Files.isExecutable(java), "no JDK 25 at " + java);

        Map<String, Double> samples = run(List.of(java.toString()), Map.of(), System.getProperty("java.class.path"), 1);

        // JEP 491: synchronized no longer pins, a class initializer still does; the quick one stays under the threshold
        assertThat(samples).containsEntry(pinned(SLOW_INIT), 1.0).containsEntry(pinned(PinnedFrames.OTHER), 0.0)
                .doesNotContainKeys(pinned(SYNCHRONIZED), pinned(QUICK_INIT));
        assertThat(samples.get(pinnedSeconds(SLOW_INIT))).isGreaterThanOrEqualTo(PinningMain.PINNED_MILLIS / 1000.0 * 0.9);
        assertThat(samples.get(scheduler("parallelism"))).isPositive();
        assertThat(samples).containsKeys(scheduler("pool_size"), scheduler("mounted"), scheduler("queued"));
    }

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void onJdk21SynchronizedPinsTooAndThereIsNoSchedulerBean() throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")), "JDK 21 runs in a chroot, which needs root");
        Path rootfs = jdk21RootFileSystem();
        assumeTrue(rootfs != null, "no root file system holding JDK 21");
        Path classes = Files.createTempDirectory(rootfs.resolve("tmp"), "pinning-test");
        try {
            String classpath = copyClassPath(classes, rootfs);
            String home = "/" + JAVA_21;
            Map<String, Double> samples = run(List.of("chroot", rootfs.toString(), home + "/bin/java"),
                    Map.of("LD_LIBRARY_PATH", home + "/lib:" + home + "/lib/server"), classpath, 3);

            assertThat(samples).containsEntry(pinned(SLOW_INIT), 1.0).containsEntry(pinned(SYNCHRONIZED), 2.0)
                    .containsEntry(pinned(PinnedFrames.OTHER), 0.0).doesNotContainKey(pinned(QUICK_INIT));
            assertThat(samples.get(pinnedSeconds(SYNCHRONIZED))).isGreaterThanOrEqualTo(2 * PinningMain.PINNED_MILLIS / 1000.0 * 0.9);
            assertThat(samples.keySet()).noneMatch(series -> series.startsWith("jvmtuning_virtual_thread_scheduler"));
        } finally {
            try (Stream<Path> files = Files.walk(classes)) {
                files.sorted(Comparator.reverseOrder()).forEach(file -> file.toFile().delete());
            }
        }
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void onJdk17ThereIsNothingToRecordAndNothingIsServed() throws Exception {
        assumeTrue(Runtime.version().feature() < 21, "the build's JDK has virtual threads");
        Map<String, Double> samples = run(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()), Map.of(),
                System.getProperty("java.class.path"), 0);

        assertThat(samples.keySet()).noneMatch(series -> series.startsWith("jvmtuning_virtual_thread"));
    }

    /**
     * Runs PinningMain, which waits for {@code expected} pinnings; its samples. The run ending at all says the recording
     * thread does not keep a JVM from exiting.
     */
    private static Map<String, Double> run(List<String> java, Map<String, String> environment, String classpath, int expected)
            throws Exception {
        List<String> command = new ArrayList<>(java);
        command.addAll(List.of("-cp", classpath, PinningMain.class.getName(), String.valueOf(expected), THRESHOLD_MILLIS));
        ProcessBuilder builder = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT);
        builder.environment().putAll(environment);
        Process process = builder.start();
        String text = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(90, TimeUnit.SECONDS)).as("exits").isTrue();
        assertThat(process.exitValue()).isZero();
        return Exposition.samples(text);
    }

    private static Path jdk21RootFileSystem() throws IOException {
        String configured = System.getProperty("jdk21.rootfs");
        Path cache = Path.of(System.getProperty("user.home"), ".cache/jvm-tuning-operator");
        if (configured == null && !Files.isDirectory(cache)) {
            return null;
        }
        try (Stream<Path> dirs = configured != null ? Stream.of(Path.of(configured)) : Files.walk(cache, 5)) {
            return dirs.filter(dir -> Files.isExecutable(dir.resolve(JAVA_21).resolve("bin/java"))).findFirst().orElse(null);
        }
    }

    /** This test's class path copied under the root file system; the path as the chrooted JVM sees it. */
    private static String copyClassPath(Path target, Path rootfs) throws IOException {
        List<String> entries = new ArrayList<>();
        int index = 0;
        for (String entry : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
            Path source = Path.of(entry);
            if (!Files.exists(source)) {
                continue;
            }
            Path copy = target.resolve(index++ + "-" + source.getFileName());
            try (Stream<Path> files = Files.walk(source)) {
                for (Path file : (Iterable<Path>) files::iterator) {
                    Path destination = copy.resolve(source.relativize(file).toString());
                    if (Files.isDirectory(file)) {
                        Files.createDirectories(destination);
                    } else {
                        Files.createDirectories(destination.getParent());
                        Files.copy(file, destination);
                    }
                }
            }
            entries.add("/" + rootfs.relativize(copy));
        }
        return String.join(java.io.File.pathSeparator, entries);
    }
}
