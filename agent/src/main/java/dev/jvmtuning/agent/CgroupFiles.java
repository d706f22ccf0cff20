package dev.jvmtuning.agent;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Finds the directories of this process's own cgroup: the pure v2 layout (/sys/fs/cgroup), the hybrid
 * one (v2 at /sys/fs/cgroup/unified, cpu controller on v1) and pure v1. Looked up on every call since
 * a process can be moved to another cgroup.
 */
final class CgroupFiles {

    private static final List<String> UNIFIED_MOUNTS = List.of("/sys/fs/cgroup", "/sys/fs/cgroup/unified");
    private static final List<String> V1_CPU_MOUNTS = List.of("/sys/fs/cgroup/cpu,cpuacct", "/sys/fs/cgroup/cpu");

    private final HostFiles files;

    CgroupFiles(HostFiles files) {
        this.files = files;
    }

    List<String> unifiedDirectories() {
        // Only a real v2 mount has cgroup.controllers; in the hybrid layout /sys/fs/cgroup is a tmpfs.
        List<String> mounts = UNIFIED_MOUNTS.stream()
                .filter(mount -> files.read(mount + "/cgroup.controllers").isPresent())
                .toList();
        return directories(mounts, ownCgroup().unified());
    }

    List<String> v1CpuDirectories() {
        return directories(V1_CPU_MOUNTS, ownCgroup().v1Cpu());
    }

    static List<String> inEach(List<String> directories, String fileName) {
        return directories.stream().map(directory -> directory + "/" + fileName).toList();
    }

    private ProcParsers.CgroupPaths ownCgroup() {
        return ProcParsers.parseCgroupPaths(files.read("/proc/self/cgroup").orElse(""));
    }

    /**
     * The cgroup's directory under each mount, or the mount itself when that directory is not there:
     * a container without a cgroup namespace sees its host path in /proc/self/cgroup but has its own
     * cgroup mounted as the root.
     */
    private List<String> directories(List<String> mounts, Optional<String> cgroupPath) {
        List<String> directories = new ArrayList<>();
        if (cgroupPath.isEmpty()) {
            return directories;
        }
        for (String mount : mounts) {
            String own = cgroupPath.get().equals("/") ? mount : mount + cgroupPath.get();
            if (files.isDirectory(own)) {
                directories.add(own);
            } else if (files.isDirectory(mount)) {
                directories.add(mount);
            }
        }
        return directories;
    }
}
