package dev.jvmtuning.operator.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The CPUs a metrics window counts per when a pod does not report its own: the tuned container's CPU limit, never its request. */
class TargetContainerTest {

    @Test
    void theCpuLimitOfTheNamedOrOnlyContainer() {
        Deployment one = deployment(Map.of("cpu", new Quantity("1500m")), Map.of());
        assertThat(TargetContainer.cpuLimitCores(one, null)).isEqualTo(1.5);
        assertThat(TargetContainer.cpuLimitCores(one, "app")).isEqualTo(1.5);
        assertThat(TargetContainer.cpuLimitCores(one, "sidecar")).as("no such container").isNull();
        assertThat(TargetContainer.cpuLimitCores(deployment(Map.of(), Map.of("cpu", new Quantity("2"))), null))
                .as("a request is no limit").isNull();
    }

    private static Deployment deployment(Map<String, Quantity> limits, Map<String, Quantity> requests) {
        return new DeploymentBuilder().withNewMetadata().withName("orders").endMetadata()
                .withNewSpec().withReplicas(1).withNewTemplate().withNewSpec().addNewContainer().withName("app")
                .withNewResources().addToLimits(limits).addToRequests(requests).endResources().endContainer().endSpec()
                .endTemplate().endSpec().build();
    }
}
