package dev.jvmtuning.operator.api.v1alpha1;

/** Formats the schema checks at admission and the planner parses afterwards. */
public final class Patterns {
    /**
     * A Go/CEL duration with one unit: 300ms, 1.5s, 2m, 1h. Six digits each side of the point keep it within what a
     * Go duration holds (2562047h), so CEL's duration() never overflows and the operator reads any admitted value.
     */
    public static final String DURATION = "^[0-9]{1,6}(\\.[0-9]{1,6})?(ms|s|m|h)$";
    /** The longest string {@link #DURATION} matches; the CEL cost of a duration rule grows with it. */
    public static final int DURATION_MAX_LENGTH = 15;
    /** A Kubernetes memory quantity: 1536Mi, 2Gi, 1.5G, 1073741824. */
    public static final String MEMORY = "^[0-9]+(\\.[0-9]+)?(Ki|Mi|Gi|Ti|k|M|G|T)?$";
    /** The longest memory quantity a profile takes. */
    public static final int MEMORY_MAX_LENGTH = 32;
    /** The most memory a profile may name, as a CEL quantity: more than any machine has, and sums of it stay in a long. */
    public static final String MEMORY_MAX = "16Ti";
    /** A Kubernetes CPU quantity in cores or millicores: 2, 1.5, 1500m. */
    public static final String CPU = "^([0-9]{1,4}(\\.[0-9]{1,3})?|[0-9]{1,7}m)$";
    /** The most CPU a profile may name, as a CEL quantity: more than any node has. */
    public static final String CPU_MAX = "1024";
    /** A DNS-1123 label: container names. */
    public static final String DNS_LABEL = "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$";
    /** A DNS-1123 subdomain: object names. */
    public static final String DNS_SUBDOMAIN = "^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$";

    /**
     * Exactly one JVM flag: a '-', then letters, digits and {@code . _ : + = / , * % @ -} only, so no
     * whitespace, newline, quote, backslash or shell metacharacter ({@code $ ` ; | & < > ( )}) can
     * smuggle a second flag or a command into a variable that an entrypoint script expands or evals.
     */
    public static final String JVM_FLAG = "^-[A-Za-z0-9._:+=/,*%@-]+$";

    /** As a CEL list: flags that run commands or load agents, which no profile may carry (FlagPolicy refuses them too). */
    public static final String NEVER_FLAGS = "['-XX:OnError', '-XX:OnOutOfMemoryError', '-javaagent', '-agentpath', '-agentlib', '-Xrun']";

    private Patterns() {
    }
}
