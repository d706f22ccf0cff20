package dev.jvmtuning.operator.model;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jvmtuning.operator.api.v1alpha1.ThreadingModel;
import org.junit.jupiter.api.Test;

class ThreadingReportTest {

    @Test
    void whatTheJvmsReportIsSaidBesideThePlansModelAndAContradictionIsNamed() {
        assertThat(new ThreadingReport(2, 2).describe(ThreadingModel.Virtual)).isEqualTo("virtual threads seen on 2 of 2 pods read");
        assertThat(new ThreadingReport(2, 0).describe(ThreadingModel.Platform)).isEqualTo("no virtual thread seen on the 2 pods read");
        assertThat(new ThreadingReport(2, 0).describe(ThreadingModel.Virtual))
                .isEqualTo("no virtual thread seen on the 2 pods read: the plan is for virtual threads, none seen yet");
        assertThat(new ThreadingReport(3, 1).describe(ThreadingModel.Platform)).startsWith("virtual threads seen on 1 of 3 pods read: the plan is for "
                + "platform threads; if the requests run on virtual threads, set spec.threading.model");
        assertThat(new ThreadingReport(0, 0).describe(ThreadingModel.Virtual)).as("no pod says").isNull();
    }
}
