package dev.jvmtuning.operator.flags;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/**
 * The JDKs of the supported versions that this machine has, as commands that start their {@code java}.
 * 17 and 25 are installed JDKs; 21 has no Debian bookworm package, so it is a Debian trixie root file
 * system (a directory holding usr/lib/jvm/java-21-openjdk-amd64) found under the local tool cache and
 * started in a chroot of it, as root: Debian's JDK links its configuration to that system's /etc.
 */
public final class Jdks {
    private static final Path CACHE = Path.of(System.getProperty("user.home"), ".cache/jvm-tuning-operator");
    private static final String DEBIAN_JAVA_21 = "usr/lib/jvm/java-21-openjdk-amd64";

    private Jdks() {
    }

    /** A JDK of one feature version, the command that starts its {@code java} and the environment that needs. */
    public record Jdk(int feature, List<String> java, Map<String, String> environment) {

        /** Runs {@code java args...} and returns its exit status and everything it printed. */
        public Run run(String... args) {
            List<String> command = new ArrayList<>(java);
            command.addAll(List.of(args));
            try {
                ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
                builder.environment().putAll(environment);
                Process process = builder.start();
                process.getOutputStream().close();
                String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                if (!process.waitFor(120, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                    throw new IllegalStateException("JDK " + feature + " did not finish: " + command);
                }
                return new Run(process.exitValue(), output);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    public record Run(int exitStatus, String output) {
    }

    /** The supported JDKs present here as a parameterized test's arguments (feature, JDK); the test is skipped where there is none. */
    public static Stream<Arguments> each() {
        List<Jdk> available = available();
        assumeTrue(!available.isEmpty(), "no supported JDK on this machine");
        return available.stream().map(jdk -> Arguments.of(jdk.feature(), jdk));
    }

    /** The supported JDKs present here, by feature version. */
    public static List<Jdk> available() {
        List<Jdk> found = new ArrayList<>();
        installed(17, System.getProperty("jdk17.home", "/usr/lib/jvm/java-17-openjdk-amd64")).ifPresent(found::add);
        jdk21().ifPresent(found::add);
        installed(25, System.getProperty("jdk25.home", "/usr/lib/jvm/temurin-25-jdk-amd64")).ifPresent(found::add);
        return found;
    }

    private static Optional<Jdk> installed(int feature, String home) {
        Path java = Path.of(home, "bin", "java");
        return Files.isExecutable(java) ? Optional.of(new Jdk(feature, List.of(java.toString()), Map.of())) : Optional.empty();
    }

    private static Optional<Jdk> jdk21() {
        String configured = System.getProperty("jdk21.rootfs");
        if (!"root".equals(System.getProperty("user.name"))) {
            return Optional.empty();
        }
        Optional<Path> rootfs = configured != null ? Optional.of(Path.of(configured)).filter(Jdks::holdsJava21) : rootfsUnder(CACHE);
        // Without /proc in the chroot the loader cannot resolve the launcher's $ORIGIN run path: name the JDK's libraries.
        String home = "/" + DEBIAN_JAVA_21;
        return rootfs.map(root -> new Jdk(21, List.of("chroot", root.toString(), home + "/bin/java"),
                Map.of("LD_LIBRARY_PATH", home + "/lib:" + home + "/lib/server")));
    }

    /** The shallowest root file system with Debian's Java 21 under {@code dir}, looking five levels down. */
    private static Optional<Path> rootfsUnder(Path dir) {
        if (!Files.isDirectory(dir)) {
            return Optional.empty();
        }
        try (Stream<Path> dirs = Files.walk(dir, 5)) {
            return dirs.filter(Files::isDirectory).filter(Jdks::holdsJava21)
                    .min(Comparator.comparingInt(Path::getNameCount).thenComparing(Path::toString));
        } catch (IOException | UncheckedIOException e) {
            return Optional.empty();
        }
    }

    private static boolean holdsJava21(Path root) {
        return Files.isExecutable(root.resolve(DEBIAN_JAVA_21).resolve("bin/java")) && Files.exists(root.resolve("lib64/ld-linux-x86-64.so.2"));
    }
}
