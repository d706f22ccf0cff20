package dev.jvmtuning.operator.pressure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jvmtuning.operator.model.ConditionStatus;
import dev.jvmtuning.operator.model.ConditionType;
import dev.jvmtuning.operator.model.Reason;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HeapFitTest {
    private static final long MI = 1024 * 1024;

    @Test
    void aHeapThatWithTheNonHeapBudgetExceedsItsPodsOwnLimitIsNamedWithItsFigures() {
        Finding finding = HeapFit.judge(HeapFit.pods(Map.of("a", 242 * MI, "b", 552 * MI), Map.of("a", 512 * MI, "b", 384 * MI)), 140 * MI);

        assertThat(finding.type()).isEqualTo(ConditionType.HEAP_OVER_LIMIT);
        assertThat(finding.status()).isEqualTo(ConditionStatus.TRUE);
        assertThat(finding.reason()).isEqualTo(Reason.HEAP_BEYOND_LIMIT);
        assertThat(finding.message()).startsWith("pod b runs a 552Mi heap in a 384Mi limit, beside the 140Mi").contains("1 of 2 pods");
    }

    @Test
    void aHeapThatFitsOnlyWithoutTheNonHeapBudgetDoesNotFit() {
        assertThat(HeapFit.judge(List.of(new HeapFit.Pod("a", 300 * MI, 384 * MI)), 100 * MI).status()).isEqualTo(ConditionStatus.TRUE);
        assertThat(HeapFit.judge(List.of(new HeapFit.Pod("a", 284 * MI, 384 * MI)), 100 * MI).status()).as("exactly full fits")
                .isEqualTo(ConditionStatus.FALSE);
        assertThat(HeapFit.judge(List.of(new HeapFit.Pod("a", 122 * MI, 384 * MI)), 263 * MI).status())
                .as("a -Xmx121m the JVM rounds to 122Mi, in a budget of 384Mi: alignment, not an overrun").isEqualTo(ConditionStatus.FALSE);
        assertThat(HeapFit.judge(List.of(new HeapFit.Pod("a", 130 * MI, 384 * MI)), 263 * MI).status()).isEqualTo(ConditionStatus.TRUE);
    }

    @Test
    void everyPodFittingNamesTheTightestAndNoPodReadIsUnknown() {
        Finding fits = HeapFit.judge(HeapFit.pods(Map.of("a", 121 * MI, "b", 242 * MI), Map.of("a", 384 * MI, "b", 512 * MI)), 140 * MI);
        assertThat(fits.reason()).isEqualTo(Reason.HEAP_FITS_LIMIT);
        assertThat(fits.message()).contains("pod a runs a 121Mi heap in a 384Mi limit");
        assertThat(HeapFit.judge(HeapFit.pods(Map.of("a", 121 * MI), Map.of()), 140 * MI).status())
                .as("a pod without a limit is not judged").isEqualTo(ConditionStatus.UNKNOWN);
    }
}
