package dev.jvmtuning.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class AgentArgumentsTest {

    @Test
    void defaultsToAllInterfacesOnPort9404AndNoPinningRecorded() {
        assertThat(AgentArguments.parse(null)).isEqualTo(new AgentArguments("0.0.0.0", 9404, Optional.empty()));
        assertThat(AgentArguments.parse("")).isEqualTo(new AgentArguments("0.0.0.0", 9404, Optional.empty()));
    }

    @Test
    void readsPortAndHostInAnyOrder() {
        assertThat(AgentArguments.parse("port=0,host=127.0.0.1")).isEqualTo(new AgentArguments("127.0.0.1", 0, Optional.empty()));
        assertThat(AgentArguments.parse("host=::1, port=9500")).isEqualTo(new AgentArguments("::1", 9500, Optional.empty()));
        assertThat(AgentArguments.parse("port=9405")).isEqualTo(new AgentArguments("0.0.0.0", 9405, Optional.empty()));
    }

    @Test
    void readsThePinnedThresholdInMillisecondsOrOff() {
        assertThat(AgentArguments.parse("port=0,pinnedThreshold=5ms").pinnedThreshold()).contains(Duration.ofMillis(5));
        assertThat(AgentArguments.parse("pinnedThreshold=0ms").pinnedThreshold()).contains(Duration.ZERO);
        assertThat(AgentArguments.parse("pinnedThreshold=off").pinnedThreshold()).isEmpty();
    }

    @Test
    void rejectsWhatItDoesNotUnderstand() {
        assertThatIllegalArgumentException().isThrownBy(() -> AgentArguments.parse("port=http"));
        assertThatIllegalArgumentException().isThrownBy(() -> AgentArguments.parse("port=70000"));
        assertThatIllegalArgumentException().isThrownBy(() -> AgentArguments.parse("9404"));
        assertThatIllegalArgumentException().isThrownBy(() -> AgentArguments.parse("path=/metrics"));
        assertThatIllegalArgumentException().isThrownBy(() -> AgentArguments.parse("pinnedThreshold=20"));
        assertThatIllegalArgumentException().isThrownBy(() -> AgentArguments.parse("pinnedThreshold=-1ms"));
    }
}
