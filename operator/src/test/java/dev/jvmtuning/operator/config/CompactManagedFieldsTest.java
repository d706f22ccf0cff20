package dev.jvmtuning.operator.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jvmtuning.operator.deployment.FieldOwners;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CompactManagedFieldsTest {
    /** A GitOps controller's re-apply (client-side, as Argo CD does by default) owns the tuned variable; the operator's own apply is older. */
    private static final String DEPLOYMENT = """
            {"apiVersion": "apps/v1", "kind": "Deployment",
             "metadata": {"name": "orders", "namespace": "shop", "managedFields": [
               {"manager": "jvm-tuning-operator", "operation": "Apply", "apiVersion": "apps/v1", "time": "2026-12-01T10:00:00Z",
                "fieldsType": "FieldsV1", "fieldsV1": {"f:spec": {"f:template": {"f:spec": {"f:containers": {
                  "k:{\\"name\\":\\"app\\"}": {".": {}, "f:name": {}, "f:env": {"k:{\\"name\\":\\"JAVA_TOOL_OPTIONS\\"}": {".": {}, "f:name": {}, "f:value": {}}}}}}}}}},
               {"manager": "argocd-controller", "operation": "Update", "apiVersion": "apps/v1", "time": "2026-12-01T10:05:00Z",
                "fieldsType": "FieldsV1", "fieldsV1": {"f:metadata": {"f:labels": {".": {}, "f:app": {}}}, "f:spec": {"f:replicas": {},
                  "f:template": {"f:spec": {"f:containers": {"k:{\\"name\\":\\"app\\"}": {".": {}, "f:image": {}, "f:name": {},
                    "f:env": {".": {}, "k:{\\"name\\":\\"JAVA_TOOL_OPTIONS\\"}": {".": {}, "f:name": {}, "f:value": {}}}}}}}}}}]},
             "spec": {"selector": {"matchLabels": {"app": "orders"}}, "template": {"metadata": {"labels": {"app": "orders"}},
               "spec": {"containers": [{"name": "app", "image": "shop/orders:1", "env": [{"name": "JAVA_TOOL_OPTIONS", "value": "-Xmx1g"}]}]}}}}
            """;

    private final KubernetesSerialization compact = serialization(true);
    private final KubernetesSerialization plain = serialization(false);

    private static KubernetesSerialization serialization(boolean compact) {
        ObjectMapper mapper = new ObjectMapper();
        if (compact) {
            new CompactManagedFields().customize(mapper);
        }
        return new KubernetesSerialization(mapper, true);
    }

    @Test
    void theSameFieldsAreRead() {
        Deployment read = compact.unmarshal(DEPLOYMENT, Deployment.class);
        Deployment asJsonReadsIt = plain.unmarshal(DEPLOYMENT, Deployment.class);
        assertEquals(asJsonReadsIt.getMetadata().getManagedFields(), read.getMetadata().getManagedFields());
        assertEquals(plain.convertValue(asJsonReadsIt, JsonNode.class), plain.convertValue(read, JsonNode.class), "written back as read");
    }

    @Test
    void everyLeafIsTheOneEmptyMapAndNoNodeCanBeChanged() {
        Deployment read = compact.unmarshal(DEPLOYMENT, Deployment.class);
        Map<String, Object> gitOps = read.getMetadata().getManagedFields().get(1).getFieldsV1().getAdditionalProperties();
        Map<?, ?> labels = (Map<?, ?>) ((Map<?, ?>) gitOps.get("f:metadata")).get("f:labels");
        Map<?, ?> replicas = (Map<?, ?>) ((Map<?, ?>) gitOps.get("f:spec")).get("f:replicas");
        assertSame(Map.of(), labels.get("f:app"));
        assertSame(labels.get("."), replicas);
        assertThrows(UnsupportedOperationException.class, () -> labels.clear());
    }

    @Test
    void theTakeBackIsFoundAsBefore() {
        var compactOwner = FieldOwners.lastOther(compact.unmarshal(DEPLOYMENT, Deployment.class), "jvm-tuning-operator", "app",
                List.of("JAVA_TOOL_OPTIONS"), List.of(), List.of());
        var plainOwner = FieldOwners.lastOther(plain.unmarshal(DEPLOYMENT, Deployment.class), "jvm-tuning-operator", "app",
                List.of("JAVA_TOOL_OPTIONS"), List.of(), List.of());
        assertEquals(plainOwner, compactOwner);
        assertEquals(List.of("env JAVA_TOOL_OPTIONS"), compactOwner.orElseThrow().fields());
        assertEquals("argocd-controller", compactOwner.orElseThrow().manager());
    }

    @Test
    void aRepeatedMemberIsReadAsJsonReadsIt() {
        String repeated = DEPLOYMENT.replace("\"f:replicas\": {},", "\"f:replicas\": {}, \"f:replicas\": {\"x\": {}},");
        assertEquals(plain.unmarshal(repeated, Deployment.class).getMetadata().getManagedFields(),
                compact.unmarshal(repeated, Deployment.class).getMetadata().getManagedFields());
    }
}
