package dev.jvmtuning.agent;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;

/** A fake root directory holding just the /proc and /sys files a test needs. */
final class FixtureTree {

    private final Path root;

    FixtureTree(Path root) {
        this.root = root;
    }

    FixtureTree file(String path, String content) {
        try {
            Path file = root.resolve(path.substring(1));
            Files.createDirectories(file.getParent());
            Files.writeString(file, content);
            return this;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    FixtureTree directory(String path) {
        try {
            Files.createDirectories(root.resolve(path.substring(1)));
            return this;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    FixtureTree delete(String path) {
        try (var files = Files.walk(root.resolve(path.substring(1)))) {
            files.sorted(Comparator.reverseOrder()).forEach(file -> file.toFile().delete());
            return this;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    HostFiles hostFiles() {
        return new HostFiles(root);
    }
}
