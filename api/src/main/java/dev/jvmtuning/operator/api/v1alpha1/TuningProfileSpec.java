package dev.jvmtuning.operator.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import java.util.ArrayList;
import java.util.List;
import lombok.Data;

@Data
@ValidationRule(value = "!has(self.threads) || has(self.threads.max) || (has(self.workload) && has(self.workload.requestsPerSecond) && has(self.workload.meanLatency))",
        message = "threads.max is omitted, so it must be derived: set workload.requestsPerSecond and workload.meanLatency, or set threads.max")
@ValidationRule(value = "!has(self.connectionPool) || has(self.connectionPool.maxSize) || (has(self.workload) && has(self.workload.requestsPerSecond) && has(self.workload.dbTimePerRequest))",
        message = "connectionPool.maxSize is omitted, so it must be derived: set workload.requestsPerSecond and workload.dbTimePerRequest, or set connectionPool.maxSize")
// The operator records the user's value of one variable in one container; moving it elsewhere in place would leave the old one tuned.
@ValidationRule(value = "self.jvmOptionsVariable == oldSelf.jvmOptionsVariable",
        message = "jvmOptionsVariable is immutable: delete the profile (which restores the Deployment) and create it with the new variable")
@ValidationRule(value = "has(self.container) == has(oldSelf.container) && (!has(self.container) || self.container == oldSelf.container)",
        message = "container is immutable: delete the profile (which restores the Deployment) and create it for the other container")
@ValidationRule(value = "!has(self.auto) || self.mode == 'Auto'", message = "auto is only read in mode Auto: set mode: Auto or remove auto")
@ValidationRule(value = "!has(self.sizing) || !has(self.sizing.memory) || !has(self.sizing.memory.policy) || self.sizing.memory.policy != 'Plan' "
        + "|| !has(self.heap) || !has(self.heap.percentOfLimit)",
        message = "heap.percentOfLimit sizes the heap from the memory limit, and sizing.memory Plan sizes the limit from the heap: "
                + "set heap.size or workload.liveHeap instead")
@ValidationRule(value = "!has(self.sizing) || !has(self.sizing.memory) || !has(self.sizing.memory.policy) || self.sizing.memory.policy != 'Plan' "
        + "|| !has(self.auto) || !has(self.auto.heapPercentOfLimit)",
        message = "auto.heapPercentOfLimit moves the heap as a share of the memory limit, and sizing.memory Plan sizes the limit from the "
                + "heap: remove one of them")
public class TuningProfileSpec {
    private static final String FLAG_SYNTAX = "a '-' followed by letters, digits and . _ : + = / , * % @ - only "
            + "(no spaces, newlines, quotes, backslashes or $ ` ; | & < > ( ))";
    private static final String NEVER_ACCEPTED = "flags that run commands or load agents (-XX:OnError, -XX:OnOutOfMemoryError, "
            + "-javaagent, -agentpath, -agentlib, -Xrun) are never accepted in a TuningProfile";

    @Required
    @JsonPropertyDescription("The Deployment to tune, in the profile's own namespace. Immutable.")
    private TargetRef targetRef;

    @Size(max = 63)
    @Pattern(Patterns.DNS_LABEL)
    @JsonPropertyDescription("Name of the container to tune. May be omitted when the pod has a single container. Immutable.")
    private String container;

    @Default("Generic")
    @JsonPropertyDescription("Server stack in the container; decides which server properties are rendered. Generic renders JVM flags only.")
    private Runtime runtime = Runtime.Generic;

    @Default("Apply")
    @JsonPropertyDescription("Apply writes the settings to the Deployment; Recommend only reports them in status; Auto applies them and "
            + "then keeps re-planning from the measured workload within spec.auto, reverting a change that makes things worse.")
    private Mode mode = Mode.Apply;

    @JsonPropertyDescription("The load one pod must carry. Thread, queue and pool values that are omitted are derived from it.")
    private Workload workload;

    @JsonPropertyDescription("Whether requests run on platform worker threads or on virtual threads. Omit to detect it from the container.")
    private Threading threading;

    @JsonPropertyDescription("Request worker pool. Omit the section to leave the server's own default unless workload figures allow deriving it.")
    private Threads threads;

    @JsonPropertyDescription("Listen backlog, connection limit and executor queue bound.")
    private Queue queue;

    @JsonPropertyDescription("Java heap. Omit to size it from the container's memory limit after non-heap memory.")
    private Heap heap;

    @JsonPropertyDescription("Garbage collector and pause goal.")
    private Gc gc;

    @JsonPropertyDescription("JDBC connection pool.")
    private ConnectionPool connectionPool;

    @Size(max = 64)
    // Syntax and the flags no installation may allow are checked here; the rest of the flag policy (known
    // flags, ranges, the install-time allow-list) is the operator's and ends as Applied=False, reason Invalid.
    @ValidationRule(value = "self.all(o, o.matches('" + Patterns.JVM_FLAG + "'))",
            message = "each jvmOptions entry must be exactly one JVM flag: " + FLAG_SYNTAX,
            messageExpression = "\"jvmOptions entry '\" + self.filter(o, !o.matches('" + Patterns.JVM_FLAG + "'))[0] + \"' is not "
                    + "exactly one JVM flag: " + FLAG_SYNTAX + "\"")
    @ValidationRule(value = "self.all(o, !" + Patterns.NEVER_FLAGS + ".exists(p, o.startsWith(p)))",
            message = "jvmOptions: " + NEVER_ACCEPTED,
            messageExpression = "\"jvmOptions entry '\" + self.filter(o, " + Patterns.NEVER_FLAGS + ".exists(p, o.startsWith(p)))[0] "
                    + "+ \"' is refused: " + NEVER_ACCEPTED + "\"")
    @JsonPropertyDescription("Extra JVM tuning flags, appended verbatim after the rendered ones: one flag per entry, known to the "
            + "target's JDK (17, 21 or 25; all of them when unknown), with its value in range. Flags that load code, read option files, "
            + "write files or set system properties are refused unless the operator's installation allows them.")
    private List<@Size(max = 512) String> jvmOptions = new ArrayList<>();

    @Default("JAVA_TOOL_OPTIONS")
    @JsonPropertyDescription("Environment variable that carries the JVM flags: JAVA_TOOL_OPTIONS (any HotSpot JVM), JDK_JAVA_OPTIONS (java launcher, JDK 9+), JAVA_OPTS or CATALINA_OPTS (entrypoint scripts that read them). Immutable.")
    private JvmOptionsVariable jvmOptionsVariable = JvmOptionsVariable.JAVA_TOOL_OPTIONS;

    @JsonPropertyDescription("Opt-in: the container's memory request and limit and its CPU request sized with the JVM, each within "
            + "bounds; omit to plan within the container's resources as they are.")
    private Sizing sizing;

    @JsonPropertyDescription("Where the pods' metrics are read.")
    private Metrics metrics;

    @JsonPropertyDescription("Thresholds for the pressure conditions.")
    private Pressure pressure;

    @JsonPropertyDescription("Opt-in: more CPU for each new pod while its JVM starts (class loading, JIT, framework wiring), raised "
            + "and lowered on the running pod by an in-place resize (Kubernetes 1.35+), in modes Apply and Auto. Omit for none.")
    private StartupBoost startupBoost;

    @JsonPropertyDescription("Which failing pods take the settings back, and for how long after a rollout.")
    private RollbackPolicy rollback;

    @JsonPropertyDescription("Mode Auto's bounds, pace and regression guard. Defaults apply when omitted.")
    private Auto auto;
}
