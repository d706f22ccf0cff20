package dev.jvmtuning.operator.planner;

import dev.jvmtuning.operator.model.JvmFlags;
import dev.jvmtuning.operator.model.RequestThreading;
import dev.jvmtuning.operator.model.Rule;
import dev.jvmtuning.operator.model.Setting;
import java.util.List;

/**
 * R20: virtual threads run on a scheduler with one carrier thread per CPU; a carrier beyond the container's CPUs
 * only takes turns with the others.
 *
 * @param parallelism the carriers to render, or null (platform threads, set by the user, or no CPU figure)
 */
record CarrierPlan(Integer parallelism, List<Decision> decisions) {
    static final String PROPERTY = "-Djdk.virtualThreadScheduler.parallelism";
    static final CarrierPlan NONE = new CarrierPlan(null, List.of());

    static CarrierPlan of(RequestThreading threading, JvmFlags userFlags, CpuPlan cpus) {
        if (!threading.virtual()) {
            return NONE;
        }
        List<String> theirs = userFlags.overriding(PROPERTY + "=1");
        if (!theirs.isEmpty()) {
            String flag = theirs.get(theirs.size() - 1);
            return new CarrierPlan(null, List.of(new Decision(Setting.VIRTUAL_THREAD_PARALLELISM, flag.substring(PROPERTY.length() + 1),
                    Rule.SPEC, "kept as set in " + userFlags.sourceOf(flag).orElseThrow() + ": " + flag)));
        }
        if (cpus.processors() == null) {
            return NONE;
        }
        int carriers = (int) Math.ceil(cpus.processors());
        return new CarrierPlan(carriers, List.of(new Decision(Setting.VIRTUAL_THREAD_PARALLELISM, Integer.toString(carriers), Rule.R20,
                "one carrier per CPU the JVM is told it has (" + carriers + ", R14): the carriers run the virtual threads' CPU work, "
                        + "and more of them than CPUs only take turns")));
    }
}
