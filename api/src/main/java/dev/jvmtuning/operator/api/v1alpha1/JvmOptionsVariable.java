package dev.jvmtuning.operator.api.v1alpha1;

/** The environment variable that carries the JVM flags into the container. */
public enum JvmOptionsVariable {
    /** Read by every HotSpot JVM at start. */
    JAVA_TOOL_OPTIONS,
    /** Read by the java launcher of JDK 9 and later. */
    JDK_JAVA_OPTIONS,
    /** Read by entrypoint scripts such as run-java.sh. */
    JAVA_OPTS,
    /** Read by Tomcat's catalina.sh (the official Tomcat image). */
    CATALINA_OPTS
}
