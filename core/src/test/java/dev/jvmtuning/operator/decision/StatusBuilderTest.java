package dev.jvmtuning.operator.decision;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jvmtuning.operator.api.v1alpha1.TuningProfileStatus;
import dev.jvmtuning.operator.model.Reason;
import dev.jvmtuning.operator.rollout.Rollout;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class StatusBuilderTest {
    private static final Rollout COMPLETE = new Rollout(true, Reason.ROLLOUT_COMPLETE, "2 of 2 replicas run the tuned settings");
    private static final Rollout ROLLING = new Rollout(false, Reason.ROLLING_OUT, "1 of 2 replicas updated, 1 available");
    private static final Instant T0 = Instant.parse("2026-11-25T10:00:00Z");

    @Test
    void theRolloutCompletedWhenItWasFirstSeenCompleteAndStaysSoWhileItHolds() {
        TuningProfileStatus rolling = new StatusBuilder(new TuningProfileStatus(), 1L, T0.toString()).applied("applied", ROLLING).build();
        assertThat(new StatusBuilder(rolling, 1L, T0.toString()).applied("applied", ROLLING).rolloutCompletedAt()).isEmpty();

        StatusBuilder completing = new StatusBuilder(rolling, 1L, T0.plusSeconds(30).toString()).applied("applied", COMPLETE);
        assertThat(completing.rolloutCompletedAt()).contains(T0.plusSeconds(30));

        StatusBuilder later = new StatusBuilder(completing.build(), 1L, T0.plusSeconds(90).toString()).applied("applied", COMPLETE);
        assertThat(later.rolloutCompletedAt()).as("a later reconcile sees the same completion").contains(T0.plusSeconds(30));

        assertThat(new StatusBuilder(later.build(), 2L, T0.plusSeconds(120).toString()).recommendOnly().rolloutCompletedAt())
                .as("nothing rolls out in Recommend mode").isEmpty();
    }
}
