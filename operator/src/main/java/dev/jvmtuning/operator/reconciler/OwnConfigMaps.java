package dev.jvmtuning.operator.reconciler;

import dev.jvmtuning.operator.model.LabelsAndAnnotations;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Map;

/** The ConfigMaps the operator keeps in its own namespace, written whole by server-side apply as its own field manager. */
final class OwnConfigMaps {
    private OwnConfigMaps() {
    }

    static void apply(KubernetesClient client, String ownNamespace, String name, Map<String, String> data) {
        client.configMaps().inNamespace(ownNamespace).resource(new ConfigMapBuilder().withNewMetadata().withName(name)
                .addToLabels(LabelsAndAnnotations.MANAGED_BY_LABEL, LabelsAndAnnotations.OPERATOR).endMetadata()
                .withData(data).build())
                .fieldManager(TuningProfileReconciler.FIELD_MANAGER).forceConflicts().serverSideApply();
    }
}
