package dev.jvmtuning.operator.planner;

import static dev.jvmtuning.operator.model.Units.number;

import dev.jvmtuning.operator.api.v1alpha1.Runtime;
import dev.jvmtuning.operator.model.RequestThreading;
import dev.jvmtuning.operator.model.Rule;
import dev.jvmtuning.operator.model.ServerVocabulary;
import dev.jvmtuning.operator.model.Setting;
import java.util.ArrayList;
import java.util.List;

/**
 * R18: on virtual threads every request gets a thread of its own, so no worker pool bounds the requests in flight and the
 * connection limit must. It is set to what the server can serve in time: the CPUs serve C / c requests per second and the
 * pool P / t_db; that rate over the latency plus the longest acceptable wait is how many requests can be in flight and
 * still be answered within it (Little's law). More only queue for a CPU or a connection.
 *
 * @param threading what runs the requests, named in the rationale
 * @param cores     the CPUs the JVM sees
 * @param poolSize  connectionPool.maxSize as planned, or null
 * @param runtime   the server, named where it has no connection limit
 */
record VirtualServing(RequestThreading threading, double cores, Integer poolSize, Runtime runtime) {

    /** The connection limit with its decision, or null without the figures or a property to take it. */
    Integer connectionLimit(Demand demand, ServerVocabulary vocabulary, List<Decision> decisions, PlanNotes notes) {
        if (!vocabulary.has(Setting.QUEUE_MAX_CONNECTIONS)) {
            notes.warnings.add("requests run on virtual threads (" + threading.source() + ") and runtime " + runtime + " has no property "
                    + "that bounds the requests in flight: only the connection pool limits them, and an overload queues without bound (R18)");
            return null;
        }
        if (demand.latency() == null) {
            return null;
        }
        List<String> figures = new ArrayList<>();
        Double served = null;
        if (demand.cpuPerRequest() != null) {
            served = cores / demand.cpuPerRequest();
            figures.add("the CPUs serve " + number(cores) + " / " + millis(demand.cpuPerRequest()) + " CPU = " + number(served) + " req/s");
        }
        if (poolSize != null && demand.dbTime() != null) {
            double byPool = poolSize / demand.dbTime();
            figures.add("the pool " + poolSize + " / " + millis(demand.dbTime()) + " held = " + number(byPool) + " req/s");
            served = served == null ? byPool : Math.min(served, byPool);
        }
        String rate;
        if (served != null) {
            rate = String.join(", ", figures) + "; " + number(served) + " req/s";
            if (demand.rate() != null && served < demand.rate()) {
                notes.warnings.add("on virtual threads the server can serve " + number(served) + " req/s (" + String.join(", ", figures)
                        + "), below the target " + number(demand.rate()) + " req/s: the rest queue for a CPU or a connection; "
                        + "add CPU, connections or replicas (R18)");
            }
        } else if (demand.rate() != null) {
            served = demand.rate() * ThreadPlan.CONCURRENCY_HEADROOM;
            rate = "no CPU or database figure caps the target " + number(demand.rate()) + " req/s, +25% headroom = " + number(served) + " req/s";
        } else {
            return null;
        }
        double wait = demand.queueWait() == null ? 0 : demand.queueWait();
        // Decimal figures such as 2 / 5 ms come out a hair above 400 in binary; that hair must not round up to another connection.
        double inFlight = Math.round(served * (demand.latency() + wait) * 1e6) / 1e6;
        int limit = ThreadPlan.bounded(inFlight, QueuePlan.MAX_CONNECTIONS);
        decisions.add(new Decision(Setting.QUEUE_MAX_CONNECTIONS, Integer.toString(limit), Rule.R18, "requests run on virtual threads ("
                + threading.source() + "), so threads.max bounds nothing and is left unset; the connection limit bounds them instead: "
                + rate + " x (" + millis(demand.latency()) + " latency + " + millis(wait) + " longest acceptable wait) = " + limit
                + " requests in flight"));
        return limit;
    }

    private static String millis(double seconds) {
        return number(seconds * 1000) + " ms";
    }
}
