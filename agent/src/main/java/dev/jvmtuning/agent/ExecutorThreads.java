package dev.jvmtuning.agent;

import java.lang.management.LockInfo;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;

/**
 * The busy threads of a pool that registers no MBean, told by their names and by what the idle ones wait on. Quarkus's
 * worker pool is such a pool: jboss-threads' EnhancedQueueExecutor without its MBean, and Vert.x's worker-pool series
 * do not see the requests Quarkus REST runs on it. Its threads are named executor-thread-N, and an idle one is parked on
 * the executor itself, waiting for a task; any other is running one. Reads names and lock owners only, no stacks.
 *
 * @param namePrefix what the pool's threads are named
 * @param idleOn     the class of the object an idle thread of the pool parks on
 */
record ExecutorThreads(String namePrefix, String idleOn) {
    static final ExecutorThreads QUARKUS = new ExecutorThreads("executor-thread-", "org.jboss.threads.EnhancedQueueExecutor");

    /** The pool's threads running a task, or null when the JVM has no thread of the pool. */
    Double busy(ThreadMXBean threads) {
        ThreadInfo[] pool = Arrays.stream(threads.getThreadInfo(threads.getAllThreadIds(), 0))
                .filter(info -> info != null && info.getThreadName().startsWith(namePrefix)).toArray(ThreadInfo[]::new);
        if (pool.length == 0) {
            return null;
        }
        return (double) Arrays.stream(pool).filter(info -> !waitingForATask(info.getLockInfo())).count();
    }

    private boolean waitingForATask(LockInfo lock) {
        return lock != null && lock.getClassName().equals(idleOn);
    }
}
