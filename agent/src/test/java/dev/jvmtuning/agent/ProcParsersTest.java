package dev.jvmtuning.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jvmtuning.agent.ProcParsers.CgroupPaths;
import dev.jvmtuning.agent.ProcParsers.ContextSwitches;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class ProcParsersTest {

    private static final String TASK_STATUS = """
            Name:\tC2 CompilerThre
            Umask:\t0022
            State:\tS (sleeping)
            Tgid:\t4242
            Pid:\t4251
            Threads:\t21
            Cpus_allowed_list:\t0-1
            Mems_allowed_list:\t0
            voluntary_ctxt_switches:\t1919
            nonvoluntary_ctxt_switches:\t585
            """;

    @Test
    void readsBothContextSwitchCounts() {
        assertThat(ProcParsers.parseContextSwitches(TASK_STATUS))
                .contains(new ContextSwitches(1919, 585));
    }

    @Test
    void statusWithoutContextSwitchCountsGivesNothing() {
        assertThat(ProcParsers.parseContextSwitches("Name:\tjava\nState:\tR (running)\n")).isEmpty();
        assertThat(ProcParsers.parseContextSwitches("voluntary_ctxt_switches:\t12\n")).isEmpty();
        assertThat(ProcParsers.parseContextSwitches("voluntary_ctxt_switches:\tx\nnonvoluntary_ctxt_switches:\t1\n"))
                .isEmpty();
    }

    @Test
    void readsRunQueueWaitFromSecondSchedstatField() {
        assertThat(ProcParsers.parseRunQueueWaitNanos("3378425644 115360824 421\n")).hasValue(115360824L);
    }

    @Test
    void malformedSchedstatGivesNothing() {
        assertThat(ProcParsers.parseRunQueueWaitNanos("")).isEqualTo(OptionalLong.empty());
        assertThat(ProcParsers.parseRunQueueWaitNanos("12")).isEqualTo(OptionalLong.empty());
        assertThat(ProcParsers.parseRunQueueWaitNanos("12 abc 3")).isEqualTo(OptionalLong.empty());
    }

    @Test
    void cgroupV2HasOnlyTheUnifiedLine() {
        assertThat(ProcParsers.parseCgroupPaths("0::/kubepods.slice/kubepods-pod12.slice/cri-containerd-ab.scope\n"))
                .isEqualTo(new CgroupPaths(
                        Optional.of("/kubepods.slice/kubepods-pod12.slice/cri-containerd-ab.scope"), Optional.empty()));
    }

    @Test
    void cgroupV1FindsTheCpuControllerAmongCombinedOnes() {
        String v1 = """
                12:memory:/kubepods/burstable/pod12/ab
                4:cpu,cpuacct:/kubepods/burstable/pod12/ab
                3:cpuset:/kubepods/burstable/pod12/ab
                1:name=systemd:/kubepods/burstable/pod12/ab
                """;
        assertThat(ProcParsers.parseCgroupPaths(v1))
                .isEqualTo(new CgroupPaths(Optional.empty(), Optional.of("/kubepods/burstable/pod12/ab")));
    }

    @Test
    void hybridLayoutHasBothAndCpuacctAloneIsNotCpu() {
        String hybrid = """
                9:name=systemd:/
                4:memory:/process_api/64182aa7
                2:cpuacct:/elsewhere
                1:cpu:/
                0::/
                """;
        assertThat(ProcParsers.parseCgroupPaths(hybrid))
                .isEqualTo(new CgroupPaths(Optional.of("/"), Optional.of("/")));
    }

    @Test
    void emptyCgroupFileHasNeither() {
        assertThat(ProcParsers.parseCgroupPaths("")).isEqualTo(new CgroupPaths(Optional.empty(), Optional.empty()));
    }
}
