package dev.jvmtuning.agent;

import java.io.File;
import java.io.FileInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Reads kernel text files below a root directory: "/" in production, a fixture tree in tests. Not final
 * so that tests can count what a scrape reads.
 */
class HostFiles {

    private final Path root;
    /** The root as a string prefix, so that the per-thread reads build no Path objects. */
    private final String rootPrefix;

    HostFiles(Path root) {
        this.root = root;
        String absolute = root.toAbsolutePath().toString();
        this.rootPrefix = absolute.endsWith("/") ? absolute.substring(0, absolute.length() - 1) : absolute;
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

    /**
     * Reads a file into the caller's buffer, up to its size, and returns the bytes read or -1 when the
     * file is missing or unreadable. Reusing one buffer keeps a pass over thousands of files from allocating.
     */
    int read(String path, byte[] buffer) {
        try (FileInputStream in = new FileInputStream(rootPrefix + path)) {
            int total = 0;
            while (total < buffer.length) {
                int read = in.read(buffer, total, buffer.length - total);
                if (read < 0) {
                    break;
                }
                total += read;
            }
            return total;
        } catch (IOException | SecurityException e) {
            return -1;
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

    /** The names in a directory, in no particular order; empty when it cannot be listed. */
    Optional<String[]> list(String directory) {
        try {
            return Optional.ofNullable(new File(rootPrefix + directory).list());
        } catch (SecurityException e) {
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
