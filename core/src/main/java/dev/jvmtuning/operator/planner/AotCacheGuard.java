package dev.jvmtuning.operator.planner;

import static dev.jvmtuning.operator.model.Units.mebibytes;

import dev.jvmtuning.operator.api.v1alpha1.Collector;
import dev.jvmtuning.operator.model.ContainerFacts;
import dev.jvmtuning.operator.model.JvmFlags;
import dev.jvmtuning.operator.model.Units;
import java.util.List;
import java.util.Optional;

/**
 * An AOT cache (-XX:AOTCache, JDK 24+) or CDS archive (-XX:SharedArchiveFile) in the container's flags was made under
 * the options of a training run, and the JVM rejects it when some of them differ. On JDK 25 it rejected a cache made
 * under G1 when run with ZGC or with -Xmx of 32 GiB or more (both without compressed oops), with the other
 * UseCompactObjectHeaders setting, and with a -javaagent (which adds the module java.instrument); it kept the cache
 * under Serial and Parallel, -Xms, SoftMaxHeapSize and ActiveProcessorCount. A rejected cache costs start-up time;
 * under -XX:AOTMode=on (or -Xshare:on) the JVM exits instead. The planner chooses neither ZGC nor compact headers on
 * its own beside a cache (GcPlan, CompactHeaders); what the profile asks for itself is reported here: a warning, or a
 * conflict where the JVM would not start.
 *
 * <p>A cache set in the image (its ENTRYPOINT, or JAVA_TOOL_OPTIONS in its config) is in no flag of the pod spec; the
 * pods' JVMs report it (ContainerFacts.reportedAotCache), and it counts the same from the first metrics poll that reads
 * it. Before that only the spec's flags are checked.
 */
final class AotCacheGuard {
    /** Past this maximum heap the JVM turns compressed oops off. */
    static final long COMPRESSED_OOPS_MAX_HEAP = 32 * Units.GI;

    private AotCacheGuard() {
    }

    /**
     * The cache the JVM is given, as findings name it: the spec's flag and where it is written, else the one the pods' JVMs
     * report, which the image set.
     */
    static Optional<String> cache(JvmFlags userFlags, ContainerFacts facts) {
        return userFlags.aotCacheFlag().map(flag -> flag + " (in " + userFlags.sourceOf(flag).orElseThrow() + ")")
                .or(() -> Optional.ofNullable(facts.reportedAotCache())
                        .map(reported -> reported + " (reported by their JVMs, set outside the pod spec: the image's entrypoint or environment)"));
    }

    static void check(JvmFlags userFlags, ContainerFacts facts, GcPlan gc, Long renderedHeap, Integer agentPort, PlanNotes notes) {
        String where = cache(userFlags, facts).orElse(null);
        if (where == null) {
            return;
        }
        String required = requiredFlag(userFlags);
        List<String> findings = required != null ? notes.conflicts : notes.warnings;
        String consequence = required != null ? ", and under " + required + " the JVM then refuses to start"
                : ": the JVM starts without it, as slowly as without a cache";
        if (gc.collector() == Collector.ZGC) {
            findings.add("gc.collector ZGC makes the JVM reject the AOT cache " + where + ", made with compressed oops, which ZGC "
                    + "runs without" + consequence);
        }
        if (renderedHeap != null && renderedHeap >= COMPRESSED_OOPS_MAX_HEAP) {
            findings.add("the heap " + mebibytes(renderedHeap) + " turns compressed oops off, so the JVM rejects the AOT cache " + where
                    + consequence);
        }
        if (agentPort != null) {
            findings.add("the injected metrics agent (-javaagent) adds the module java.instrument, so the JVM rejects the AOT cache "
                    + where + consequence);
        }
    }

    /** -XX:AOTMode=on or -Xshare:on, the last word on the cache, or null when the JVM may run without it. */
    private static String requiredFlag(JvmFlags userFlags) {
        List<String> modes = userFlags.overriding("-XX:AOTMode=on");
        if (!modes.isEmpty() && modes.get(modes.size() - 1).equals("-XX:AOTMode=on")) {
            return "-XX:AOTMode=on";
        }
        return userFlags.all().contains("-Xshare:on") ? "-Xshare:on" : null;
    }
}
