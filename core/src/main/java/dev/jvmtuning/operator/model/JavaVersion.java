package dev.jvmtuning.operator.model;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The feature version (8, 17, 21, 25) of a version string a JVM reports as java.runtime.version. */
public final class JavaVersion {

    /**
     * The leading numbers: "25.0.3+9", "25-ea", "21+35-LTS", and before JDK 9 "1.8.0_392". Three digits at most,
     * followed by the end or a separator, so a figure or a hash that happens to start with digits is not taken for one.
     */
    private static final Pattern LEADING = Pattern.compile("(\\d{1,3})(?:\\.(\\d{1,3}))?(?:[._+\\-].*)?");

    private JavaVersion() {
    }

    /** The feature version, or null when the string does not read as a Java version. */
    public static Integer feature(String version) {
        if (version == null) {
            return null;
        }
        Matcher m = LEADING.matcher(version.strip());
        if (!m.matches()) {
            return null;
        }
        int first = Integer.parseInt(m.group(1));
        // Up to JDK 8 the feature was the second number: 1.8.0_392.
        int feature = first == 1 && m.group(2) != null ? Integer.parseInt(m.group(2)) : first;
        return feature >= 2 ? feature : null;
    }
}
