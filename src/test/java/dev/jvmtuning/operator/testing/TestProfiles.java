package dev.jvmtuning.operator.testing;

/** TuningProfile manifests for tests: a name, a target Deployment and the rest of the spec as YAML. */
public final class TestProfiles {
    private TestProfiles() {
    }

    public static String yaml(String name, String target, String spec) {
        return """
                apiVersion: jvmtuning.dev/v1alpha1
                kind: TuningProfile
                metadata: {name: %s}
                spec:
                  targetRef: {name: %s}
                """.formatted(name, target) + spec.indent(2);
    }
}
