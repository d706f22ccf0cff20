package dev.jvmtuning.systemtest.support;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

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
        ProcessBuilder builder = new ProcessBuilder("bash", "-c", "source deploy/local/env.sh && workload_deployment \"$@\"", "workload",
                name, String.valueOf(replicas), containerYaml.indent(8).stripTrailing()).redirectError(ProcessBuilder.Redirect.INHERIT);
        builder.environment().put("WORKLOAD_JAVA", String.valueOf(java));
        try {
            Process process = builder.start();
            String yaml = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(30, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IllegalStateException("workload_deployment " + name + " failed");
            }
            return yaml;
        } catch (IOException e) {
            throw new IllegalStateException("could not run deploy/local/env.sh's workload_deployment", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
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
