package dev.jvmtuning.operator.flags;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The JDKs of the supported versions that this machine has, as commands that start their {@code java}.
 * 17 and 25 are installed JDKs; 21 has no Debian bookworm package, so it is a Debian trixie root file
 * system (a directory holding usr/lib/jvm/java-21-openjdk-amd64) found under the local tool cache and
 * started through that file system's own dynamic loader, which needs neither root nor chroot.
 */
public final class Jdks {
    private static final Path CACHE = Path.of(System.getProperty("user.home"), ".cache/jvm-tuning-operator");
    private static final String DEBIAN_JAVA_21 = "usr/lib/jvm/java-21-openjdk-amd64";

    private Jdks() {
    }

    /** A JDK of one feature version and the command that starts its {@code java}. */
    public record Jdk(int feature, List<String> java) {

        /** Runs {@code java args...} and returns its exit status and everything it printed. */
        public Run run(String... args) {
            List<String> command = new ArrayList<>(java);
            command.addAll(List.of(args));
            try {
                Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
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
        return Files.isExecutable(java) ? Optional.of(new Jdk(feature, List.of(java.toString()))) : Optional.empty();
    }

    private static Optional<Jdk> jdk21() {
        String configured = System.getProperty("jdk21.rootfs");
        Optional<Path> rootfs = configured != null ? Optional.of(Path.of(configured)).filter(Jdks::holdsJava21) : rootfsUnder(CACHE);
        return rootfs.map(root -> {
            Path home = root.resolve(DEBIAN_JAVA_21);
            String libraryPath = String.join(":", root.resolve("lib/x86_64-linux-gnu").toString(),
                    root.resolve("usr/lib/x86_64-linux-gnu").toString(), home.resolve("lib").toString(), home.resolve("lib/server").toString());
            return new Jdk(21, List.of(root.resolve("lib64/ld-linux-x86-64.so.2").toString(), "--library-path", libraryPath,
                    home.resolve("bin/java").toString()));
        });
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
