package dev.jvmtuning.operator.model;

import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The container's resources as the plan sizes them (spec.sizing), each null where the container's own stands.
 *
 * @param memoryLimitBytes   resources.limits.memory
 * @param memoryRequestBytes resources.requests.memory
 * @param cpuRequestMillis   resources.requests.cpu, in millicores
 */
public record PlannedResources(Long memoryLimitBytes, Long memoryRequestBytes, Integer cpuRequestMillis) {
    public static final String LIMITS_MEMORY = "limits.memory";
    public static final String REQUESTS_MEMORY = "requests.memory";
    public static final String REQUESTS_CPU = "requests.cpu";
    /** Nothing sized: the container's resources as they are. */
    public static final PlannedResources NONE = new PlannedResources(null, null, null);

    /** The container as these resources leave it. */
    public ContainerFacts appliedTo(ContainerFacts facts) {
        ContainerFacts sized = memoryLimitBytes == null ? facts : facts.withMemory(memoryLimitBytes, memoryRequestBytes);
        return cpuRequestMillis == null ? sized : sized.withCpuRequest(cpuRequestMillis / 1000.0);
    }

    /** Each sized field as the container's resources name it (limits.memory, requests.cpu), with its quantity. */
    public SortedMap<String, String> fields() {
        SortedMap<String, String> fields = new TreeMap<>();
        if (memoryLimitBytes != null) {
            fields.put(LIMITS_MEMORY, Units.mebibytes(memoryLimitBytes));
        }
        if (memoryRequestBytes != null) {
            fields.put(REQUESTS_MEMORY, Units.mebibytes(memoryRequestBytes));
        }
        if (cpuRequestMillis != null) {
            fields.put(REQUESTS_CPU, cpuRequestMillis + "m");
        }
        return fields;
    }
}
