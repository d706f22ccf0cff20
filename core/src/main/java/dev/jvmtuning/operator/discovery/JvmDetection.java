package dev.jvmtuning.operator.discovery;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Whether a Deployment runs a JVM, judged from its pod template alone (nothing is executed or
 * pulled): the first container whose command or arguments start {@code java} or name a jar, whose
 * environment carries a JVM options variable or JAVA_HOME, or whose image is a known JVM base or
 * server image. Pure.
 */
public final class JvmDetection {
    /** Environment variables only a JVM, its launcher or its entrypoint scripts read. */
    static final Set<String> JVM_VARIABLES = Set.of("JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS", "JAVA_OPTS", "CATALINA_OPTS", "JAVA_HOME");
    /** Image repositories (the part after the registry and before the tag) of JDK, JRE and Java server images. */
    static final List<String> JVM_IMAGES = List.of("eclipse-temurin", "openjdk", "amazoncorretto", "azul/zulu-openjdk", "ibm-semeru-runtimes",
            "sapmachine", "bellsoft/liberica", "tomcat", "jetty", "ubi8/openjdk", "ubi9/openjdk", "distroless/java");

    /** A JVM container and what gave it away, shown on the profile. */
    public record Found(Container container, String evidence) {
    }

    private JvmDetection() {
    }

    public static Optional<Found> find(Deployment deployment) {
        List<Container> containers = Optional.ofNullable(deployment.getSpec()).map(s -> s.getTemplate())
                .map(t -> t.getSpec()).map(s -> s.getContainers()).orElse(List.of());
        return containers.stream().map(c -> evidence(c).map(e -> new Found(c, e))).flatMap(Optional::stream).findFirst();
    }

    static Optional<String> evidence(Container container) {
        List<String> words = Stream.concat(Objects.requireNonNullElse(container.getCommand(), List.<String>of()).stream(),
                Objects.requireNonNullElse(container.getArgs(), List.<String>of()).stream()).toList();
        Optional<String> launcher = words.stream().map(JvmDetection::launcher).flatMap(Optional::stream).findFirst();
        if (launcher.isPresent()) {
            return Optional.of("its command runs '" + launcher.get() + "'");
        }
        Optional<String> variable = Objects.requireNonNullElse(container.getEnv(), List.<EnvVar>of()).stream().map(EnvVar::getName)
                .filter(JVM_VARIABLES::contains).findFirst();
        if (variable.isPresent()) {
            return Optional.of("it sets " + variable.get());
        }
        String repository = repository(Objects.requireNonNullElse(container.getImage(), ""));
        // "tomcat", "library/tomcat", "ubi9/openjdk-21-runtime", "distroless/java17-debian12"; not "tomcat-exporter"
        return JVM_IMAGES.stream().filter(known -> repository.matches("(.*/)?" + Pattern.quote(known) + "([-.]?[0-9][\\w.-]*)?"))
                .findFirst().map(known -> "its image " + container.getImage() + " is a JVM image");
    }

    /** {@code java}, {@code /opt/java/bin/java}, {@code -jar} or {@code app.jar}, as an argument or a word of a shell line. */
    private static Optional<String> launcher(String argument) {
        return Stream.of(argument.strip().split("\\s+"))
                .filter(word -> word.substring(word.lastIndexOf('/') + 1).equals("java") || word.equals("-jar") || word.endsWith(".jar"))
                .findFirst();
    }

    /** "registry.example.com:5000/team/app:1.2@sha256:..." gives "team/app"; "docker.io/library/tomcat:10" gives "library/tomcat". */
    static String repository(String image) {
        String withoutDigest = image.split("@", 2)[0];
        int slash = withoutDigest.indexOf('/');
        String path = slash > 0 && (withoutDigest.substring(0, slash).contains(".") || withoutDigest.substring(0, slash).contains(":"))
                ? withoutDigest.substring(slash + 1) : withoutDigest;
        int tag = path.lastIndexOf(':');
        return (tag > path.lastIndexOf('/') ? path.substring(0, tag) : path).toLowerCase(Locale.ROOT);
    }
}
