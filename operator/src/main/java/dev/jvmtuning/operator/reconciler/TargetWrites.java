package dev.jvmtuning.operator.reconciler;

import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import dev.jvmtuning.operator.decision.Write;
import dev.jvmtuning.operator.model.Failures;
import dev.jvmtuning.operator.model.LabelsAndAnnotations;
import dev.jvmtuning.operator.render.ConfigMapReferences;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;
import org.jboss.logging.Logger;

/**
 * Carries out a decision's writes to a profile's namespace, in order: server-side applies of the operator's
 * own fields and the restore of the user's template. Each write goes through the framework's resource
 * operations: the next reconcile reads what was written instead of a stale copy, and the watch event of
 * the write itself, however early it arrives, raises no reconcile.
 */
final class TargetWrites {
    private static final Logger LOG = Logger.getLogger(TargetWrites.class);

    private final Context<TuningProfile> context;

    TargetWrites(Context<TuningProfile> context) {
        this.context = context;
    }

    /** Makes the writes in order; the first one refused (a KubernetesClientException) stops the rest. */
    void perform(List<Write> writes) {
        writes.forEach(this::perform);
    }

    /**
     * What the API server said when it refused a write; where it said nothing (a request that timed out on a loaded API
     * server carries no message), what stopped the request.
     */
    static String refusal(KubernetesClientException e) {
        if (e.getStatus() != null && e.getStatus().getMessage() != null) {
            return e.getStatus().getMessage();
        }
        if (e.getMessage() != null) {
            return e.getMessage();
        }
        return "no answer (" + Failures.named(Objects.requireNonNullElse(e.getCause(), e)) + ")";
    }

    private void perform(Write write) {
        if (write instanceof Write.CreateConfigMap create) {
            context.resourceOperations().serverSideApply(create.configMap());
        } else if (write instanceof Write.ApplyDeployment apply) {
            Deployment live = apply.live();
            LOG.infof("applying settings %s to Deployment %s/%s", apply.desired().getSpec().getTemplate().getMetadata().getAnnotations()
                    .get(LabelsAndAnnotations.SETTINGS_HASH_ANNOTATION), live.getMetadata().getNamespace(), live.getMetadata().getName());
            context.resourceOperations().serverSideApply(apply.desired());
        } else if (write instanceof Write.RestoreDeployment restore) {
            LOG.infof("restoring Deployment %s/%s", restore.restored().getMetadata().getNamespace(), restore.restored().getMetadata().getName());
            context.resourceOperations().update(restore.restored());
        } else if (write instanceof Write.PruneConfigMaps prune) {
            prune(prune.target(), prune.unused());
        } else if (write instanceof Write.DeleteConfigMaps delete) {
            delete.configMaps().forEach(c -> context.getClient().resource(c).delete());
        }
    }

    /** Deletes the unused ConfigMaps no ReplicaSet of the Deployment refers to; those a ReplicaSet still names stay for `rollout undo`. */
    private void prune(Deployment target, List<ConfigMap> unused) {
        Set<String> referenced = Watches.replicaSetsOf(context.getClient(), target).stream()
                .flatMap(rs -> ConfigMapReferences.of(rs.getSpec().getTemplate()).stream())
                .collect(Collectors.toSet());
        unused.stream().filter(c -> !referenced.contains(c.getMetadata().getName()))
                .forEach(c -> context.getClient().resource(c).delete());
    }
}
