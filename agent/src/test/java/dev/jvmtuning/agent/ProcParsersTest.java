package dev.jvmtuning.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jvmtuning.agent.ProcParsers.CgroupPaths;
import dev.jvmtuning.agent.ProcParsers.ContextSwitches;
import dev.jvmtuning.agent.ProcParsers.Schedstat;
import dev.jvmtuning.agent.ProcParsers.ThreadRole;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

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
        assertThat(contextSwitches(TASK_STATUS)).contains(new ContextSwitches(1919, 585));
    }

    @Test
    void readsOnlyTheBytesItIsGiven() {
        byte[] buffer = (TASK_STATUS + "voluntary_ctxt_switches:\t7\n").getBytes(StandardCharsets.ISO_8859_1);
        assertThat(ProcParsers.parseContextSwitches(buffer, TASK_STATUS.length()))
                .contains(new ContextSwitches(1919, 585));
        assertThat(ProcParsers.parseContextSwitches(buffer, TASK_STATUS.length() - 5)).isEmpty();
    }

    @Test
    void aThreadNameInBrokenUtf8DoesNotMatter() {
        byte[] name = {'N', 'a', 'm', 'e', ':', '\t', (byte) 0xe2, (byte) 0x82, '\n'};
        byte[] rest = TASK_STATUS.substring(TASK_STATUS.indexOf('\n') + 1).getBytes(StandardCharsets.ISO_8859_1);
        byte[] status = new byte[name.length + rest.length];
        System.arraycopy(name, 0, status, 0, name.length);
        System.arraycopy(rest, 0, status, name.length, rest.length);
        assertThat(ProcParsers.parseContextSwitches(status, status.length)).contains(new ContextSwitches(1919, 585));
    }

    @Test
    void tellsTheJitCompilerThreadsByTheirName() {
        assertThat(role(TASK_STATUS)).isEqualTo(ThreadRole.JIT_COMPILER);
        assertThat(role("Name:\tC1 CompilerThre\nState:\tS (sleeping)\n")).isEqualTo(ThreadRole.JIT_COMPILER);
        assertThat(role("Name:\tJVMCI-native Co\n")).isEqualTo(ThreadRole.JIT_COMPILER);
        assertThat(role("Name:\thttp-nio-8080-e\n")).isEqualTo(ThreadRole.OTHER);
        assertThat(role("Name:\tC2 Compiler\n")).as("cut short").isEqualTo(ThreadRole.OTHER);
        assertThat(role("State:\tS (sleeping)\nName:\tC2 CompilerThre\n")).as("not the first line").isEqualTo(ThreadRole.OTHER);
        assertThat(role("")).isEqualTo(ThreadRole.OTHER);
    }

    /** The names JDK 17 and 25 give their collectors' threads, as /proc shows them (cut to 15 bytes). */
    @ParameterizedTest
    @ValueSource(strings = {"GC Thread#0", "G1 Main Marker", "G1 Conc#0", "G1 Refine#1", "G1 Service", "VM Thread", "ZDirector",
        "ZDriverMajor", "ZStat", "ZUncommitter#0", "ZUnmapper", "ZWorkerYoung#1", "ZWorkerOld#0", "Shenandoah Cont", "Shenandoah GC T"})
    void tellsTheGarbageCollectorsThreadsByTheirName(String name) {
        assertThat(role("Name:\t" + name + "\nState:\tS (sleeping)\n")).isEqualTo(ThreadRole.GARBAGE_COLLECTOR);
    }

    @ParameterizedTest
    @ValueSource(strings = {"VM Periodic Tas", "Service Thread", "Reference Handl", "Finalizer", "java", "Zipkin-reporter", "GC-logger"})
    void otherThreadsAreNotTheCollectors(String name) {
        assertThat(role("Name:\t" + name + "\n")).isEqualTo(ThreadRole.OTHER);
    }

    @Test
    void statusWithoutContextSwitchCountsGivesNothing() {
        assertThat(contextSwitches("Name:\tjava\nState:\tR (running)\n")).isEmpty();
        assertThat(contextSwitches("voluntary_ctxt_switches:\t12\n")).isEmpty();
        assertThat(contextSwitches("voluntary_ctxt_switches:\tx\nnonvoluntary_ctxt_switches:\t1\n")).isEmpty();
        assertThat(contextSwitches("voluntary_ctxt_switches:\t1x\nnonvoluntary_ctxt_switches:\t1\n")).isEmpty();
        assertThat(contextSwitches("voluntary_ctxt_switches:\t99999999999999999999\nnonvoluntary_ctxt_switches:\t1\n"))
                .isEmpty();
    }

    @Test
    void readsTheThreeSchedstatFields() {
        assertThat(schedstat("3378425644 115360824 421\n")).contains(new Schedstat(3378425644L, 115360824L, 421));
        assertThat(schedstat("0 0 0")).contains(new Schedstat(0, 0, 0));
    }

    @Test
    void malformedSchedstatGivesNothing() {
        assertThat(schedstat("")).isEmpty();
        assertThat(schedstat("12")).isEmpty();
        assertThat(schedstat("12 34")).isEmpty();
        assertThat(schedstat("12 abc 3")).isEmpty();
        assertThat(schedstat("12 -3 3")).isEmpty();
        assertThat(schedstat("12 3x 3")).isEmpty();
    }

    private static Optional<ContextSwitches> contextSwitches(String status) {
        byte[] bytes = status.getBytes(StandardCharsets.ISO_8859_1);
        return ProcParsers.parseContextSwitches(bytes, bytes.length);
    }

    private static Optional<Schedstat> schedstat(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.ISO_8859_1);
        return ProcParsers.parseSchedstat(bytes, bytes.length);
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

    private static ThreadRole role(String status) {
        byte[] bytes = status.getBytes(StandardCharsets.ISO_8859_1);
        return ProcParsers.threadRole(bytes, bytes.length);
    }
}
