package dev.jvmtuning.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jvmtuning.agent.ProcParsers.ContextSwitches;
import dev.jvmtuning.agent.TaskScan.Snapshot;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TaskScanTest {

    private static final Duration BUDGET = Duration.ofMillis(100);

    @TempDir
    Path root;

    private FixtureTree tree;
    private CountingHostFiles files;
    /** Advances 40 ms on each reading, so a pass with a 100 ms budget reaches three threads. */
    private final AtomicLong clock = new AtomicLong();

    @BeforeEach
    void fixtureTree() {
        tree = new FixtureTree(root);
        files = new CountingHostFiles(root);
    }

    @Test
    void onePassReadsEachThreadOnceForEveryCount() {
        thread("100", 3, 1, 1000, 2_000_000_000L);
        thread("101", 40, 25, 2000, 500_000_000L);

        Snapshot pass = scan(Duration.ofSeconds(10)).snapshot().orElseThrow();

        assertThat(pass.tasks()).isEqualTo(2);
        assertThat(pass.threadsRead()).isEqualTo(2);
        assertThat(pass.contextSwitches()).contains(new ContextSwitches(43, 26));
        assertThat(pass.runQueueWaitNanos()).hasValue(2_500_000_000L);
        assertThat(files.lists.get()).isEqualTo(1);
        assertThat(files.reads).containsExactlyInAnyOrder(
                "/proc/self/task/100/schedstat", "/proc/self/task/100/status",
                "/proc/self/task/101/schedstat", "/proc/self/task/101/status");
    }

    @Test
    void aThreadThatHasNotRunKeepsItsCountsWithoutReadingItsStatusAgain() {
        thread("100", 3, 1, 1000, 7);
        TaskScan scan = scan(Duration.ofSeconds(10));
        scan.snapshot();
        files.reads.clear();

        // Changed status, same schedstat: cannot happen for real, shows the status is not read.
        tree.file("/proc/self/task/100/status", status(99, 99));
        assertThat(scan.snapshot().orElseThrow().contextSwitches()).contains(new ContextSwitches(3, 1));
        assertThat(files.reads).containsExactly("/proc/self/task/100/schedstat");

        thread("100", 5, 2, 1500, 9);
        assertThat(scan.snapshot().orElseThrow().contextSwitches()).contains(new ContextSwitches(5, 2));
    }

    @Test
    void withoutSchedstatsEveryStatusIsReadOnEveryPass() {
        tree.file("/proc/self/task/100/schedstat", "0 0 0\n").file("/proc/self/task/100/status", status(3, 1));
        TaskScan scan = scan(Duration.ofSeconds(10));
        scan.snapshot();

        tree.file("/proc/self/task/100/status", status(4, 1));
        Snapshot pass = scan.snapshot().orElseThrow();

        assertThat(pass.contextSwitches()).contains(new ContextSwitches(4, 1));
        assertThat(pass.runQueueWaitNanos()).hasValue(0);
    }

    @Test
    void aPassOutOfTimeKeepsTheLastCountsOfTheThreadsItDidNotReachAndTheNextStartsThere() {
        List<String> threadIds = List.of("100", "101", "102", "103");
        threadIds.forEach(threadId -> thread(threadId, 1, 0, 10, 0));
        TaskScan scan = scan(BUDGET);

        Snapshot first = scan.snapshot().orElseThrow();
        assertThat(first.tasks()).isEqualTo(4);
        assertThat(first.threadsRead()).isEqualTo(3);
        assertThat(first.contextSwitches()).contains(new ContextSwitches(3, 0));

        threadIds.forEach(threadId -> thread(threadId, 10, 0, 20, 0));
        Snapshot second = scan.snapshot().orElseThrow();
        // 103, 100 and 101 read anew; 102 keeps the 1 it had.
        assertThat(second.threadsRead()).isEqualTo(3);
        assertThat(second.contextSwitches()).contains(new ContextSwitches(31, 0));

        Snapshot third = scan.snapshot().orElseThrow();
        assertThat(third.contextSwitches()).contains(new ContextSwitches(40, 0));
    }

    @Test
    void countersStayMonotonicWhenThreadsExitBetweenPassesCutShort() {
        thread("100", 5, 1, 10, 100);
        thread("101", 7, 2, 10, 200);
        thread("102", 9, 3, 10, 300);
        thread("103", 11, 4, 10, 400);
        TaskScan scan = scan(BUDGET);
        Snapshot first = scan.snapshot().orElseThrow();

        tree.delete("/proc/self/task/100").delete("/proc/self/task/101");
        thread("104", 1, 1, 10, 1);
        Snapshot second = scan.snapshot().orElseThrow();
        Snapshot third = scan.snapshot().orElseThrow();

        assertThat(List.of(first, second, third)).isSortedAccordingTo((a, b) -> {
            int voluntary = Long.compare(a.contextSwitches().orElseThrow().voluntary(),
                    b.contextSwitches().orElseThrow().voluntary());
            return voluntary != 0 ? voluntary
                    : Long.compare(a.runQueueWaitNanos().getAsLong(), b.runQueueWaitNanos().getAsLong());
        });
        assertThat(third.contextSwitches()).contains(new ContextSwitches(5 + 7 + 9 + 11 + 1, 1 + 2 + 3 + 4 + 1));
        assertThat(third.runQueueWaitNanos()).hasValue(100 + 200 + 300 + 400 + 1);
    }

    @Test
    void theJitCompilersCpuIsTheirTimeOnACpuKeptWhenOneExits() {
        thread("100", 3, 1, 9_000_000_000L, 5);
        namedThread("101", "C2 CompilerThre", 2_000_000_000L);
        namedThread("102", "C1 CompilerThre", 500_000_000L);
        TaskScan scan = scan(Duration.ofSeconds(10));

        assertThat(scan.snapshot().orElseThrow().jitCompilerCpuNanos()).hasValue(2_500_000_000L);

        // A compiler thread the JVM stopped (UseDynamicNumberOfCompilerThreads) keeps what it ran.
        tree.delete("/proc/self/task/102");
        namedThread("101", "C2 CompilerThre", 2_100_000_000L);
        assertThat(scan.snapshot().orElseThrow().jitCompilerCpuNanos()).hasValue(2_600_000_000L);
    }

    @Test
    void theCollectorsCpuIsItsThreadsTimeOnACpuApartFromTheCompilers() {
        thread("100", 3, 1, 9_000_000_000L, 5);
        namedThread("101", "C2 CompilerThre", 2_000_000_000L);
        namedThread("102", "GC Thread#0", 700_000_000L);
        namedThread("103", "G1 Conc#0", 200_000_000L);
        namedThread("104", "VM Thread", 100_000_000L);
        TaskScan scan = scan(Duration.ofSeconds(10));

        Snapshot pass = scan.snapshot().orElseThrow();
        assertThat(pass.garbageCollectorCpuNanos()).hasValue(1_000_000_000L);
        assertThat(pass.jitCompilerCpuNanos()).hasValue(2_000_000_000L);

        // G1 stops a worker it no longer needs (UseDynamicNumberOfGCThreads): what it ran stays counted.
        tree.delete("/proc/self/task/102");
        namedThread("103", "G1 Conc#0", 300_000_000L);
        assertThat(scan.snapshot().orElseThrow().garbageCollectorCpuNanos()).hasValue(1_100_000_000L);
    }

    @Test
    void aCompilersThreadIdReusedByAnotherThreadNoLongerCounts() {
        namedThread("101", "C2 CompilerThre", 2_000_000_000L);
        TaskScan scan = scan(Duration.ofSeconds(10));
        scan.snapshot();

        thread("101", 1, 0, 1_000, 0);
        assertThat(scan.snapshot().orElseThrow().jitCompilerCpuNanos()).hasValue(2_000_000_000L);
    }

    @Test
    void noCompilerThreadOrNoSchedstatsMeansNoJitFigure() {
        thread("100", 3, 1, 9_000_000_000L, 5);
        assertThat(scan(Duration.ofSeconds(10)).snapshot().orElseThrow().jitCompilerCpuNanos()).isEmpty();

        tree.file("/proc/self/task/101/schedstat", "0 0 0\n").file("/proc/self/task/101/status", status("C2 CompilerThre", 1, 1));
        tree.delete("/proc/self/task/100");
        assertThat(scan(Duration.ofSeconds(10)).snapshot().orElseThrow().jitCompilerCpuNanos()).isEmpty();
    }

    @Test
    void aPassStopsAtItsCpuBudgetHoweverLittleWallTimeItTook() {
        List.of("100", "101", "102", "103", "104").forEach(threadId -> thread(threadId, 1, 0, 10, 0));
        AtomicLong cpu = new AtomicLong();
        // 10 ms of CPU a reading, no wall time: a budget of 25 ms lets the pass start its third thread and no more.
        TaskScan scan = new TaskScan(files, () -> 0, BUDGET, () -> cpu.getAndAdd(10_000_000L), Duration.ofMillis(25));

        Snapshot first = scan.snapshot().orElseThrow();
        assertThat(first.threadsRead()).isEqualTo(3);
        assertThat(first.contextSwitches()).contains(new ContextSwitches(3, 0));
        Snapshot second = scan.snapshot().orElseThrow();
        assertThat(second.threadsRead()).isEqualTo(3);
        assertThat(second.contextSwitches()).as("the next pass reads the other two, then the first again").contains(new ContextSwitches(5, 0));
    }

    @Test
    void aPassWaitingForACpuIsNotCutShortByItsCpuBudget() {
        List.of("100", "101", "102", "103", "104").forEach(threadId -> thread(threadId, 1, 0, 10, 0));
        // A saturated process: seconds of wall time, each reading a few microseconds of CPU.
        AtomicLong cpu = new AtomicLong();
        TaskScan scan = new TaskScan(files, () -> 0, BUDGET, () -> cpu.getAndAdd(5_000L), Duration.ofMillis(25));

        assertThat(scan.snapshot().orElseThrow().threadsRead()).isEqualTo(5);
    }

    @Test
    void withoutAThreadCpuClockOnlyTheWallBudgetApplies() {
        List.of("100", "101", "102", "103", "104").forEach(threadId -> thread(threadId, 1, 0, 10, 0));

        TaskScan scan = new TaskScan(files, () -> 0, BUDGET, () -> -1, Duration.ZERO);

        assertThat(scan.snapshot().orElseThrow().threadsRead()).isEqualTo(5);
    }

    @Test
    void noProcMeansNoSnapshot() {
        assertThat(scan(BUDGET).snapshot()).isEmpty();
    }

    private TaskScan scan(Duration budget) {
        return new TaskScan(files, () -> clock.getAndAdd(40_000_000L), budget, () -> -1, Duration.ZERO);
    }

    private void thread(String threadId, long voluntary, long involuntary, long runNanos, long runQueueWaitNanos) {
        tree.file("/proc/self/task/" + threadId + "/status", status(voluntary, involuntary));
        tree.file("/proc/self/task/" + threadId + "/schedstat",
                runNanos + " " + runQueueWaitNanos + " " + (voluntary + involuntary) + "\n");
    }

    private void namedThread(String threadId, String name, long runNanos) {
        tree.file("/proc/self/task/" + threadId + "/status", status(name, 10, 2));
        tree.file("/proc/self/task/" + threadId + "/schedstat", runNanos + " 0 12\n");
    }

    private static String status(long voluntary, long involuntary) {
        return status("worker", voluntary, involuntary);
    }

    private static String status(String name, long voluntary, long involuntary) {
        return "Name:\t" + name + "\nState:\tR (running)\nvoluntary_ctxt_switches:\t" + voluntary
                + "\nnonvoluntary_ctxt_switches:\t" + involuntary + "\n";
    }
}
