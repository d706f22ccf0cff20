package dev.jvmtuning.operator.planner;

import dev.jvmtuning.operator.api.v1alpha1.Runtime;
import dev.jvmtuning.operator.model.JvmFlags;
import dev.jvmtuning.operator.model.RequestThreading;
import dev.jvmtuning.operator.model.Rule;
import dev.jvmtuning.operator.model.Setting;
import java.util.List;
import java.util.Map;

/**
 * R20: virtual threads run on a scheduler with one carrier thread per CPU; a carrier beyond the container's CPUs
 * only takes turns with the others. On Jetty's virtual-thread pool the selectors are virtual threads too, and each holds
 * its carrier while it waits for I/O (a pinned {@code select}): they get a carrier each beside the CPUs'.
 *
 * @param parallelism the carriers to render, or null (platform threads, set by the user, or no CPU figure)
 * @param carriers    the carriers that will run: the planned ones, the user's, else the JVM's default of one per CPU it sees; 0 on platform threads
 */
record CarrierPlan(Integer parallelism, int carriers, List<Decision> decisions) {
    static final String PROPERTY = "-Djdk.virtualThreadScheduler.parallelism";
    static final CarrierPlan NONE = new CarrierPlan(null, 0, List.of());

    static CarrierPlan of(RequestThreading threading, Runtime runtime, Map<String, String> env, JvmFlags userFlags, CpuPlan cpus,
            PlanNotes notes) {
        if (!threading.virtual()) {
            return NONE;
        }
        int perCpu = (int) Math.ceil(cpus.cores());
        int processors = cpus.processors() == null ? perCpu : (int) Math.ceil(cpus.processors());
        JettySelectors selectors = runtime == Runtime.SpringBootJetty ? JettySelectors.of(env, processors) : null;
        List<String> theirs = userFlags.overriding(PROPERTY + "=1");
        if (!theirs.isEmpty()) {
            String flag = theirs.get(theirs.size() - 1);
            String value = flag.substring(PROPERTY.length() + 1);
            int carriers = userCarriers(value, perCpu);
            if (selectors != null && carriers <= selectors.count()) {
                notes.warnings.add(flag + " gives the scheduler " + carriers + " carrier(s), and Jetty's " + selectors.describe()
                        + " hold one each while they wait: requests wait for a carrier none frees, and the server stops accepting; "
                        + "give it at least " + (selectors.count() + processors) + " (R20)");
            }
            return new CarrierPlan(null, carriers, List.of(new Decision(Setting.VIRTUAL_THREAD_PARALLELISM, value,
                    Rule.SPEC, "kept as set in " + userFlags.sourceOf(flag).orElseThrow() + ": " + flag)));
        }
        if (cpus.processors() == null) {
            if (selectors != null) {
                notes.warnings.add("the JVM's CPUs are unknown, so the scheduler keeps one carrier per CPU, and Jetty's "
                        + selectors.describe() + " hold one each while they wait: set cpu.activeProcessorCount or a CPU limit (R20)");
            }
            return new CarrierPlan(null, perCpu, List.of());
        }
        String rationale = "one carrier per CPU the JVM is told it has (" + processors + ", R14): the carriers run the virtual threads' CPU work, "
                + "and more of them than CPUs only take turns";
        int carriers = processors;
        if (selectors != null) {
            carriers += selectors.count();
            rationale += "; and one for each of Jetty's " + selectors.describe() + ", which hold their carriers while they wait for I/O";
        }
        return new CarrierPlan(carriers, carriers, List.of(new Decision(Setting.VIRTUAL_THREAD_PARALLELISM, Integer.toString(carriers),
                Rule.R20, rationale)));
    }

    /** The user's parallelism; the JVM ignores one that is not a positive number and keeps one carrier per CPU. */
    private static int userCarriers(String value, int perCpu) {
        Integer carriers = positive(value);
        return carriers != null ? carriers : perCpu;
    }

    private static Integer positive(String value) {
        try {
            int number = value == null ? 0 : Integer.parseInt(value.strip());
            return number > 0 ? number : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /**
     * The selectors of Spring Boot's Jetty servers: the application's, and the management server's when the environment
     * gives it a port of its own. Each runs {@code server.jetty.threads.selectors} of them, by default Jetty's max(1, CPUs / 2)
     * for a pool that is not sized, as its virtual-thread pool is not.
     */
    record JettySelectors(int perServer, boolean managementServer) {
        static final String SELECTORS = "SERVER_JETTY_THREADS_SELECTORS";
        static final String SERVER_PORT = "SERVER_PORT";
        static final String MANAGEMENT_PORT = "MANAGEMENT_SERVER_PORT";

        static JettySelectors of(Map<String, String> env, int processors) {
            Integer set = positive(env.get(SELECTORS));
            Integer management = positive(env.get(MANAGEMENT_PORT));
            Integer server = positive(env.getOrDefault(SERVER_PORT, "8080"));
            return new JettySelectors(set != null ? set : Math.max(1, processors / 2), management != null && !management.equals(server));
        }

        int count() {
            return perServer * (managementServer ? 2 : 1);
        }

        String describe() {
            String each = perServer + (perServer == 1 ? " selector" : " selectors");
            return managementServer ? count() + " selectors (" + each + " in each of the application's and the management port's servers)"
                    : each;
        }
    }
}
