package dev.jvmtuning.systemtest.support;

import java.nio.file.Path;

/** The objects the checks create: the same manifests the scripts apply (the tests run from the repository's root). */
public final class Manifests {

    /** The demo's service and its profile, as demo.sh applies them. */
    public static final Path DEMO = Path.of("deploy/local/demo/orders-api.yaml");

    private Manifests() {
    }

    /**
     * A Deployment of the lab workload on JRE {@code java}, from deploy/local/env.sh's workload_deployment, the one
     * definition the scripts use too, with the container's extra YAML (unindented).
     */
    public static String workload(int java, String name, int replicas, String containerYaml) {
        return LocalNode.envSh("WORKLOAD_JAVA=\"$1\" workload_deployment \"${@:2}\"", String.valueOf(java), name, String.valueOf(replicas),
                containerYaml.indent(8).stripTrailing());
    }

    /** A Deployment of the lab workload on JRE 17. */
    public static String workload(String name, int replicas, String containerYaml) {
        return workload(17, name, replicas, containerYaml);
    }

    /** A TuningProfile of the checks for the Deployment {@code target}, with the spec's extra YAML (unindented). */
    public static String profile(String name, String target, String specYaml) {
        return """
                apiVersion: jvmtuning.dev/v1alpha1
                kind: TuningProfile
                metadata: {name: %s}
                spec:
                  targetRef: {kind: Deployment, name: %s}
                  runtime: SpringBootTomcat
                  workload: {requestsPerSecond: 20, meanLatency: 50ms, cpuPerRequest: 4ms, maxQueueWait: 1s}
                %s
                """.formatted(name, target, specYaml.indent(2).stripTrailing());
    }
}
