package dev.jvmtuning.agent;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Stream;

/** Reads kernel text files below a root directory: "/" in production, a fixture tree in tests. */
final class HostFiles {

    private final Path root;

    HostFiles(Path root) {
        this.root = root;
    }

    /**
     * Latin-1 never fails to decode: a thread name in a status file can be UTF-8 cut mid-character.
     * Missing or unreadable files (a thread exiting, PSI disabled) are simply absent.
     */
    Optional<String> read(String path) {
        try {
            return Optional.of(new String(Files.readAllBytes(resolve(path)), StandardCharsets.ISO_8859_1));
        } catch (IOException | SecurityException e) {
            return Optional.empty();
        }
    }

    /** The first of the files that exists and that the parser understands. */
    <T> Optional<T> readFirst(List<String> paths, Function<String, Optional<T>> parser) {
        for (String path : paths) {
            Optional<T> parsed = read(path).flatMap(parser);
            if (parsed.isPresent()) {
                return parsed;
            }
        }
        return Optional.empty();
    }

    Optional<List<String>> list(String directory) {
        try (Stream<Path> entries = Files.list(resolve(directory))) {
            List<String> names = new ArrayList<>();
            entries.forEach(entry -> names.add(entry.getFileName().toString()));
            return Optional.of(names);
        } catch (IOException | UncheckedIOException | SecurityException e) {
            return Optional.empty();
        }
    }

    boolean isDirectory(String path) {
        return Files.isDirectory(resolve(path));
    }

    private Path resolve(String path) {
        return root.resolve(path.startsWith("/") ? path.substring(1) : path);
    }
}
