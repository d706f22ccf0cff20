package dev.jvmtuning.operator.reconciler;

import static dev.jvmtuning.operator.model.LabelsAndAnnotations.DISCOVERED_BECAUSE_ANNOTATION;
import static dev.jvmtuning.operator.model.LabelsAndAnnotations.DISCOVERED_LABEL;
import static dev.jvmtuning.operator.model.LabelsAndAnnotations.DISCOVER_NAMESPACE_LABEL;
import static dev.jvmtuning.operator.model.LabelsAndAnnotations.DISCOVER_RECOMMEND;

import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import dev.jvmtuning.operator.config.OperatorSettings;
import dev.jvmtuning.operator.discovery.DiscoveryPlan;
import dev.jvmtuning.operator.model.LabelsAndAnnotations;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import java.net.HttpURLConnection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jboss.logging.Logger;

/**
 * Discovery: in a namespace labelled {@code jvmtuning.dev/discover=recommend}, a Recommend profile for
 * every JVM Deployment nobody tuned yet (see {@link DiscoveryPlan}); when the label goes, the profiles it
 * made go too. It reads Deployments only in labelled namespaces, only when it looks (no cluster-wide
 * Deployment cache), and keeps a cache of its own profiles alone, so an unlabelled namespace costs nothing.
 * It never writes to a Deployment.
 */
@ControllerConfiguration(name = DiscoveryReconciler.NAME)
public class DiscoveryReconciler implements Reconciler<Namespace> {
    public static final String NAME = "discovery";
    private static final Logger LOG = Logger.getLogger(DiscoveryReconciler.class);

    private final OperatorSettings.Discovery settings;

    public DiscoveryReconciler(OperatorSettings settings) {
        this.settings = settings.discovery();
    }

    @Override
    public List<EventSource<?, Namespace>> prepareEventSources(EventSourceContext<Namespace> context) {
        // A discovered profile deleted by hand, or gone after its container changed, brings its namespace back at once.
        var discovered = InformerEventSourceConfiguration.from(TuningProfile.class, Namespace.class)
                .withName("discovered-profiles")
                .withLabelSelector(DISCOVERED_LABEL + "=true")
                .withSecondaryToPrimaryMapper(p -> Set.of(new ResourceID(p.getMetadata().getNamespace())));
        // An operator confined to some namespaces may list profiles only there.
        settings.namespaces().ifPresent(namespaces -> discovered.withNamespaces(Set.copyOf(namespaces)));
        return List.of(new InformerEventSource<>(discovered.build(), context));
    }

    @Override
    public UpdateControl<Namespace> reconcile(Namespace namespace, Context<Namespace> context) {
        String name = namespace.getMetadata().getName();
        boolean enabled = DISCOVER_RECOMMEND.equals(label(namespace)) && allowed(name);
        Set<TuningProfile> discovered = context.getSecondaryResources(TuningProfile.class);
        if (!enabled && discovered.isEmpty()) {
            return UpdateControl.noUpdate();
        }
        KubernetesClient client = context.getClient();
        List<Deployment> deployments = enabled ? client.apps().deployments().inNamespace(name).list().getItems() : List.of();
        List<TuningProfile> profiles = enabled ? client.resources(TuningProfile.class).inNamespace(name).list().getItems()
                : List.copyOf(discovered);
        DiscoveryPlan plan = DiscoveryPlan.of(enabled, deployments, profiles, settings.maxProfilesPerNamespace());
        for (String profile : plan.delete()) {
            client.resources(TuningProfile.class).inNamespace(name).withName(profile).delete();
            LOG.infof("discovery in namespace %s: deleted TuningProfile %s", name, profile);
        }
        for (TuningProfile profile : plan.create()) {
            try {
                client.resource(profile).create();
            } catch (KubernetesClientException e) {
                if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
                    throw e;
                }
                // Its predecessor is still being deleted; the deletion's event brings the namespace back.
                continue;
            }
            LOG.infof("discovery in namespace %s: created Recommend TuningProfile %s, %s", name, profile.getMetadata().getName(),
                    profile.getMetadata().getAnnotations().get(DISCOVERED_BECAUSE_ANNOTATION));
        }
        if (plan.overLimit() > 0) {
            LOG.warnf("discovery in namespace %s: %d JVM Deployments left without a profile, past the bound of %d per namespace",
                    name, plan.overLimit(), settings.maxProfilesPerNamespace());
        }
        return enabled ? UpdateControl.<Namespace>noUpdate().rescheduleAfter(settings.interval()) : UpdateControl.noUpdate();
    }

    private boolean allowed(String namespace) {
        return settings.namespaces().map(list -> list.contains(namespace)).orElse(true);
    }

    private static String label(Namespace namespace) {
        Map<String, String> labels = namespace.getMetadata().getLabels();
        return labels == null ? null : labels.get(DISCOVER_NAMESPACE_LABEL);
    }
}
