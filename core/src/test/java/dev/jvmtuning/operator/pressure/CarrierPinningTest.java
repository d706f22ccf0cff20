package dev.jvmtuning.operator.pressure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jvmtuning.operator.model.ConditionStatus;
import dev.jvmtuning.operator.model.ConditionType;
import dev.jvmtuning.operator.model.Reason;
import dev.jvmtuning.operator.model.VirtualThreads.Pinned;
import dev.jvmtuning.operator.model.VirtualThreads.Pinning;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class CarrierPinningTest {
    private static final String DAO = "com.example.Dao.load";
    private static final String JNI = "com.example.Native.call";

    private static Pinning pod(double carriers, Map<String, Pinned> frames) {
        return new Pinning(30, carriers, frames);
    }

    /** Each window of 30 s; the share is of the carriers' time, summed over the pods. */
    static Stream<Arguments> windows() {
        return Stream.of(
                Arguments.of("no pod reports pinning: no condition", Map.of(), null),
                Arguments.of("no pinning at all", Map.of("a", pod(2, Map.of("other", new Pinned(0, 0)))),
                        new Finding(ConditionType.VIRTUAL_THREAD_PINNING, ConditionStatus.FALSE, Reason.PINNED_TIME_NORMAL,
                                "virtual threads blocked pinned to their carriers 0% of the carriers' time over 30s (threshold 5%)")),
                // 2.9 s of 2 carriers x 30 s = 4.8%
                Arguments.of("just under the threshold", Map.of("a", pod(2, Map.of(DAO, new Pinned(29, 2.9), "other", new Pinned(0, 0)))),
                        new Finding(ConditionType.VIRTUAL_THREAD_PINNING, ConditionStatus.FALSE, Reason.PINNED_TIME_NORMAL,
                                "virtual threads blocked pinned to their carriers 4% of the carriers' time over 30s (threshold 5%)")),
                // 3 s of 60 = 5%, 2.4 s of it at DAO
                Arguments.of("at the threshold", Map.of("a", pod(2, Map.of(DAO, new Pinned(24, 2.4), "other", new Pinned(3, 0.6)))),
                        new Finding(ConditionType.VIRTUAL_THREAD_PINNING, ConditionStatus.TRUE, Reason.PINNED_TIME_HIGH,
                                "virtual threads blocked pinned to their carriers 5% of the carriers' time over 30s (threshold 5%); "
                                        + DAO + " pinned most, 80% of it")),
                // pods pooled: (9 + 0) s of (30 + 60) s carrier time = 10%; JNI's 6 s across both pods beat DAO's 3 s
                Arguments.of("two pods, the frame summed over them", Map.of(
                        "a", pod(1, Map.of(JNI, new Pinned(10, 3.0), DAO, new Pinned(30, 3.0), "other", new Pinned(0, 0))),
                        "b", pod(2, Map.of(JNI, new Pinned(10, 3.0), "other", new Pinned(0, 0)))),
                        new Finding(ConditionType.VIRTUAL_THREAD_PINNING, ConditionStatus.TRUE, Reason.PINNED_TIME_HIGH,
                                "virtual threads blocked pinned to their carriers 10% of the carriers' time over 30s (threshold 5%); "
                                        + JNI + " pinned most, 67% of it")),
                Arguments.of("the unnamed frames pin most", Map.of("a", pod(1, Map.of(DAO, new Pinned(1, 1.0), "other", new Pinned(50, 14.0)))),
                        new Finding(ConditionType.VIRTUAL_THREAD_PINNING, ConditionStatus.TRUE, Reason.PINNED_TIME_HIGH,
                                "virtual threads blocked pinned to their carriers 50% of the carriers' time over 30s (threshold 5%); "
                                        + "frames the agent does not name pinned most, 93% of it")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("windows")
    void theShareOfTheCarriersTimeSpentPinnedDecides(String window, Map<String, Pinning> pods, Finding expected) {
        assertThat(CarrierPinning.judge(pods, "30s")).isEqualTo(Optional.ofNullable(expected));
    }
}
