package dev.jvmtuning.operator.testing;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.Map;

/** TuningProfile manifests for tests (a name, a target Deployment and the rest of the spec as YAML), and the Deployment they target. */
public final class TestProfiles {
    private TestProfiles() {
    }

    public static String yaml(String name, String target, String spec) {
        return """
                apiVersion: jvmtuning.dev/v1alpha1
                kind: TuningProfile
                metadata: {name: %s}
                spec:
                  targetRef: {name: %s}
                """.formatted(name, target) + spec.indent(2);
    }

    /** A one-replica Deployment of the lab's app with 2 CPUs and 1Gi: what the operator plans for, whatever the JVM behind it gets. */
    public static Deployment labDeployment(String name) {
        return new DeploymentBuilder().withNewMetadata().withName(name).endMetadata()
                .withNewSpec().withReplicas(1).withNewSelector().addToMatchLabels("app", name).endSelector()
                .withNewTemplate().withNewMetadata().addToLabels("app", name).endMetadata()
                .withNewSpec().addNewContainer().withName("app").withImage("example/" + name + ":1").withNewResources()
                .addToLimits(Map.of("cpu", new Quantity("2"), "memory", new Quantity("1Gi"))).endResources().endContainer().endSpec()
                .endTemplate().endSpec().build();
    }

    /** A VerticalPodAutoscaler of a Deployment, as the API server serves it; {@code spec} is the rest of its spec. */
    public static GenericKubernetesResource vpa(String name, String target, String spec) {
        return Serialization.unmarshal("""
                apiVersion: autoscaling.k8s.io/v1
                kind: VerticalPodAutoscaler
                metadata: {name: %s, namespace: shop}
                spec:
                  targetRef: {apiVersion: apps/v1, kind: Deployment, name: %s}
                %s""".formatted(name, target, spec.indent(2)), GenericKubernetesResource.class);
    }
}
