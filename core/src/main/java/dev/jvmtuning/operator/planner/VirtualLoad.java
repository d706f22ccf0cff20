package dev.jvmtuning.operator.planner;

/**
 * What the memory budget counts of requests on virtual threads: the carrier threads that run them, with native stacks,
 * and the most of them in flight, whose stacks the heap holds while they are parked.
 *
 * @param carriers the scheduler's carrier threads (R20)
 * @param inFlight the connection limit (R18), or null where nothing bounds the requests in flight
 */
record VirtualLoad(int carriers, Integer inFlight) {
}
