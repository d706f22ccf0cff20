package dev.jvmtuning.operator.deployment;

import dev.jvmtuning.operator.api.v1alpha1.Runtime;
import dev.jvmtuning.operator.api.v1alpha1.Threading;
import dev.jvmtuning.operator.api.v1alpha1.ThreadingModel;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfileSpec;
import dev.jvmtuning.operator.model.ContainerFacts;
import dev.jvmtuning.operator.model.JvmFlags;
import dev.jvmtuning.operator.model.RequestThreading;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Whether the target serves requests on virtual threads: the profile's spec.threading.model when set, else Spring Boot's
 * spring.threads.virtual.enabled as the container sets it. Quarkus marks endpoints with @RunOnVirtualThread in code, where
 * nothing of the pod template shows it, so a Quarkus profile says it. Pure.
 */
public final class ThreadingDetection {
    static final String PROPERTY = "spring.threads.virtual.enabled";
    static final String VARIABLE = "SPRING_THREADS_VIRTUAL_ENABLED";
    /** Virtual threads left preview in JDK 21; Spring Boot ignores the property on older JVMs. */
    static final int FIRST_JDK = 21;

    /** One place in the container that sets the property, and the value it sets. */
    record Found(String where, boolean enabled) {
    }

    private ThreadingDetection() {
    }

    /** As the planner detects it, from the profile and every JVM flag the container and the profile give the JVM. */
    public static RequestThreading detect(TuningProfileSpec spec, ContainerFacts facts) {
        List<String> jvmOptions = Objects.requireNonNullElse(spec.getJvmOptions(), List.of());
        return detect(spec.getThreading(), spec.getRuntime(), facts, facts.jvmFlags(spec.getJvmOptionsVariable(), jvmOptions));
    }

    /**
     * @param userFlags every JVM flag the container and the profile give the JVM, in the order it reads them
     */
    public static RequestThreading detect(Threading spec, Runtime runtime, ContainerFacts facts, JvmFlags userFlags) {
        List<Found> found = runtime == Runtime.Quarkus ? List.of() : springSettings(facts, userFlags);
        Found winner = found.isEmpty() ? null : found.get(found.size() - 1);
        RequestThreading detected = detected(winner, runtime, facts.javaMajorVersion());
        String overruled = found.stream().filter(f -> winner != null && f.enabled() != winner.enabled()).map(Found::where).findFirst()
                .map(loser -> loser + ", but " + winner.where() + ", which Spring Boot ranks higher").orElse(null);
        ThreadingModel asked = spec == null ? null : spec.getModel();
        if (asked == null) {
            return new RequestThreading(detected.model(), detected.source(), overruled);
        }
        String conflict = asked == detected.model() || winner == null ? null
                : "spec.threading.model is " + asked + " but " + detected.source() + "; the plan follows the profile";
        return new RequestThreading(asked, "spec.threading.model", conflict);
    }

    private static RequestThreading detected(Found winner, Runtime runtime, Integer javaMajorVersion) {
        if (winner == null) {
            return new RequestThreading(ThreadingModel.Platform, "no " + PROPERTY + " in the container's env, JVM options or arguments", null);
        }
        if (!winner.enabled()) {
            return new RequestThreading(ThreadingModel.Platform, winner.where(), null);
        }
        if (javaMajorVersion != null && javaMajorVersion < FIRST_JDK) {
            return new RequestThreading(ThreadingModel.Platform, winner.where() + ", but the JVM is " + javaMajorVersion
                    + " and Spring Boot uses virtual threads from " + FIRST_JDK + " on", null);
        }
        if (runtime == Runtime.SpringBootUndertow) {
            return new RequestThreading(ThreadingModel.Platform, winner.where()
                    + ", but Spring Boot runs Undertow's requests on its worker pool all the same", null);
        }
        return new RequestThreading(ThreadingModel.Virtual, winner.where(), null);
    }

    /**
     * Every setting of the property, lowest precedence first as Spring Boot ranks them: the OS environment, then
     * system properties (the last -D the JVM reads wins), then command-line arguments.
     */
    private static List<Found> springSettings(ContainerFacts facts, JvmFlags userFlags) {
        List<Found> found = new ArrayList<>();
        String variable = facts.env().get(VARIABLE);
        if (variable != null) {
            found.add(new Found("the container's env sets " + VARIABLE + "=" + variable, isTrue(variable)));
        }
        String systemProperty = "-D" + PROPERTY + "=";
        userFlags.all().stream().filter(f -> f.startsWith(systemProperty)).reduce((first, last) -> last).ifPresent(flag ->
                found.add(new Found(userFlags.sourceOf(flag).orElseThrow() + " has " + flag, isTrue(flag.substring(systemProperty.length())))));
        String argument = "--" + PROPERTY + "=";
        facts.commandLine().stream().filter(t -> t.startsWith(argument)).reduce((first, last) -> last).ifPresent(arg ->
                found.add(new Found(ContainerFacts.COMMAND_LINE + " have " + arg, isTrue(arg.substring(argument.length())))));
        return found;
    }

    /** Spring Boot binds booleans case-insensitively; anything but "true" leaves virtual threads off. */
    private static boolean isTrue(String value) {
        return value.strip().toLowerCase(Locale.ROOT).equals("true");
    }
}
