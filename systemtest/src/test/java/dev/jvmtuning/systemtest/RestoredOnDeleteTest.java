package dev.jvmtuning.systemtest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jvmtuning.systemtest.support.Cluster;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("check-2")
@Order(200)
class RestoredOnDeleteTest extends SystemCheck {

    @Test
    @DisplayName("2. deleting the profile restores the pods' own JVM options")
    void deletingTheProfileRestoresTheDeploymentsOwnTemplate() {
        cluster.deleteProfile("orders-api", 60);
        say("tuningprofile.jvmtuning.dev \"orders-api\" deleted");
        cluster.rolloutStatus("orders-api", 120);
        // The template holds nothing of the operator's: no settings hash, no agent, the user's own variable.
        JsonNode template = cluster.deployment("orders-api").path("spec").path("template");
        JsonNode annotations = template.path("metadata").path("annotations");
        JsonNode env = template.path("spec").path("containers").path(0).path("env");
        say("template after the delete: annotations " + (annotations.isMissingNode() ? "{}" : annotations) + ", init containers "
                + Cluster.names(template.path("spec").path("initContainers"), "name") + ", env " + env);
        assertThat(annotations).as("the template's annotations").isEmpty();
        assertThat(template.path("spec").path("initContainers")).as("the template's init containers").isEmpty();
        assertThat(env.toString()).as("the template's env").isEqualTo("[{\"name\":\"JAVA_TOOL_OPTIONS\",\"value\":\"-Dfile.encoding=UTF-8\"}]");
        for (String pod : cluster.runningPodNames("orders-api")) {
            String variable = cluster.exec(pod, "printenv", "JAVA_TOOL_OPTIONS");
            say(pod + ": JAVA_TOOL_OPTIONS=" + variable + "; init containers: " + String.join(" ",
                    cluster.pod(pod).getSpec().getInitContainers().stream().map(container -> container.getName()).toList()));
            assertThat(variable).as(pod + "'s JAVA_TOOL_OPTIONS").isEqualTo("-Dfile.encoding=UTF-8");
            assertThat(cluster.jvmFlags(pod)).as(pod + " without the profile's -XX:MaxGCPauseMillis=100").doesNotContain("-XX:MaxGCPauseMillis=100");
        }
    }
}
