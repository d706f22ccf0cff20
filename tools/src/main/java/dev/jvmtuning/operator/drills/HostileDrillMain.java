package dev.jvmtuning.operator.drills;

import dev.jvmtuning.operator.testing.LocalControlPlane;
import dev.jvmtuning.operator.testing.LoopbackMetrics;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * The hostile-endpoint drill, long (deploy/local/hostile-drill.sh): the real build as the operator, in
 * a JVM of its own with a fixed heap limit, against a local API server, for the given minutes; prints
 * its heap and GC every minute and each healthy profile's freshness at the end. Exits 1 if the
 * operator died or a healthy profile went stale.
 * Usage: HostileDrillMain MINUTES OPERATOR_JAR MAX_HEAP OUTPUT_DIR
 */
public final class HostileDrillMain {
    private HostileDrillMain() {
    }

    public static void main(String[] args) throws Exception {
        Duration length = Duration.ofMinutes(Long.parseLong(args[0]));
        LocalControlPlane controlPlane = LocalControlPlane.shared();
        boolean passed;
        try (HostileDrill drill = HostileDrill.prepare(controlPlane);
                OperatorProcess operator = OperatorProcess.quarkus(Path.of(args[1]), controlPlane.kubeconfig(), drill.namespace(), args[2],
                        Map.of(), Path.of(args[3]))) {
            drill.createProfiles();
            System.out.printf("hostile drill: %d hostile pods (%d per kind), %d healthy profiles, every %d s, operator -Xmx%s, %d min%n",
                    HostileDrill.PODS_PER_KIND * (LoopbackMetrics.Behaviour.values().length - 1), HostileDrill.PODS_PER_KIND,
                    HostileDrill.HEALTHY_PROFILES, HostileDrill.INTERVAL.toSeconds(), args[2], length.toMinutes());
            HostileDrill.Outcome outcome = drill.observe(operator, length, Duration.ofMinutes(1), System.out);
            System.out.println("operator alive: " + outcome.operatorAlive() + "; " + outcome.gc());
            System.out.printf("operator CPU %.1f s, peak RSS %d MiB, hostile scrapes %d%n", operator.cpuSeconds(), operator.peakRssMiB(),
                    outcome.hostileScrapes());
            outcome.longestGapSeconds().forEach((profile, gap) -> System.out.printf("healthy %s: longest time between scrapes %.1f s%n", profile, gap));
            System.out.println("stale samples: " + outcome.staleSamples().size()
                    + (outcome.staleSamples().isEmpty() ? "" : ", first: " + outcome.staleSamples().get(0)));
            passed = outcome.passed();
        }
        System.exit(passed ? 0 : 1);
    }
}
