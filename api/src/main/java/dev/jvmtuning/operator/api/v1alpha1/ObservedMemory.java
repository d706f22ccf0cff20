package dev.jvmtuning.operator.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.ArrayList;
import java.util.List;
import lombok.AllArgsConstructor;
import lombok.Data;
import lombok.NoArgsConstructor;

/** One pod's memory, part by part, beside what the plan budgets for each part. */
@Data
@NoArgsConstructor
@AllArgsConstructor
public class ObservedMemory {
    @JsonPropertyDescription("The pod these figures are of: the one NativeMemoryPressure speaks of, a pod near its limit with a part over "
            + "its budget if any, else the one with the largest resident set, among the Ready pods of the settings in force (any Ready "
            + "pod in mode Recommend).")
    private String pod;

    @JsonPropertyDescription("How many of those pods reported their resident set.")
    private Integer pods;

    @JsonPropertyDescription("The container's memory limit, e.g. 384Mi.")
    private String limit;

    @JsonPropertyDescription("The pod's resident set (process_resident_memory_bytes), e.g. 370Mi.")
    private String resident;

    @JsonPropertyDescription("The pod's live threads.")
    private Long threads;

    @JsonPropertyDescription("Whether the figures are the JVM's own account (-XX:NativeMemoryTracking=summary, the agent's "
            + "jvmtuning_native_memory_bytes); without it code cache is not reported and thread stacks are estimated.")
    private Boolean nativeMemoryTracking;

    @JsonPropertyDescription("Each part of the plan's memory budget: heap, metaspace, codeCache, threadStacks, directMemory and "
            + "otherNative, with what the pod uses of it.")
    private List<MemoryBucket> buckets = new ArrayList<>();
}
