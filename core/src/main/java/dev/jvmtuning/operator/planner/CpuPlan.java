package dev.jvmtuning.operator.planner;

import static dev.jvmtuning.operator.model.Units.number;

import dev.jvmtuning.operator.model.ContainerFacts;
import dev.jvmtuning.operator.model.JvmFlags;
import dev.jvmtuning.operator.model.Rule;
import dev.jvmtuning.operator.model.Setting;
import java.util.List;
import java.util.OptionalInt;

/**
 * R14: the CPUs the JVM is told it has. Since JDK 19 / 17.0.5 the JVM ignores CPU shares and sizes
 * GC and JIT threads for the whole node unless -XX:ActiveProcessorCount says otherwise.
 *
 * @param activeProcessorCount the count to render, or null (the user set it, or the container has no CPU figure)
 * @param cores                the container's CPUs for the thread caps (1 when unknown)
 * @param processors           the CPUs the JVM will see, whoever set them, or null when unknown
 */
record CpuPlan(Integer activeProcessorCount, double cores, Double processors, List<Decision> decisions) {

    static CpuPlan of(JvmFlags userFlags, ContainerFacts facts, PlanNotes notes) {
        OptionalInt userCount = userFlags.intFlag("ActiveProcessorCount");
        Double containerCores = facts.cores();
        if (userCount.isPresent()) {
            int count = userCount.getAsInt();
            return new CpuPlan(null, count, (double) count, List.of(new Decision(Setting.ACTIVE_PROCESSOR_COUNT,
                    Integer.toString(count), Rule.SPEC, "kept as set in " + userFlags.sourceOf("-XX:ActiveProcessorCount=1").orElseThrow()
                            + ": -XX:ActiveProcessorCount=" + count)));
        }
        if (containerCores != null) {
            int count = (int) Math.max(1, Math.ceil(containerCores));
            String source = facts.cpuLimitCores() != null ? "CPU limit" : "CPU request (no limit set)";
            return new CpuPlan(count, containerCores, (double) count, List.of(new Decision(Setting.ACTIVE_PROCESSOR_COUNT,
                    Integer.toString(count), Rule.R14, source + " " + number(containerCores) + " rounded up to " + count
                            + " so GC and JIT threads are sized for the container, not the node")));
        }
        notes.warnings.add("the container has no CPU limit or request: the JVM sizes GC and JIT threads for the whole node (R14), "
                + "and thread caps assume 1 CPU; set resources.requests.cpu");
        return new CpuPlan(null, 1, null, List.of());
    }
}
