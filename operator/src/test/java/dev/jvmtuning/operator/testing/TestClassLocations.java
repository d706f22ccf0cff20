package dev.jvmtuning.operator.testing;

import com.tngtech.archunit.core.importer.ImportOption;
import java.util.regex.Pattern;

/**
 * Where the build's test classes are: a module's own test-classes directory and the test-jars of the modules below it,
 * which are directories in a reactor's test phase and jars once packaged (as in verify).
 */
public final class TestClassLocations {
    private static final Pattern TEST_JAR = Pattern.compile(".*-tests\\.jar!/.*");

    public static final ImportOption TESTS = location -> ImportOption.Predefined.ONLY_INCLUDE_TESTS.includes(location)
            || location.matches(TEST_JAR);
    public static final ImportOption MAIN = location -> !TESTS.includes(location);

    private TestClassLocations() {
    }
}
