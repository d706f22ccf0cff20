package dev.jvmtuning.operator.closedloop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jvmtuning.operator.api.v1alpha1.Auto;
import dev.jvmtuning.operator.api.v1alpha1.AutoSettings;
import dev.jvmtuning.operator.api.v1alpha1.AutoState;
import dev.jvmtuning.operator.api.v1alpha1.AutoStatus;
import dev.jvmtuning.operator.api.v1alpha1.MemorySizing;
import dev.jvmtuning.operator.api.v1alpha1.Mode;
import dev.jvmtuning.operator.api.v1alpha1.Runtime;
import dev.jvmtuning.operator.api.v1alpha1.Sizing;
import dev.jvmtuning.operator.api.v1alpha1.SizingPolicy;
import dev.jvmtuning.operator.api.v1alpha1.TargetRef;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfileSpec;
import dev.jvmtuning.operator.api.v1alpha1.Workload;
import dev.jvmtuning.operator.model.ContainerFacts;
import dev.jvmtuning.operator.model.Units;
import dev.jvmtuning.operator.planner.PlanResult;
import dev.jvmtuning.operator.planner.Planner;
import org.junit.jupiter.api.Test;

/** The loop's settings laid over the profile's own spec, which they leave as it was. */
class OverlayTest {
    private static final ContainerFacts FACTS = ContainerFacts.ofResources(2.0, 2.0, Units.bytes("4Gi"), Units.bytes("4Gi"));

    @Test
    void theLiveHeapTheLoopSetSizesTheContainerAndTheDeclaredOneStaysInTheSpec() {
        TuningProfileSpec spec = new TuningProfileSpec().setTargetRef(new TargetRef().setName("orders")).setRuntime(Runtime.SpringBootTomcat)
                .setMode(Mode.Auto).setAuto(new Auto()).setWorkload(new Workload().setLiveHeap("400Mi"))
                .setSizing(new Sizing().setMemory(new MemorySizing().setPolicy(SizingPolicy.Plan)));
        AutoStatus auto = new AutoStatus().setState(AutoState.Observing).setSettings(new AutoSettings(null, null, null, 200));

        TuningProfileSpec laid = Overlay.spec(spec, auto);

        assertThat(laid.getWorkload().getLiveHeap()).isEqualTo("200Mi");
        assertThat(spec.getWorkload().getLiveHeap()).as("the profile's own spec").isEqualTo("400Mi");
        long laidLimit = ((PlanResult.Plan) Planner.plan(laid, FACTS)).values().resources().memoryLimitBytes();
        long ownLimit = ((PlanResult.Plan) Planner.plan(spec, FACTS)).values().resources().memoryLimitBytes();
        assertThat(laidLimit).as("3 x 200Mi of heap and the JVM's memory beside it").isLessThan(ownLimit).isGreaterThan(Units.bytes("600Mi"));
    }
}
