package dev.jvmtuning.systemtest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jvmtuning.systemtest.support.Manifests;
import dev.jvmtuning.systemtest.support.Wait;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("check-3")
@Order(300)
class UnknownFlagRefusedTest extends SystemCheck {

    @Test
    @DisplayName("3. a flag no JVM knows: refused, no pod touched")
    void aFlagNoJvmKnowsIsRefusedBeforeAnyPodSeesIt() {
        cluster.apply(Manifests.workload("refuser", 1, """
                resources: {requests: {cpu: 100m, memory: 384Mi}, limits: {cpu: '1', memory: 384Mi}}
                terminationMessagePolicy: FallbackToLogsOnError"""));
        cluster.rolloutStatus("refuser", 120);
        long generation = generation();
        cluster.apply(Manifests.profile("refuser", "refuser", "jvmOptions: [\"-XX:+NoSuchFlagAnyJvmKnows\"]"));
        Wait.until(60, "tp/refuser Applied=False Invalid", () -> "Invalid".equals(cluster.applied("refuser", "reason")));
        say(cluster.applied("refuser", "message"));
        assertThat(generation()).as("deployment/refuser's generation, untouched").isEqualTo(generation);
    }

    private long generation() {
        return cluster.deployment("refuser").path("metadata").path("generation").asLong();
    }
}
