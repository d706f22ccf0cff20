package dev.jvmtuning.operator.reconciler;

import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import dev.jvmtuning.operator.render.DeploymentTuning;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * The operator's writes to a profile's namespace: server-side applies of its own fields, sent only
 * when they differ from what is there, and the restore of the user's template. Each write is told to
 * the informer, so the next reconcile reads it instead of a stale copy.
 */
final class TargetWrites {
    private static final Logger LOG = Logger.getLogger(TargetWrites.class);

    private final Context<TuningProfile> context;

    TargetWrites(Context<TuningProfile> context) {
        this.context = context;
    }

    void configMap(ConfigMap desired) {
        Optional<ConfigMap> current = context.getSecondaryResource(ConfigMap.class);
        if (current.isPresent() && desired.getData().equals(current.get().getData())) {
            return;
        }
        ConfigMap written = context.getClient().resource(desired).fieldManager(TuningProfileReconciler.FIELD_MANAGER).forceConflicts()
                .serverSideApply();
        cacheRecentWrite(ConfigMap.class, written, current.orElse(null));
    }

    /** Applies the desired fields unless the Deployment holds them already; returns the Deployment as it now is. */
    Deployment deployment(Deployment current, Deployment desired, String configMapName) {
        if (DeploymentTuning.upToDate(current, desired, configMapName)) {
            return current;
        }
        LOG.infof("applying settings %s to Deployment %s/%s", desired.getSpec().getTemplate().getMetadata().getAnnotations()
                .get(DeploymentTuning.SETTINGS_HASH), current.getMetadata().getNamespace(), current.getMetadata().getName());
        Deployment live = context.getClient().resource(desired).fieldManager(TuningProfileReconciler.FIELD_MANAGER).forceConflicts()
                .serverSideApply();
        cacheRecentWrite(Deployment.class, live, current);
        return live;
    }

    /** One replace with the live resourceVersion: the user's template comes back in a single write, or not at all on a conflict (then retried). */
    void restore(Deployment deployment, String configMapName) {
        LOG.infof("restoring Deployment %s/%s", deployment.getMetadata().getNamespace(), deployment.getMetadata().getName());
        Deployment restored = context.getClient().resource(DeploymentTuning.restored(deployment, configMapName)).update();
        cacheRecentWrite(Deployment.class, restored, deployment);
    }

    void deleteConfigMap(String namespace, String name) {
        context.getClient().configMaps().inNamespace(namespace).withName(name).delete();
    }

    @SuppressWarnings("unchecked")
    private <R extends HasMetadata> void cacheRecentWrite(Class<R> type, R written, R previous) {
        var source = (InformerEventSource<R, TuningProfile>) context.eventSourceRetriever().getEventSourceFor(type);
        if (previous == null) {
            source.handleRecentResourceCreate(ResourceID.fromResource(written), written);
        } else {
            source.handleRecentResourceUpdate(ResourceID.fromResource(written), written, previous);
        }
    }
}
