package dev.jvmtuning.operator.closedloop;

import static dev.jvmtuning.operator.model.Units.number;

import dev.jvmtuning.operator.api.v1alpha1.AutoSettings;
import dev.jvmtuning.operator.api.v1alpha1.AutoStatus;
import dev.jvmtuning.operator.api.v1alpha1.ConnectionPool;
import dev.jvmtuning.operator.api.v1alpha1.Observed;
import dev.jvmtuning.operator.api.v1alpha1.Threads;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfileSpec;
import dev.jvmtuning.operator.api.v1alpha1.Workload;
import dev.jvmtuning.operator.flags.FlagPolicy;
import dev.jvmtuning.operator.model.ContainerFacts;
import dev.jvmtuning.operator.model.TuningValues;
import dev.jvmtuning.operator.planner.PlanResult;
import dev.jvmtuning.operator.planner.Planner;
import java.util.Optional;

/**
 * The loop's re-plan: the profile planned with the workload a period measured (the declared rate, if
 * any, and the measured service, CPU and database times with the congestion taken out, as in the
 * recommendations), the knobs the loop moves left for the planner to derive. Pure.
 */
public final class MeasuredReplan implements Replanner {
    private final TuningProfileSpec spec;
    private final ContainerFacts facts;
    private final FlagPolicy flagPolicy;

    /** @param spec the profile's own spec, not the loop's overlay */
    public MeasuredReplan(TuningProfileSpec spec, ContainerFacts facts, FlagPolicy flagPolicy) {
        this.spec = spec;
        this.facts = facts;
        this.flagPolicy = flagPolicy;
    }

    @Override
    public Optional<Replan> propose(Observed period) {
        Optional<Workload> measured = ObservedWorkload.measured(spec.getWorkload(), period);
        if (measured.isEmpty()) {
            return Optional.empty();
        }
        Workload workload = measured.get();
        TuningProfileSpec replanned = ObservedWorkload.withWorkload(spec, workload);
        replanned.setThreads(new Threads());
        if (workload.getDbTimePerRequest() != null) {
            replanned.setConnectionPool(new ConnectionPool());
        }
        boolean heapMoves = spec.getAuto() != null && spec.getAuto().getHeapPercentOfLimit() != null && facts.memoryBudgetBytes() != null;
        if (heapMoves) {
            replanned.setHeap(null);
        }
        String figures = number(workload.getRequestsPerSecond()) + " req/s per pod, " + workload.getMeanLatency() + " in the server per request"
                + (liveHeapMib(period) == null || !plansMemory() ? "" : ", " + liveHeapMib(period) + "Mi of heap live after a collection")
                + (workload.getCpuPerRequest() == null ? "" : ", " + workload.getCpuPerRequest() + " CPU")
                + (workload.getDbTimePerRequest() == null ? "" : ", " + workload.getDbTimePerRequest() + " holding a connection")
                + " (measured, waits for a CPU, a connection and GC taken out; R1, R2, R8)";
        PlanResult result = Planner.plan(replanned, facts, flagPolicy);
        if (result instanceof PlanResult.Rejected rejected) {
            return Optional.of(new Unplannable("the planner rejects " + figures + ": " + why(rejected)));
        }
        TuningValues values = ((PlanResult.Plan) result).values();
        Integer heapPercent = heapMoves && values.heapBytes() != null
                ? (int) Math.round(100.0 * values.heapBytes() / facts.memoryBudgetBytes()) : null;
        return Optional.of(new Proposal(new AutoSettings(values.maxThreads(), values.poolMaxSize(), heapPercent,
                sizesForLiveHeap(values) ? liveHeapMib(period) : null), "planned for " + figures));
    }

    /**
     * Whether the loop sizes the container for the live heap: spec.sizing.memory plans the limit and no heap.size fixes the
     * heap (nor may the container's own -Xmx, which leaves the plan without a heap of its own).
     */
    public static boolean sizesForLiveHeap(TuningProfileSpec spec) {
        return spec.getSizing() != null && spec.getSizing().plansMemory() && (spec.getHeap() == null || spec.getHeap().getSize() == null);
    }

    /** Whether this plan sizes the container for the live heap: it renders the heap it sized and the limit around it. */
    private boolean sizesForLiveHeap(TuningValues values) {
        return sizesForLiveHeap(spec) && values.resources().memoryLimitBytes() != null && values.heapBytes() != null;
    }

    private boolean plansMemory() {
        return spec.getSizing() != null && spec.getSizing().plansMemory();
    }

    private static Integer liveHeapMib(Observed period) {
        return period.getLiveHeapMib() == null || period.getLiveHeapMib() < 1 ? null : (int) Math.ceil(period.getLiveHeapMib());
    }

    @Override
    public Optional<String> rejects(AutoSettings settings) {
        return Planner.plan(Overlay.spec(spec, new AutoStatus().setSettings(settings)), facts, flagPolicy) instanceof PlanResult.Rejected rejected
                ? Optional.of(why(rejected)) : Optional.empty();
    }

    private static String why(PlanResult.Rejected rejected) {
        return rejected.reason() + ": " + String.join("; ", rejected.messages());
    }
}
