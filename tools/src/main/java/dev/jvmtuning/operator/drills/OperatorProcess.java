package dev.jvmtuning.operator.drills;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The operator as a JVM process of its own with a fixed heap limit (it exits on OutOfMemoryError
 * rather than limp on), and what its GC log and /proc say about it.
 */
public final class OperatorProcess implements AutoCloseable {
    /** A collection in the unified GC log: "GC(7) Pause Young (Allocation Failure) 33M->5M(121M) 7.123ms", or "Pause Full". */
    private static final Pattern COLLECTION = Pattern.compile("GC\\(\\d+\\) Pause (\\w+) .*?(\\d+)M->(\\d+)M\\((\\d+)M\\) ([\\d.]+)ms");
    private static final long CLOCK_TICKS_PER_SECOND = 100;

    private final Process process;
    private final Path gcLog;
    private final Path output;

    private OperatorProcess(Process process, Path gcLog, Path output) {
        this.process = process;
        this.gcLog = gcLog;
        this.output = output;
    }

    /** The JVM flags the operator runs with: the benchmark's, the heap limit given, exit on OOM, a GC log. */
    private static List<String> jvm(String maxHeap, Path gcLog) {
        return new ArrayList<>(List.of("java", "-Xmx" + maxHeap, "-XX:+UseSerialGC", "-XX:ActiveProcessorCount=2",
                "-XX:+ExitOnOutOfMemoryError", "-Xlog:gc:file=" + gcLog));
    }

    /** The reconciler in plain JOSDK ({@link OperatorMain}) on this JVM's class path, watching one namespace. */
    public static OperatorProcess plain(Path kubeconfig, String namespace, String maxHeap, Path dir) {
        Path gcLog = dir.resolve("operator-gc.log");
        List<String> command = jvm(maxHeap, gcLog);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), OperatorMain.class.getName(), kubeconfig.toString(), namespace));
        return start(command, Map.of(), gcLog, dir);
    }

    /** The real build (target/quarkus-app) watching one namespace, with its defaults but for {@code env}. */
    public static OperatorProcess quarkus(Path jar, Path kubeconfig, String namespace, String maxHeap, Map<String, String> env, Path dir) {
        Path gcLog = dir.resolve("operator-gc.log");
        List<String> command = jvm(maxHeap, gcLog);
        command.addAll(List.of("-jar", jar.toString()));
        Map<String, String> all = new java.util.HashMap<>(env);
        all.putAll(Map.of("KUBECONFIG", kubeconfig.toString(), "QUARKUS_OPERATOR_SDK_CONTROLLERS_TUNINGPROFILE_NAMESPACES", namespace,
                "QUARKUS_HTTP_HOST", "127.0.0.1", "QUARKUS_HTTP_PORT", "0"));
        return start(command, all, gcLog, dir);
    }

    private static OperatorProcess start(List<String> command, Map<String, String> env, Path gcLog, Path dir) {
        try {
            Files.createDirectories(dir);
            Path output = dir.resolve("operator.log");
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile());
            builder.environment().putAll(env);
            return new OperatorProcess(builder.start(), gcLog, output);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the operator: " + command, e);
        }
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    public Path output() {
        return output;
    }

    /** What the GC log says so far. */
    public record Gc(int collections, int fullCollections, double pauseMillis, int peakBeforeMiB, int peakLiveMiB, int committedMiB) {
        @Override
        public String toString() {
            return String.format(java.util.Locale.ROOT, "%d GCs (%d full), %.0f ms paused, heap peak %d MiB, live after full GC at most %d MiB, %d MiB committed",
                    collections, fullCollections, pauseMillis, peakBeforeMiB, peakLiveMiB, committedMiB);
        }
    }

    public Gc gc() {
        int collections = 0;
        int full = 0;
        double pause = 0;
        int before = 0;
        int after = 0;
        int committed = 0;
        try {
            for (String line : Files.readAllLines(gcLog)) {
                Matcher m = COLLECTION.matcher(line);
                if (m.find()) {
                    collections++;
                    before = Math.max(before, Integer.parseInt(m.group(2)));
                    if (m.group(1).equals("Full")) {
                        // what survives a full collection is what the operator holds; a young one may leave garbage behind
                        full++;
                        after = Math.max(after, Integer.parseInt(m.group(3)));
                    }
                    committed = Math.max(committed, Integer.parseInt(m.group(4)));
                    pause += Double.parseDouble(m.group(5));
                }
            }
        } catch (IOException e) {
            // no log yet: no collection yet
        }
        return new Gc(collections, full, pause, before, after, committed);
    }

    /** CPU time the process has used (user and system), from /proc. */
    public double cpuSeconds() {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(process.pid()), "stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) / (double) CLOCK_TICKS_PER_SECOND;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Peak resident set (VmHWM), in MiB. */
    public long peakRssMiB() {
        try {
            return Files.readAllLines(Path.of("/proc", Long.toString(process.pid()), "status")).stream()
                    .filter(l -> l.startsWith("VmHWM:")).map(l -> Long.parseLong(l.replaceAll("\\D", "")) / 1024).findFirst().orElse(0L);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
