package dev.jvmtuning.operator.reconciler;

import dev.jvmtuning.operator.api.v1alpha1.BoostedPod;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import dev.jvmtuning.operator.decision.Observation;
import dev.jvmtuning.operator.deployment.TargetPods;
import dev.jvmtuning.operator.model.ProfileEvent;
import dev.jvmtuning.operator.model.Reason;
import dev.jvmtuning.operator.render.DeploymentTuning;
import dev.jvmtuning.operator.rollout.StartupBoosts;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.api.config.ControllerConfiguration;
import java.net.HttpURLConnection;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.jboss.logging.Logger;

/**
 * Releases the profiles of namespaces this operator no longer watches. Its finalizer on them would
 * otherwise stay with no one to remove it: deleting such a profile, or its namespace, would hang. At
 * each start (as leader) it reads which namespaces it watched before from a ConfigMap in its own
 * namespace, releases what it finalized in those it dropped the way a delete would (the boosts of the
 * target's pods taken back and the Deployment's own template back, when it may still; then the finalizer
 * off; an Event and a log line each), and
 * records the namespaces it watches now. The record is what keeps it away from the profiles of another
 * installation, which carry the same finalizer; a namespace whose release failed stays on it for the next start.
 */
final class NamespaceRelease implements Runnable {
    static final String RECORD = "jvm-tuning-operator-watched-namespaces";
    static final String NAMESPACES = "namespaces";
    static final String ALL = "*";
    private static final Logger LOG = Logger.getLogger(NamespaceRelease.class);
    private static final int RESTORE_ATTEMPTS = 5;

    private final KubernetesClient client;
    private final String ownNamespace;
    private final Set<String> watched;
    private final String labelSelector;
    private final String finalizer;

    NamespaceRelease(KubernetesClient client, String ownNamespace, ControllerConfiguration<TuningProfile> controller) {
        this.client = client;
        this.ownNamespace = ownNamespace;
        this.watched = controller.getInformerConfig().watchAllNamespaces() ? Set.of(ALL) : new TreeSet<>(controller.getEffectiveNamespaces());
        this.labelSelector = controller.getInformerConfig().getLabelSelector();
        this.finalizer = controller.getFinalizerName();
    }

    @Override
    public void run() {
        try {
            Set<String> before = recorded();
            Set<String> dropped = before.stream().filter(ns -> !watched.contains(ns) && !watched.contains(ALL)).collect(Collectors.toCollection(TreeSet::new));
            Set<String> pending = dropped.isEmpty() ? Set.of() : release(dropped);
            Set<String> record = new TreeSet<>(watched);
            record.addAll(pending);
            OwnConfigMaps.apply(client, ownNamespace, RECORD, Map.of(NAMESPACES, String.join(",", record)));
        } catch (KubernetesClientException e) {
            LOG.warnf("cannot keep the record of the watched namespaces (ConfigMap %s/%s): %s; profiles in namespaces dropped from the "
                    + "list keep finalizer %s until it is removed by hand", ownNamespace, RECORD, e.getMessage(), finalizer);
        }
    }

    /** The namespaces watched before, as recorded; none on a first start. */
    private Set<String> recorded() {
        var record = client.configMaps().inNamespace(ownNamespace).withName(RECORD).get();
        String namespaces = record == null || record.getData() == null ? null : record.getData().get(NAMESPACES);
        return namespaces == null || namespaces.isBlank() ? Set.of() : Arrays.stream(namespaces.split(",")).collect(Collectors.toSet());
    }

    /** Releases this operator's profiles in the dropped namespaces; returns the namespaces where some release failed. */
    private Set<String> release(Set<String> dropped) {
        Predicate<String> wasWatched = ns -> dropped.contains(ALL) ? !watched.contains(ns) : dropped.contains(ns);
        List<TuningProfile> orphans;
        try {
            var all = client.resources(TuningProfile.class).inAnyNamespace();
            orphans = (labelSelector == null ? all : all.withLabelSelector(labelSelector)).list().getItems().stream()
                    .filter(p -> wasWatched.test(p.getMetadata().getNamespace()) && p.getMetadata().getFinalizers().contains(finalizer)).toList();
        } catch (KubernetesClientException e) {
            LOG.warnf("namespaces %s are no longer watched, but their TuningProfiles cannot be listed (%s): those carrying finalizer %s "
                    + "keep it until it is removed by hand, or until a start that may list TuningProfiles in every namespace", dropped, e.getMessage(), finalizer);
            return dropped;
        }
        return orphans.stream().filter(p -> !released(p)).map(p -> p.getMetadata().getNamespace()).collect(Collectors.toCollection(TreeSet::new));
    }

    /** Restores the target when it still may, then removes the finalizer; false when the finalizer stays. */
    private boolean released(TuningProfile profile) {
        String namespace = profile.getMetadata().getNamespace();
        String name = profile.getMetadata().getName();
        String boosts = takeBackBoosts(profile);
        String deployment = restore(profile);
        try {
            client.resources(TuningProfile.class).inNamespace(namespace).withName(name).edit(p -> {
                p.getMetadata().getFinalizers().remove(finalizer);
                return p;
            });
        } catch (KubernetesClientException e) {
            LOG.warnf("TuningProfile %s/%s is no longer watched, but its finalizer %s could not be removed: %s", namespace, name, finalizer, e.getMessage());
            return false;
        }
        String message = "namespace " + namespace + " is no longer watched by the operator: " + deployment + boosts + "; finalizer "
                + finalizer + " removed";
        LOG.infof("released TuningProfile %s/%s: %s", namespace, name, message);
        new EventRecorder(client).record(profile, List.of(new ProfileEvent(false, Reason.RELEASED, message)));
        return true;
    }

    /**
     * The boosts the profile recorded taken back, as a delete would, with their own Events (a refusal names the pods that stay
     * boosted); what the release's Event adds when the operator may not even read the pods.
     */
    private String takeBackBoosts(TuningProfile profile) {
        List<BoostedPod> records = Observation.previousStatus(profile).getStartupBoosts();
        if (records.isEmpty()) {
            return "";
        }
        String target = Observation.targetName(profile);
        try {
            List<Pod> pods = client.pods().inNamespace(profile.getMetadata().getNamespace()).list().getItems().stream()
                    .filter(pod -> TargetPods.deploymentName(pod).filter(target::equals).isPresent()).toList();
            new EventRecorder(client).record(profile, PodResizes.takeBack(client, profile, pods, "namespace "
                    + profile.getMetadata().getNamespace() + " is no longer watched by the operator"));
            return "";
        } catch (KubernetesClientException e) {
            return "; pods it boosted keep their boost until they are replaced, as it may not read them any more ("
                    + TargetWrites.refusal(e) + "): " + StartupBoosts.describe(records);
        }
    }

    /** What became of the target, said for the Event: restored, untouched, or left tuned because the operator may not write it. */
    private String restore(TuningProfile profile) {
        String target = Observation.targetName(profile);
        try {
            for (int attempt = 1; ; attempt++) {
                Deployment live = client.apps().deployments().inNamespace(profile.getMetadata().getNamespace()).withName(target).get();
                if (live == null || !DeploymentTuning.tunedBy(live, profile.getMetadata().getName())) {
                    return "Deployment " + target + " carries none of its settings";
                }
                try {
                    client.resource(DeploymentTuning.restored(live, profile.getMetadata().getName())).update();
                    return "Deployment " + target + " restored to its own template";
                } catch (KubernetesClientException e) {
                    // The Deployment controller writes its status between our read and our replace: read again, a few times.
                    if (e.getCode() != HttpURLConnection.HTTP_CONFLICT || attempt == RESTORE_ATTEMPTS) {
                        throw e;
                    }
                }
            }
        } catch (KubernetesClientException e) {
            if (e.getCode() != HttpURLConnection.HTTP_FORBIDDEN) {
                LOG.warnf("restoring Deployment %s/%s failed: %s", profile.getMetadata().getNamespace(), target, e.getMessage());
            }
            return "Deployment " + target + " keeps the tuned settings (" + Objects.requireNonNullElse(
                    e.getStatus() == null ? null : e.getStatus().getMessage(), e.getMessage()) + "); restore it by hand";
        }
    }
}
