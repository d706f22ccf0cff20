package dev.jvmtuning.operator.planner;

import dev.jvmtuning.operator.api.v1alpha1.Collector;
import dev.jvmtuning.operator.api.v1alpha1.Gc;
import dev.jvmtuning.operator.api.v1alpha1.Metrics;
import dev.jvmtuning.operator.api.v1alpha1.Sizing;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfileSpec;
import dev.jvmtuning.operator.deployment.ThreadingDetection;
import dev.jvmtuning.operator.flags.FlagPolicy;
import dev.jvmtuning.operator.model.ContainerFacts;
import dev.jvmtuning.operator.model.Units;
import dev.jvmtuning.operator.model.CurrentSettings;
import dev.jvmtuning.operator.model.JvmFlags;
import dev.jvmtuning.operator.model.PlannedResources;
import dev.jvmtuning.operator.model.Reason;
import dev.jvmtuning.operator.model.RequestThreading;
import dev.jvmtuning.operator.model.Rule;
import dev.jvmtuning.operator.model.ServerVocabulary;
import dev.jvmtuning.operator.model.Setting;
import dev.jvmtuning.operator.model.TuningValues;
import dev.jvmtuning.operator.planner.PlanResult.Plan;
import dev.jvmtuning.operator.planner.PlanResult.Rejected;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.BiFunction;
import java.util.stream.Stream;

/**
 * Turns a TuningProfile spec and the facts of its target container into JVM and server settings,
 * each with the rule behind it (docs/explanation/tuning-rules.md). Each step returns a small record that later
 * steps read: CPUs, what runs the requests, threads, memory (which may cut derived threads), GC, connection pool, queues
 * (on virtual threads the connection limit follows from the pool), carrier threads.
 * Pure: no I/O, no Kubernetes client, same input, same output. Rendering is not its business.
 */
public final class Planner {

    private Planner() {
    }

    /** The connection pool and the queues, planned for the threads that serve the requests. */
    private record Serving(PoolPlan pool, QueuePlan queues) {
        static Serving of(TuningProfileSpec spec, Demand demand, ThreadPlan threads, RequestThreading threading, CpuPlan cpus,
                ContainerFacts facts, ServerVocabulary vocabulary, PlanNotes notes) {
            PoolPlan pool = PoolPlan.of(spec.getConnectionPool(), demand, threads.max(), facts.replicas(), vocabulary, threading, notes);
            VirtualServing virtual = threading.virtual() ? new VirtualServing(threading, cpus.cores(), pool.maxSize(), spec.getRuntime()) : null;
            return new Serving(pool, QueuePlan.of(spec.getQueue(), demand, threads.max(), virtual, vocabulary, notes));
        }
    }

    /** A plan under the bundled flag policy with no install-time allow-list, as the {@code plan} command previews it. */
    /** The live heap, in whole MiB, that a heap of this size is planned for where sizing.memory sizes it (R9c). */
    public static int liveHeapMibFor(long heapBytes) {
        return (int) Math.ceil((double) heapBytes / MemorySize.LIVE_HEAP_MULTIPLE / Units.MI);
    }

    public static PlanResult plan(TuningProfileSpec spec, ContainerFacts facts) {
        return plan(spec, facts, FlagPolicy.standard());
    }

    public static PlanResult plan(TuningProfileSpec spec, ContainerFacts facts, FlagPolicy flagPolicy) {
        return plan(spec, facts, flagPolicy, Optional.empty());
    }

    /** @param oomKill the last OOM kill of the target, which the memory budget answers (R9b) */
    public static PlanResult plan(TuningProfileSpec spec, ContainerFacts facts, FlagPolicy flagPolicy, Optional<OomAnswer> oomKill) {
        PlanNotes notes = new PlanNotes();
        List<String> jvmOptions = Objects.requireNonNullElse(spec.getJvmOptions(), List.of());
        // What the JVM will read besides the operator's flags: the container's own and the profile's jvmOptions.
        JvmFlags userFlags = facts.jvmFlags(spec.getJvmOptionsVariable(), jvmOptions);
        ServerVocabulary vocabulary = ServerVocabulary.of(spec.getRuntime());
        Demand demand = Demand.read(spec.getWorkload(), notes);
        List<String> refused = flagPolicy.problems(jvmOptions, facts.javaMajorVersion());
        notes.invalid.addAll(refused);
        if (refused.isEmpty()) {
            // Only flags the policy passed are well-formed enough for the planner to read their values.
            checkJvmOptions(spec, facts, JvmFlags.of(ContainerFacts.JVM_OPTIONS, jvmOptions), notes);
            checkAgainstTheContainer(spec, userFlags, notes);
        }
        if (!notes.invalid.isEmpty()) {
            return new Rejected(Reason.INVALID, List.copyOf(notes.invalid));
        }
        if (!notes.conflicts.isEmpty()) {
            return new Rejected(Reason.CONFLICT, List.copyOf(notes.conflicts));
        }
        // The container as spec.sizing sizes it: the CPU request first, so the processor count and the CPU caps follow it.
        Sizing sizing = Objects.requireNonNullElseGet(spec.getSizing(), Sizing::new);
        Optional<CpuSize> cpuSize = sizing.plansCpu() ? CpuSize.of(sizing.getCpu(), demand, facts, notes) : Optional.empty();
        if (cpuSize.isPresent()) {
            facts = facts.withCpuRequest(cpuSize.get().millis() / 1000.0);
        }
        CpuPlan cpus = CpuPlan.of(userFlags, facts, notes);
        RequestThreading threading = ThreadingDetection.detect(spec.getThreading(), spec.getRuntime(), facts, userFlags);
        if (threading.conflict() != null) {
            notes.warnings.add(threading.conflict());
        }
        ThreadPlan derivedThreads = ThreadPlan.of(spec.getThreads(), demand, cpus.cores(), vocabulary, threading, notes);
        CarrierPlan carriers = CarrierPlan.of(threading, spec.getRuntime(), facts.env(), userFlags, cpus, notes);
        // On virtual threads no thread count is derived, so memory cuts none, and the heap holds the stacks of the requests the
        // connection limit lets in: pool and limit are planned first. On platform threads they follow the threads memory leaves.
        Serving early = threading.virtual() ? Serving.of(spec, demand, derivedThreads, threading, cpus, facts, vocabulary, notes) : null;
        VirtualLoad virtualLoad = early == null ? null : new VirtualLoad(carriers.carriers(), early.queues().maxConnections());
        // The memory limit next, for the most threads memory may keep: R12a and the budget below only take threads away.
        ThreadPlan mostThreads = derivedThreads;
        MemorySize memorySize = sizing.plansMemory() ? MemorySize.of(sizing.getMemory(), spec.getHeap(), userFlags, demand,
                limit -> answered(MemoryPlan.budgetAt(limit, userFlags, spec.getRuntime(), demand.loadedClasses(), mostThreads, cpus.cores(),
                        virtualLoad), oomKill), notes).orElse(null) : null;
        if (memorySize != null) {
            facts = facts.withMemory(memorySize.limitBytes(), memorySize.limitBytes());
        }
        ContainerFacts sized = facts;
        if (demand.allocation() != null) {
            // R12a needs the young generation, which the heap beside the threads' stacks decides. These trial plans' notes are
            // not the plan's; a thread count whose stacks leave no heap has no young generation to hold anything.
            BiFunction<ThreadPlan, PlanNotes, MemoryPlan> memoryBeside = (threads, trialNotes) -> MemoryPlan.of(spec.getHeap(), userFlags,
                    sized, spec.getRuntime(), demand.loadedClasses(), threads, cpus.cores(), virtualLoad, oomKill.orElse(null), memorySize,
                    trialNotes);
            ThreadPlan besideHeap = memoryBeside.apply(derivedThreads, new PlanNotes()).threads();
            derivedThreads = besideHeap.fitInFlightGarbage(demand.allocation(), count -> {
                PlanNotes trialNotes = new PlanNotes();
                MemoryPlan trial = memoryBeside.apply(count == besideHeap.max() ? besideHeap : besideHeap.cappedTo(count), trialNotes);
                Long young = GcPlan.of(spec.getGc(), userFlags, sized, cpus, trial, trialNotes).youngGeneration(trial.heap());
                return trialNotes.infeasible.isEmpty() ? young : Long.valueOf(0);
            }, notes);
        }
        MemoryPlan memory = MemoryPlan.of(spec.getHeap(), userFlags, facts, spec.getRuntime(), demand.loadedClasses(), derivedThreads,
                cpus.cores(), virtualLoad, oomKill.orElse(null), memorySize, notes);
        ThreadPlan threads = memory.threads();
        GcPlan gc = GcPlan.of(spec.getGc(), userFlags, facts, cpus, memory, notes);
        HeapTarget heapTarget = HeapTarget.of(memory, gc, userFlags);
        CompactHeaders compactHeaders = CompactHeaders.of(facts, userFlags);
        Serving serving = early != null ? early : Serving.of(spec, demand, threads, threading, cpus, facts, vocabulary, notes);
        PoolPlan pool = serving.pool();
        QueuePlan queues = serving.queues();
        Integer agentPort = agentPort(spec.getMetrics());
        AotCacheGuard.check(userFlags, facts, gc, memory.renderedHeap(), agentPort, notes);
        if (!notes.invalid.isEmpty()) {
            return new Rejected(Reason.INVALID, List.copyOf(notes.invalid));
        }
        if (!notes.conflicts.isEmpty()) {
            return new Rejected(Reason.CONFLICT, List.copyOf(notes.conflicts));
        }
        if (!notes.infeasible.isEmpty()) {
            return new Rejected(Reason.INFEASIBLE, List.copyOf(notes.infeasible));
        }
        MemoryBudget budget = memory.budget();
        TuningValues values = new TuningValues(threads.max(), threads.minSpare(), queues.acceptCount(), queues.maxConnections(),
                queues.maxQueueSize(), pool.maxSize(), pool.minIdle(), pool.acquisitionTimeoutMillis(), cpus.activeProcessorCount(),
                carriers.parallelism(), memory.renderedHeap(), heapTarget.initialBytes(), heapTarget.softMaxBytes(), gc.youngBytes(),
                gc.collector(), gc.zGenerational(), compactHeaders.enabled(), gc.maxPauseMillis(), gc.parallelThreads(), gc.concurrentThreads(), agentPort,
                agentPort != null && threading.virtual() ? AGENT_PINNED_THRESHOLD_MILLIS : null,
                budget == null ? null : budget.codeCache(), budget == null ? null : budget.directMemory(), memory.mallocArenas(),
                new PlannedResources(memorySize == null ? null : memorySize.limitBytes(), memorySize == null ? null : memorySize.limitBytes(),
                        cpuSize.map(CpuSize::millis).orElse(null)));
        List<Decision> decisions = Stream.of(cpuSize.map(c -> List.of(c.decision())).orElse(List.of()),
                        memorySize == null ? List.<Decision>of() : memorySize.decisions(), cpus.decisions(), threads.decisions(), carriers.decisions(), memory.decisions(),
                        heapTarget.decisions(), compactHeaders.decisions(), gc.decisions(),
                        queues.decisions(), pool.decisions(), agentDecision(agentPort))
                .flatMap(List::stream)
                .sorted(Comparator.comparing(Decision::setting))
                .toList();
        CurrentSettings current = new CurrentSettings(threads.max(), memory.heap(), pool.maxSize(), cpus.processors(), threading);
        return new Plan(values, decisions, budget, current, List.copyOf(notes.warnings));
    }

    /** The budget beside the heap with the part the last OOM kill blamed raised (R9b), as the memory plan will raise it. */
    private static MemoryBudget answered(MemoryBudget budget, Optional<OomAnswer> oomKill) {
        return oomKill.map(answer -> budget.withPart(answer.cause(), answer.raised(budget.part(answer.cause())))).orElse(budget);
    }

    /** Flags in jvmOptions that contradict each other or the profile, or that the JVM refuses in combination. */
    private static void checkJvmOptions(TuningProfileSpec spec, ContainerFacts facts, JvmFlags userFlags, PlanNotes notes) {
        List<Collector> chosen = userFlags.collectors();
        if (chosen.size() > 1) {
            notes.invalid.add("jvmOptions select more than one garbage collector: " + chosen + "; the JVM refuses to start");
        }
        Collector asked = askedCollector(spec.getGc());
        if (asked != null && !chosen.isEmpty() && chosen.get(0) != asked) {
            notes.invalid.add("jvmOptions select " + chosen.get(0) + " but gc.collector is " + asked + "; set the collector in one place");
        }
        if (spec.getHeap() != null && userFlags.heapSizingFlag().isPresent()) {
            notes.invalid.add("jvmOptions contain " + userFlags.heapSizingFlag().get() + " but the heap section sizes the heap; set it in one place");
        }
        String variable = spec.getJvmOptionsVariable().name();
        if (facts.envFromReferences().contains(variable)) {
            notes.invalid.add(variable + " is set from a reference (valueFrom) in the container, so the operator cannot add flags to it "
                    + "without losing it; choose another jvmOptionsVariable or make the value literal");
        }
        int parallel = userFlags.intFlag("ParallelGCThreads").orElse(Integer.MAX_VALUE);
        OptionalInt conc = userFlags.intFlag("ConcGCThreads");
        if (conc.isPresent() && conc.getAsInt() > parallel) {
            notes.invalid.add("jvmOptions set ConcGCThreads=" + conc.getAsInt() + " above ParallelGCThreads=" + parallel
                    + "; the JVM refuses to start (R14)");
        }
    }

    /**
     * The collector the container's own flags select against the profile's. HotSpot takes exactly one collector and
     * refuses to start with two, so a second one is never rendered: where the profile leaves the choice open the
     * container's is kept (GcPlan), and where it names another the profile and the container conflict. The operator
     * does not take the user's flag out of their variable: it may sit in the command or another variable, where it
     * cannot, and a silent edit of what the user chose is worse than saying so.
     */
    private static void checkAgainstTheContainer(TuningProfileSpec spec, JvmFlags userFlags, PlanNotes notes) {
        if (new LinkedHashSet<>(userFlags.collectors()).size() > 1) {
            notes.conflicts.add("the JVM would get more than one garbage collector (" + String.join(", ", userFlags.describeCollectors())
                    + ") and refuses to start with two; select the collector in one place");
            return;
        }
        Collector asked = askedCollector(spec.getGc());
        List<Collector> theirs = userFlags.collectors();
        if (asked != null && !theirs.isEmpty() && theirs.get(0) != asked) {
            notes.conflicts.add("gc.collector is " + asked + " but " + userFlags.describeCollectors().get(0)
                    + " selects a collector already, and the JVM refuses to start with two; remove it there, or set gc.collector to "
                    + theirs.get(0) + " or Auto to keep it");
        }
    }

    /** The collector the profile names, or null when it leaves the choice to the planner (unset or Auto). */
    private static Collector askedCollector(Gc gc) {
        return gc == null || gc.getCollector() == null || gc.getCollector() == Collector.Auto ? null : gc.getCollector();
    }

    /** jdk.VirtualThreadPinned's own threshold: shorter pinnings are too common to be worth a record each. */
    private static final int AGENT_PINNED_THRESHOLD_MILLIS = 20;

    private static Integer agentPort(Metrics metrics) {
        return metrics != null && metrics.agentInjected() ? metrics.effectivePort() : null;
    }

    /** R17: context switches, run-queue delay and CPU throttling exist per container only inside the pod. */
    private static List<Decision> agentDecision(Integer agentPort) {
        return agentPort == null ? List.of() : List.of(new Decision(Setting.METRICS_AGENT, agentPort.toString(), Rule.R17,
                "the jvm-tuning agent is injected and serves /metrics on this port: context switches, run-queue delay "
                        + "and CPU throttling exist per container only inside the pod"));
    }
}
