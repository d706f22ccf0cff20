package dev.jvmtuning.operator.planner;

import static dev.jvmtuning.operator.model.Units.number;

import dev.jvmtuning.operator.api.v1alpha1.CpuSizing;
import dev.jvmtuning.operator.model.ContainerFacts;
import dev.jvmtuning.operator.model.Rule;
import dev.jvmtuning.operator.model.Setting;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.Objects;
import java.util.Optional;

/**
 * R9c: the CPU request sized for the load (spec.sizing.cpu Plan): the requests one pod serves times the CPU each costs, with
 * headroom, within the bounds and never above the container's CPU limit. Planned first, so the processor count the JVM is told
 * (R14) and the threads the CPUs cap (R2) follow the request where no limit is set.
 *
 * @param millis the request in millicores
 */
record CpuSize(int millis, Decision decision) {
    /** Kubernetes' smallest useful request, and the least the profile's bounds take. */
    static final int LEAST_MILLIS = 10;

    /** The request to plan, or empty where the CPU request is the container's own or the load is not known. */
    static Optional<CpuSize> of(CpuSizing sizing, Demand demand, ContainerFacts facts, PlanNotes notes) {
        if (demand.rate() == null || demand.cpuPerRequest() == null) {
            notes.warnings.add("sizing.cpu is Plan but the CPU the load costs is not known: set workload.requestsPerSecond and "
                    + "workload.cpuPerRequest; the container's CPU request is kept");
            return Optional.empty();
        }
        int headroom = Objects.requireNonNullElse(sizing.getHeadroomPercent(), CpuSizing.DEFAULT_HEADROOM_PERCENT);
        double load = demand.rate() * demand.cpuPerRequest();
        int millis = Math.max(LEAST_MILLIS, (int) Math.ceil(load * (100 + headroom) * 10));
        String why = "workload.requestsPerSecond " + number(demand.rate()) + " x workload.cpuPerRequest " + number(demand.cpuPerRequest() * 1000)
                + "ms = " + number(load) + " CPU, + " + headroom + "% headroom";
        Integer min = millis(sizing.getMin());
        Integer max = millis(sizing.getMax());
        if (min != null && millis < min) {
            millis = min;
            why += ", raised to sizing.cpu.min " + sizing.getMin();
        }
        if (max != null && millis > max) {
            millis = max;
            why += ", held at sizing.cpu.max " + sizing.getMax();
        }
        Double limit = facts.cpuLimitCores();
        if (limit != null && millis > limit * 1000) {
            millis = (int) Math.floor(limit * 1000);
            notes.warnings.add("the load needs " + number(load) + " CPU with headroom above the container's CPU limit " + number(limit)
                    + ": the request is held at the limit, which the API server requires");
            why += ", held at the CPU limit " + number(limit);
        }
        return Optional.of(new CpuSize(millis, new Decision(Setting.CPU_REQUEST, millis + "m", Rule.R9C, why)));
    }

    private static Integer millis(String cpu) {
        return cpu == null ? null : (int) Math.round(Quantity.getAmountInBytes(new Quantity(cpu)).doubleValue() * 1000);
    }
}
