package dev.jvmtuning.operator.reconciler;

import dev.jvmtuning.operator.decision.Decide;
import dev.jvmtuning.operator.decision.Observation;
import dev.jvmtuning.operator.rollout.StartupBoosts;
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
 * Carries out a decision's pod resizes (spec.startupBoost) through the pods' {@code resize} subresource, the only way a
 * running pod's CPU changes in place, and the only pod write the operator makes. The first refusal stops the rest.
 */
final class PodResizes {
    static final String SUBRESOURCE = "resize";
    private static final Logger LOG = Logger.getLogger(PodResizes.class);

    private PodResizes() {
    }

    /** The decision as its resizes went: those made, and the API server's refusal if one came. */
    static Decide.Decision perform(KubernetesClient client, Observation seen, Decide.Decision decision) {
        List<StartupBoosts.Resize> performed = new ArrayList<>();
        for (StartupBoosts.Resize resize : decision.resizes()) {
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
                return Decide.resized(seen, decision, performed, Optional.of(new Decide.ResizeRefusal(e.getCode(), TargetWrites.refusal(e))));
            }
        }
        return performed.size() == decision.resizes().size() ? decision : Decide.resized(seen, decision, performed, Optional.empty());
    }

    /** The pod was deleted since it was observed: nothing to resize. A 404 for the subresource itself (an older cluster) is a refusal. */
    private static boolean podGone(KubernetesClientException e, String pod) {
        Status status = e.getStatus();
        return e.getCode() == HttpURLConnection.HTTP_NOT_FOUND && status != null && status.getDetails() != null
                && "pods".equals(status.getDetails().getKind()) && pod.equals(status.getDetails().getName());
    }
}
