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
     * The highest CPU weight (v1 shares, v2 weight): on its own CPU the app under load still competes
     * with whatever else the machine runs (builds, other benchmarks), and should win as a pod on a
     * node of its own would. The JVM ignores the weight when it counts CPUs (JDK 17.0.5+), so its
     * defaults are unchanged.
     */
    private static final int V1_SHARES = 262_144;
    private static final int V2_WEIGHT = 10_000;
    /**
     * The lowest, for the apps waiting for their next round on the same CPU: idle, each still spends 1-10 % of a CPU on its
     * metrics (the agent reads every thread's schedstat each second; 10 % with 3,200 threads), and a dozen of them took a
     * third of the measured app's CPU at equal weight.
     */
    private static final int V1_SHARES_WAITING = 2;
    private static final int V2_WEIGHT_WAITING = 1;

    /** The file that holds a cgroup's CPU weight (v1 cpu.shares, v2 cpu.weight) and the values for measured and waiting. */
    private record Weight(Path file, int measured, int waiting) {
    }

    private final List<Path> procsFiles;
    /** Null without limits. */
    private final Weight weight;

    private Container(List<Path> procsFiles, Weight weight) {
        this.procsFiles = procsFiles;
        this.weight = weight;
    }

    /** No limits: the process runs where the caller does (for tests that need the app, not its defaults). */
    public static Container unlimited() {
        return new Container(List.of(), null);
    }

    /** A container with limits, starting at the measured process's weight. */
    private static Container weighted(List<Path> procsFiles, Weight weight) throws IOException {
        Container container = new Container(procsFiles, weight);
        container.measured(true);
        return container;
    }

    /**
     * The highest CPU weight while the process is measured (or warmed, or observed), the lowest while it waits: the
     * waiting apps' own background work then runs on what the measured one leaves.
     */
    public void measured(boolean measured) throws IOException {
        if (weight != null) {
            Files.writeString(weight.file(), Integer.toString(measured ? weight.measured() : weight.waiting()));
        }
    }

    /**
     * Creates (or reuses) the lab's cgroup {@code slot} (one per process the lab keeps running at once)
     * with these limits, confined to the CPUs {@code cpuList} names ("1", "2-3"; null: any): a load
     * generator on the other CPUs then keeps its CPU however saturated the app is, and the app's JVM
     * counts only these CPUs, as in a pod pinned by the static CPU manager. Fails with what is missing.
     */
    public static Container withLimits(String slot, double cpus, long memoryBytes, String cpuList) {
        String name = NAME + "-" + slot;
        try {
            List<String> lines = Files.readAllLines(Path.of("/proc/self/cgroup"));
            String v1Memory = controllerPath(lines, "memory");
            String v1Cpu = controllerPath(lines, "cpu");
            long quota = Math.round(cpus * CFS_PERIOD_MICROS);
            if (v1Memory != null && v1Cpu != null) {
                Path memory = create(Path.of("/sys/fs/cgroup/memory" + v1Memory), name);
                Path cpu = create(Path.of("/sys/fs/cgroup/cpu" + v1Cpu), name);
                Files.writeString(memory.resolve("memory.limit_in_bytes"), Long.toString(memoryBytes));
                Files.writeString(cpu.resolve("cpu.cfs_period_us"), Long.toString(CFS_PERIOD_MICROS));
                Files.writeString(cpu.resolve("cpu.cfs_quota_us"), Long.toString(quota));
                List<Path> procs = new ArrayList<>(List.of(memory.resolve("cgroup.procs"), cpu.resolve("cgroup.procs")));
                if (cpuList != null) {
                    Path parent = Path.of("/sys/fs/cgroup/cpuset" + controllerPath(lines, "cpuset"));
                    Path cpuset = create(parent, name);
                    // A v1 cpuset starts with no memory nodes and no CPUs: a process cannot join it before both are set.
                    Files.writeString(cpuset.resolve("cpuset.mems"), Files.readString(parent.resolve("cpuset.mems")).trim());
                    Files.writeString(cpuset.resolve("cpuset.cpus"), cpuList);
                    procs.add(cpuset.resolve("cgroup.procs"));
                }
                return weighted(procs, new Weight(cpu.resolve("cpu.shares"), V1_SHARES, V1_SHARES_WAITING));
            }
            String unified = controllerPath(lines, "");
            Path parent = Path.of("/sys/fs/cgroup" + unified);
            Files.writeString(parent.resolve("cgroup.subtree_control"), "+memory +cpu" + (cpuList == null ? "" : " +cpuset"));
            Path group = create(parent, name);
            Files.writeString(group.resolve("memory.max"), Long.toString(memoryBytes));
            Files.writeString(group.resolve("cpu.max"), quota + " " + CFS_PERIOD_MICROS);
            if (cpuList != null) {
                Files.writeString(group.resolve("cpuset.cpus"), cpuList);
            }
            return weighted(List.of(group.resolve("cgroup.procs")), new Weight(group.resolve("cpu.weight"), V2_WEIGHT, V2_WEIGHT_WAITING));
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException("the lab gives the workload a container's limits through a cgroup it creates, and cannot: "
                    + e + " (it needs root and writable memory, cpu and cpuset controllers under /sys/fs/cgroup)", e);
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

    private static Path create(Path parent, String name) {
        Path group = parent.resolve(name);
        try {
            Files.createDirectories(group);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return group;
    }
}
