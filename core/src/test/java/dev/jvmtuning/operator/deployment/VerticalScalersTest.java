package dev.jvmtuning.operator.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jvmtuning.operator.deployment.VerticalScalers.VerticalScaler;
import dev.jvmtuning.operator.testing.TestProfiles;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.List;
import org.junit.jupiter.api.Test;

class VerticalScalersTest {

    private static VerticalScaler of(GenericKubernetesResource... vpas) {
        return VerticalScalers.of(List.of(vpas), TestProfiles.labDeployment("orders"), "app").orElseThrow();
    }

    @Test
    void byDefaultAVpaMovesBothLimitsOfEveryContainer() {
        VerticalScaler scaler = of(TestProfiles.vpa("orders-vpa", "orders", ""));
        assertThat(scaler.updateMode()).isEqualTo("Auto");
        assertThat(scaler.controls()).containsExactly("memory", "cpu");
    }

    @Test
    void itsModeItsContainerPolicyAndItsControlledValuesDecideWhatItMoves() {
        assertThat(of(TestProfiles.vpa("v", "orders", "updatePolicy: {updateMode: \"Off\"}")).controls()).as("recommendations only").isEmpty();
        assertThat(of(TestProfiles.vpa("v", "orders", "resourcePolicy: {containerPolicies: [{containerName: '*', controlledValues: RequestsOnly}]}"))
                .controls()).as("requests only: the limits a JVM sizes against stay").isEmpty();
        assertThat(of(TestProfiles.vpa("v", "orders", "resourcePolicy: {containerPolicies: [{containerName: '*', controlledResources: [cpu]}]}"))
                .controls()).containsExactly("cpu");
        assertThat(of(TestProfiles.vpa("v", "orders", """
                updatePolicy: {updateMode: InPlaceOrRecreate}
                resourcePolicy:
                  containerPolicies:
                  - {containerName: '*', mode: "Off"}
                  - {containerName: app, controlledResources: [memory]}""")).controls()).as("the container's own policy first")
                .containsExactly("memory");
        assertThat(of(TestProfiles.vpa("v", "orders", "resourcePolicy: {containerPolicies: [{containerName: app, mode: \"Off\"}]}")).controls()).isEmpty();
    }

    @Test
    void itsMinAllowedMemoryIsTheLeastTheHeapsShareIsPlannedAt() {
        assertThat(of(TestProfiles.vpa("v", "orders", "resourcePolicy: {containerPolicies: [{containerName: '*', minAllowed: {memory: 512Mi}}]}"))
                .minAllowedMemoryBytes()).isEqualTo(512L * 1024 * 1024);
        assertThat(of(TestProfiles.vpa("v", "orders", "")).minAllowedMemoryBytes()).isNull();
    }

    @Test
    void anotherDeploymentsVpaIsNone() {
        assertThat(VerticalScalers.of(List.of(TestProfiles.vpa("payments-vpa", "payments", "")), TestProfiles.labDeployment("orders"), "app")).isEmpty();
    }
}
