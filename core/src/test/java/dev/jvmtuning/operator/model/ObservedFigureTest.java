package dev.jvmtuning.operator.model;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jvmtuning.operator.api.v1alpha1.Observed;
import dev.jvmtuning.operator.api.v1alpha1.ObservedMemory;
import dev.jvmtuning.operator.model.ObservedFigure.Rule;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ObservedFigureTest {
    private static final Map<Class<?>, Object> SAMPLES = Map.of(Double.class, 1.5, Integer.class, 3, Boolean.class, true,
            String.class, "30s", List.class, List.of("agent :9404/metrics"), ObservedMemory.class, new ObservedMemory());

    /** A figure added to Observed is aggregated by Window and Measures only once it is declared, with its rules. */
    @Test
    void everyFigureOfObservedIsDeclaredOnceInItsOrder() {
        List<String> properties = Arrays.stream(Observed.class.getDeclaredFields()).filter(f -> !Modifier.isStatic(f.getModifiers()))
                .map(Field::getName).toList();

        assertThat(ObservedFigure.ALL.stream().map(ObservedFigure::name).toList()).isEqualTo(properties);
    }

    @Test
    void eachFigureReadsAndWritesItsOwnProperty() throws ReflectiveOperationException {
        for (ObservedFigure<?> figure : ObservedFigure.ALL) {
            Field field = Observed.class.getDeclaredField(figure.name());
            field.setAccessible(true);
            Observed observed = new Observed();

            set(figure, observed, SAMPLES.get(field.getType()));

            assertThat(field.get(observed)).as(figure.name()).isSameAs(SAMPLES.get(field.getType()));
            assertThat((Object) figure.of(observed)).as(figure.name()).isSameAs(SAMPLES.get(field.getType()));
        }
    }

    @SuppressWarnings("unchecked")
    private static <T> void set(ObservedFigure<T> figure, Observed observed, Object value) {
        figure.set(observed, (T) value);
    }

    @Test
    void aWindowIsHadFromItsPodsByEachFiguresRule() {
        Observed a = new Observed().setPods(1).setCpuCores(0.5).setLoadedClasses(9000).setP99LatencyMillis(80.0).setGuardrail(0.3);
        Observed b = new Observed().setPods(1).setCpuCores(null).setLoadedClasses(9003).setP99LatencyMillis(90.0).setGuardrail(0.3);
        Observed c = new Observed().setPods(1).setCpuCores(1.5).setLoadedClasses(null);

        Observed window = ObservedFigure.overPods(List.of(a, b, c));

        assertThat(window.getPods()).as(Rule.SUM.name()).isEqualTo(3);
        assertThat(window.getCpuCores()).as("the mean over the pods that have it").isEqualTo(1.0);
        assertThat(window.getLoadedClasses()).as("a count's mean, to the nearest whole").isEqualTo(9002);
        assertThat(window.getP99LatencyMillis()).as("of the pods' requests together: Window's own").isNull();
        assertThat(window.getGuardrail()).as("the query's, set apart").isNull();
    }

    @Test
    void aPeriodIsHadFromItsWindowsByEachFiguresRule() {
        Observed a = new Observed().setEnd("t1").setPods(2).setSources(List.of("agent")).setCpuCores(0.5).setLoadedClasses(9000)
                .setP99LatencyMillis(80.0).setGuardrail(0.2).setBusyThreadsAveraged(false);
        Observed b = new Observed().setEnd("t2").setPods(3).setSources(List.of("agent")).setCpuCores(1.0).setLoadedClasses(9010)
                .setP99LatencyMillis(null).setGuardrail(0.4).setBusyThreadsAveraged(true);

        Observed period = ObservedFigure.overWindows(List.of(a, b));

        assertThat(period.getEnd()).isEqualTo("t2");
        assertThat(period.getPods()).isEqualTo(3);
        assertThat(period.getLoadedClasses()).as("a gauge: the newest").isEqualTo(9010);
        assertThat(period.getBusyThreadsAveraged()).isTrue();
        assertThat(period.getCpuCores()).isEqualTo(0.75);
        assertThat(period.getP99LatencyMillis()).isEqualTo(80.0);
        assertThat(period.getGuardrail()).isEqualTo(0.3);
        assertThat(period.getSources()).as("the windows' own").isNull();
    }
}
