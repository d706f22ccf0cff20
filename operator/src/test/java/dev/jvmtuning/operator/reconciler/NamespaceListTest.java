package dev.jvmtuning.operator.reconciler;

import static org.awaitility.Awaitility.await;

import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import dev.jvmtuning.operator.config.Leadership;
import dev.jvmtuning.operator.decision.Conditions;
import dev.jvmtuning.operator.model.ConditionStatus;
import dev.jvmtuning.operator.model.ConditionType;
import dev.jvmtuning.operator.testing.LocalControlPlane;
import dev.jvmtuning.operator.testing.RunningOperator;
import dev.jvmtuning.operator.testing.StartsProcesses;
import dev.jvmtuning.operator.testing.TestSettings;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.Operator;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * An operator that watches a list of namespaces sees every profile in each of them, after each of
 * three restarts, and a profile created later. With the item store the framework shares between the
 * namespaces' informers, no profile that existed at start was ever reconciled.
 */
@StartsProcesses
class NamespaceListTest {

    private static Operator operator(LocalControlPlane controlPlane, List<String> namespaces) throws IOException {
        KubernetesClient client = RunningOperator.watchedClient(controlPlane.kubeconfig(), request -> { });
        Operator operator = new Operator(o -> o.withKubernetesClient(client));
        operator.register(new TuningProfileReconciler(TestSettings.of(Duration.ofMinutes(30), Optional.empty()), new SimpleMeterRegistry(),
                Leadership.alone("namespace-list-test")), o -> o.settingNamespaces(namespaces.toArray(String[]::new))
                .withLabelSelector(RunningOperator.OWN_OPERATOR_LABEL));
        operator.start();
        return operator;
    }


    private static boolean ready(KubernetesClient client, String namespace, String name) {
        TuningProfile profile = client.resources(TuningProfile.class).inNamespace(namespace).withName(name).get();
        return profile != null && profile.getStatus() != null && Conditions.find(profile.getStatus().getConditions(), ConditionType.READY)
                .filter(c -> ConditionStatus.TRUE.is(c.getStatus())).isPresent();
    }

    @Test
    void everyProfileOfEveryListedNamespaceIsReconciledAcrossRestarts() throws Exception {
        LocalControlPlane controlPlane = LocalControlPlane.shared();
        controlPlane.ensureControllerManager();
        controlPlane.installCrd();
        KubernetesClient client = controlPlane.client();
        List<String> namespaces = List.of(controlPlane.newNamespace("list-a"), controlPlane.newNamespace("list-b"), controlPlane.newNamespace("list-c"));
        // written in an order that interleaves the namespaces' resource versions
        for (int i = 0; i < 3; i++) {
            for (String namespace : namespaces) {
                RunningOperator.serviceWithProfile(client, namespace, "svc-" + i);
            }
        }
        for (int restart = 0; restart < 3; restart++) {
            Operator operator = operator(controlPlane, namespaces);
            try {
                String late = "late-" + restart;
                RunningOperator.serviceWithProfile(client, namespaces.get(2), late);
                await().atMost(Duration.ofSeconds(60)).alias("every profile Ready after start " + (restart + 1))
                        .until(() -> namespaces.stream().allMatch(ns -> ready(client, ns, "svc-0") && ready(client, ns, "svc-1")
                                && ready(client, ns, "svc-2")) && ready(client, namespaces.get(2), late));
            } finally {
                operator.stop();
            }
        }
    }
}
