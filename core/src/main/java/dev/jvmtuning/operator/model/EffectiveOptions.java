package dev.jvmtuning.operator.model;

import java.util.Map;
import java.util.Optional;
import java.util.List;

/**
 * The HotSpot options one pod's JVM reports it runs with (the agent's jvmtuning_vm_option series): for each
 * option its value, booleans as 1 or 0, sizes in bytes except ThreadStackSize in KiB, and where the value came
 * from. Empty when the pod reports none: no agent, or one older than the series.
 */
public record EffectiveOptions(Map<String, Option> options) {
    public static final EffectiveOptions NONE = new EffectiveOptions(Map.of());

    /**
     * The options the agent reports, those of them the JDK has: VmOptionMetrics.OPTIONS in the agent, which builds
     * apart from the operator (EffectiveOptionsTest holds the two lists together).
     */
    public static final List<String> READ = List.of(
            "MaxHeapSize", "InitialHeapSize", "MinHeapSize", "NewSize", "MaxNewSize", "ThreadStackSize", "MaxMetaspaceSize",
            "ReservedCodeCacheSize", "MaxDirectMemorySize", "MaxRAM", "MaxRAMPercentage", "InitialRAMPercentage",
            "ActiveProcessorCount", "UseContainerSupport",
            "UseG1GC", "UseParallelGC", "UseSerialGC", "UseZGC", "ZGenerational", "UseShenandoahGC",
            "MaxGCPauseMillis", "ParallelGCThreads", "ConcGCThreads", "UseStringDeduplication", "ExitOnOutOfMemoryError");

    /** Where HotSpot says a value came from: com.sun.management.VMOption.Origin, by name. */
    public enum Origin {
        DEFAULT, VM_CREATION, ENVIRON_VAR, CONFIG_FILE, MANAGEMENT, ERGONOMIC, ATTACH_ON_DEMAND, OTHER;

        /** An origin a later JDK adds is OTHER here. */
        public static Origin of(String name) {
            for (Origin origin : values()) {
                if (origin.name().equals(name)) {
                    return origin;
                }
            }
            return OTHER;
        }
    }

    public record Option(double value, Origin origin) {
    }

    public EffectiveOptions {
        options = Map.copyOf(options);
    }

    public boolean reported() {
        return !options.isEmpty();
    }

    public Optional<Option> option(String name) {
        return Optional.ofNullable(options.get(name));
    }
}
