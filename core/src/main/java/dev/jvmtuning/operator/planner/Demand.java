package dev.jvmtuning.operator.planner;

import dev.jvmtuning.operator.api.v1alpha1.Workload;
import dev.jvmtuning.operator.model.Units;

/**
 * The profile's workload figures in seconds and requests per second; null where not given.
 *
 * @param rate          target requests per second per pod
 * @param latency       mean time in the server per request
 * @param cpuPerRequest CPU time per request
 * @param queueWait     the longest a request may wait in the queue
 * @param dbTime        time a request holds a database connection
 * @param allocation    heap bytes one request allocates
 * @param loadedClasses classes the service loads
 * @param liveHeap      heap bytes the service keeps live after a collection
 */
record Demand(Double rate, Double latency, Double cpuPerRequest, Double queueWait, Double dbTime, Long allocation, Integer loadedClasses,
        Long liveHeap) {
    static final Demand NONE = new Demand(null, null, null, null, null, null, null, null);

    static Demand read(Workload w, PlanNotes notes) {
        if (w == null) {
            return NONE;
        }
        Double rate = w.getRequestsPerSecond();
        if (rate != null && !(rate > 0)) {
            notes.invalid.add("workload.requestsPerSecond must be positive, got " + rate);
        }
        Double latency = duration("workload.meanLatency", w.getMeanLatency(), notes);
        Double cpu = duration("workload.cpuPerRequest", w.getCpuPerRequest(), notes);
        Double queueWait = duration("workload.maxQueueWait", w.getMaxQueueWait(), notes);
        Double dbTime = duration("workload.dbTimePerRequest", w.getDbTimePerRequest(), notes);
        if (latency != null && latency <= 0) {
            notes.invalid.add("workload.meanLatency must be positive");
        }
        if (cpu != null && cpu <= 0) {
            notes.invalid.add("workload.cpuPerRequest must be positive");
        }
        if (cpu != null && latency != null && cpu > latency) {
            notes.invalid.add("workload.cpuPerRequest (" + w.getCpuPerRequest() + ") cannot exceed workload.meanLatency ("
                    + w.getMeanLatency() + ")");
        }
        Long allocation = positiveBytes("workload.allocationPerRequest", w.getAllocationPerRequest(), notes);
        Long liveHeap = positiveBytes("workload.liveHeap", w.getLiveHeap(), notes);
        return new Demand(rate, latency, cpu, queueWait, dbTime, allocation, w.getLoadedClasses(), liveHeap);
    }

    /** R1: requests in flight at the target rate, or null without rate and latency. */
    Double inFlight() {
        return rate != null && latency != null ? rate * latency : null;
    }

    /** R2: the thread count at which {@code cores} CPUs saturate, or null without CPU and latency figures. */
    Double cpuSaturation(double cores) {
        return cpuPerRequest != null && latency != null ? cores * latency / cpuPerRequest : null;
    }

    private static Long positiveBytes(String field, String value, PlanNotes notes) {
        if (value == null) {
            return null;
        }
        try {
            long bytes = Units.bytes(value);
            if (bytes <= 0) {
                notes.invalid.add(field + " must be positive");
            }
            return bytes;
        } catch (IllegalArgumentException e) {
            notes.invalid.add(field + ": " + e.getMessage());
            return null;
        }
    }

    private static Double duration(String field, String value, PlanNotes notes) {
        if (value == null) {
            return null;
        }
        try {
            return Units.seconds(value);
        } catch (IllegalArgumentException e) {
            notes.invalid.add(field + ": " + e.getMessage());
            return null;
        }
    }
}
