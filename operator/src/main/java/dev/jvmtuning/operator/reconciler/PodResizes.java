package dev.jvmtuning.operator.reconciler;

import dev.jvmtuning.operator.decision.Decide;
import dev.jvmtuning.operator.decision.Observation;
import dev.jvmtuning.operator.model.ProfileEvent;
import dev.jvmtuning.operator.rollout.StartupBoosts;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.PodResource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.net.HttpURLConnection;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * Carries out pod resizes (spec.startupBoost) through the pods' {@code resize} subresource, the only way a running pod's CPU
 * changes in place. A raise first records the boost in the pod's metadata, which the resize subresource does not keep: those
 * are the operator's only writes to pods. The first refusal stops the rest.
 */
final class PodResizes {
    static final String SUBRESOURCE = "resize";
    private static final Logger LOG = Logger.getLogger(PodResizes.class);

    /** The resizes that went through, in order, and the API server's refusal that stopped the rest, if one came. */
    record Outcome(List<StartupBoosts.Resize> performed, Optional<Decide.ResizeRefusal> refusal) {
    }

    private PodResizes() {
    }

    /** The decision as its resizes went: those made, and the API server's refusal if one came. */
    static Decide.Decision perform(KubernetesClient client, Observation seen, Decide.Decision decision) {
        Outcome outcome = resize(client, decision.resizes());
        return outcome.performed().size() == decision.resizes().size() ? decision
                : Decide.resized(seen, decision, outcome.performed(), outcome.refusal());
    }

    /**
     * Every boost these pods run taken back as their profile goes, before the template is restored: that rollout may never
     * replace them (a new pod that finds no node). The Events say which pods came back and which stay boosted.
     */
    static List<ProfileEvent> takeBack(KubernetesClient client, List<Pod> pods, String why) {
        Outcome outcome = resize(client, StartupBoosts.takeBack(pods, why));
        return Decide.boostsTakenBack(pods, outcome.performed(), outcome.refusal());
    }

    static Outcome resize(KubernetesClient client, List<StartupBoosts.Resize> resizes) {
        List<StartupBoosts.Resize> performed = new ArrayList<>();
        for (StartupBoosts.Resize resize : resizes) {
            PodResource pod = client.pods().inNamespace(resize.namespace()).withName(resize.pod());
            try {
                if (resize.record() != null) {
                    pod.patch(PatchContext.of(PatchType.JSON_MERGE), Serialization.asJson(resize.recordPatch()));
                }
                pod.subresource(SUBRESOURCE).patch(PatchContext.of(PatchType.STRATEGIC_MERGE), Serialization.asJson(resize.patch()));
                LOG.infof("resized pod %s/%s: %s", resize.namespace(), resize.pod(), resize.event().message());
                performed.add(resize);
            } catch (KubernetesClientException e) {
                if (podGone(e, resize.pod())) {
                    continue;
                }
                LOG.warnf("resizing pod %s/%s refused: %s", resize.namespace(), resize.pod(), e.getMessage());
                return new Outcome(performed, Optional.of(new Decide.ResizeRefusal(e.getCode(), TargetWrites.refusal(e))));
            }
        }
        return new Outcome(performed, Optional.empty());
    }

    /** The pod was deleted since it was observed: nothing to resize. A 404 for the subresource itself (an older cluster) is a refusal. */
    private static boolean podGone(KubernetesClientException e, String pod) {
        Status status = e.getStatus();
        return e.getCode() == HttpURLConnection.HTTP_NOT_FOUND && status != null && status.getDetails() != null
                && "pods".equals(status.getDetails().getKind()) && pod.equals(status.getDetails().getName());
    }
}
