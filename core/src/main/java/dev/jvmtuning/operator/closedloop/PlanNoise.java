package dev.jvmtuning.operator.closedloop;

import dev.jvmtuning.operator.api.v1alpha1.AutoSettings;
import java.util.ArrayList;
import java.util.IntSummaryStatistics;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * Whether a step is planned from the noise of its period rather than from its workload: each window of the
 * period, planned alone, puts a knob somewhere, and where the value in force lies among them the mean's plan
 * moves it by chance. Near its best the loop would otherwise take such a step, judge it no better, and go
 * back (the lab's allocation-heavy run: 10 threads -> 7 -> 10, docs/development/lab.md). Pure.
 */
final class PlanNoise {
    private record Knob(String name, Function<AutoSettings, Integer> value) {
    }

    private static final List<Knob> KNOBS = List.of(new Knob("threads", AutoSettings::getThreads),
            new Knob("connection pool", AutoSettings::getConnectionPool), new Knob("heap %", AutoSettings::getHeapPercentOfLimit),
            new Knob("live heap", AutoSettings::getLiveHeapMib));

    private PlanNoise() {
    }

    /**
     * Why the step from {@code current} to {@code target} is within the noise: every knob it moves has its value in force
     * between the lowest and the highest that the period's windows, each planned alone, ask for. Empty when a knob moves
     * beyond them, or fewer than two windows plan.
     *
     * @param windowPlans the knobs each window of the period planned alone, in the period's order
     */
    static Optional<String> holds(AutoSettings current, AutoSettings target, List<AutoSettings> windowPlans) {
        if (windowPlans.size() < 2) {
            return Optional.empty();
        }
        List<String> held = new ArrayList<>();
        for (Knob knob : KNOBS) {
            Integer now = knob.value().apply(current);
            if (Objects.equals(now, knob.value().apply(target))) {
                continue;
            }
            List<Integer> planned = windowPlans.stream().map(knob.value()).toList();
            if (now == null || planned.contains(null)) {
                return Optional.empty();
            }
            IntSummaryStatistics range = planned.stream().mapToInt(Integer::intValue).summaryStatistics();
            if (now < range.getMin() || now > range.getMax()) {
                return Optional.empty();
            }
            held.add(knob.name() + " " + range.getMin() + " to " + range.getMax());
        }
        return held.isEmpty() ? Optional.empty()
                : Optional.of("the period's " + windowPlans.size() + " windows, each planned alone, ask for " + String.join(", ", held)
                        + ", which holds " + current + ": the step is within the period's noise");
    }
}
