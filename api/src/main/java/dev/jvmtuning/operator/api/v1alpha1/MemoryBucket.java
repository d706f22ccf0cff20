package dev.jvmtuning.operator.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import lombok.AllArgsConstructor;
import lombok.Data;
import lombok.NoArgsConstructor;

/** One part of a container's memory: what the plan budgets for it and what a pod uses. */
@Data
@NoArgsConstructor
@AllArgsConstructor
public class MemoryBucket {
    @JsonPropertyDescription("The part: heap, metaspace, codeCache, threadStacks, directMemory or otherNative (GC structures, symbol "
            + "tables, malloc arenas, native libraries: the resident set beyond the other parts).")
    private String bucket;

    @JsonPropertyDescription("What the plan budgets for it (R9), e.g. 40Mi.")
    private String budget;

    @JsonPropertyDescription("What the pod uses of it, e.g. 96Mi: of the heap, its live and not yet collected objects; of the other "
            + "parts, what the JVM has committed to them; absent when the pod does not report it.")
    private String used;

    @JsonPropertyDescription("Of the heap only: what the JVM has committed to it, e.g. 153Mi, beside what it uses: -Xms commits it "
            + "all at start, but only the pages the heap has touched are in the resident set.")
    private String committed;

    @JsonPropertyDescription("How the figure was arrived at, when not read directly (an estimate, or a part counted in another).")
    private String note;
}
