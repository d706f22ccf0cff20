package dev.jvmtuning.agent;

import dev.jvmtuning.agent.ProcParsers.ContextSwitches;
import dev.jvmtuning.agent.ProcParsers.Schedstat;
import dev.jvmtuning.agent.ProcParsers.ThreadRole;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.LongSupplier;

/**
 * One pass over /proc/self/task per collection, feeding every per-thread metric: the task directory is
 * listed once and each thread's schedstat and status read at most once. The status's name tells the
 * JIT compiler threads and the garbage collector's, whose schedstat time on a CPU is what compiling and
 * collecting cost: the JVM's own compilation and collection times are wall time, which runs long when
 * those threads wait for a CPU, and a concurrent collector's work is in neither.
 *
 * <p>On a saturated CPU the scraping thread gets a sliver of it, so the pass does as little as it can:
 * a thread whose schedstat has not changed has not run since the last pass, so its context switch
 * counts cannot have changed either and its status file (the expensive one) is not read again. A pass
 * also stops at a budget of wall time and one of its own CPU time: threads it did not reach keep their
 * last known counts, which keeps the totals monotonic, and the next pass starts with them. The CPU budget
 * bounds what the agent costs a JVM of thousands of threads; the wall budget, how stale a collection gets
 * while the process saturates its CPUs.
 */
final class TaskScan {

    /** What one pass saw. Counts are process totals that never decrease; empty parts had nothing to read. */
    record Snapshot(
            int tasks,
            int threadsRead,
            Optional<ContextSwitches> contextSwitches,
            OptionalLong runQueueWaitNanos,
            OptionalLong jitCompilerCpuNanos,
            OptionalLong garbageCollectorCpuNanos,
            long passNanos) {}

    /**
     * Bounds the pass well inside the operator's 10 s scrape deadline. A tighter budget kept a saturated
     * process's counters from moving at all (one thread read per scrape with 2000 threads on 2 busy CPUs),
     * which would blind the context-switch detector exactly when it is needed; jvmtuning_agent_scrape_threads
     * says how far a pass got.
     */
    static final Duration PASS_BUDGET = Duration.ofSeconds(2);
    /**
     * The pass's own CPU time: at one collection a second, 2 % of a CPU. A pass of a few hundred threads, busy or idle, fits in
     * it whole; in a JVM of thousands it reads as many as fit and the next pass goes on from there, so each thread's counts are
     * a few seconds old at worst and the agent's cost stops growing with the threads. Opening a thread's /proc file is most of
     * a pass's cost (docs/development/benchmarks.md).
     */
    static final Duration PASS_CPU_BUDGET = Duration.ofMillis(20);

    private static final String TASKS = "/proc/self/task";
    /** Room for a status file with a long CPU mask; a longer one is cut and its thread skipped. */
    private static final int STATUS_BUFFER_BYTES = 16 * 1024;
    private static final int SCHEDSTAT_BUFFER_BYTES = 128;

    /** What the last passes read of one thread. */
    private static final class ThreadCounters {
        Schedstat schedstat;
        ContextSwitches contextSwitches;
        /** Read with the first status: a thread's role does not change, and the JVM never renames its own threads. */
        ThreadRole role;
    }

    private final HostFiles files;
    private final LongSupplier nanoClock;
    private final long budgetNanos;
    /** The calling thread's CPU time in nanoseconds, or a constant where the JVM does not measure it. */
    private final LongSupplier cpuClock;
    private final long cpuBudgetNanos;
    private final byte[] statusBuffer = new byte[STATUS_BUFFER_BYTES];
    private final byte[] schedstatBuffer = new byte[SCHEDSTAT_BUFFER_BYTES];
    private final PerThreadCounterSum voluntary = new PerThreadCounterSum();
    private final PerThreadCounterSum involuntary = new PerThreadCounterSum();
    private final PerThreadCounterSum runQueueWaitNanos = new PerThreadCounterSum();
    /** The roles whose threads' time on a CPU the agent sums. */
    private final Map<ThreadRole, PerThreadCounterSum> cpuNanosByRole = new EnumMap<>(Map.of(
            ThreadRole.JIT_COMPILER, new PerThreadCounterSum(), ThreadRole.GARBAGE_COLLECTOR, new PerThreadCounterSum()));
    private Map<Long, ThreadCounters> threads = new HashMap<>();
    /** The thread after which the next pass starts, so that a pass cut short is continued next time. */
    private long resumeAfterThreadId = -1;

    TaskScan(HostFiles files, LongSupplier nanoClock, Duration budget, LongSupplier cpuClock, Duration cpuBudget) {
        this.files = files;
        this.nanoClock = nanoClock;
        this.budgetNanos = budget.toNanos();
        this.cpuClock = cpuClock;
        this.cpuBudgetNanos = cpuBudget.toNanos();
    }

    /** The agent's pass over its own process, on the calling thread's CPU clock. */
    static TaskScan ofThisProcess(HostFiles files) {
        return new TaskScan(files, System::nanoTime, PASS_BUDGET, threadCpuClock(), PASS_CPU_BUDGET);
    }

    /** The calling thread's CPU time, or -1 where the JVM does not measure it (no CPU budget then). */
    private static LongSupplier threadCpuClock() {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        return threads.isCurrentThreadCpuTimeSupported() ? threads::getCurrentThreadCpuTime : () -> -1;
    }

    /**
     * Runs a pass; empty without /proc. Synchronized because the passes share what earlier ones read;
     * only the background collector runs them in the agent.
     */
    synchronized Optional<Snapshot> snapshot() {
        long started = nanoClock.getAsLong();
        long cpuStarted = cpuClock.getAsLong();
        Optional<String[]> listed = files.list(TASKS);
        if (listed.isEmpty()) {
            return Optional.empty();
        }
        long[] threadIds = threadIds(listed.get());
        Map<Long, ThreadCounters> live = new HashMap<>(threadIds.length * 2);
        for (long threadId : threadIds) {
            live.put(threadId, threads.getOrDefault(threadId, new ThreadCounters()));
        }
        int first = firstAfter(threadIds, resumeAfterThreadId);
        int threadsRead = 0;
        for (; threadsRead < threadIds.length; threadsRead++) {
            if (threadsRead > 0 && (nanoClock.getAsLong() - started > budgetNanos || overCpuBudget(cpuStarted))) {
                break;
            }
            long threadId = threadIds[(first + threadsRead) % threadIds.length];
            read(threadId, live.get(threadId));
            resumeAfterThreadId = threadId;
        }
        threads = live;
        return Optional.of(totals(threadIds.length, threadsRead, started));
    }

    /** A clock that does not measure (-1 from a JVM without thread CPU time) never moves: no CPU budget then. */
    private boolean overCpuBudget(long cpuStarted) {
        return cpuClock.getAsLong() - cpuStarted > cpuBudgetNanos;
    }

    private void read(long threadId, ThreadCounters counters) {
        String directory = TASKS + "/" + threadId;
        int length = files.read(directory + "/schedstat", schedstatBuffer);
        Optional<Schedstat> schedstat = length < 0 ? Optional.empty()
                : ProcParsers.parseSchedstat(schedstatBuffer, length);
        // Less time on a CPU than before: the id was reused by a new thread, whose role is not known yet.
        if (schedstat.isPresent() && counters.schedstat != null && schedstat.get().runNanos() < counters.schedstat.runNanos()) {
            counters.role = null;
        }
        // Without schedstats (no CONFIG_SCHED_INFO) the kernel writes "0 0 0": nothing to compare.
        boolean mayHaveRun = schedstat.isEmpty() || counters.schedstat == null
                || schedstat.get().runNanos() == 0 || !schedstat.get().equals(counters.schedstat);
        if (mayHaveRun || counters.contextSwitches == null || counters.role == null) {
            int statusLength = files.read(directory + "/status", statusBuffer);
            if (statusLength >= 0) {
                ProcParsers.parseContextSwitches(statusBuffer, statusLength)
                        .ifPresent(switches -> counters.contextSwitches = switches);
                if (counters.role == null) {
                    counters.role = ProcParsers.threadRole(statusBuffer, statusLength);
                }
            }
        }
        schedstat.ifPresent(stat -> counters.schedstat = stat);
    }

    private Snapshot totals(int tasks, int threadsRead, long started) {
        Map<String, Long> voluntaryByThread = new HashMap<>();
        Map<String, Long> involuntaryByThread = new HashMap<>();
        Map<String, Long> waitByThread = new HashMap<>();
        Map<ThreadRole, Map<String, Long>> cpuByRoleAndThread = new EnumMap<>(ThreadRole.class);
        threads.forEach((threadId, counters) -> {
            String key = String.valueOf(threadId);
            if (counters.contextSwitches != null) {
                voluntaryByThread.put(key, counters.contextSwitches.voluntary());
                involuntaryByThread.put(key, counters.contextSwitches.involuntary());
            }
            if (counters.schedstat != null) {
                waitByThread.put(key, counters.schedstat.runQueueWaitNanos());
                if (counters.role != null && cpuNanosByRole.containsKey(counters.role)) {
                    cpuByRoleAndThread.computeIfAbsent(counters.role, role -> new HashMap<>()).put(key, counters.schedstat.runNanos());
                }
            }
        });
        Optional<ContextSwitches> contextSwitches = voluntaryByThread.isEmpty() ? Optional.empty()
                : Optional.of(new ContextSwitches(
                        voluntary.update(voluntaryByThread), involuntary.update(involuntaryByThread)));
        OptionalLong runQueueWait = waitByThread.isEmpty() ? OptionalLong.empty()
                : OptionalLong.of(runQueueWaitNanos.update(waitByThread));
        return new Snapshot(tasks, threadsRead, contextSwitches, runQueueWait,
                cpuNanos(ThreadRole.JIT_COMPILER, cpuByRoleAndThread), cpuNanos(ThreadRole.GARBAGE_COLLECTOR, cpuByRoleAndThread),
                nanoClock.getAsLong() - started);
    }

    /**
     * Zero is no figure: no such thread found yet, or no schedstats. A JVM's compilers always run at start, and its VM thread
     * (counted as the collector's) at its first safepoint.
     */
    private OptionalLong cpuNanos(ThreadRole role, Map<ThreadRole, Map<String, Long>> cpuByRoleAndThread) {
        long nanos = cpuNanosByRole.get(role).update(cpuByRoleAndThread.getOrDefault(role, Map.of()));
        return nanos == 0 ? OptionalLong.empty() : OptionalLong.of(nanos);
    }

    /** Numeric task directory names, ascending, so that a pass can resume where the last one stopped. */
    private static long[] threadIds(String[] names) {
        return Arrays.stream(names)
                .filter(name -> !name.isEmpty() && name.chars().allMatch(Character::isDigit))
                .mapToLong(Long::parseLong)
                .sorted()
                .toArray();
    }

    private static int firstAfter(long[] sortedThreadIds, long threadId) {
        int index = Arrays.binarySearch(sortedThreadIds, threadId + 1);
        int first = index >= 0 ? index : -index - 1;
        return first == sortedThreadIds.length ? 0 : first;
    }
}
