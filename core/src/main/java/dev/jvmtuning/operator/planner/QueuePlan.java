package dev.jvmtuning.operator.planner;

import static dev.jvmtuning.operator.model.Units.number;

import dev.jvmtuning.operator.api.v1alpha1.Queue;
import dev.jvmtuning.operator.model.Rule;
import dev.jvmtuning.operator.model.ServerVocabulary;
import dev.jvmtuning.operator.model.Setting;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * R6-R7: a bounded executor queue fails fast, the listen backlog holds a burst, and the connection
 * limit covers the workers plus the queue.
 */
record QueuePlan(Integer acceptCount, Integer maxConnections, Integer maxQueueSize, List<Decision> decisions) {
    /** R6: net.core.somaxconn on Linux 5.4 and later; the kernel caps the listen backlog at it (128 before). */
    static final int SOMAXCONN = 4096;
    static final int TOMCAT_DEFAULT_ACCEPT_COUNT = 100;
    static final int TOMCAT_DEFAULT_MAX_CONNECTIONS = 8192;
    /** Derived values stay within the bounds the CRD puts on explicit ones. */
    static final int MAX_QUEUE_SIZE = 10_000_000;
    static final int MAX_CONNECTIONS = 1_000_000;

    /**
     * @param virtual on virtual threads, what bounds the requests in flight instead of a worker pool; null on platform threads
     */
    static QueuePlan of(Queue spec, Demand demand, Integer maxThreads, VirtualServing virtual, ServerVocabulary vocabulary, PlanNotes notes) {
        Queue queue = Objects.requireNonNullElseGet(spec, Queue::new);
        List<Decision> decisions = new ArrayList<>();
        Integer maxQueueSize = null;
        // R7's waiting requests, bounded at the connections instead of the worker queue (see below); null otherwise.
        Integer waitingAtConnections = null;
        if (queue.getMaxQueueSize() != null) {
            maxQueueSize = queue.getMaxQueueSize();
            decisions.add(new Decision(Setting.QUEUE_MAX_QUEUE_SIZE, maxQueueSize.toString(), Rule.SPEC, "set in the profile"));
            if (vocabulary.probesShareWorkers()) {
                notes.warnings.add("queue.maxQueueSize " + maxQueueSize + " also rejects Quarkus's health and metrics routes, which run on the "
                        + "same worker pool, when the queue is full: under overload the probes fail and the operator reads no metrics; "
                        + "queue.maxConnections bounds the same requests without them (R7)");
            }
        } else if (virtual == null && demand.rate() != null && demand.queueWait() != null && vocabulary.has(Setting.QUEUE_MAX_QUEUE_SIZE)) {
            // On virtual threads each request gets a thread at once: there is no executor queue, and the wait goes into R18's bound.
            int waiting = ThreadPlan.bounded(demand.rate() * demand.queueWait(), MAX_QUEUE_SIZE);
            if (vocabulary.probesShareWorkers() && maxThreads != null && vocabulary.has(Setting.QUEUE_MAX_CONNECTIONS)) {
                waitingAtConnections = waiting;
            } else {
                maxQueueSize = waiting;
                decisions.add(new Decision(Setting.QUEUE_MAX_QUEUE_SIZE, maxQueueSize.toString(), Rule.R7, acceptableWait(demand)
                        + ": a request further back would wait too long, so it is rejected at once"));
            }
        }

        Integer acceptCount = null;
        if (queue.getAcceptCount() != null) {
            acceptCount = queue.getAcceptCount();
            decisions.add(new Decision(Setting.QUEUE_ACCEPT_COUNT, acceptCount.toString(), Rule.SPEC,
                    "set in the profile; the kernel caps it at net.core.somaxconn (R6)"));
        } else if (demand.rate() != null && vocabulary.has(Setting.QUEUE_ACCEPT_COUNT)) {
            acceptCount = (int) Math.min(SOMAXCONN, Math.max(TOMCAT_DEFAULT_ACCEPT_COUNT, Math.ceil(demand.rate())));
            decisions.add(new Decision(Setting.QUEUE_ACCEPT_COUNT, acceptCount.toString(), Rule.R6, "one second of arrivals at "
                    + number(demand.rate()) + " req/s, at least the default " + TOMCAT_DEFAULT_ACCEPT_COUNT + ", at most net.core.somaxconn "
                    + SOMAXCONN));
        }
        if (acceptCount != null && acceptCount > SOMAXCONN) {
            notes.warnings.add("queue.acceptCount " + acceptCount + " exceeds net.core.somaxconn (" + SOMAXCONN + " on Linux 5.4+, 128 before): "
                    + "the kernel caps the backlog and resets connections beyond it; raising acceptCount alone does nothing (R6)");
        }

        Integer maxConnections = null;
        int queued = Objects.requireNonNullElse(maxQueueSize, 0);
        if (queue.getMaxConnections() != null) {
            maxConnections = queue.getMaxConnections();
            decisions.add(new Decision(Setting.QUEUE_MAX_CONNECTIONS, maxConnections.toString(), Rule.SPEC, "set in the profile"));
            int needed = Objects.requireNonNullElse(maxThreads, 0) + queued;
            if (maxConnections < needed) {
                notes.warnings.add("queue.maxConnections " + maxConnections + " is below threads.max + queue.maxQueueSize = " + needed
                        + ": connections, not threads, will limit throughput (R6)");
            }
        } else if (virtual != null) {
            maxConnections = virtual.connectionLimit(demand, vocabulary, decisions, notes);
        } else if (waitingAtConnections != null) {
            maxConnections = Math.min(maxThreads + waitingAtConnections, MAX_CONNECTIONS);
            decisions.add(new Decision(Setting.QUEUE_MAX_CONNECTIONS, maxConnections.toString(), Rule.R7, "threads.max " + maxThreads + " + "
                    + waitingAtConnections + " waiting (" + acceptableWait(demand) + "), bounded at the connections: the health and metrics routes run on the same worker pool, "
                    + "on the management port too, so a bounded worker queue would reject the probes and scrapes with the load; "
                    + "a connection past the limit is closed at once"));
        } else if (maxThreads != null && vocabulary.has(Setting.QUEUE_MAX_CONNECTIONS) && maxThreads + queued > TOMCAT_DEFAULT_MAX_CONNECTIONS) {
            maxConnections = Math.min(maxThreads + queued, MAX_CONNECTIONS);
            decisions.add(new Decision(Setting.QUEUE_MAX_CONNECTIONS, maxConnections.toString(), Rule.R6, "threads.max " + maxThreads
                    + " + queue " + queued + ": the default " + TOMCAT_DEFAULT_MAX_CONNECTIONS
                    + " connections would cap throughput below the threads'"));
        }
        return new QueuePlan(acceptCount, maxConnections, maxQueueSize, decisions);
    }

    /** R7's reasoning for the requests allowed to wait. */
    private static String acceptableWait(Demand demand) {
        return number(demand.rate()) + " req/s x " + number(demand.queueWait()) + " s longest acceptable wait";
    }
}
