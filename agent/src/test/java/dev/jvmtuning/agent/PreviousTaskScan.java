package dev.jvmtuning.agent;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The scrape before TaskScan, kept for ScrapeBenchmark to run side by side with it: each of the three
 * metrics lists /proc/self/task itself, and every thread's status and schedstat are read whole into a
 * String and split on each scrape.
 */
final class PreviousTaskScan {

    private static final Path TASKS = Path.of("/proc/self/task");

    private final PerThreadCounterSum voluntarySwitches = new PerThreadCounterSum();
    private final PerThreadCounterSum involuntarySwitches = new PerThreadCounterSum();
    private final PerThreadCounterSum runQueueWaitNanos = new PerThreadCounterSum();

    /** What the three callbacks of one scrape did: the context switches, the run-queue wait, the task count. */
    synchronized long scrape() {
        Map<String, Long> voluntary = new HashMap<>();
        Map<String, Long> involuntary = new HashMap<>();
        for (String threadId : list()) {
            String status = read(threadId, "status");
            long[] switches = {-1, -1};
            for (String line : status.split("\n")) {
                if (line.startsWith("voluntary_ctxt_switches:")) {
                    switches[0] = Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
                } else if (line.startsWith("nonvoluntary_ctxt_switches:")) {
                    switches[1] = Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
                }
            }
            if (switches[0] >= 0 && switches[1] >= 0) {
                voluntary.put(threadId, switches[0]);
                involuntary.put(threadId, switches[1]);
            }
        }
        long total = voluntarySwitches.update(voluntary) + involuntarySwitches.update(involuntary);
        Map<String, Long> waitNanos = new HashMap<>();
        for (String threadId : list()) {
            String[] fields = read(threadId, "schedstat").trim().split("\\s+");
            if (fields.length >= 2) {
                waitNanos.put(threadId, Long.parseLong(fields[1]));
            }
        }
        return total + runQueueWaitNanos.update(waitNanos) + list().size();
    }

    private static List<String> list() {
        try (Stream<Path> entries = Files.list(TASKS)) {
            List<String> names = new ArrayList<>();
            entries.forEach(entry -> names.add(entry.getFileName().toString()));
            return names;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** An exited thread reads as empty, as it did then. */
    private static String read(String threadId, String file) {
        try {
            return new String(Files.readAllBytes(TASKS.resolve(threadId).resolve(file)), StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            return "";
        }
    }
}
