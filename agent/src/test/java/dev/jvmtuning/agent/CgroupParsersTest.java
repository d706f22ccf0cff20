package dev.jvmtuning.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.jvmtuning.agent.CgroupParsers.CfsStats;
import dev.jvmtuning.agent.CgroupParsers.CpuPressure;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

class CgroupParsersTest {

    @Test
    void cgroupV2CpuStatHasThrottledTimeInMicroseconds() {
        String v2 = """
                usage_usec 4182590306
                user_usec 3819015615
                system_usec 363574690
                core_sched.force_idle_usec 0
                nr_periods 5120
                nr_throttled 312
                throttled_usec 2500000
                nr_bursts 0
                burst_usec 0
                """;
        assertThat(CgroupParsers.parseCpuStat(v2)).contains(new CfsStats(5120, 312, 2.5));
    }

    @Test
    void cgroupV1CpuStatHasThrottledTimeInNanoseconds() {
        String v1 = """
                nr_periods 840
                nr_throttled 21
                throttled_time 1750000000
                nr_bursts 0
                burst_time 0
                """;
        assertThat(CgroupParsers.parseCpuStat(v1)).contains(new CfsStats(840, 21, 1.75));
    }

    @Test
    void cpuStatWithoutCfsFieldsGivesNothing() {
        // A v2 cgroup without the cpu controller, as in the hybrid layout.
        String usageOnly = "usage_usec 4182590306\nuser_usec 3819015615\nsystem_usec 363574690\nnice_usec 0\n";
        assertThat(CgroupParsers.parseCpuStat(usageOnly)).isEmpty();
        assertThat(CgroupParsers.parseCpuStat("nr_periods 3\nnr_throttled 1\n")).isEmpty();
        assertThat(CgroupParsers.parseCpuStat("")).isEmpty();
    }

    @Test
    void cpuMaxGivesCoresOrNothingWhenUnlimited() {
        assertThat(CgroupParsers.parseCpuMax("150000 100000\n")).hasValue(1.5);
        assertThat(CgroupParsers.parseCpuMax("50000 100000")).hasValue(0.5);
        assertThat(CgroupParsers.parseCpuMax("max 100000\n")).isEqualTo(OptionalDouble.empty());
        assertThat(CgroupParsers.parseCpuMax("")).isEqualTo(OptionalDouble.empty());
        assertThat(CgroupParsers.parseCpuMax("100000 0")).isEqualTo(OptionalDouble.empty());
    }

    @Test
    void cfsQuotaGivesCoresOrNothingWhenUnlimited() {
        assertThat(CgroupParsers.parseCfsQuota("200000\n", "100000\n")).hasValue(2.0);
        assertThat(CgroupParsers.parseCfsQuota("-1\n", "100000\n")).isEqualTo(OptionalDouble.empty());
        assertThat(CgroupParsers.parseCfsQuota("", "100000")).isEqualTo(OptionalDouble.empty());
    }

    @Test
    void pressureTotalsAreMicroseconds() {
        String pressure = """
                some avg10=64.74 avg60=59.33 avg300=46.86 total=1594372567
                full avg10=0.00 avg60=0.00 avg300=0.00 total=2500
                """;
        CpuPressure parsed = CgroupParsers.parsePressure(pressure).orElseThrow();
        assertThat(parsed.someSeconds()).isCloseTo(1594.372567, within(1e-9));
        assertThat(parsed.fullSeconds()).hasValue(0.0025);
    }

    @Test
    void pressureBeforeKernel513HasNoFullLine() {
        CpuPressure parsed = CgroupParsers.parsePressure("some avg10=1.00 avg60=0.50 avg300=0.10 total=1000000\n")
                .orElseThrow();
        assertThat(parsed.someSeconds()).isEqualTo(1.0);
        assertThat(parsed.fullSeconds()).isEmpty();
    }

    @Test
    void pressureWithoutSomeTotalGivesNothing() {
        assertThat(CgroupParsers.parsePressure("")).isEmpty();
        assertThat(CgroupParsers.parsePressure("some avg10=1.00 avg60=0.50 avg300=0.10\n")).isEmpty();
    }
}
