package dev.jvmtuning.operator.config;

import io.javaoperatorsdk.operator.api.config.LeaderElectionConfiguration;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfigurationBuilder;
import jakarta.enterprise.context.Dependent;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.util.Optional;
import java.util.UUID;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Leader election on a Lease (the chart always sets the lease namespace, so even one replica elects
 * itself and an upgrade never runs two operators side by side). With no lease namespace configured
 * (a developer's run) there is no election and this replica leads alone.
 */
public class LeaderElection {
    static final String LEASE_NAME = "jvm-tuning-operator";

    @ConfigProperty(name = "jvm-tuning.leader-election.lease-namespace")
    Optional<String> leaseNamespace;

    @Produces
    @Singleton
    Leadership leadership() {
        // The pod's name, as JOSDK would pick it; also what the scrapes name themselves by (User-Agent).
        String identity = Optional.ofNullable(System.getenv("HOSTNAME")).filter(h -> !h.isBlank()).orElseGet(() -> UUID.randomUUID().toString());
        return leaseNamespace.isPresent() ? Leadership.elected(identity) : Leadership.alone(identity);
    }

    @Produces
    @Dependent
    LeaderElectionConfiguration leaderElection(Leadership leadership) {
        return leaseNamespace.map(namespace -> LeaderElectionConfigurationBuilder.aLeaderElectionConfiguration(LEASE_NAME)
                .withLeaseNamespace(namespace).withIdentity(leadership.identity()).withLeaderCallbacks(leadership.callbacks())
                .build()).orElse(null);
    }
}
