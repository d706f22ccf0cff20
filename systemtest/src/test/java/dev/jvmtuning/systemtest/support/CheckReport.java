package dev.jvmtuning.systemtest.support;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Reports each check for deploy/local/e2e.sh, which prints the verdicts of all checks alike: the check's name as a header
 * where its lines begin, everything it prints kept in {@code CHECK.log} too, and {@code CHECK.result} ("PASS SECONDS" or
 * "FAIL SECONDS", then the name) in the directory of the system property {@code checks.dir}. A check is a test whose
 * display name starts with its number ("3b. ...").
 */
public final class CheckReport implements BeforeEachCallback, AfterEachCallback {

    private static final ExtensionContext.Namespace STORE = ExtensionContext.Namespace.create(CheckReport.class);

    private record Running(String name, long startedNanos, PrintStream out, PrintStream err, OutputStream log) {
    }

    @Override
    public void beforeEach(ExtensionContext context) throws IOException {
        String name = context.getDisplayName();
        Files.createDirectories(directory());
        OutputStream log = Files.newOutputStream(directory().resolve(number(name) + ".log"));
        Running running = new Running(name, System.nanoTime(), System.out, System.err, log);
        context.getStore(STORE).put(Running.class, running);
        System.setOut(new PrintStream(new Tee(running.out(), log), true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(new Tee(running.err(), log), true, StandardCharsets.UTF_8));
        System.out.printf("%n=== %s%n", name);
    }

    /** After the check and its own clean-up: a failure of either fails it. */
    @Override
    public void afterEach(ExtensionContext context) {
        context.getExecutionException().ifPresent(cause -> System.err.println(whereItStopped(cause)));
        finish(context, context.getExecutionException().isPresent() ? "FAIL" : "PASS");
    }

    /** Where the check stopped (e2e-breakages.sh quotes this line): a wait, an assertion, or an error. */
    private static String whereItStopped(Throwable cause) {
        String message = String.valueOf(cause.getMessage()).strip();
        if (!(cause instanceof AssertionError)) {
            return "gave up: " + cause;
        }
        return message.startsWith("timed out") ? message : "assertion failed: " + message;
    }

    private static void finish(ExtensionContext context, String verdict) {
        Running running = context.getStore(STORE).remove(Running.class, Running.class);
        System.out.flush();
        System.err.flush();
        System.setOut(running.out());
        System.setErr(running.err());
        long seconds = (System.nanoTime() - running.startedNanos()) / 1_000_000_000L;
        try {
            running.log().close();
            Files.writeString(directory().resolve(number(running.name()) + ".result"), verdict + " " + seconds + "\n" + running.name() + "\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String number(String name) {
        return name.substring(0, name.indexOf('.'));
    }

    private static Path directory() {
        return Path.of(System.getProperty("checks.dir"));
    }

    /** Bytes to the console and to the check's log. */
    private static final class Tee extends OutputStream {
        private final OutputStream console;
        private final OutputStream log;

        Tee(OutputStream console, OutputStream log) {
            this.console = console;
            this.log = log;
        }

        @Override
        public void write(int b) throws IOException {
            console.write(b);
            log.write(b);
        }

        @Override
        public void write(byte[] bytes, int offset, int length) throws IOException {
            console.write(bytes, offset, length);
            log.write(bytes, offset, length);
        }

        @Override
        public void flush() throws IOException {
            console.flush();
            log.flush();
        }
    }
}
