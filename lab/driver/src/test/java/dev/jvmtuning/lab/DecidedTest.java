package dev.jvmtuning.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jvmtuning.operator.api.v1alpha1.Auto;
import dev.jvmtuning.operator.api.v1alpha1.AutoSettings;
import dev.jvmtuning.operator.api.v1alpha1.AutoStatus;
import dev.jvmtuning.operator.api.v1alpha1.Heap;
import dev.jvmtuning.operator.api.v1alpha1.Mode;
import dev.jvmtuning.operator.api.v1alpha1.Runtime;
import dev.jvmtuning.operator.api.v1alpha1.Threads;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfileSpec;
import dev.jvmtuning.operator.model.Reason;
import dev.jvmtuning.operator.model.ServerVocabulary;
import dev.jvmtuning.operator.model.Setting;
import dev.jvmtuning.operator.planner.PlanResult;
import dev.jvmtuning.operator.planner.Planner;
import dev.jvmtuning.operator.render.Renderer;
import dev.jvmtuning.operator.render.Rendering;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The lab starts the settings the operator's own decision writes into the app's container: the plan's rendering, literally. */
class DecidedTest {
    @Test
    void eachScenarioRunsThePlannersRenderingAsTheOperatorWritesIt() {
        for (Scenario scenario : Scenario.ALL) {
            TuningProfileSpec spec = TuningLab.profile(scenario).setWorkload(scenario.nominal()).setThreads(new Threads());
            Rendering rendering = Renderer.render(((PlanResult.Plan) Planner.plan(spec, TuningLab.facts(scenario))).values(), spec,
                    TuningLab.facts(scenario));
            Map<String, String> planned = new HashMap<>(rendering.serverEnvironment());
            planned.put(rendering.jvmOptionsVariable(), rendering.jvmOptionsValue());

            TuningLab.Decided decided = TuningLab.decided(scenario, spec, null);

            assertNull(decided.notApplied(), scenario.name());
            assertEquals(planned, decided.env(), scenario.name());
        }
    }

    @Test
    void modeAutoRunsTheLoopsSettingsLaidOverTheProfile() {
        Scenario scenario = Scenario.ALL.stream().filter(s -> s.runtime() == Runtime.SpringBootTomcat).findFirst().orElseThrow();
        ServerVocabulary tomcat = ServerVocabulary.of(Runtime.SpringBootTomcat);
        TuningProfileSpec spec = TuningLab.profile(scenario).setMode(Mode.Auto).setWorkload(scenario.nominal()).setAuto(new Auto());

        TuningLab.Decided decided = TuningLab.decided(scenario, spec, new AutoStatus().setSettings(new AutoSettings(7, null, null)));

        assertEquals("7", decided.env().get(tomcat.environmentVariable(tomcat.properties().get(Setting.THREADS_MAX))));
    }

    @Test
    void settingsTheOperatorRefusesAreNoneWithItsReason() {
        Scenario scenario = Scenario.ALL.get(0);
        TuningProfileSpec spec = TuningLab.profile(scenario).setWorkload(scenario.nominal()).setHeap(new Heap().setSize("64Gi"));

        TuningLab.Decided decided = TuningLab.decided(scenario, spec, null);

        assertEquals(Map.of(), decided.env());
        assertTrue(decided.notApplied().startsWith(Reason.INFEASIBLE.text() + ": "), decided.notApplied());
    }
}
