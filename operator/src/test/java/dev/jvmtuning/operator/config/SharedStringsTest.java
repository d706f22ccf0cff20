package dev.jvmtuning.operator.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import org.junit.jupiter.api.Test;

class SharedStringsTest {
    private static final String DEPLOYMENT = """
            {"apiVersion": "apps/v1", "kind": "Deployment",
             "metadata": {"name": "%s", "namespace": "shop", "labels": {"app": "orders"}, "annotations": {"note": "%s"}},
             "spec": {"selector": {"matchLabels": {"app": "orders"}}, "template": {"metadata": {"labels": {"app": "orders"}},
               "spec": {"containers": [{"name": "app", "image": "shop/orders:1", "imagePullPolicy": "IfNotPresent",
                 "args": ["--port", "8080"], "env": [{"name": "JAVA_TOOL_OPTIONS", "value": "-Xmx1g"}]}]}}}}
            """;

    private final KubernetesSerialization serialization = serialization();

    private static KubernetesSerialization serialization() {
        ObjectMapper mapper = new ObjectMapper();
        new SharedStrings().customize(mapper);
        return new KubernetesSerialization(mapper, true);
    }

    @Test
    void objectsReadApartShareTheirShortStrings() {
        Deployment first = serialization.unmarshal(DEPLOYMENT.formatted("orders", "x"), Deployment.class);
        Deployment second = serialization.unmarshal(DEPLOYMENT.formatted("orders", "x"), Deployment.class);
        var a = first.getSpec().getTemplate().getSpec().getContainers().get(0);
        var b = second.getSpec().getTemplate().getSpec().getContainers().get(0);
        assertSame(a.getImage(), b.getImage(), "bean property");
        assertSame(a.getImagePullPolicy(), b.getImagePullPolicy());
        assertSame(a.getEnv().get(0).getValue(), b.getEnv().get(0).getValue());
        assertSame(a.getArgs().get(1), b.getArgs().get(1), "list element");
        assertSame(first.getMetadata().getLabels().get("app"), second.getSpec().getTemplate().getMetadata().getLabels().get("app"), "map value");
        assertSame(first.getMetadata().getName(), second.getMetadata().getName());
    }

    @Test
    void longValuesAreKeptAsRead() {
        String note = "n".repeat(SharedStrings.MAX_SHARED_LENGTH + 1);
        Deployment first = serialization.unmarshal(DEPLOYMENT.formatted("orders", note), Deployment.class);
        Deployment second = serialization.unmarshal(DEPLOYMENT.formatted("orders", note), Deployment.class);
        assertEquals(note, first.getMetadata().getAnnotations().get("note"));
        assertNotSame(first.getMetadata().getAnnotations().get("note"), second.getMetadata().getAnnotations().get("note"));
    }

    @Test
    void customResourcesShareTheirsToo() {
        String profile = """
                {"apiVersion": "jvmtuning.dev/v1alpha1", "kind": "TuningProfile", "metadata": {"name": "orders", "namespace": "shop"},
                 "spec": {"targetRef": {"name": "orders"}, "runtime": "SpringBootTomcat"},
                 "status": {"conditions": [{"type": "Applied", "status": "True", "reason": "Applied", "lastTransitionTime": "2026-11-23T19:12:11Z"},
                                           {"type": "Ready", "status": "True", "reason": "Ready", "lastTransitionTime": "2026-11-23T19:12:11Z"}]}}
                """;
        var conditions = serialization.unmarshal(profile, TuningProfile.class).getStatus().getConditions();
        assertSame(conditions.get(0).getLastTransitionTime(), conditions.get(1).getLastTransitionTime());
        assertSame(conditions.get(0).getStatus(), serialization.unmarshal(profile, TuningProfile.class).getStatus().getConditions().get(1).getStatus());
    }
}
