package dev.jvmtuning.operator.config;

import io.javaoperatorsdk.operator.api.config.LeaderElectionConfiguration;
import jakarta.enterprise.context.Dependent;
import jakarta.enterprise.inject.Produces;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Leader election on a Lease, for installs with more than one replica (the chart sets the lease
 * namespace then). With no lease namespace configured there is no bean, and a single operator runs alone.
 */
public class LeaderElection {

    @Produces
    @Dependent
    LeaderElectionConfiguration leaderElection(
            @ConfigProperty(name = "jvm-tuning.leader-election.lease-namespace") Optional<String> leaseNamespace) {
        return leaseNamespace.map(namespace -> new LeaderElectionConfiguration("jvm-tuning-operator", namespace)).orElse(null);
    }
}
