package dev.jvmtuning.operator.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The harness itself: a real controller manager rolls a Deployment out once its pods report Ready. */
@StartsProcesses
class LocalControlPlaneTest {

    @Test
    void aDeploymentRollsOutToAllReplicasAvailable() throws InterruptedException {
        LocalControlPlane controlPlane = LocalControlPlane.shared();
        controlPlane.ensureControllerManager();
        KubernetesClient client = controlPlane.client();
        String namespace = controlPlane.newNamespace("rollout");

        client.resource(deployment("web", 2)).inNamespace(namespace).create();
        FakeKubelet kubelet = new FakeKubelet(client);
        Deployment rolledOut = kubelet.awaitRollout(namespace, "web", Duration.ofSeconds(90));

        assertThat(rolledOut.getStatus().getAvailableReplicas()).isEqualTo(2);
        assertThat(client.apps().replicaSets().inNamespace(namespace).list().getItems()).hasSize(1);
        assertThat(client.pods().inNamespace(namespace).list().getItems()).hasSize(2)
                .allSatisfy(pod -> assertThat(pod.getMetadata().getOwnerReferences().get(0).getKind()).isEqualTo("ReplicaSet"));
    }

    @Test
    void withoutReadyPodsNothingIsAvailable() {
        LocalControlPlane controlPlane = LocalControlPlane.shared();
        controlPlane.ensureControllerManager();
        KubernetesClient client = controlPlane.client();
        String namespace = controlPlane.newNamespace("pending");

        client.resource(deployment("web", 1)).inNamespace(namespace).create();
        Deployment deployment = client.apps().deployments().inNamespace(namespace).withName("web")
                .waitUntilCondition(d -> d.getStatus() != null && d.getStatus().getUnavailableReplicas() != null,
                        60, TimeUnit.SECONDS);

        assertThat(client.pods().inNamespace(namespace).list().getItems()).hasSize(1);
        assertThat(deployment.getStatus().getUnavailableReplicas()).isEqualTo(1);
        assertThat(FakeKubelet.isRolledOut(deployment)).isFalse();
    }

    static Deployment deployment(String name, int replicas) {
        Map<String, String> labels = Map.of("app", name);
        return new DeploymentBuilder()
                .withNewMetadata().withName(name).endMetadata()
                .withNewSpec()
                .withReplicas(replicas)
                .withNewSelector().withMatchLabels(labels).endSelector()
                .withNewTemplate()
                .withNewMetadata().withLabels(labels).endMetadata()
                .withNewSpec()
                .addNewContainer().withName("app").withImage("example/web:1").endContainer()
                .endSpec()
                .endTemplate()
                .endSpec()
                .build();
    }
}
