package dev.jvmtuning.operator.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jvmtuning.operator.model.EffectiveOptions;
import dev.jvmtuning.operator.model.EffectiveOptions.Option;
import dev.jvmtuning.operator.model.EffectiveOptions.Origin;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PodReadingTest {
    private static final Set<String> READ = Set.copyOf(PodReading.SERIES);

    private static PodReading read(String exposition) {
        return PodReading.of(PrometheusTextParser.parse(exposition, READ::contains, 100), 0);
    }

    @Test
    void theAgentsOptionSeriesBecomeTheJvmsEffectiveOptions() {
        PodReading reading = read("""
                # HELP jvmtuning_vm_option HotSpot option as this JVM runs with it
                # TYPE jvmtuning_vm_option gauge
                jvmtuning_vm_option{option="MaxHeapSize",origin="VM_CREATION"} 6.7108864E7
                jvmtuning_vm_option{option="ThreadStackSize",origin="ENVIRON_VAR"} 512.0
                jvmtuning_vm_option{option="UseG1GC",origin="DEFAULT"} 0.0
                jvmtuning_vm_option{option="UseZGC",origin="A_LATER_ORIGIN"} 1.0
                jvmtuning_vm_option{origin="DEFAULT"} 1.0
                jvmtuning_available_processors 2
                """);

        assertThat(reading.options()).isEqualTo(new EffectiveOptions(Map.of(
                "MaxHeapSize", new Option(64.0 * 1024 * 1024, Origin.VM_CREATION),
                "ThreadStackSize", new Option(512, Origin.ENVIRON_VAR),
                "UseG1GC", new Option(0, Origin.DEFAULT),
                "UseZGC", new Option(1, Origin.OTHER))));
        assertThat(reading.snapshot().cpuLimitCores()).isEqualTo(2.0);
    }

    @Test
    void aPodWithoutTheSeriesReportsNoOptions() {
        assertThat(read("jvmtuning_available_processors 2\n").options()).isEqualTo(EffectiveOptions.NONE);
        assertThat(EffectiveOptions.NONE.reported()).isFalse();
    }
}
