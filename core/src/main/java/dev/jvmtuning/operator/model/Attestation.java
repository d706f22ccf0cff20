package dev.jvmtuning.operator.model;

import dev.jvmtuning.operator.model.EffectiveOptions.Option;
import dev.jvmtuning.operator.model.EffectiveOptions.Origin;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Whether the JVMs of a target run with the options the operator planned, judged from what each JVM reports
 * (EffectiveOptions), not from what was rendered: a later flag on the image's command line, an entrypoint script
 * or a JDK without the option all leave a rendered flag without effect.
 *
 * @param verdict     the judgement over all pods
 * @param pods        the pods judged
 * @param inEffect    of those, the pods that run with every planned option they report
 * @param differences each planned option a pod runs without, pod by pod
 * @param notReported pods that report no options: no agent, or one older than the series
 * @param effective   what the reporting pods run of each planned option, by option; empty when no pod reports
 * @param runtimeRead for pods without the agent, what their runtime's own metrics could and could not check
 */
public record Attestation(Verdict verdict, int pods, int inEffect, List<Difference> differences, List<String> notReported,
        Map<String, Effective> effective, RuntimeRead runtimeRead) {

    public enum Verdict {
        /** Every pod reports every planned JVM option, and runs with every planned option. */
        IN_EFFECT,
        /** At least one pod runs with another value, or without an option it lacks. */
        DIFFERS,
        /**
         * No pod differs and every pod reports, but a pod's reading leaves planned JVM options unread: its runtime's
         * metrics show only a few, so what they show holds and the rest is not known.
         */
        PARTLY_REPORTED,
        /** No pod differs, but some or all pods report nothing to judge; also when there are no pods. */
        NOT_REPORTED
    }

    /**
     * A planned option a pod does not run with.
     *
     * @param effective the pod's value, in the option's own unit; null when its JVM lacks the option
     * @param origin    where the pod's value came from; null when its JVM lacks the option
     */
    public record Difference(String pod, String option, String flag, double planned, Double effective, Origin origin) {
        public String describe() {
            return effective == null
                    ? pod + ": " + option + " is not an option of its JVM (planned " + flag + ")"
                    : pod + ": " + option + " is " + shown(option, flag, effective) + " (" + origin + "), planned " + shown(option, flag, planned)
                            + " by " + flag;
        }
    }

    /**
     * What the pods run of one planned option, beside the plan.
     *
     * @param podsByValue each distinct value as status shows it, with the pods that run it: values other than the planned one
     *                    first, each with its origin, then by pods; "no such option" for pods whose JVM lacks it
     * @param pods        the pods judged, those that report nothing included
     * @param notReported of those, the pods that report no options
     */
    public record Effective(Map<String, Integer> podsByValue, int pods, int notReported) {
        /** A status field stays short however many ways the pods differ. */
        static final int LISTED = 3;

        public Effective {
            podsByValue = Collections.unmodifiableMap(new LinkedHashMap<>(podsByValue));
        }

        /** e.g. "540Mi on 2 of 2 pods", or "200Mi (VM_CREATION) on 1 of 2 pods, 540Mi on 1". */
        public String describe() {
            List<String> parts = new ArrayList<>();
            int unlisted = 0;
            for (Map.Entry<String, Integer> value : podsByValue.entrySet()) {
                if (parts.size() < LISTED) {
                    parts.add(value.getKey() + " on " + value.getValue() + (parts.isEmpty() ? " of " + pods + " pods" : ""));
                } else {
                    unlisted += value.getValue();
                }
            }
            if (unlisted > 0) {
                parts.add("other values on " + unlisted);
            }
            if (notReported > 0) {
                parts.add("no report from " + notReported);
            }
            return String.join(", ", parts);
        }
    }

    /**
     * The planned options judged on pods without the agent, from what their runtime's own metrics show; empty when
     * every pod judged has the agent.
     *
     * @param checked     the options at least one such pod's metrics show
     * @param uncheckable the JVM options none of them show, which the agent would report
     * @param notShown    the server settings none of them show: their runtime publishes no meter of them
     */
    public record RuntimeRead(List<String> checked, List<String> uncheckable, List<String> notShown) {
        static final RuntimeRead NONE = new RuntimeRead(List.of(), List.of(), List.of());

        static RuntimeRead of(Collection<Planned> planned, Collection<EffectiveOptions> runtimeReadings) {
            if (runtimeReadings.isEmpty()) {
                return NONE;
            }
            List<String> checked = new ArrayList<>();
            List<String> uncheckable = new ArrayList<>();
            List<String> notShown = new ArrayList<>();
            for (Planned option : planned) {
                if (runtimeReadings.stream().anyMatch(reading -> reading.shows(option.option()))) {
                    checked.add(option.option());
                } else if (reported(option.option())) {
                    uncheckable.add(option.option());
                } else {
                    notShown.add(option.option());
                }
            }
            return new RuntimeRead(List.copyOf(checked), List.copyOf(uncheckable), List.copyOf(notShown));
        }

        /** e.g. ", read from the runtime's metrics: MaxHeapSize, UseG1GC; not checkable without the agent: UseContainerSupport". */
        String describe() {
            if (checked.isEmpty() && uncheckable.isEmpty() && notShown.isEmpty()) {
                return "";
            }
            String described = checked.isEmpty() ? ", nothing planned shows in the runtime's metrics"
                    : ", read from the runtime's metrics: " + String.join(", ", checked);
            if (!uncheckable.isEmpty()) {
                described += "; not checkable without the agent: " + String.join(", ", uncheckable);
            }
            if (!notShown.isEmpty()) {
                described += "; not shown by the runtime's metrics: " + String.join(", ", notShown);
            }
            return described;
        }
    }

    /** The server settings whose runtime's metrics can show them: Tomcat's and Jetty's thread maximum, Hikari's pool maximum. */
    static final Set<Setting> SHOWN_BY_RUNTIMES = Set.of(Setting.THREADS_MAX, Setting.POOL_MAX_SIZE);

    /**
     * An option a flag sets, with the value the JVM should then report.
     *
     * @param flag the flag as planned, e.g. -Xmx512m
     */
    record Planned(String option, String flag, double value, Tolerance tolerance) {
        boolean heldBy(double effective) {
            return Math.abs(effective - value) <= tolerance.of(value);
        }
    }

    enum Tolerance {
        /** Counts, booleans and percentages: the value, up to a double's rounding. */
        EXACT,
        /** Sizes: 1%. */
        SIZE,
        /** Heap sizes: 1%, or the heap's alignment, to which HotSpot rounds them up (-Xmx1001m runs as 1002m). */
        HEAP;

        double of(double planned) {
            return switch (this) {
                case EXACT -> Math.abs(planned) * 1e-9;
                case SIZE -> Math.abs(planned) * 0.01;
                case HEAP -> Math.max(Math.abs(planned) * 0.01, HEAP_ALIGNMENT);
            };
        }
    }

    /**
     * HotSpot aligns the heap to the card table's reach on pages of 4 KiB (512 cards of a page each): 2 MiB. G1's
     * regions are larger on large heaps but stay below 1% of the heap unless G1HeapRegionSize is set; large pages
     * raise the alignment too, and are not accounted for.
     */
    static final long HEAP_ALIGNMENT = 2 * Units.MI;

    private static final String CONTAINER_SUPPORT = "UseContainerSupport";
    private static final Set<String> HEAP_SIZES = Set.of("MaxHeapSize", "InitialHeapSize", "MinHeapSize", "SoftMaxHeapSize", "NewSize", "MaxNewSize");
    private static final Set<String> BYTE_SIZES = Set.of("MaxMetaspaceSize", "ReservedCodeCacheSize", "MaxDirectMemorySize", "MaxRAM");
    private static final Set<String> FRACTIONS = Set.of("MaxRAMPercentage", "InitialRAMPercentage");
    private static final Pattern BOOLEAN = Pattern.compile("-XX:([+-])([A-Za-z0-9]+)");
    private static final Pattern VALUED = Pattern.compile("-XX:([A-Za-z0-9]+)=(.+)");

    /**
     * @param plannedFlags    the JVM options in the order the JVM reads them, the last of an option winning, as in
     *                        Rendering's renderedFlags; flags for options the agent does not report (-javaagent, -Xlog,
     *                        -D...) are not judged
     * @param serverSettings  the server settings rendered, each as its variable=value (Rendering's serverSettings); those
     *                        no runtime's metrics show are not judged
     * @param pods            each pod's reported options, by pod name
     */
    public static Attestation of(List<String> plannedFlags, Map<Setting, String> serverSettings, Map<String, EffectiveOptions> pods) {
        Map<String, Planned> planned = planned(plannedFlags);
        serverSettings.forEach((setting, rendered) -> serverSetting(setting, rendered).ifPresent(p -> planned.put(p.option(), p)));
        List<Difference> differences = new ArrayList<>();
        List<String> notReported = new ArrayList<>();
        int inEffect = 0;
        boolean partlyRead = false;
        for (Map.Entry<String, EffectiveOptions> pod : pods.entrySet()) {
            List<Planned> shown = planned.values().stream().filter(option -> pod.getValue().shows(option.option())).toList();
            if (!pod.getValue().reported() || shown.isEmpty()) {
                notReported.add(pod.getKey());
                continue;
            }
            // Only JVM options count: the agent reads every one of them, and no server setting.
            partlyRead |= planned.values().stream().anyMatch(option -> reported(option.option()) && !pod.getValue().shows(option.option()));
            List<Difference> ofPod = differences(pod.getKey(), shown, pod.getValue());
            differences.addAll(ofPod);
            inEffect += ofPod.isEmpty() ? 1 : 0;
        }
        Verdict verdict = !differences.isEmpty() ? Verdict.DIFFERS
                : !notReported.isEmpty() || pods.isEmpty() ? Verdict.NOT_REPORTED
                : partlyRead ? Verdict.PARTLY_REPORTED : Verdict.IN_EFFECT;
        List<EffectiveOptions> runtimeReadings = pods.values().stream().filter(p -> p.reported() && p.fromRuntimeMetrics()).toList();
        return new Attestation(verdict, pods.size(), inEffect, List.copyOf(differences), List.copyOf(notReported),
                effective(planned.values(), pods), RuntimeRead.of(planned.values(), runtimeReadings));
    }

    /** A server setting as its runtime's metrics would show it: by the setting's name, planned by its variable=value. */
    private static Optional<Planned> serverSetting(Setting setting, String rendered) {
        if (!SHOWN_BY_RUNTIMES.contains(setting)) {
            return Optional.empty();
        }
        try {
            return Optional.of(new Planned(setting.key(), rendered, Double.parseDouble(rendered.substring(rendered.indexOf('=') + 1)),
                    Tolerance.EXACT));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /**
     * What the pods run of the option this rendered flag sets, or of this server setting (by its name, threads.max);
     * empty for a flag the agent reports no option of, a setting no runtime's metrics show, or none reported.
     */
    public Optional<Effective> effectiveOf(String renderedAs, String setting) {
        return optionsSetBy(renderedAs).stream().findFirst().map(option -> effective.get(option.option()))
                .or(() -> Optional.ofNullable(effective.get(setting)));
    }

    private static Map<String, Effective> effective(Collection<Planned> planned, Map<String, EffectiveOptions> pods) {
        List<EffectiveOptions> reporting = pods.values().stream().filter(EffectiveOptions::reported).toList();
        if (reporting.isEmpty()) {
            return Map.of();
        }
        Map<String, Effective> effective = new LinkedHashMap<>();
        for (Planned option : planned) {
            List<EffectiveOptions> showing = reporting.stream().filter(jvm -> jvm.shows(option.option())).toList();
            if (showing.isEmpty()) {
                continue;
            }
            Map<String, Integer> differing = new HashMap<>();
            Map<String, Integer> asPlanned = new HashMap<>();
            for (EffectiveOptions jvm : showing) {
                Optional<Option> reported = jvm.option(option.option());
                if (reported.isEmpty()) {
                    differing.merge("no such option", 1, Integer::sum);
                } else if (option.heldBy(reported.get().value())) {
                    asPlanned.merge(shown(option, reported.get().value()), 1, Integer::sum);
                } else {
                    differing.merge(shown(option, reported.get().value()) + " (" + reported.get().origin() + ")", 1, Integer::sum);
                }
            }
            Map<String, Integer> podsByValue = new LinkedHashMap<>();
            Stream.of(differing, asPlanned).forEach(values -> values.entrySet().stream()
                    .sorted(Map.Entry.<String, Integer>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
                    .forEach(value -> podsByValue.put(value.getKey(), value.getValue())));
            effective.put(option.option(), new Effective(podsByValue, pods.size(), pods.size() - showing.size()));
        }
        return Collections.unmodifiableMap(effective);
    }

    /** A reported value as status shows planned ones: sizes in Mi, ThreadStackSize in Ki, booleans as true or false. */
    private static String shown(Planned option, double value) {
        return shown(option.option(), option.flag(), value);
    }

    private static String shown(String option, String flag, double value) {
        if (HEAP_SIZES.contains(option) || BYTE_SIZES.contains(option)) {
            return Units.number(value / Units.MI) + "Mi";
        }
        if (option.equals("ThreadStackSize")) {
            return Units.number(value) + "Ki";
        }
        return BOOLEAN.matcher(flag).matches() || option.equals(CONTAINER_SUPPORT) ? String.valueOf(value != 0) : Units.number(value);
    }

    /**
     * One line for a condition's message: on how many pods the plan is in effect (as far as read, when options were left
     * unread), and the first differences.
     */
    public String message() {
        boolean partly = verdict == Verdict.PARTLY_REPORTED;
        String counted = (partly ? "in effect as far as read on " : "in effect on ") + inEffect + " of " + pods + " pods" + runtimeRead.describe();
        List<String> parts = new ArrayList<>(List.of(counted));
        if (partly) {
            parts.add("the jvm-tuning agent (metrics.injectAgent) reads every planned JVM option");
        }
        differences.stream().limit(3).map(Difference::describe).forEach(parts::add);
        if (differences.size() > 3) {
            parts.add((differences.size() - 3) + " more differences");
        }
        if (!notReported.isEmpty()) {
            parts.add("no options reported by " + String.join(", ", notReported.stream().limit(3).toList())
                    + (notReported.size() > 3 ? " and " + (notReported.size() - 3) + " more" : "")
                    + " (no jvm-tuning agent, or an older one)");
        }
        return String.join("; ", parts);
    }

    private static List<Difference> differences(String pod, Iterable<Planned> planned, EffectiveOptions effective) {
        List<Difference> differences = new ArrayList<>();
        for (Planned option : planned) {
            Optional<Option> reported = effective.option(option.option());
            if (reported.isEmpty()) {
                differences.add(new Difference(pod, option.option(), option.flag(), option.value(), null, null));
            } else if (!option.heldBy(reported.get().value())) {
                differences.add(new Difference(pod, option.option(), option.flag(), option.value(), reported.get().value(),
                        reported.get().origin()));
            }
        }
        return differences;
    }

    /** What a JVM started with these flags reports, option by option: the value each should hold. */
    public static Map<String, Double> expected(List<String> flags) {
        Map<String, Double> expected = new LinkedHashMap<>();
        planned(flags).forEach((option, planned) -> expected.put(option, planned.value()));
        return expected;
    }

    /** The value each option should hold after these flags, by option; the last flag setting an option wins. */
    static Map<String, Planned> planned(List<String> flags) {
        Map<String, Planned> planned = new LinkedHashMap<>();
        // Every plan sizes the JVM for its container: a JVM blind to its cgroup (-XX:-UseContainerSupport, or a JDK without
        // the option) sizes its heap, GC and compiler threads from the node instead.
        planned.put(CONTAINER_SUPPORT, new Planned(CONTAINER_SUPPORT, "the plan, which sizes the JVM for its container", 1, Tolerance.EXACT));
        for (String flag : flags) {
            for (Planned option : optionsSetBy(flag)) {
                planned.remove(option.option());
                planned.put(option.option(), option);
            }
        }
        return planned;
    }

    /** The reported options one flag sets; none for a flag it cannot read or an option the agent does not report. */
    static List<Planned> optionsSetBy(String flag) {
        Optional<Long> shortSize = shortFormBytes(flag);
        if (shortSize.isPresent()) {
            long bytes = shortSize.get();
            return switch (flag.substring(0, 4)) {
                case "-Xmx" -> List.of(new Planned("MaxHeapSize", flag, bytes, Tolerance.HEAP));
                case "-Xms" -> List.of(new Planned("InitialHeapSize", flag, bytes, Tolerance.HEAP));
                case "-Xmn" -> List.of(new Planned("NewSize", flag, bytes, Tolerance.HEAP), new Planned("MaxNewSize", flag, bytes, Tolerance.HEAP));
                // ThreadStackSize counts KiB
                default -> List.of(new Planned("ThreadStackSize", flag, Math.ceil(bytes / (double) Units.KI), Tolerance.SIZE));
            };
        }
        Matcher bool = BOOLEAN.matcher(flag);
        if (bool.matches()) {
            return reported(bool.group(2)) ? List.of(new Planned(bool.group(2), flag, bool.group(1).equals("+") ? 1 : 0, Tolerance.EXACT)) : List.of();
        }
        Matcher valued = VALUED.matcher(flag);
        if (!valued.matches() || !reported(valued.group(1))) {
            return List.of();
        }
        String option = valued.group(1);
        String text = valued.group(2);
        if (FRACTIONS.contains(option)) {
            try {
                return List.of(new Planned(option, flag, Double.parseDouble(text), Tolerance.EXACT));
            } catch (NumberFormatException e) {
                return List.of();
            }
        }
        Tolerance tolerance = HEAP_SIZES.contains(option) ? Tolerance.HEAP
                : BYTE_SIZES.contains(option) || option.equals("ThreadStackSize") ? Tolerance.SIZE : Tolerance.EXACT;
        // a JVM number: 512m is 512 MiB; ThreadStackSize=1024 is 1024 KiB, as HotSpot reads it
        return Units.jvmNumber(text).map(n -> List.of(new Planned(option, flag, n.doubleValue(), tolerance))).orElse(List.of());
    }

    private static boolean reported(String option) {
        return EffectiveOptions.READ.contains(option);
    }

    /** The bytes of -Xmx, -Xms, -Xmn or -Xss, when the flag is one of them with a size HotSpot reads. */
    private static Optional<Long> shortFormBytes(String flag) {
        if (!(flag.startsWith("-Xmx") || flag.startsWith("-Xms") || flag.startsWith("-Xmn") || flag.startsWith("-Xss"))) {
            return Optional.empty();
        }
        try {
            return Optional.of(Units.jvmBytes(flag.substring(4)));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
