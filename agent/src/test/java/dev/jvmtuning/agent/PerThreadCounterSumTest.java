package dev.jvmtuning.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class PerThreadCounterSumTest {

    private final PerThreadCounterSum sum = new PerThreadCounterSum();

    @Test
    void sumsLiveThreads() {
        assertThat(sum.update(Map.of("1", 10L, "2", 5L))).isEqualTo(15);
        assertThat(sum.update(Map.of("1", 12L, "2", 9L))).isEqualTo(21);
    }

    @Test
    void keepsTheLastCountOfAThreadThatExited() {
        sum.update(Map.of("1", 10L, "2", 5L));
        assertThat(sum.update(Map.of("1", 11L))).isEqualTo(16);
        assertThat(sum.update(Map.of("1", 11L, "3", 1L))).isEqualTo(17);
    }

    @Test
    void treatsALowerCountUnderTheSameIdAsANewThread() {
        sum.update(Map.of("1", 10L, "7", 40L));
        assertThat(sum.update(Map.of("1", 10L, "7", 2L))).isEqualTo(52);
    }

    @Test
    void neverDecreasesWhenEveryThreadIsGone() {
        sum.update(Map.of("1", 10L, "2", 5L));
        assertThat(sum.update(Map.of())).isEqualTo(15);
    }
}
