package dev.jvmtuning.operator.model;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jvmtuning.operator.api.v1alpha1.Observed;
import org.junit.jupiter.api.Test;

class MetricsReportTest {
    private static final String T0 = "2026-01-01T00:00:00Z";
    private static final String T1 = "2026-01-01T00:00:30Z";

    @Test
    void aWindowWithinNoiseOfTheShownOneIsJudgedAsTheShownOne() {
        Observed shown = window(T0, 10.0, 1.0);

        MetricsReport calm = read(window(T1, 10.01, 0.99)).steadied(shown);

        assertThat(calm.observed()).isSameAs(shown);
    }

    @Test
    void aFigureThatMovedOrADifferentWindowIsShownAnew() {
        Observed shown = window(T0, 10.0, 1.0);
        Observed moved = window(T1, 10.0, 1.05);
        Observed longer = window(T1, 10.0, 1.0).setWindow("35s");
        Observed fewerPods = window(T1, 10.0, 1.0).setPods(2);

        assertThat(read(moved).steadied(shown).observed()).isSameAs(moved);
        assertThat(read(longer).steadied(shown).observed()).isSameAs(longer);
        assertThat(read(fewerPods).steadied(shown).observed()).isSameAs(fewerPods);
        assertThat(read(moved).steadied(null).observed()).isSameAs(moved);
    }

    private static Observed window(String end, double switches, double gcPercent) {
        return new Observed().setWindow("30s").setEnd(end).setPods(3).setInvoluntarySwitchesPerCorePerSecond(switches)
                .setGcTimePercent(gcPercent);
    }

    private static MetricsReport read(Observed window) {
        return new MetricsReport(ConditionStatus.TRUE, Reason.METRICS_READ, "read 3 of 3", window, null);
    }
}
