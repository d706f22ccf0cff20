package dev.jvmtuning.lab.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A container's CPU and memory limits for a local process: a cgroup (v1 or v2) the lab creates,
 * so the JVM's own container detection sees what it would see in a pod (its default heap, its
 * default collector, its CPU count). The JVM reads limits only from cgroups, so flags cannot
 * stand in for this without changing the defaults being measured.
 */
public final class Container {
    private static final String NAME = "jvm-tuning-lab";
    private static final long CFS_PERIOD_MICROS = 100_000;
    /**
     * The app's group yields the CPU to the load generator outside it (1024 is the default weight):
     * on a shared 2-core machine a starved client would time its own delays, not the server's.
     * The JVM ignores shares when it counts CPUs (JDK 17.0.5+), so its defaults are unchanged.
     */
    private static final int V1_SHARES = 128;
    private static final int V2_WEIGHT = 12;

    private final List<Path> procsFiles;

    private Container(List<Path> procsFiles) {
        this.procsFiles = procsFiles;
    }

    /** No limits: the process runs where the caller does (for tests that need the app, not its defaults). */
    public static Container unlimited() {
        return new Container(List.of());
    }

    /** Creates (or reuses) the lab's cgroup with these limits; fails with what is missing. */
    public static Container withLimits(double cpus, long memoryBytes) {
        try {
            List<String> lines = Files.readAllLines(Path.of("/proc/self/cgroup"));
            String v1Memory = controllerPath(lines, "memory");
            String v1Cpu = controllerPath(lines, "cpu");
            long quota = Math.round(cpus * CFS_PERIOD_MICROS);
            if (v1Memory != null && v1Cpu != null) {
                Path memory = create(Path.of("/sys/fs/cgroup/memory" + v1Memory));
                Path cpu = create(Path.of("/sys/fs/cgroup/cpu" + v1Cpu));
                Files.writeString(memory.resolve("memory.limit_in_bytes"), Long.toString(memoryBytes));
                Files.writeString(cpu.resolve("cpu.cfs_period_us"), Long.toString(CFS_PERIOD_MICROS));
                Files.writeString(cpu.resolve("cpu.cfs_quota_us"), Long.toString(quota));
                Files.writeString(cpu.resolve("cpu.shares"), Integer.toString(V1_SHARES));
                return new Container(List.of(memory.resolve("cgroup.procs"), cpu.resolve("cgroup.procs")));
            }
            String unified = controllerPath(lines, "");
            Path parent = Path.of("/sys/fs/cgroup" + unified);
            Files.writeString(parent.resolve("cgroup.subtree_control"), "+memory +cpu");
            Path group = create(parent);
            Files.writeString(group.resolve("memory.max"), Long.toString(memoryBytes));
            Files.writeString(group.resolve("cpu.max"), quota + " " + CFS_PERIOD_MICROS);
            Files.writeString(group.resolve("cpu.weight"), Integer.toString(V2_WEIGHT));
            return new Container(List.of(group.resolve("cgroup.procs")));
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException("the lab gives the workload a container's limits through a cgroup it creates, and cannot: "
                    + e + " (it needs root and writable memory and cpu controllers under /sys/fs/cgroup)", e);
        }
    }

    /** The command that moves itself into the cgroup, then becomes {@code command}. */
    List<String> wrap(List<String> command) {
        StringBuilder script = new StringBuilder();
        for (int i = 1; i <= procsFiles.size(); i++) {
            script.append("echo $$ >\"$").append(i).append("\" && ");
        }
        script.append("shift ").append(procsFiles.size()).append(" && ulimit -n $(ulimit -Hn) && exec \"$@\"");
        List<String> wrapped = new ArrayList<>(List.of("sh", "-c", script.toString(), "sh"));
        procsFiles.forEach(p -> wrapped.add(p.toString()));
        wrapped.addAll(command);
        return wrapped;
    }

    /** The path of a cgroup v1 controller (named in a comma list) or, for "", the v2 unified hierarchy. */
    private static String controllerPath(List<String> procSelfCgroup, String controller) {
        for (String line : procSelfCgroup) {
            String[] parts = line.split(":", 3);
            if (parts.length == 3 && List.of(parts[1].split(",")).contains(controller)) {
                return parts[2].equals("/") ? "" : parts[2];
            }
        }
        return null;
    }

    private static Path create(Path parent) {
        Path group = parent.resolve(NAME);
        try {
            Files.createDirectories(group);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return group;
    }
}
