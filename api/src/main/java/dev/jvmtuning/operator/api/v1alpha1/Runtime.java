package dev.jvmtuning.operator.api.v1alpha1;

/** The server stack inside the target container: it decides which property names are rendered. */
public enum Runtime {
    SpringBootTomcat,
    SpringBootJetty,
    SpringBootUndertow,
    Quarkus,
    /** Any JVM: only JVM flags are rendered, no server properties. */
    Generic
}
