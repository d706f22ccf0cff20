package dev.jvmtuning.operator.reconciler;

import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import dev.jvmtuning.operator.model.LabelsAndAnnotations;
import dev.jvmtuning.operator.render.ConfigMapReferences;
import dev.jvmtuning.operator.render.DeploymentTuning;
import dev.jvmtuning.operator.render.TuningConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.jboss.logging.Logger;

/**
 * The operator's writes to a profile's namespace: server-side applies of its own fields, sent only
 * when they differ from what is there, and the restore of the user's template. Each write goes through
 * the framework's resource operations: the next reconcile reads what was written instead of a stale
 * copy, and the watch event of the write itself, however early it arrives, raises no reconcile.
 */
final class TargetWrites {
    private static final Logger LOG = Logger.getLogger(TargetWrites.class);

    private final Context<TuningProfile> context;

    TargetWrites(Context<TuningProfile> context) {
        this.context = context;
    }

    /** Creates the content-named ConfigMap unless it exists: the same name always holds the same values. */
    void configMap(ConfigMap desired) {
        if (context.getSecondaryResources(ConfigMap.class).stream().anyMatch(c -> c.getMetadata().getName().equals(desired.getMetadata().getName()))) {
            return;
        }
        context.resourceOperations().serverSideApply(desired);
    }

    /**
     * Deletes the profile's ConfigMaps that neither the current template nor any ReplicaSet of the
     * Deployment refers to any more; those a ReplicaSet still names stay for `rollout undo`.
     */
    void pruneConfigMaps(TuningProfile profile, Deployment deployment, Set<String> keep) {
        List<ConfigMap> stale = context.getSecondaryResources(ConfigMap.class).stream()
                .filter(c -> TuningConfigMap.ownedBy(c, profile) && !keep.contains(c.getMetadata().getName())).toList();
        if (stale.isEmpty()) {
            return;
        }
        Set<String> referenced = context.getClient().apps().replicaSets().inNamespace(deployment.getMetadata().getNamespace())
                .withLabels(deployment.getSpec().getSelector().getMatchLabels()).list().getItems().stream()
                .flatMap(rs -> ConfigMapReferences.of(rs.getSpec().getTemplate()).stream())
                .collect(Collectors.toSet());
        stale.stream().filter(c -> !referenced.contains(c.getMetadata().getName()))
                .forEach(c -> context.getClient().resource(c).delete());
    }

    /** Applies the desired fields unless the Deployment holds them already; returns the Deployment as it now is. */
    Deployment deployment(Deployment current, Deployment desired, String profile) {
        if (DeploymentTuning.upToDate(current, desired, profile)) {
            return current;
        }
        LOG.infof("applying settings %s to Deployment %s/%s", desired.getSpec().getTemplate().getMetadata().getAnnotations()
                .get(LabelsAndAnnotations.SETTINGS_HASH_ANNOTATION), current.getMetadata().getNamespace(), current.getMetadata().getName());
        return context.resourceOperations().serverSideApply(desired);
    }

    /** One replace with the live resourceVersion: the user's template comes back in a single write, or not at all on a conflict (then retried). */
    void restore(Deployment deployment, String profile) {
        LOG.infof("restoring Deployment %s/%s", deployment.getMetadata().getNamespace(), deployment.getMetadata().getName());
        context.resourceOperations().update(DeploymentTuning.restored(deployment, profile));
    }

    /** Deletes the profile's own ConfigMaps, never one that merely has a similar name. */
    void deleteConfigMaps(TuningProfile profile) {
        context.getSecondaryResources(ConfigMap.class).stream().filter(c -> TuningConfigMap.ownedBy(c, profile))
                .forEach(c -> context.getClient().resource(c).delete());
    }
}
