package dev.jvmtuning.operator.planner;

import static dev.jvmtuning.operator.model.Units.number;

import dev.jvmtuning.operator.api.v1alpha1.ConnectionPool;
import dev.jvmtuning.operator.model.RequestThreading;
import dev.jvmtuning.operator.model.Rule;
import dev.jvmtuning.operator.model.ServerVocabulary;
import dev.jvmtuning.operator.model.Setting;
import java.util.ArrayList;
import java.util.List;

/**
 * R8: the database connection pool admits the concurrency that reaches the database, and no more
 * than the workers can use: a pool smaller than the queries in flight caps throughput whatever the CPU
 * (the measurement is R8's in docs/explanation/tuning-rules.md).
 */
record PoolPlan(Integer maxSize, Integer minIdle, Integer acquisitionTimeoutMillis, List<Decision> decisions) {
    /** Derived sizes stay within the bound the CRD puts on an explicit one. */
    static final int MAX_POOL_SIZE = 10_000;
    /** R19: HikariCP refuses a connection timeout below 250 ms and falls back to its 30 s default. */
    static final int MIN_ACQUISITION_TIMEOUT_MILLIS = 250;

    /**
     * @param threading on virtual threads every request in flight may queue on the pool, so its wait is bounded (R19)
     */
    static PoolPlan of(ConnectionPool pool, Demand demand, Integer maxThreads, int replicas, ServerVocabulary vocabulary,
            RequestThreading threading, PlanNotes notes) {
        List<Decision> decisions = new ArrayList<>();
        Integer maxSize = null;
        if (pool != null && pool.getMaxSize() != null) {
            maxSize = pool.getMaxSize();
            decisions.add(new Decision(Setting.POOL_MAX_SIZE, maxSize.toString(), Rule.SPEC,
                    "set in the profile; " + totalConnections(maxSize, replicas)));
            if (pool.getDatabaseConnections() != null && (long) maxSize * replicas > pool.getDatabaseConnections()) {
                notes.invalid.add("connectionPool.maxSize " + maxSize + " x " + replicas + " replicas the Deployment may run = "
                        + (long) maxSize * replicas + " connections, beyond connectionPool.databaseConnections " + pool.getDatabaseConnections());
            }
        } else if (demand.rate() != null && demand.dbTime() != null && vocabulary.has(Setting.POOL_MAX_SIZE)) {
            double atDatabase = demand.rate() * demand.dbTime();
            int size = ThreadPlan.bounded(atDatabase * ThreadPlan.CONCURRENCY_HEADROOM, MAX_POOL_SIZE);
            String rationale = number(demand.rate()) + " req/s x " + number(demand.dbTime() * 1000) + " ms at the database = "
                    + number(atDatabase) + " connections busy (R8), +25% headroom = " + size;
            if (maxThreads != null && size > maxThreads) {
                rationale += "; capped at threads.max " + maxThreads + ": a worker holds one connection at a time";
                size = maxThreads;
            }
            Integer budget = pool == null ? null : pool.getDatabaseConnections();
            if (budget != null && size > Math.max(1, budget / replicas)) {
                size = Math.max(1, budget / replicas);
                rationale += "; capped at the database's " + budget + " connections for this service over the " + replicas
                        + " replicas the Deployment may run = " + size;
            }
            maxSize = size;
            decisions.add(new Decision(Setting.POOL_MAX_SIZE, maxSize.toString(), Rule.R8,
                    rationale + "; " + totalConnections(maxSize, replicas)));
        }
        Integer minIdle = null;
        if (pool != null && pool.getMinIdle() != null) {
            minIdle = pool.getMinIdle();
            if (maxSize != null && minIdle > maxSize) {
                notes.invalid.add("connectionPool.minIdle " + minIdle + " exceeds connectionPool.maxSize " + maxSize);
            }
            decisions.add(new Decision(Setting.POOL_MIN_IDLE, minIdle.toString(), Rule.SPEC, "set in the profile"));
        }
        Integer timeout = null;
        if (threading.virtual() && maxSize != null && demand.queueWait() != null && vocabulary.has(Setting.POOL_ACQUISITION_TIMEOUT)) {
            long wait = Math.round(demand.queueWait() * 1000);
            long twice = 2 * wait;
            timeout = (int) Math.min(Integer.MAX_VALUE, Math.max(MIN_ACQUISITION_TIMEOUT_MILLIS, twice));
            decisions.add(new Decision(Setting.POOL_ACQUISITION_TIMEOUT, timeout + "ms", Rule.R19, "requests run on virtual threads, so "
                    + "every one in flight can queue for one of the " + maxSize + " connections; the connection limit (R18) lets them wait "
                    + "up to the longest acceptable wait " + number(wait) + " ms, so the timeout is twice that, " + number(twice) + " ms"
                    + (twice < MIN_ACQUISITION_TIMEOUT_MILLIS ? " (raised to HikariCP's minimum " + MIN_ACQUISITION_TIMEOUT_MILLIS + " ms)" : "")
                    + ": it fails a request only when the connections are held twice as long as planned, at once instead of after the "
                    + "pool's default (30 s in HikariCP)"));
        }
        return new PoolPlan(maxSize, minIdle, timeout, decisions);
    }

    private static String totalConnections(int size, int replicas) {
        return size + " x " + replicas + " replicas (the most the Deployment may run) = " + (long) size * replicas
                + " database connections; keep that under the database's limit (R8)";
    }
}
