package dev.jvmtuning.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.jvmtuning.operator.api.v1alpha1.Runtime;
import dev.jvmtuning.operator.api.v1alpha1.ThreadingModel;
import dev.jvmtuning.operator.model.ServerVocabulary;
import dev.jvmtuning.operator.model.Setting;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ScenarioTest {
    private static Scenario named(String name) {
        return Scenario.ALL.stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void namesAreUnique() {
        assertEquals(Scenario.ALL.size(), Scenario.ALL.stream().map(Scenario::name).distinct().count());
    }

    @Test
    void theSameMixedWorkloadRunsOnTomcatJettyAndUndertow() {
        List<Scenario> mixed = List.of(named("mixed"), named("jetty-mixed"), named("undertow-mixed"));
        assertEquals(List.of(Runtime.SpringBootTomcat, Runtime.SpringBootJetty, Runtime.SpringBootUndertow),
                mixed.stream().map(Scenario::runtime).toList());
        for (Scenario s : mixed) {
            assertEquals(named("mixed").query(), s.query());
            assertEquals(named("mixed").clients(), s.clients());
            assertEquals(named("mixed").memory(), s.memory());
            assertEquals(named("mixed").nominal().getRequestsPerSecond(), s.nominal().getRequestsPerSecond());
        }
    }

    @Test
    void undertowsSweepSetsItsWorkerThreads() {
        Scenario.Sweep sweep = named("undertow-mixed").sweeps().get(0);
        assertEquals(named("jetty-mixed").sweeps().get(0).values(), sweep.values());
        assertEquals(Map.of("SERVER_UNDERTOW_THREADS_WORKER", "50"), sweep.env().apply("50"));
    }

    @Test
    void theVirtualThreadScenariosAreOneOverloadOnTomcatAndJettyOnJava21AndOnTomcatOnJava25() {
        List<Scenario> virtual = List.of(named("vt-pool-bound"), named("vt-jetty-pool-bound"), named("vt-pool-bound-jdk25"));
        assertEquals(List.of(Runtime.SpringBootTomcat, Runtime.SpringBootJetty, Runtime.SpringBootTomcat),
                virtual.stream().map(Scenario::runtime).toList());
        assertEquals(List.of(21, 21, 25), virtual.stream().map(s -> s.service().java()).toList());
        for (Scenario s : virtual) {
            assertEquals(ThreadingModel.Virtual, s.service().threading());
            assertEquals("true", s.service().environment().get("SPRING_THREADS_VIRTUAL_ENABLED"));
            assertEquals(named("vt-pool-bound").query(), s.query());
            assertEquals(named("vt-pool-bound").clients(), s.clients());
            // Twice the requests the pool's 10 connections, held 100 ms, let in flight within the 250 ms wait: 100/s x 370 ms.
            assertEquals(2 * 37, s.clients());
            assertEquals("connection limit", s.sweeps().get(0).knob());
        }
    }

    @Test
    void theServiceSetsItsPoolAsTheOperatorRendersIt() {
        Scenario s = named("vt-pool-bound");
        ServerVocabulary spring = ServerVocabulary.of(s.runtime());
        assertEquals(Integer.toString(s.service().poolMaxSize()),
                s.service().environment().get(spring.environmentVariable(spring.properties().get(Setting.POOL_MAX_SIZE))));
        assertEquals("250", s.service().environment().get(spring.environmentVariable(spring.properties().get(Setting.POOL_ACQUISITION_TIMEOUT))));
        assertEquals(Map.of("SERVER_JETTY_MAXCONNECTIONS", "40"), named("vt-jetty-pool-bound").sweeps().get(0).env().apply("40"));
    }

    @Test
    void platformScenariosRunOnTheLabsOwnJava() {
        assertEquals(Scenario.Service.PLATFORM, named("pool-bound").service());
        assertEquals(17, Scenario.Service.PLATFORM.java());
    }
}
