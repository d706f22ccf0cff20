package dev.jvmtuning.operator.planner;

import static dev.jvmtuning.operator.model.Units.mebibytes;

import dev.jvmtuning.operator.api.v1alpha1.Collector;
import dev.jvmtuning.operator.model.JvmFlags;
import dev.jvmtuning.operator.model.Units;
import java.util.List;

/**
 * An AOT cache (-XX:AOTCache, JDK 24+) or CDS archive (-XX:SharedArchiveFile) in the container's flags was made under
 * the options of a training run, and the JVM rejects it when some of them differ. On JDK 25 it rejected a cache made
 * under G1 when run with ZGC or with -Xmx of 32 GiB or more (both without compressed oops), with the other
 * UseCompactObjectHeaders setting, and with a -javaagent (which adds the module java.instrument); it kept the cache
 * under Serial and Parallel, -Xms, SoftMaxHeapSize and ActiveProcessorCount. A rejected cache costs start-up time;
 * under -XX:AOTMode=on (or -Xshare:on) the JVM exits instead. The planner chooses neither ZGC nor compact headers on
 * its own beside a cache (GcPlan, CompactHeaders); what the profile asks for itself is reported here: a warning, or a
 * conflict where the JVM would not start.
 */
final class AotCacheGuard {
    /** Past this maximum heap the JVM turns compressed oops off. */
    static final long COMPRESSED_OOPS_MAX_HEAP = 32 * Units.GI;

    private AotCacheGuard() {
    }

    static void check(JvmFlags userFlags, GcPlan gc, Long renderedHeap, Integer agentPort, PlanNotes notes) {
        String cache = userFlags.aotCacheFlag().orElse(null);
        if (cache == null) {
            return;
        }
        String where = cache + " (in " + userFlags.sourceOf(cache).orElseThrow() + ")";
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
