package dev.jvmtuning.operator.planner;

import static dev.jvmtuning.operator.model.Units.number;

import dev.jvmtuning.operator.api.v1alpha1.ConnectionPool;
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
record PoolPlan(Integer maxSize, Integer minIdle, List<Decision> decisions) {
    /** Derived sizes stay within the bound the CRD puts on an explicit one. */
    static final int MAX_POOL_SIZE = 10_000;

    static PoolPlan of(ConnectionPool pool, Demand demand, Integer maxThreads, int replicas, ServerVocabulary vocabulary, PlanNotes notes) {
        List<Decision> decisions = new ArrayList<>();
        Integer maxSize = null;
        if (pool != null && pool.getMaxSize() != null) {
            maxSize = pool.getMaxSize();
            decisions.add(new Decision(Setting.POOL_MAX_SIZE, maxSize.toString(), Rule.SPEC,
                    "set in the profile; " + totalConnections(maxSize, replicas)));
        } else if (demand.rate() != null && demand.dbTime() != null && vocabulary.has(Setting.POOL_MAX_SIZE)) {
            double atDatabase = demand.rate() * demand.dbTime();
            int size = ThreadPlan.bounded(atDatabase * ThreadPlan.CONCURRENCY_HEADROOM, MAX_POOL_SIZE);
            String rationale = number(demand.rate()) + " req/s x " + number(demand.dbTime() * 1000) + " ms at the database = "
                    + number(atDatabase) + " connections busy (R8), +25% headroom = " + size;
            if (maxThreads != null && size > maxThreads) {
                rationale += "; capped at threads.max " + maxThreads + ": a worker holds one connection at a time";
                size = maxThreads;
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
        return new PoolPlan(maxSize, minIdle, decisions);
    }

    private static String totalConnections(int size, int replicas) {
        return size + " x " + replicas + " replicas = " + (long) size * replicas
                + " database connections; keep that under the database's limit (R8)";
    }
}
