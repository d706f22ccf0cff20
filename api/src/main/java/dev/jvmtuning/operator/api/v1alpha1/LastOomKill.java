package dev.jvmtuning.operator.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import lombok.AllArgsConstructor;
import lombok.Data;
import lombok.NoArgsConstructor;

/** The last time a pod's tuned container was killed for memory, and the most likely cause. */
@Data
@NoArgsConstructor
@AllArgsConstructor
public class LastOomKill {
    @JsonPropertyDescription("The pod whose tuned container was killed.")
    private String pod;

    @JsonPropertyDescription("The settings hash the pod ran; absent for a pod of the Deployment's own template.")
    private String settingsHash;

    @JsonPropertyDescription("The container's restart count when the kill was seen.")
    private Integer restartCount;

    @JsonPropertyDescription("When the container ended (its termination's finishedAt).")
    private String at;

    @JsonPropertyDescription("The most likely cause: METASPACE, DIRECT_MEMORY, THREAD_STACKS, NATIVE_OTHER (native memory beyond "
            + "what the JVM accounts for), LIMIT_BELOW_HEAP (the planned heap and the least a JVM needs beyond it exceed the limit), "
            + "HEAP_NOT_PLANNED (the pod's JVM reports another maximum heap than planned, set outside the operator, e.g. an -Xmx on the "
            + "image's command line; not answered with a new budget) or UNKNOWN (no memory reading of the pod before the kill).")
    private String cause;

    @JsonPropertyDescription("The kill in one sentence: the pod, the cause and the figures it rests on (the limit, the heap and the parts "
            + "beyond it at the pod's last reading).")
    private String message;

    @JsonPropertyDescription("The container's memory limit in bytes; absent when it has none.")
    private Long memoryLimitBytes;

    @JsonPropertyDescription("The maximum heap the profile planned for the pod's settings, in bytes; absent for a pod of other "
            + "settings or a plan that leaves the heap to the JVM.")
    private Long plannedHeapBytes;

    @JsonPropertyDescription("What the part named as the cause held at the pod's last reading, in bytes; absent when no part was measured.")
    private Long observedBytes;

    @JsonPropertyDescription("That part's budget in the plan of the pod's settings, in bytes; absent for a pod of other settings.")
    private Long budgetBytes;

    @JsonPropertyDescription("How many kills in a row the operator answered with a new memory budget, without a healthy rollout in "
            + "between; past 3 it stops re-planning and the Deployment stays on its own template (OomKillsRepeated).")
    private Integer answeredInARow;
}
