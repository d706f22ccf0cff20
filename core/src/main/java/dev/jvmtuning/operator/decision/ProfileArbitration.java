package dev.jvmtuning.operator.decision;

import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import dev.jvmtuning.operator.discovery.DiscoveryPlan;
import java.time.Instant;
import java.util.Collection;
import java.util.Comparator;
import java.util.Optional;

/**
 * Two profiles on one Deployment: a profile someone wrote wins over one discovery made, then the older
 * one tunes it (on a tie, the name decides); the others report Conflict. Pure.
 */
public final class ProfileArbitration {

    private ProfileArbitration() {
    }

    /** The profile that tunes a Deployment among those that target it, ignoring profiles being deleted. */
    public static Optional<TuningProfile> owner(Collection<TuningProfile> targeting) {
        return targeting.stream()
                .filter(p -> p.getMetadata().getDeletionTimestamp() == null)
                .min(Comparator.comparing(DiscoveryPlan::discovered)
                        .thenComparing((TuningProfile p) -> Instant.parse(p.getMetadata().getCreationTimestamp()))
                        .thenComparing(p -> p.getMetadata().getName()));
    }
}
