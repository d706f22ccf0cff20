package dev.jvmtuning.systemtest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jvmtuning.systemtest.support.Wait;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalLong;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * ZGC on JRE 21 and 25: the running JVM sizes its heap itself under the ceiling the budget allows, towards a soft maximum
 * below it, with no initial heap pinned to the ceiling (R10a), and says its settings are in effect.
 */
@Tag("check-10")
@Order(1000)
class ZgcSoftMaximumUnderTheCeilingTest extends SystemCheck {

    private static final List<Integer> JAVAS = List.of(21, 25);
    private static final Pattern HEAP_FLAGS = Pattern.compile("UseZGC|ZGenerational|HeapSize");

    @Test
    @DisplayName("10. ZGC on JDK 21 and 25: a soft maximum under the ceiling, no pinned initial heap, read from the JVMs")
    void zgcRunsUnderTheCeilingTowardsASoftMaximumWithNoPinnedInitialHeap() {
        tunedOnEachJre("zgc", JAVAS, "resources: {requests: {cpu: 10m, memory: 256Mi}, limits: {cpu: '1', memory: 768Mi}}", """
                gc: {collector: ZGC}
                metrics: {injectAgent: true, interval: 10s}""");
        for (int java : JAVAS) {
            String name = "zgc" + java;
            Wait.until(120, "tp/" + name + " SettingsEffective=True", () -> cluster.conditionIs(name, "SettingsEffective", "True"));
            List<String> pods = cluster.runningPodNames(name);
            assertThat(pods).as("running pods of " + name).isNotEmpty();
            for (String pod : pods) {
                String flags = cluster.jvmFlags(pod);
                say(name + " " + pod + ": " + Arrays.stream(flags.split("\\s+")).filter(HEAP_FLAGS.asPredicate()).collect(Collectors.joining(" ")));
                assertThat(flags).as("the flags " + pod + "'s JVM reports").contains("-XX:+UseZGC");
                OptionalLong max = sizeFlag(flags, "MaxHeapSize");
                OptionalLong soft = sizeFlag(flags, "SoftMaxHeapSize");
                assertThat(max).as("a MaxHeapSize reported by " + pod).isPresent();
                assertThat(soft).as("a SoftMaxHeapSize reported by " + pod).isPresent();
                // Left unset, the soft maximum is the maximum (the JVM's ergonomics): only one under it is the plan's.
                assertThat(soft.getAsLong()).as(pod + "'s SoftMaxHeapSize under its MaxHeapSize " + max.getAsLong()).isLessThan(max.getAsLong());
                // An initial heap the JVM does not report pins nothing.
                assertThat(sizeFlag(flags, "InitialHeapSize").orElse(0)).as(pod + "'s InitialHeapSize under its MaxHeapSize " + max.getAsLong())
                        .isLessThan(max.getAsLong());
                assertThat(cluster.podJavaToolOptions(pod)).as("no -Xms in the JAVA_TOOL_OPTIONS of " + pod).doesNotContain("-Xms");
            }
        }
    }
}
