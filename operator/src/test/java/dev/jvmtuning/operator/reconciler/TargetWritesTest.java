package dev.jvmtuning.operator.reconciler;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

class TargetWritesTest {

    @Test
    void aRefusalIsWhatTheApiServerSaid() {
        KubernetesClientException denied = new KubernetesClientException(new StatusBuilder().withCode(422)
                .withMessage("admission webhook denied the request: tuning is frozen").build());
        assertThat(TargetWrites.refusal(denied)).isEqualTo("admission webhook denied the request: tuning is frozen");
        assertThat(TargetWrites.refusal(new KubernetesClientException("connection refused"))).isEqualTo("connection refused");
    }

    /** As the client reports a request a loaded API server did not answer within its timeout: no message, no status, its cause. */
    @Test
    void aRequestThatTimedOutIsNamedByWhatStoppedIt() {
        TimeoutException cause = new TimeoutException();
        KubernetesClientException timedOut = new KubernetesClientException(cause.getMessage(), cause);
        assertThat(timedOut.getMessage()).isNull();
        assertThat(TargetWrites.refusal(timedOut)).isEqualTo("no answer (TimeoutException)");
        assertThat(TargetWrites.refusal(new KubernetesClientException((String) null))).isEqualTo("no answer (KubernetesClientException)");
    }
}
