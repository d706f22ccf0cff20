package dev.jvmtuning.operator.reconciler;

import dev.jvmtuning.operator.model.LabelsAndAnnotations;
import dev.jvmtuning.operator.model.Names;
import dev.jvmtuning.operator.model.ProfileEvent;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.jboss.logging.Logger;

/** Writes core/v1 Events about a profile, as `kubectl describe tp` shows them. An Event that cannot be written is logged, never fatal. */
public final class EventRecorder {
    public static final String COMPONENT = LabelsAndAnnotations.OPERATOR;
    private static final int UNIQUE_SUFFIX = 13;
    private static final Logger LOG = Logger.getLogger(EventRecorder.class);

    private final KubernetesClient client;

    public EventRecorder(KubernetesClient client) {
        this.client = client;
    }

    /** Writes the events the policy chose, in order. */
    public void record(HasMetadata about, List<ProfileEvent> events) {
        events.forEach(e -> record(about, e.warning() ? "Warning" : "Normal", e.reason().text(), e.message()));
    }

    private void record(HasMetadata about, String type, String reason, String message) {
        String now = Instant.now().toString();
        String namespace = about.getMetadata().getNamespace();
        try {
            client.v1().events().inNamespace(namespace).resource(new EventBuilder()
                    .withNewMetadata().withName(Names.fit(about.getMetadata().getName(), Names.NAME_MAX - UNIQUE_SUFFIX - 1) + "." + UUID.randomUUID().toString().substring(0, UNIQUE_SUFFIX)).withNamespace(namespace).endMetadata()
                    .withNewInvolvedObject().withApiVersion(about.getApiVersion()).withKind(about.getKind()).withName(about.getMetadata().getName())
                    .withNamespace(namespace).withUid(about.getMetadata().getUid()).withResourceVersion(about.getMetadata().getResourceVersion()).endInvolvedObject()
                    .withType(type).withReason(reason).withMessage(message.length() > 1024 ? message.substring(0, 1021) + "..." : message)
                    .withFirstTimestamp(now).withLastTimestamp(now).withCount(1)
                    .withNewSource().withComponent(COMPONENT).endSource()
                    .withReportingComponent(COMPONENT)
                    .build()).create();
        } catch (KubernetesClientException e) {
            LOG.warnf("could not record %s event %s for %s/%s: %s", type, reason, namespace, about.getMetadata().getName(), e.getMessage());
        }
    }
}
