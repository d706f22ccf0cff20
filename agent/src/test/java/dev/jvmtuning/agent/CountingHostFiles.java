package dev.jvmtuning.agent;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/** Records what a pass lists and reads. */
final class CountingHostFiles extends HostFiles {

    final AtomicInteger lists = new AtomicInteger();
    final List<String> reads = new CopyOnWriteArrayList<>();

    CountingHostFiles(Path root) {
        super(root);
    }

    @Override
    Optional<String[]> list(String directory) {
        lists.incrementAndGet();
        return super.list(directory);
    }

    @Override
    int read(String path, byte[] buffer) {
        reads.add(path);
        return super.read(path, buffer);
    }
}
