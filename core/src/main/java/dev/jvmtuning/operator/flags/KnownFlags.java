package dev.jvmtuning.operator.flags;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What one JDK knows (or, from {@link #commonTo}, what several all know): its -XX flags, its -X
 * options, its log tags and decorators and the smallest thread stack it starts with. Read from the
 * list files under jvm-flags/ that the JDKs themselves printed (KnownFlagsGenerator in the tests).
 */
public record KnownFlags(String jdks, Map<String, KnownFlag> flags, Set<String> xOptions, Set<String> logTags,
        Set<String> logDecorators, long minStackKib) {
    /** The JDK feature versions the operator supports, each with a list file. */
    public static final List<Integer> SUPPORTED = List.of(17, 21, 25);
    public static final String RESOURCE_DIRECTORY = "jvm-flags";

    public KnownFlags {
        flags = Map.copyOf(flags);
        xOptions = Set.copyOf(xOptions);
        logTags = Set.copyOf(logTags);
        logDecorators = Set.copyOf(logDecorators);
    }

    public static String resourceName(int feature) {
        return "jdk" + feature + ".txt";
    }

    /**
     * The list file of a supported JDK, from the class path. A resource of the jar, not a file the
     * operator finds at run time: the lists are part of the build like the code that reads them.
     */
    public static KnownFlags bundled(int feature) {
        String resource = RESOURCE_DIRECTORY + "/" + resourceName(feature);
        try (InputStream in = KnownFlags.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException(resource + " is missing from the class path");
            }
            return parse("JDK " + feature, new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Parses a list file: {@code #} comments, then one fact a line: {@code min-stack KIB},
     * {@code flag NAME TYPE KIND [MIN MAX]}, {@code x-option FORM}, {@code log-tag TAG}, {@code log-decorator NAME}.
     */
    public static KnownFlags parse(String jdks, String text) {
        Map<String, KnownFlag> flags = new LinkedHashMap<>();
        Set<String> xOptions = new LinkedHashSet<>();
        Set<String> logTags = new LinkedHashSet<>();
        Set<String> logDecorators = new LinkedHashSet<>();
        long minStackKib = 0;
        for (String line : text.lines().map(String::strip).filter(l -> !l.isEmpty() && !l.startsWith("#")).toList()) {
            String[] f = line.split(" ");
            switch (f[0]) {
                case "min-stack" -> minStackKib = Long.parseLong(f[1]);
                case "flag" -> flags.put(f[1], new KnownFlag(f[1], f[2], FlagKind.of(f[3]),
                        f.length > 4 ? new BigDecimal(f[4]) : null, f.length > 5 ? new BigDecimal(f[5]) : null));
                case "x-option" -> xOptions.add(f[1]);
                case "log-tag" -> logTags.add(f[1]);
                case "log-decorator" -> logDecorators.add(f[1]);
                default -> throw new IllegalArgumentException("unknown line in the flag list of " + jdks + ": " + line);
            }
        }
        return new KnownFlags(jdks, flags, xOptions, logTags, logDecorators, minStackKib);
    }

    /**
     * What every one of these JDKs takes: flags all of them know in the same type family, at the
     * stricter kind, narrower type and narrower range, and the largest minimum stack.
     */
    public static KnownFlags commonTo(List<KnownFlags> lists) {
        KnownFlags common = lists.get(0);
        List<String> names = lists.stream().map(KnownFlags::jdks).toList();
        for (KnownFlags next : lists.subList(1, lists.size())) {
            Map<String, KnownFlag> flags = new LinkedHashMap<>();
            common.flags.forEach((name, flag) -> Optional.ofNullable(next.flags.get(name))
                    .filter(other -> other.family().equals(flag.family()))
                    .ifPresent(other -> flags.put(name, flag.and(other))));
            common = new KnownFlags(common.jdks, flags, retained(common.xOptions, next.xOptions),
                    retained(common.logTags, next.logTags), retained(common.logDecorators, next.logDecorators),
                    Math.max(common.minStackKib, next.minStackKib));
        }
        return lists.size() == 1 ? common : new KnownFlags("every one of " + String.join(", ", names.subList(0, names.size() - 1))
                + " and " + names.get(names.size() - 1), common.flags, common.xOptions, common.logTags, common.logDecorators,
                common.minStackKib);
    }

    private static Set<String> retained(Set<String> a, Set<String> b) {
        Set<String> both = new LinkedHashSet<>(a);
        both.retainAll(b);
        return both;
    }

    public Optional<KnownFlag> flag(String name) {
        return Optional.ofNullable(flags.get(name));
    }
}
