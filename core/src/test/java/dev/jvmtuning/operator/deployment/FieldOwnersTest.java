package dev.jvmtuning.operator.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jvmtuning.operator.testing.TestProfiles;
import io.fabric8.kubernetes.api.model.FieldsV1;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntryBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FieldOwnersTest {
    private static final List<String> ENV = List.of("JAVA_TOOL_OPTIONS", "SERVER_TOMCAT_THREADS_MAX");
    private static final List<String> ANNOTATIONS = List.of("jvmtuning.dev/settings-hash");

    private static ManagedFieldsEntry entry(String manager, String operation, String time, String subresource, Map<String, Object> template) {
        FieldsV1 fields = new FieldsV1();
        fields.setAdditionalProperty("f:spec", Map.of("f:template", template));
        return new ManagedFieldsEntryBuilder().withManager(manager).withOperation(operation).withTime(time).withSubresource(subresource)
                .withFieldsV1(fields).build();
    }

    private static Map<String, Object> env(String... names) {
        Map<String, Object> variables = new java.util.LinkedHashMap<>();
        for (String name : names) {
            variables.put("k:{\"name\":\"" + name + "\"}", Map.of("f:value", Map.of()));
        }
        return Map.of("f:spec", Map.of("f:containers", Map.of("k:{\"name\":\"app\"}", Map.of("f:env", variables))));
    }

    private static Deployment managedBy(ManagedFieldsEntry... entries) {
        Deployment deployment = TestProfiles.labDeployment("orders");
        deployment.getMetadata().setManagedFields(List.of(entries));
        return deployment;
    }

    @Test
    void theLatestOtherManagerOfTheOperatorsFieldsIsNamedWithTheFieldsItOwns() {
        Deployment deployment = managedBy(
                entry("kubectl-client-side-apply", "Update", "2026-11-28T10:00:00Z", null, env("JAVA_TOOL_OPTIONS", "OTHER")),
                entry("jvm-tuning-operator", "Apply", "2026-11-28T10:05:00Z", null, env("JAVA_TOOL_OPTIONS", "SERVER_TOMCAT_THREADS_MAX")),
                entry("argocd-controller", "Apply", "2026-11-28T10:06:00Z", null,
                        Map.of("f:metadata", Map.of("f:annotations", Map.of("f:jvmtuning.dev/settings-hash", Map.of())))),
                entry("kube-controller-manager", "Update", "2026-11-28T10:07:00Z", "status", env("JAVA_TOOL_OPTIONS")));

        FieldOwners.Owner owner = FieldOwners.lastOther(deployment, "jvm-tuning-operator", "app", ENV, ANNOTATIONS, List.of()).orElseThrow();

        assertThat(owner.manager()).as("the latest write of another manager, not a status write").isEqualTo("argocd-controller");
        assertThat(owner.operation()).isEqualTo("Apply");
        assertThat(owner.at()).isEqualTo(Instant.parse("2026-11-28T10:06:00Z"));
        assertThat(owner.fields()).containsExactly("annotation jvmtuning.dev/settings-hash");
    }

    @Test
    void aGitOpsReApplyOfTheSizedResourcesIsATakeBack() {
        Map<String, Object> resources = Map.of("f:spec", Map.of("f:containers", Map.of("k:{\"name\":\"app\"}", Map.of("f:resources",
                Map.of("f:limits", Map.of("f:memory", Map.of(), "f:cpu", Map.of()), "f:requests", Map.of("f:cpu", Map.of()))))));
        Deployment deployment = managedBy(entry("argocd-controller", "Update", "2026-11-28T10:06:00Z", null, resources));

        assertThat(FieldOwners.lastOther(deployment, "jvm-tuning-operator", "app", ENV, ANNOTATIONS, List.of("limits.memory", "requests.memory"))
                .orElseThrow().fields()).containsExactly("resources.limits.memory");
        assertThat(FieldOwners.lastOther(deployment, "jvm-tuning-operator", "app", ENV, ANNOTATIONS, List.of())).as("not sized: not ours")
                .isEmpty();
    }

    @Test
    void aManagerOfOtherFieldsOnlyOrOfAnotherContainerIsNone() {
        Map<String, Object> sidecar = Map.of("f:spec", Map.of("f:containers", Map.of("k:{\"name\":\"sidecar\"}",
                Map.of("f:env", Map.of("k:{\"name\":\"JAVA_TOOL_OPTIONS\"}", Map.of())))));
        Deployment deployment = managedBy(entry("kubectl-client-side-apply", "Update", "2026-11-28T10:00:00Z", null, env("OTHER")),
                entry("helm", "Update", "2026-11-28T10:01:00Z", null, sidecar));
        assertThat(FieldOwners.lastOther(deployment, "jvm-tuning-operator", "app", ENV, ANNOTATIONS, List.of())).isEmpty();
        assertThat(FieldOwners.lastOther(TestProfiles.labDeployment("orders"), "jvm-tuning-operator", "app", ENV, ANNOTATIONS, List.of())).isEmpty();
    }
}
