package dev.jvmtuning.operator.render;

/** A server setting the planner sizes, named by the planner's decision it renders. */
public enum Knob {
    MAX_THREADS("threads.max"),
    MIN_SPARE_THREADS("threads.minSpare"),
    ACCEPT_COUNT("queue.acceptCount"),
    MAX_CONNECTIONS("queue.maxConnections"),
    MAX_QUEUE_SIZE("queue.maxQueueSize"),
    POOL_MAX_SIZE("connectionPool.maxSize"),
    POOL_MIN_IDLE("connectionPool.minIdle");

    private final String decision;

    Knob(String decision) {
        this.decision = decision;
    }

    public String decision() {
        return decision;
    }
}
