package dev.jvmtuning.operator.render;

/** Where an injected jvm-tuning agent lives in the target pod: one shared volume, one jar. */
public final class AgentInjection {
    /** The name of the init container, the volume and its mounts: the operator's marks, removed with the profile. */
    public static final String NAME = "jvm-tuning-agent";
    public static final String DIRECTORY = "/jvm-tuning-agent";
    public static final String JAR = DIRECTORY + "/jvm-tuning-agent.jar";

    private AgentInjection() {
    }

    /**
     * The flag that starts the agent on a port, on every interface of the pod; with a threshold, it also records the
     * virtual-thread pinnings that long or longer (its flight recorder costs tens of MiB, so only where threads are virtual).
     */
    public static String flag(int port, Integer pinnedThresholdMillis) {
        return "-javaagent:" + JAR + "=port=" + port + ",host=0.0.0.0" + (pinnedThresholdMillis == null ? "" : ",pinnedThreshold=" + pinnedThresholdMillis + "ms");
    }
}
