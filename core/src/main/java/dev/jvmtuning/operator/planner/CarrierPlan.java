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
 * @param carriers    the carriers that will run: the planned ones, the user's, else the JVM's default of one per CPU it sees; 0 on platform threads
 */
record CarrierPlan(Integer parallelism, int carriers, List<Decision> decisions) {
    static final String PROPERTY = "-Djdk.virtualThreadScheduler.parallelism";
    static final CarrierPlan NONE = new CarrierPlan(null, 0, List.of());

    static CarrierPlan of(RequestThreading threading, JvmFlags userFlags, CpuPlan cpus) {
        if (!threading.virtual()) {
            return NONE;
        }
        int perCpu = (int) Math.ceil(cpus.cores());
        List<String> theirs = userFlags.overriding(PROPERTY + "=1");
        if (!theirs.isEmpty()) {
            String flag = theirs.get(theirs.size() - 1);
            String value = flag.substring(PROPERTY.length() + 1);
            return new CarrierPlan(null, userCarriers(value, perCpu), List.of(new Decision(Setting.VIRTUAL_THREAD_PARALLELISM, value,
                    Rule.SPEC, "kept as set in " + userFlags.sourceOf(flag).orElseThrow() + ": " + flag)));
        }
        if (cpus.processors() == null) {
            return new CarrierPlan(null, perCpu, List.of());
        }
        int carriers = (int) Math.ceil(cpus.processors());
        return new CarrierPlan(carriers, carriers, List.of(new Decision(Setting.VIRTUAL_THREAD_PARALLELISM, Integer.toString(carriers), Rule.R20,
                "one carrier per CPU the JVM is told it has (" + carriers + ", R14): the carriers run the virtual threads' CPU work, "
                        + "and more of them than CPUs only take turns")));
    }

    /** The user's parallelism; the JVM ignores one that is not a positive number and keeps one carrier per CPU. */
    private static int userCarriers(String value, int perCpu) {
        try {
            int carriers = Integer.parseInt(value.strip());
            return carriers > 0 ? carriers : perCpu;
        } catch (NumberFormatException e) {
            return perCpu;
        }
    }
}
