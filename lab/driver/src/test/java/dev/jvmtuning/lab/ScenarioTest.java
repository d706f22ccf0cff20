package dev.jvmtuning.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.jvmtuning.operator.api.v1alpha1.Runtime;
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
}
