package dev.jvmtuning.operator.reconciler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.jvmtuning.operator.api.v1alpha1.AutoStatus;
import dev.jvmtuning.operator.testing.LabPods;
import dev.jvmtuning.operator.testing.LocalControlPlane;
import dev.jvmtuning.operator.testing.StartsProcesses;
import dev.jvmtuning.operator.testing.TestProfiles;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A target scaled by a HorizontalPodAutoscaler, on the local control plane with its real controller
 * manager: the autoscaler raises the replicas to its minimum, and mode Auto says in status who scales
 * the target, how many replicas it runs now, and that it plans and judges per pod.
 */
@StartsProcesses
class AutoscalerTest {

    @Test
    void autoNamesTheAutoscalerOfItsTargetAndItsReplicasInStatus() {
        LocalControlPlane controlPlane = LabPods.controlPlaneWithOperator();
        KubernetesClient client = controlPlane.client();
        String namespace = controlPlane.newNamespace("hpa");
        client.resource(TestProfiles.labDeployment("orders")).inNamespace(namespace).create();
        client.resource(TestProfiles.labDeployment("payments")).inNamespace(namespace).create();
        client.resource(hpa("payments-scaler", "payments", 2)).inNamespace(namespace).create();
        client.resource("""
                apiVersion: jvmtuning.dev/v1alpha1
                kind: TuningProfile
                metadata: {name: orders}
                spec: {targetRef: {name: orders}, runtime: SpringBootTomcat, mode: Auto, workload: {requestsPerSecond: 300},
                  metrics: {port: 8080, interval: 5s}}
                """).inNamespace(namespace).create();

        await().atMost(Duration.ofMinutes(1)).until(() -> LabPods.autoOfOrders(client, namespace) != null);
        assertThat(LabPods.autoOfOrders(client, namespace).getAutoscaler()).as("another Deployment's autoscaler is not the target's").isNull();

        client.resource(hpa("orders-scaler", "orders", 3)).inNamespace(namespace).create();

        await().atMost(Duration.ofMinutes(2)).untilAsserted(() -> {
            assertThat(client.resources(Deployment.class).inNamespace(namespace).withName("orders").get().getSpec().getReplicas())
                    .as("the autoscaler's own doing").isEqualTo(3);
            assertThat(autoscaler(client, namespace)).isEqualTo("scaled by HorizontalPodAutoscaler orders-scaler (3 to 6 replicas), 3 now:"
                    + " the loop plans and judges per pod, and a step's verdict waits while the replicas move");
        });
        System.out.println("status.auto.autoscaler: " + autoscaler(client, namespace));
    }

    private static String autoscaler(KubernetesClient client, String namespace) {
        AutoStatus auto = LabPods.autoOfOrders(client, namespace);
        return auto == null ? null : auto.getAutoscaler();
    }

    private static String hpa(String name, String deployment, int min) {
        return """
                apiVersion: autoscaling/v2
                kind: HorizontalPodAutoscaler
                metadata: {name: %s}
                spec:
                  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: %s}
                  minReplicas: %d
                  maxReplicas: 6
                  metrics:
                  - type: Resource
                    resource: {name: cpu, target: {type: Utilization, averageUtilization: 50}}
                """.formatted(name, deployment, min);
    }
}
