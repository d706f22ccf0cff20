package dev.jvmtuning.operator.model;

import dev.jvmtuning.operator.api.v1alpha1.ThreadingModel;

/**
 * What the pods' JVMs say of virtual threads: of the pods whose agent reports it, how many were seen running virtual
 * threads (their scheduler's carriers, at a scrape since the JVM started). The plan's threading model comes from the profile or the pod
 * template; this is what the JVMs do, beside it.
 *
 * @param pods    pods read whose JVM reports it
 * @param running of those, the pods whose JVM was seen running virtual threads
 */
public record ThreadingReport(int pods, int running) {

    /** Status's words for it, against the model the plan assumed; null when no pod reports it. */
    public String describe(ThreadingModel planned) {
        if (pods == 0) {
            return null;
        }
        String seen = running == 0 ? "no virtual thread seen on the " + pods + " pods read"
                : "virtual threads seen on " + running + " of " + pods + " pods read";
        if (planned == ThreadingModel.Virtual && running == 0) {
            return seen + ": the plan is for virtual threads, none seen yet";
        }
        if (planned == ThreadingModel.Platform && running > 0) {
            return seen + ": the plan is for platform threads; if the requests run on virtual threads, set spec.threading.model";
        }
        return seen;
    }
}
