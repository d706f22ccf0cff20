package dev.jvmtuning.operator.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A package lives in one module's main sources: a class's package then says which module holds it, and
 * modules on one class path never split a package. Read from the sources of every module, the root
 * reactor's, the agent's and the lab's, from the repository's root (the tests' working directory).
 */
class SplitPackagesTest {
    private static final Path MAIN_SOURCES = Path.of("src", "main", "java");

    @Test
    void everyPackageLivesInOneModule() throws IOException {
        Map<String, Set<String>> modulesByPackage = new TreeMap<>();
        for (Path sources : mainSourceRoots()) {
            String module = sources.getParent().getParent().getParent().toString();
            try (Stream<Path> files = Files.walk(sources)) {
                files.filter(f -> f.toString().endsWith(".java"))
                        .map(f -> sources.relativize(f.getParent()).toString().replace(f.getFileSystem().getSeparator(), "."))
                        .forEach(pkg -> modulesByPackage.computeIfAbsent(pkg, p -> new TreeSet<>()).add(module));
            }
        }
        assertThat(modulesByPackage).as("the sources read").containsKey("dev.jvmtuning.operator.reconciler");
        assertThat(modulesByPackage.entrySet().stream().filter(e -> e.getValue().size() > 1)
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue)))
                .as("packages in the main sources of several modules").isEmpty();
    }

    private static Set<Path> mainSourceRoots() throws IOException {
        try (Stream<Path> dirs = Files.walk(Path.of(""), 3)) {
            return dirs.filter(SplitPackagesTest::isSourceTree).map(d -> d.resolve(MAIN_SOURCES)).filter(Files::isDirectory)
                    .collect(Collectors.toSet());
        }
    }

    /** Not build output, not the repository's own files (.git) and not a lab run's copies (.work and the like). */
    private static boolean isSourceTree(Path dir) {
        for (Path name : dir) {
            if (name.toString().equals("target") || name.toString().startsWith(".")) {
                return false;
            }
        }
        return true;
    }
}
