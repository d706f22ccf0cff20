package dev.jvmtuning.operator.api.v1alpha1;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.jvmtuning.operator.testing.LocalControlPlane;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The committed CRD on a real kube-apiserver: what it admits and what it rejects, with which message. */
class CrdAdmissionTest {
    private static KubernetesClient client;

    @BeforeAll
    static void installCrd() {
        LocalControlPlane controlPlane = LocalControlPlane.shared();
        controlPlane.installCrd();
        client = controlPlane.client();
    }

    private static String create(String namespace, String yaml) {
        var created = client.resource(yaml).inNamespace(namespace).create();
        return created.getMetadata().getUid();
    }

    private static String profile(String spec) {
        return """
                apiVersion: jvmtuning.dev/v1alpha1
                kind: TuningProfile
                metadata: {name: orders-api}
                spec:
                """ + spec.indent(2);
    }

    @Test
    void acceptsAValidProfile() {
        String namespace = LocalControlPlane.shared().newNamespace("crd");
        create(namespace, profile("targetRef: {kind: Deployment, name: orders-api}\nruntime: SpringBootTomcat"));

        TuningProfile stored = client.resources(TuningProfile.class).inNamespace(namespace).withName("orders-api").get();
        assertThat(stored.getSpec().getTargetRef().getName()).isEqualTo("orders-api");
        assertThat(stored.getSpec().getRuntime()).isEqualTo(Runtime.SpringBootTomcat);
    }

    @Test
    void shortNameTpIsServed() {
        var resources = client.getApiResources(TuningProfile.GROUP + "/" + TuningProfile.VERSION).getResources();
        assertThat(resources).anySatisfy(r -> {
            assertThat(r.getName()).isEqualTo("tuningprofiles");
            assertThat(r.getShortNames()).contains("tp");
        });
    }

    @Test
    void rejectsATargetThatIsNotADeploymentWithTheRuleMessage() {
        String namespace = LocalControlPlane.shared().newNamespace("crd");
        assertThatThrownBy(() -> create(namespace, profile("targetRef: {kind: StatefulSet, name: db}")))
                .isInstanceOf(KubernetesClientException.class)
                .hasMessageContaining("spec.targetRef.kind")
                .hasMessageContaining("targetRef.kind must be Deployment: only Deployments can be tuned");
    }

    @Test
    void rejectsAMissingTarget() {
        String namespace = LocalControlPlane.shared().newNamespace("crd");
        assertThatThrownBy(() -> create(namespace, profile("runtime: Quarkus")))
                .isInstanceOf(KubernetesClientException.class)
                .hasMessageContaining("spec.targetRef: Required value");
    }

    @Test
    void rejectsAnUnknownRuntime() {
        String namespace = LocalControlPlane.shared().newNamespace("crd");
        assertThatThrownBy(() -> create(namespace, profile("targetRef: {name: web}\nruntime: WebLogic")))
                .isInstanceOf(KubernetesClientException.class)
                .hasMessageContaining("spec.runtime: Unsupported value: \"WebLogic\"");
    }
}
