package dev.jvmtuning.operator.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import lombok.Data;
import lombok.experimental.Accessors;

/** Which of the container's resources the operator sizes with the JVM; each is the container's own unless set to Plan. */
@Data
@Accessors(chain = true)
public class Sizing {
    @JsonPropertyDescription("The memory request and limit.")
    private MemorySizing memory;

    @JsonPropertyDescription("The CPU request.")
    private CpuSizing cpu;

    /** Whether the operator sizes the memory. */
    public boolean plansMemory() {
        return memory != null && memory.getPolicy() == SizingPolicy.Plan;
    }

    /** Whether the operator sizes the CPU request. */
    public boolean plansCpu() {
        return cpu != null && cpu.getPolicy() == SizingPolicy.Plan;
    }
}
