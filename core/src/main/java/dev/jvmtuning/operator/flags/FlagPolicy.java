package dev.jvmtuning.operator.flags;

import dev.jvmtuning.operator.api.v1alpha1.Patterns;
import dev.jvmtuning.operator.model.Units;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which jvmOptions entries a TuningProfile may carry: tuning flags only. An entry must be exactly one
 * flag that the target's JDK knows, with a value of the flag's type inside the JDK's range. Flags that
 * run commands or load agents are never taken; flags that load code, read option files, write files,
 * set system properties or change what the application is are refused unless the install-time
 * allow-list names them. Pure: the known-flag lists come in as values.
 */
public final class FlagPolicy {
    /** The operator setting that widens the policy; messages point at it. */
    public static final String ALLOW_SETTING = "jvm-tuning.flag-policy.allow";
    private static final Pattern ONE_FLAG = Pattern.compile(Patterns.JVM_FLAG);
    /** Below this no web service starts, and the profile's heap section has the same floor. */
    private static final long MAX_HEAP_FLOOR = 32 * Units.MI;
    /** HotSpot refuses an initial or young heap of a few KiB ("Too small initial heap"). */
    private static final long HEAP_FLOOR = Units.MI;
    /** More memory than any machine has: a size above it is a mistake, and the planner's sums of sizes stay in a long. */
    private static final long MAX_MEMORY = 16 * 1024 * Units.GI;
    /** Flags the planner reads as memory sizes, with the bytes their bare number counts (ThreadStackSize counts KiB). */
    private static final Map<String, Long> MEMORY_FLAGS = Map.of("MaxHeapSize", 1L, "InitialHeapSize", 1L, "NewSize", 1L,
            "MaxNewSize", 1L, "ReservedCodeCacheSize", 1L, "MaxDirectMemorySize", 1L, "ThreadStackSize", 1024L);
    /** More CPUs than Linux supports (NR_CPUS): a count above it is a mistake, and the planner's arithmetic on it stays in an int. */
    private static final int MAX_CPUS = 8192;
    /** Flags the planner reads as counts of CPUs or of GC threads. */
    private static final Set<String> CPU_FLAGS = Set.of("ActiveProcessorCount", "ParallelGCThreads", "ConcGCThreads");
    private static final Pattern DECIMAL = Pattern.compile("[0-9]+(\\.[0-9]+)?");
    private static final Pattern XX = Pattern.compile("-XX:(?:([+-])(\\w+)|(\\w+)=(.*))");
    private static final Pattern LOG_SELECTOR = Pattern.compile("([a-z0-9]+(?:\\+[a-z0-9]+)*)(\\*)?(?:=(off|trace|debug|info|warning|error))?");
    /** -X options that only choose a mode of the JVM; each must also be one the JDK lists in {@code java -X}. */
    private static final List<String> X_MODES = List.of("-Xint", "-Xmixed", "-Xcomp", "-Xbatch", "-Xrs", "-Xnoclassgc",
            "-Xshare:auto", "-Xshare:off", "-Xcheck:jni");
    private static final String TUNING_X_OPTIONS = "-Xmx, -Xms, -Xmn, -Xss, -Xlog, " + String.join(", ", X_MODES);
    /** String flags whose value is a keyword, not a file or a command: their keywords, the same in JDK 17, 21 and 25. */
    private static final Map<String, Set<String>> KEYWORD_FLAGS = Map.of(
            "NativeMemoryTracking", Set.of("off", "summary", "detail"),
            "CompilationMode", Set.of("default", "quick-only", "high-only"));

    /** Refused whatever the allow-list says; the CRD refuses them at admission too. */
    private static final List<Refusal> NEVER = List.of(
            new Refusal("-XX:OnError", "runs a shell command when the JVM hits a fatal error"),
            new Refusal("-XX:OnOutOfMemoryError", "runs a shell command when the JVM runs out of memory"),
            new Refusal("-javaagent", "loads a Java agent: code that runs inside the application"),
            new Refusal("-agentpath", "loads a native agent: code that runs inside the JVM"),
            new Refusal("-agentlib", "loads a native agent: code that runs inside the JVM"),
            new Refusal("-Xrun", "loads a native agent: code that runs inside the JVM"));

    /** Refused unless an allow-list entry is a prefix of the flag. */
    private static final List<Refusal> BY_DEFAULT = List.of(
            new Refusal("-XX:VMOptionsFile", "reads JVM options from a file"),
            new Refusal("-XX:Flags=", "reads JVM options from a file"),
            new Refusal("-XX:+UnlockDiagnosticVMOptions", "unlocks diagnostic flags, among them flags that write files or dump generated code"),
            new Refusal("-XX:+UnlockExperimentalVMOptions", "unlocks experimental flags, which are not meant for production"),
            new Refusal("-Xbootclasspath", "loads classes from the boot class path"),
            new Refusal("-Xloggc:", "writes a log file"),
            new Refusal("-Xverify", "changes bytecode verification"),
            new Refusal("-D", "sets a system property, and properties can redirect the application (java.security.manager, "
                    + "java.system.class.loader, proxies, trust stores, logging configuration)"),
            new Refusal("--", "is a java launcher option (class or module path, --add-opens and the like): it changes what code "
                    + "runs or what it may reach, not how the JVM is tuned"),
            new Refusal("-cp", "sets the class path: it changes what code runs"),
            new Refusal("-classpath", "sets the class path: it changes what code runs"),
            new Refusal("-jar", "names the application to run"));

    private final Map<Integer, KnownFlags> jdks;
    private final KnownFlags common;
    private final List<String> allow;

    /**
     * @param jdks  what each supported JDK knows, by feature version
     * @param allow flag prefixes refused by default that this installation accepts (-D, -XX:HeapDumpPath=, ...)
     */
    public FlagPolicy(Map<Integer, KnownFlags> jdks, List<String> allow) {
        this.jdks = Map.copyOf(jdks);
        this.common = KnownFlags.commonTo(List.copyOf(new TreeMap<>(jdks).values()));
        this.allow = List.copyOf(allow);
        for (String prefix : this.allow) {
            if (!ONE_FLAG.matcher(prefix).matches()) {
                throw new IllegalArgumentException(ALLOW_SETTING + " entry '" + prefix + "' is not the start of a JVM flag");
            }
            never(prefix).ifPresent(reason -> {
                throw new IllegalArgumentException(ALLOW_SETTING + " entry '" + prefix + "' cannot be allowed: such a flag " + reason);
            });
        }
    }

    /** The policy over the lists bundled for JDK 17, 21 and 25. */
    public static FlagPolicy bundled(List<String> allow) {
        return new FlagPolicy(Bundled.LISTS, allow);
    }

    /** The bundled lists with no allow-list: everything refused by default stays refused. */
    public static FlagPolicy standard() {
        return Bundled.STANDARD;
    }

    /** Loaded on first use, once per class loader. */
    private static final class Bundled {
        static final Map<Integer, KnownFlags> LISTS = lists();
        static final FlagPolicy STANDARD = new FlagPolicy(LISTS, List.of());

        private static Map<Integer, KnownFlags> lists() {
            Map<Integer, KnownFlags> lists = new LinkedHashMap<>();
            KnownFlags.SUPPORTED.forEach(feature -> lists.put(feature, KnownFlags.bundled(feature)));
            return lists;
        }
    }

    /**
     * What is wrong with each refused entry, naming the entry and the reason; empty when all pass.
     *
     * @param javaVersion the target JVM's feature version, or null when unknown: then a flag must be
     *                    known to every supported JDK, since the image may run any of them (and may be
     *                    rebuilt on another without the profile changing)
     */
    public List<String> problems(List<String> jvmOptions, Integer javaVersion) {
        KnownFlags known = javaVersion == null ? common : jdks.getOrDefault(javaVersion, common);
        Set<FlagKind> unlocked = EnumSet.noneOf(FlagKind.class);
        List<String> problems = new ArrayList<>();
        for (int i = 0; i < jvmOptions.size(); i++) {
            String entry = jvmOptions.get(i);
            Optional<String> problem = problem(entry, known, unlocked);
            if (problem.isPresent()) {
                problems.add("jvmOptions[" + i + "] " + shown(entry) + " " + problem.get());
            } else {
                for (FlagKind kind : FlagKind.values()) {
                    if (entry.equals(kind.unlockFlag())) {
                        unlocked.add(kind);
                    }
                }
            }
        }
        return problems;
    }

    private Optional<String> problem(String entry, KnownFlags known, Set<FlagKind> unlocked) {
        if (entry == null || !ONE_FLAG.matcher(entry).matches()) {
            return Optional.of("is not exactly one JVM flag: a '-' followed by letters, digits and . _ : + = / , * % @ - only "
                    + "(no spaces, newlines, quotes, backslashes or $ ` ; | & < > ( ))");
        }
        Optional<String> never = never(entry);
        if (never.isPresent()) {
            return never.map(reason -> "is refused: it " + reason + "; no setting allows it in a TuningProfile");
        }
        boolean allowed = allowed(entry);
        if (!allowed) {
            Optional<Refusal> refusal = BY_DEFAULT.stream().filter(r -> entry.startsWith(r.prefix())).findFirst();
            if (refusal.isPresent()) {
                return Optional.of(refusedByDefault(refusal.get().reason()));
            }
        }
        if (entry.startsWith("-XX:")) {
            return xxProblem(entry, known, unlocked, allowed);
        }
        if (entry.startsWith("-X")) {
            return xProblem(entry, known, allowed);
        }
        return allowed ? Optional.empty()
                : Optional.of("is not a tuning flag: a profile takes -XX flags and " + TUNING_X_OPTIONS);
    }

    private static Optional<String> never(String flag) {
        return NEVER.stream().filter(r -> flag.startsWith(r.prefix())).map(Refusal::reason).findFirst();
    }

    private boolean allowed(String flag) {
        return allow.stream().anyMatch(flag::startsWith);
    }

    private static String refusedByDefault(String reason) {
        return "is refused: it " + reason + "; an administrator can allow it at install time with " + ALLOW_SETTING;
    }

    private Optional<String> xxProblem(String entry, KnownFlags known, Set<FlagKind> unlocked, boolean allowed) {
        Matcher m = XX.matcher(entry);
        if (!m.matches()) {
            return Optional.of("is not a -XX flag: write -XX:+Name or -XX:-Name for a boolean, -XX:Name=value otherwise");
        }
        String name = m.group(2) != null ? m.group(2) : m.group(3);
        Optional<KnownFlag> declared = known.flag(name);
        if (declared.isEmpty()) {
            return Optional.of("is not a flag of " + known.jdks() + (known == common ? " (the target's JDK is not known, so a flag "
                    + "must be one that all of them know)" : ""));
        }
        KnownFlag flag = declared.get();
        boolean isUnlockFlag = ("-XX:+" + name).equals(flag.kind().unlockFlag());
        if (flag.kind() != FlagKind.PRODUCT && !unlocked.contains(flag.kind()) && !isUnlockFlag) {
            return Optional.of("is a " + flag.kind().word() + " flag: HotSpot refuses it unless " + flag.kind().unlockFlag()
                    + " comes earlier in jvmOptions");
        }
        if (flag.isBoolean()) {
            return m.group(1) != null ? Optional.empty() : Optional.of("sets a boolean flag: write -XX:+" + name + " or -XX:-" + name);
        }
        if (m.group(1) != null) {
            return Optional.of("needs a value: write -XX:" + name + "=<" + flag.type() + ">");
        }
        String value = m.group(4);
        if (flag.isString()) {
            return stringProblem(flag, value, allowed);
        }
        return flag.isDouble() ? decimalProblem(flag, value) : integerProblem(flag, value, known);
    }

    private static Optional<String> stringProblem(KnownFlag flag, String value, boolean allowed) {
        Set<String> keywords = KEYWORD_FLAGS.get(flag.name());
        if (keywords != null) {
            return keywords.contains(value) ? Optional.empty() : Optional.of("takes one of " + new TreeSet<>(keywords));
        }
        return allowed ? Optional.empty() : Optional.of(refusedByDefault("takes a string, which HotSpot reads as a file name, a "
                + "command or more options"));
    }

    private static Optional<String> decimalProblem(KnownFlag flag, String value) {
        if (!DECIMAL.matcher(value).matches()) {
            return Optional.of("takes a decimal number such as 75.0");
        }
        return rangeProblem(flag, new BigDecimal(value), value);
    }

    private static Optional<String> integerProblem(KnownFlag flag, String value, KnownFlags known) {
        Optional<BigDecimal> parsed = Units.jvmNumber(value).map(BigDecimal::new);
        if (parsed.isEmpty() || (!flag.isSigned() && parsed.get().signum() < 0)) {
            return Optional.of("takes " + (flag.isSigned() ? "a whole number" : "a whole number of at least 0")
                    + ", optionally with a k, m, g or t suffix");
        }
        BigDecimal number = parsed.get();
        if (number.compareTo(flag.typeMax()) > 0) {
            return Optional.of("is larger than a " + flag.type() + " holds");
        }
        Optional<String> beyond = beyondAnyMachine(flag.name(), number);
        if (beyond.isPresent()) {
            return beyond;
        }
        Optional<String> floor = switch (flag.name()) {
            case "ThreadStackSize" -> stackProblem(number.longValueExact() * 1024, known, value);
            case "MaxHeapSize" -> below(number.longValueExact(), MAX_HEAP_FLOOR, "a maximum heap");
            case "InitialHeapSize" -> below(number.longValueExact(), HEAP_FLOOR, "an initial heap");
            default -> Optional.empty();
        };
        return floor.isPresent() ? floor : rangeProblem(flag, number, value);
    }

    /** Within the JDK's range, yet more memory or CPUs than any machine has: the planner would budget with nonsense. */
    private static Optional<String> beyondAnyMachine(String name, BigDecimal number) {
        Long unit = MEMORY_FLAGS.get(name);
        if (unit != null && number.multiply(BigDecimal.valueOf(unit)).compareTo(BigDecimal.valueOf(MAX_MEMORY)) > 0) {
            return Optional.of(largerThanAnyMemory());
        }
        if (CPU_FLAGS.contains(name) && number.compareTo(BigDecimal.valueOf(MAX_CPUS)) > 0) {
            return Optional.of("is out of range: above " + MAX_CPUS + ", more CPUs than Linux supports");
        }
        return Optional.empty();
    }

    private static String largerThanAnyMemory() {
        return "is larger than any memory: at most " + MAX_MEMORY / (Units.GI * 1024) + "t";
    }

    private static Optional<String> rangeProblem(KnownFlag flag, BigDecimal number, String value) {
        boolean tooSmall = flag.min() != null && number.compareTo(flag.min()) < 0;
        boolean tooLarge = flag.max() != null && number.compareTo(flag.max()) > 0;
        return tooSmall || tooLarge ? Optional.of("is out of range: " + value + " is outside [" + plain(flag.min()) + " ... "
                + plain(flag.max()) + "]") : Optional.empty();
    }

    private Optional<String> xProblem(String entry, KnownFlags known, boolean allowed) {
        for (String sized : List.of("-Xmx", "-Xms", "-Xmn", "-Xss")) {
            if (entry.startsWith(sized)) {
                return sizeProblem(sized, entry.substring(sized.length()), known);
            }
        }
        if (entry.equals("-Xlog") || entry.startsWith("-Xlog:")) {
            return known.xOptions().contains("-Xlog:<opts>") ? logProblem(entry, known, allowed) : Optional.of(unknownTo(known));
        }
        if (X_MODES.contains(entry)) {
            return known.xOptions().contains(entry) ? Optional.empty() : Optional.of(unknownTo(known));
        }
        return allowed ? Optional.empty() : Optional.of("is not a tuning option: of the -X options a profile takes " + TUNING_X_OPTIONS);
    }

    private static String unknownTo(KnownFlags known) {
        return "is not an option of " + known.jdks();
    }

    private static Optional<String> sizeProblem(String option, String value, KnownFlags known) {
        Optional<BigInteger> size = Units.jvmNumber(value).filter(n -> n.signum() >= 0);
        if (size.isEmpty()) {
            return Optional.of("takes a size such as " + option + "512m (a number, optionally with k, m, g or t)");
        }
        if (size.get().compareTo(BigInteger.valueOf(MAX_MEMORY)) > 0) {
            return Optional.of(largerThanAnyMemory());
        }
        long bytes = size.get().longValue();
        return switch (option) {
            case "-Xss" -> stackProblem(bytes, known, value);
            case "-Xmx" -> below(bytes, MAX_HEAP_FLOOR, "a maximum heap");
            case "-Xms" -> below(bytes, HEAP_FLOOR, "an initial heap");
            default -> below(bytes, HEAP_FLOOR, "a young generation");
        };
    }

    /** The thread stack between the JDK's own minimum and the most ThreadStackSize holds. */
    private static Optional<String> stackProblem(long bytes, KnownFlags known, String value) {
        long minimum = known.minStackKib() * 1024;
        Optional<BigDecimal> maxKib = known.flag("ThreadStackSize").map(KnownFlag::max);
        if (bytes < minimum) {
            return Optional.of("is out of range: a thread stack of " + value + " is below the " + known.minStackKib() + "k that "
                    + known.jdks() + " needs at least");
        }
        if (maxKib.isPresent() && BigDecimal.valueOf(bytes).compareTo(maxKib.get().multiply(BigDecimal.valueOf(1024))) > 0) {
            return Optional.of("is out of range: a thread stack of " + value + " is above the " + plain(maxKib.get()) + "k "
                    + "that HotSpot allows");
        }
        return Optional.empty();
    }

    private static Optional<String> below(long bytes, long floor, String what) {
        return bytes < floor ? Optional.of("is out of range: " + what + " below " + floor / Units.MI + "m does not start") : Optional.empty();
    }

    /**
     * -Xlog[:what[:output[:decorators]]] with known tags and decorators; an output other than stdout
     * or stderr is a file, refused unless allowed (and then passed as written).
     */
    private static Optional<String> logProblem(String entry, KnownFlags known, boolean allowed) {
        String[] parts = entry.equals("-Xlog") ? new String[0] : entry.substring("-Xlog:".length()).split(":", -1);
        if (parts.length > 1 && !parts[1].isEmpty() && !parts[1].equals("stdout") && !parts[1].equals("stderr")) {
            return allowed ? Optional.empty() : Optional.of(refusedByDefault("writes a log file"));
        }
        if (parts.length > 3) {
            return Optional.of("has output options, which only log files take");
        }
        if (parts.length > 0 && !parts[0].isEmpty() && !parts[0].equals("disable")) {
            for (String selector : parts[0].split(",", -1)) {
                Matcher m = LOG_SELECTOR.matcher(selector);
                if (!m.matches()) {
                    return Optional.of("has a malformed log selector '" + selector + "': write tag[+tag...][*][=level]");
                }
                for (String tag : m.group(1).split("\\+")) {
                    if (!tag.equals("all") && !known.logTags().contains(tag)) {
                        return Optional.of("names log tag '" + tag + "', which is not one of " + known.jdks());
                    }
                }
            }
        }
        if (parts.length > 2 && !parts[2].isEmpty()) {
            for (String decorator : parts[2].split(",", -1)) {
                if (!known.logDecorators().contains(decorator)) {
                    return Optional.of("names log decorator '" + decorator + "', which is not one of " + known.jdks());
                }
            }
        }
        return Optional.empty();
    }

    private static String plain(BigDecimal bound) {
        return bound == null ? "" : bound.toPlainString();
    }

    /** The entry quoted for a status message: control characters escaped, long ones cut. */
    private static String shown(String entry) {
        if (entry == null) {
            return "null";
        }
        StringBuilder out = new StringBuilder("'");
        entry.codePoints().limit(80).forEach(c -> out.append(c < 0x20 || c == 0x7f ? String.format("\\u%04x", c) : Character.toString(c)));
        return out.append(entry.length() > 80 ? "...'" : "'").toString();
    }

    private record Refusal(String prefix, String reason) {
    }
}
