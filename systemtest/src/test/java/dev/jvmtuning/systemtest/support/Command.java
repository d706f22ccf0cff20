package dev.jvmtuning.systemtest.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** A program the checks run as the scripts did (kubectl exec, helm, env.sh's functions), bounded in time. */
public final class Command {

    private Command() {
    }

    /** Its output, once it has exited 0 within {@code seconds}; otherwise the check fails, naming it. Its errors go to the log. */
    public static String run(int seconds, List<String> line) {
        try {
            Process process = new ProcessBuilder(line).redirectError(ProcessBuilder.Redirect.INHERIT).start();
            // Read on its own thread: a pipe left unread stops the program once it is full.
            CompletableFuture<String> output = CompletableFuture.supplyAsync(() -> read(process));
            if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError("timed out after " + seconds + "s waiting for " + String.join(" ", line));
            }
            if (process.exitValue() != 0) {
                throw new AssertionError(String.join(" ", line) + " exited " + process.exitValue());
            }
            return output.join();
        } catch (IOException e) {
            throw new IllegalStateException("could not run " + line.get(0), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static String read(Process process) {
        try {
            return new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
