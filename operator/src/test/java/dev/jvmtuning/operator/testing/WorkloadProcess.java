package dev.jvmtuning.operator.testing;

import dev.jvmtuning.lab.harness.Workload;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A real JVM running {@link Workload} with the project's agent on a loopback port. It stops by
 * itself after its time is up and is destroyed on close.
 */
public final class WorkloadProcess implements AutoCloseable {
    public static final Path AGENT = Path.of(System.getProperty("agent.jar", "agent/target/jvm-tuning-agent.jar"));

    private final Process process;
    private final int port;
    private final Path output;

    private WorkloadProcess(Process process, int port, Path output) {
        this.process = process;
        this.port = port;
        this.output = output;
    }

    /** Starts {@code Workload mode seconds} with the agent on a free loopback port, and waits until it serves. */
    public static WorkloadProcess start(String mode, int seconds, int port, String... jvmFlags) {
        if (!Files.isRegularFile(AGENT)) {
            throw new IllegalStateException(AGENT + " is missing: build it with ./mvnw -f agent/pom.xml package");
        }
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(List.of(jvmFlags));
        command.add("-javaagent:" + AGENT.toAbsolutePath() + "=port=" + port + ",host=127.0.0.1");
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), Workload.class.getName(), mode, Integer.toString(seconds)));
        try {
            Path output = Files.createTempFile("workload-" + mode, ".log");
            Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
            WorkloadProcess workload = new WorkloadProcess(process, port, output);
            // The agent needs about a CPU-second to start, far more on a loaded machine.
            workload.awaitListening(Duration.ofSeconds(60));
            return workload;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public int port() {
        return port;
    }

    private void awaitListening(Duration timeout) {
        Instant deadline = Instant.now().plus(timeout);
        while (Instant.now().isBefore(deadline)) {
            if (!process.isAlive()) {
                throw new IllegalStateException("workload exited with " + process.exitValue() + ": " + outputTail());
            }
            try (Socket ignored = new Socket("127.0.0.1", port)) {
                return;
            } catch (IOException notYet) {
                sleep(100);
            }
        }
        close();
        throw new IllegalStateException("the agent did not listen on 127.0.0.1:" + port + " within " + timeout);
    }

    private String outputTail() {
        try {
            List<String> lines = Files.readAllLines(output);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size()));
        } catch (IOException e) {
            return "(no output: " + e.getMessage() + ")";
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        process.destroyForcibly();
        try {
            process.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
