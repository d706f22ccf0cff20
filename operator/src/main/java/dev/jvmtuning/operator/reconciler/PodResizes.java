package dev.jvmtuning.operator.reconciler;

import dev.jvmtuning.operator.api.v1alpha1.BoostedPod;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import dev.jvmtuning.operator.decision.Decide;
import dev.jvmtuning.operator.decision.Observation;
import dev.jvmtuning.operator.model.ProfileEvent;
import dev.jvmtuning.operator.rollout.StartupBoosts;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
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
 * changes in place, and the only pod write the operator makes: the boosts are recorded in the profile's status. The first
 * refusal stops the rest.
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
     * Every boost the profile recorded for these pods taken back as it goes, before the template is restored: that rollout may
     * never replace them (a new pod that finds no node). The Events say which pods came back and which stay boosted.
     */
    static List<ProfileEvent> takeBack(KubernetesClient client, TuningProfile profile, List<Pod> pods, String why) {
        List<BoostedPod> records = Observation.previousStatus(profile).getStartupBoosts();
        Outcome outcome = resize(client, StartupBoosts.takeBack(records, pods, why));
        return Decide.boostsTakenBack(records, pods, outcome.performed(), outcome.refusal());
    }

    static Outcome resize(KubernetesClient client, List<StartupBoosts.Resize> resizes) {
        List<StartupBoosts.Resize> performed = new ArrayList<>();
        for (StartupBoosts.Resize resize : resizes) {
            try {
                client.pods().inNamespace(resize.namespace()).withName(resize.pod()).subresource(SUBRESOURCE)
                        .patch(PatchContext.of(PatchType.STRATEGIC_MERGE), Serialization.asJson(resize.patch()));
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
