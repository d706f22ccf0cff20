package dev.jvmtuning.operator.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jvmtuning.operator.api.v1alpha1.JvmOptionsVariable;
import dev.jvmtuning.operator.api.v1alpha1.Runtime;
import dev.jvmtuning.operator.api.v1alpha1.Threading;
import dev.jvmtuning.operator.api.v1alpha1.ThreadingModel;
import dev.jvmtuning.operator.model.ContainerFacts;
import dev.jvmtuning.operator.model.RequestThreading;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Whether the target serves on virtual threads, from each place Spring Boot reads the property, and the profile's word over all. */
class ThreadingDetectionTest {

    private static ContainerFacts container(Map<String, String> env, List<String> command, List<String> args, Integer jdk) {
        return new ContainerFacts(2.0, 2.0, 1L << 30, 1L << 30, env, Set.of(), command, args, jdk, 1);
    }

    private static RequestThreading detect(ThreadingModel asked, Runtime runtime, ContainerFacts facts) {
        Threading spec = asked == null ? null : new Threading();
        if (spec != null) {
            spec.setModel(asked);
        }
        return ThreadingDetection.detect(spec, runtime, facts, facts.jvmFlags(JvmOptionsVariable.JAVA_TOOL_OPTIONS, List.of()));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            env                   | SPRING_THREADS_VIRTUAL_ENABLED | true                                          |                                        | Virtual  | the container's env sets SPRING_THREADS_VIRTUAL_ENABLED=true
            env, any case         | SPRING_THREADS_VIRTUAL_ENABLED | TRUE                                          |                                        | Virtual  | the container's env sets SPRING_THREADS_VIRTUAL_ENABLED=TRUE
            env, off              | SPRING_THREADS_VIRTUAL_ENABLED | false                                         |                                        | Platform | the container's env sets SPRING_THREADS_VIRTUAL_ENABLED=false
            JAVA_TOOL_OPTIONS     | JAVA_TOOL_OPTIONS              | -Xss512k -Dspring.threads.virtual.enabled=true |                                        | Virtual  | the container's JAVA_TOOL_OPTIONS has -Dspring.threads.virtual.enabled=true
            JDK_JAVA_OPTIONS      | JDK_JAVA_OPTIONS               | -Dspring.threads.virtual.enabled=true         |                                        | Virtual  | the container's JDK_JAVA_OPTIONS has -Dspring.threads.virtual.enabled=true
            system property, args | OTHER                          | x                                             | -Dspring.threads.virtual.enabled=true  | Virtual  | the container's command/args has -Dspring.threads.virtual.enabled=true
            Spring argument       | OTHER                          | x                                             | --spring.threads.virtual.enabled=true  | Virtual  | the container's command/args have --spring.threads.virtual.enabled=true
            nothing               | OTHER                          | x                                             | --server.port=8080                     | Platform | no spring.threads.virtual.enabled in the container's env, JVM options or arguments
            """)
    void eachPlaceSpringBootReadsThePropertyFrom(String place, String variable, String value, String argument, ThreadingModel model,
            String source) {
        List<String> args = argument == null ? List.of() : List.of("-jar", "app.jar", argument);
        RequestThreading found = detect(null, Runtime.SpringBootTomcat, container(Map.of(variable, value), List.of("java"), args, 21));

        assertThat(found.model()).isEqualTo(model);
        assertThat(found.source()).isEqualTo(source);
        assertThat(found.conflict()).isNull();
    }

    @Test
    void conflictingSourcesGoBySpringBootsPrecedenceAndTheLoserIsNamed() {
        // arguments over system properties over the environment
        ContainerFacts facts = container(Map.of("SPRING_THREADS_VIRTUAL_ENABLED", "true",
                "JAVA_TOOL_OPTIONS", "-Dspring.threads.virtual.enabled=true"), List.of(), List.of("--spring.threads.virtual.enabled=false"), 21);
        RequestThreading found = detect(null, Runtime.SpringBootTomcat, facts);

        assertThat(found.model()).isEqualTo(ThreadingModel.Platform);
        assertThat(found.source()).isEqualTo("the container's command/args have --spring.threads.virtual.enabled=false");
        assertThat(found.conflict()).isEqualTo("the container's env sets SPRING_THREADS_VIRTUAL_ENABLED=true, but the container's "
                + "command/args have --spring.threads.virtual.enabled=false, which Spring Boot ranks higher");

        // the last system property the JVM reads wins: the command line after JAVA_TOOL_OPTIONS
        ContainerFacts properties = container(Map.of("JAVA_TOOL_OPTIONS", "-Dspring.threads.virtual.enabled=false"),
                List.of("java", "-Dspring.threads.virtual.enabled=true", "-jar", "app.jar"), List.of(), 21);
        assertThat(detect(null, Runtime.SpringBootJetty, properties).model()).isEqualTo(ThreadingModel.Virtual);
    }

    @Test
    void theProfileWinsOverTheContainerAndSaysWhereTheyDisagree() {
        ContainerFacts on = container(Map.of("SPRING_THREADS_VIRTUAL_ENABLED", "true"), List.of(), List.of(), 21);
        RequestThreading platform = detect(ThreadingModel.Platform, Runtime.SpringBootTomcat, on);
        assertThat(platform.model()).isEqualTo(ThreadingModel.Platform);
        assertThat(platform.source()).isEqualTo("spec.threading.model");
        assertThat(platform.conflict()).isEqualTo("spec.threading.model is Platform but the container's env sets "
                + "SPRING_THREADS_VIRTUAL_ENABLED=true; the plan follows the profile");

        // Quarkus's @RunOnVirtualThread is in code: only the profile can say it, and nothing disagrees
        RequestThreading quarkus = detect(ThreadingModel.Virtual, Runtime.Quarkus, container(Map.of(), List.of(), List.of(), null));
        assertThat(quarkus.model()).isEqualTo(ThreadingModel.Virtual);
        assertThat(quarkus.conflict()).isNull();
    }

    @Test
    void thePropertyTurnsNoVirtualThreadsOnWhereSpringBootCannot() {
        Map<String, String> on = Map.of("SPRING_THREADS_VIRTUAL_ENABLED", "true");
        RequestThreading jdk17 = detect(null, Runtime.SpringBootTomcat, container(on, List.of(), List.of(), 17));
        assertThat(jdk17.model()).isEqualTo(ThreadingModel.Platform);
        assertThat(jdk17.source()).endsWith("but the JVM is 17 and Spring Boot uses virtual threads from 21 on");

        assertThat(detect(null, Runtime.SpringBootUndertow, container(on, List.of(), List.of(), 21)).model()).isEqualTo(ThreadingModel.Platform);
        assertThat(detect(null, Runtime.Quarkus, container(on, List.of(), List.of(), 21)).source())
                .as("a Spring property means nothing to Quarkus").startsWith("no spring.threads.virtual.enabled");
        assertThat(detect(null, Runtime.SpringBootTomcat, container(on, List.of(), List.of(), null)).model())
                .as("an unknown JDK is taken at its word").isEqualTo(ThreadingModel.Virtual);
    }
}
