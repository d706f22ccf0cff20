package dev.jvmtuning.systemtest.support;

import java.util.ArrayList;
import java.util.List;

/** The node's own images, through deploy/local/env.sh (its names for them, its containerd socket). */
public final class LocalNode {

    private LocalNode() {
    }

    /** The lab workload's image on a JRE (17, 21 or 25), as images.sh tags it. */
    public static String workloadImage(int java) {
        return "localhost/jvm-tuning-workload:" + envSh("workload_tag \"$1\"", String.valueOf(java)).strip();
    }

    /** Tags {@code image} as {@code tag} in the node's containerd, as a push of that tag would: pods started after it run it. */
    public static void tag(String image, String tag) {
        envSh("ctr -a \"$CONTAINERD_SOCK\" -n k8s.io images tag --force \"$1\" \"$2\" >/dev/null", image, tag);
    }

    /** The operator's agent image, as images.sh tags it (an injector's init container copies its jar). */
    public static String agentImage() {
        return envSh("printf %s \"$AGENT_IMAGE\"");
    }

    /** Removes a tag from the node's containerd, if it is there. */
    public static void untag(String tag) {
        envSh("ctr -a \"$CONTAINERD_SOCK\" -n k8s.io images rm \"$1\" >/dev/null 2>&1 || true", tag);
    }

    /** Runs a line of bash with deploy/local/env.sh sourced, its arguments as $1...; its output. */
    static String envSh(String line, String... arguments) {
        List<String> command = new ArrayList<>(List.of("bash", "-c", "source deploy/local/env.sh && " + line, "env.sh"));
        command.addAll(List.of(arguments));
        return Command.run(60, command);
    }
}
