package dev.jvmtuning.operator.planner;

import static dev.jvmtuning.operator.model.Units.mebibytes;

import dev.jvmtuning.operator.api.v1alpha1.Heap;
import dev.jvmtuning.operator.api.v1alpha1.Runtime;
import dev.jvmtuning.operator.model.ContainerFacts;
import dev.jvmtuning.operator.model.JvmFlags;
import dev.jvmtuning.operator.model.OomKill;
import dev.jvmtuning.operator.model.Rule;
import dev.jvmtuning.operator.model.Setting;
import dev.jvmtuning.operator.model.Units;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;

/**
 * R9-R10: the heap is what the memory limit leaves after metaspace, code cache, thread stacks,
 * direct memory and the JVM's own overhead; an explicit heap that does not fit is refused.
 *
 * @param budget       the memory budget, or null when the container has no memory figure
 * @param heap         the heap in effect when known, whoever set it
 * @param heapRendered whether the operator renders -Xms/-Xmx (not when jvmOptions or the container's own flags size the heap)
 * @param threads      the thread plan, cut down where derived threads had to make room for an explicit heap
 * @param mallocArenas MALLOC_ARENA_MAX, set only to answer an OOM kill by native memory (R9b); else null
 */
record MemoryPlan(MemoryBudget budget, Long heap, boolean heapRendered, ThreadPlan threads, List<Decision> decisions, Integer mallocArenas) {
    /**
     * R9a: what a busy worker thread's stack really commits, well under the 1 MiB -Xss reserves: stacks
     * commit lazily (the measurement is R9a's in docs/explanation/tuning-rules.md).
     */
    static final long STACK_BUDGET = 256 * Units.KI;
    /** Threads besides the workers: JIT, VM, signal, reference handling, acceptors, pollers, pool housekeeping. */
    static final int JVM_OWN_THREADS = 40;
    /** The worker pool Tomcat, Jetty and Quarkus use when nothing is set. */
    static final int SERVER_DEFAULT_MAX_THREADS = 200;
    /**
     * On virtual threads no worker pool runs the requests, but the server keeps some platform threads beside the acceptors and
     * pollers JVM_OWN_THREADS counts: Jetty's pool keeps its 8 minimum threads, Quarkus its worker pool for the endpoints not on
     * virtual threads, and the scheduler may add carriers while a virtual thread is pinned. 16 covers them with room.
     */
    static final int SERVER_PLATFORM_THREADS_ON_VIRTUAL = 16;
    /**
     * What a parked virtual thread's stack takes on the heap: only the frames in use are copied into a stack chunk, and a web
     * request blocked in JDBC or an HTTP client is some 100 to 200 frames of about 100 bytes. 32 KiB covers that with room;
     * an estimate, not a measurement (the heap's share is small beside the heap, so the estimate's error is too).
     */
    static final long VIRTUAL_STACK_CHUNK = 32 * Units.KI;
    /** Below this a heap cannot hold a web service's framework, let alone requests. */
    static final long MIN_HEAP = 32 * Units.MI;
    /** R9: metaspace is about 14 MiB plus 5.8 KiB per loaded class (the memory calculator's estimate). */
    static final long METASPACE_BASE = 14 * Units.MI;
    static final double METASPACE_BYTES_PER_CLASS = 5.8 * Units.KI;
    /** R9: the JVM reserves 240 MiB of code cache by default; a container under 1 GiB gets a smaller pin. */
    static final long DEFAULT_CODE_CACHE = 240 * Units.MI;
    static final long SMALL_CODE_CACHE = 64 * Units.MI;
    /** GC data structures, symbol tables and malloc arenas: a fixed part and 5 % of the limit. */
    static final long OVERHEAD_BASE = 32 * Units.MI;
    static final int OVERHEAD_PERCENT_OF_LIMIT = 5;

    /**
     * @param virtual on virtual threads, the carriers and the most requests in flight; null on platform threads
     * @param answer  the last OOM kill to answer (R9b), or null
     * @param sized   the memory spec.sizing planned, whose limit the facts carry; null where the container's own stands
     */
    static MemoryPlan of(Heap heapSpec, JvmFlags userFlags, ContainerFacts facts, Runtime runtime, Integer loadedClasses,
            ThreadPlan threads, double cores, VirtualLoad virtual, OomAnswer answer, MemorySize sized, PlanNotes notes) {
        Long limit = facts.memoryBudgetBytes();
        if (facts.memoryLimitBytes() == null && limit != null) {
            notes.warnings.add("the container has no memory limit: the heap is budgeted against the memory request " + mebibytes(limit));
        }
        int ownThreads = ownThreads(cores);

        Long explicitHeap = null;
        String heapSource = null;
        if (sized != null && sized.heapBytes() != null) {
            explicitHeap = sized.heapBytes();
            heapSource = sized.heapSource();
        } else if (heapSpec != null && heapSpec.getSize() != null) {
            try {
                explicitHeap = wholeMi(Units.bytes(heapSpec.getSize()));
            } catch (IllegalArgumentException e) {
                notes.invalid.add("heap.size: " + e.getMessage());
                return new MemoryPlan(null, null, false, threads, List.of(), null);
            }
            heapSource = "set in the profile";
        } else if (heapSpec != null && heapSpec.getPercentOfLimit() != null) {
            if (limit == null) {
                notes.invalid.add("heap.percentOfLimit needs a memory limit on the container, and it has none");
                return new MemoryPlan(null, null, false, threads, List.of(), null);
            }
            explicitHeap = wholeMi(limit * heapSpec.getPercentOfLimit() / 100);
            heapSource = heapSpec.getPercentOfLimit() + "% of the " + mebibytes(limit) + " limit";
        } else if (userFlags.heapSizingFlag().isPresent()) {
            // The user sized the heap (-Xmx, -Xms, MaxRAMPercentage, ...): theirs is kept and budgeted, never overridden.
            String flag = userFlags.heapSizingFlag().get();
            heapSource = "kept as sized by " + flag + " in " + userFlags.sourceOf(flag).orElseThrow();
            // HotSpot takes its percentages of the container's limit, not of its request.
            OptionalLong theirs = userFlags.effectiveMaxHeapBytes(facts.memoryLimitBytes());
            if (theirs.isEmpty()) {
                notes.warnings.add("the heap is " + heapSource + ", a share of the node's memory without a memory limit on the container; "
                        + "it is not budgeted (R9)");
                return new MemoryPlan(null, null, false, threads, List.of(), null);
            }
            explicitHeap = wholeMi(theirs.getAsLong());
        }
        boolean sizedHeap = sized != null && sized.heapBytes() != null;
        boolean rendered = heapSpec != null || sizedHeap;
        List<Decision> decisions = new ArrayList<>();

        if (limit == null) {
            if (explicitHeap == null) {
                notes.warnings.add("the container has no memory limit or request: the heap is left to the JVM (a quarter of the node's memory)");
                return new MemoryPlan(null, null, false, threads, List.of(), null);
            }
            decisions.add(new Decision(Setting.HEAP_SIZE, mebibytes(explicitHeap), Rule.SPEC,
                    heapSource + "; not checked: the container has no memory limit or request"));
            return new MemoryPlan(null, explicitHeap, rendered, threads, decisions, null);
        }

        MemoryBudget budget = budgetAt(limit, userFlags, runtime, loadedClasses, threads, cores, virtual);
        MemoryBudget.VirtualStacks virtualStacks = budget.virtualStacks();
        long leastHeap = MIN_HEAP + budget.virtualStackBytes();
        String fewer = virtualStacks == null ? "threads" : "queue.maxConnections";
        // R9b: the part the last kill blamed gets more before the heap is sized, so the heap is what gives way.
        long partBefore = answer == null ? 0 : budget.part(answer.cause());
        if (answer != null) {
            budget = budget.withPart(answer.cause(), answer.raised(partBefore));
        }
        String killed = answer == null ? "" : answer.citation() + ": ";
        long heap;
        if (explicitHeap != null) {
            heap = explicitHeap;
            budget = budget.withHeap(heap);
            if (!budget.fits() && !threads.explicit() && threads.max() != null) {
                int fit = (int) (budget.roomForThreads() / budget.stackPerThread()) - ownThreads;
                if (fit >= 1 && fit < threads.max()) {
                    threads = threads.cappedTo(fit);
                    budget = budget.withThreads(fit + ownThreads);
                }
            }
            if (!budget.fits()) {
                notes.infeasible.add(killed + budget.describe() + " exceeds the " + mebibytes(limit) + " memory limit (R9); "
                        + "lower the heap or threads, or raise the limit to at least " + mebibytes(roundUpToMi(budget.total())));
                return new MemoryPlan(budget, heap, rendered, threads, List.of(), null);
            }
            if (heap < leastHeap && virtualStacks != null) {
                notes.warnings.add("the heap " + mebibytes(heap) + " holds the stacks of up to " + virtualStacks.describe()
                        + " and leaves less than " + mebibytes(MIN_HEAP) + " for the service (R9)");
            }
            decisions.add(new Decision(Setting.HEAP_SIZE, mebibytes(heap), sizedHeap ? Rule.R9C : rendered ? Rule.SPEC : Rule.R9, killed + heapSource + "; "
                    + budget.describe() + " fits the " + mebibytes(limit) + " limit (R9)"));
        } else {
            long derived = wholeMi(limit - budget.nonHeap());
            if (derived < leastHeap) {
                notes.infeasible.add(killed + "the " + mebibytes(limit) + " memory limit leaves " + mebibytes(Math.max(0, derived))
                        + " for the heap after non-heap memory (" + budget.describe() + "); "
                        + "raise the limit to at least " + mebibytes(roundUpToMi(budget.nonHeap() + leastHeap)) + " or lower " + fewer + " (R9)");
                return new MemoryPlan(budget, null, false, threads, List.of(), null);
            }
            heap = derived;
            rendered = true;
            budget = budget.withHeap(heap);
            decisions.add(new Decision(Setting.HEAP_SIZE, mebibytes(heap), Rule.R9,
                    killed + "the " + mebibytes(limit) + " limit minus non-heap memory: " + budget.describe()));
        }
        if (answer != null) {
            decisions.addAll(answered(answer, partBefore, budget));
        } else if (userFlags.threadStackBytes().isEmpty()) {
            decisions.add(new Decision(Setting.THREAD_STACK_BUDGET, (budget.stackPerThread() / Units.KI) + "Ki", Rule.R9A,
                    "stacks are reserved at -Xss (1 MiB) but commit lazily: measured ~230 KiB per busy worker, budgeted at 256 KiB"
                            + (virtual == null ? "" : " for each of the " + budget.threads() + " platform threads: " + virtual.carriers()
                            + " carriers, " + SERVER_PLATFORM_THREADS_ON_VIRTUAL + " of the server's and " + ownThreads + " of the JVM's; "
                            + "the virtual threads' stacks are on the heap" + (virtualStacks == null ? ""
                            : ", up to " + virtualStacks.describe()))));
        }
        boolean nativeKill = answer != null && answer.cause() == OomKill.Cause.NATIVE_OTHER;
        return new MemoryPlan(budget, heap, rendered, threads, decisions, nativeKill ? OomAnswer.MALLOC_ARENAS : null);
    }

    /**
     * R9: the JVM's memory beside the heap in a container of this limit, the heap not yet sized (0).
     *
     * @param virtual on virtual threads, the carriers and the most requests in flight; null on platform threads
     */
    static MemoryBudget budgetAt(long limit, JvmFlags userFlags, Runtime runtime, Integer loadedClasses, ThreadPlan threads, double cores,
            VirtualLoad virtual) {
        long stack = userFlags.threadStackBytes().stream().map(xss -> Math.min(xss, STACK_BUDGET)).findFirst().orElse(STACK_BUDGET);
        // On virtual threads the requests' stacks are on the heap while parked and on a carrier's while they run.
        int workerThreads = virtual != null ? virtual.carriers() + SERVER_PLATFORM_THREADS_ON_VIRTUAL
                : threads.max() != null ? threads.max() : SERVER_DEFAULT_MAX_THREADS;
        MemoryBudget.VirtualStacks virtualStacks = virtual == null || virtual.inFlight() == null ? null
                : new MemoryBudget.VirtualStacks(virtual.inFlight(), VIRTUAL_STACK_CHUNK);
        int classes = loadedClasses != null ? loadedClasses : typicalLoadedClasses(runtime);
        long metaspace = METASPACE_BASE + (long) (METASPACE_BYTES_PER_CLASS * classes);
        long codeCache = userFlags.sizeFlag("-XX:ReservedCodeCacheSize=").orElse(limit < Units.GI ? SMALL_CODE_CACHE : DEFAULT_CODE_CACHE);
        long direct = userFlags.sizeFlag("-XX:MaxDirectMemorySize=").orElse(directMemory(runtime));
        long overhead = OVERHEAD_BASE + limit * OVERHEAD_PERCENT_OF_LIMIT / 100;
        return new MemoryBudget(limit, 0, metaspace, classes, loadedClasses != null, codeCache, workerThreads + ownThreads(cores), stack, direct,
                overhead, virtualStacks);
    }

    /** Threads besides the workers, with the collector's and the compilers' per CPU. */
    private static int ownThreads(double cores) {
        return JVM_OWN_THREADS + 2 * (int) Math.ceil(cores);
    }

    /**
     * R9b: the part the kill blamed, with its new budget and the heap that gave way, each citing the kill; the heap's own
     * decision cites it too.
     */
    private static List<Decision> answered(OomAnswer answer, long partBefore, MemoryBudget budget) {
        long part = budget.part(answer.cause());
        String heapChange = answer.heapBytes() == null || answer.heapBytes() == budget.heap() ? mebibytes(budget.heap())
                : mebibytes(answer.heapBytes()) + " -> " + mebibytes(budget.heap());
        String why = answer.citation() + ": " + answer.cause().name().toLowerCase(Locale.ROOT).replace('_', ' ') + " budget "
                + mebibytes(partBefore) + " -> " + mebibytes(part) + ", heap " + heapChange + " (R9b)";
        List<Decision> decisions = new ArrayList<>();
        decisions.add(switch (answer.cause()) {
            case METASPACE -> new Decision(Setting.METASPACE_BUDGET, mebibytes(part), Rule.R9B, why);
            case DIRECT_MEMORY -> new Decision(Setting.MAX_DIRECT_MEMORY, mebibytes(part), Rule.R9B, why + "; -XX:MaxDirectMemorySize caps "
                    + "direct buffers there, so the next overrun is the JVM's OutOfMemoryError, not the kernel's kill");
            case THREAD_STACKS -> new Decision(Setting.THREAD_STACK_BUDGET, (budget.stackPerThread() / Units.KI) + "Ki", Rule.R9B,
                    why + "; " + budget.threads() + " threads");
            default -> new Decision(Setting.NATIVE_OVERHEAD_BUDGET, mebibytes(part), Rule.R9B, why);
        });
        if (answer.cause() == OomKill.Cause.NATIVE_OTHER) {
            decisions.add(new Decision(Setting.MALLOC_ARENA_MAX, String.valueOf(OomAnswer.MALLOC_ARENAS), Rule.R9B, answer.citation()
                    + ": glibc keeps up to 8 malloc arenas per CPU, 64 MiB each, which the JVM does not account for; "
                    + OomAnswer.MALLOC_ARENAS + " bound them"));
        }
        return decisions;
    }

    /** The heap the operator renders, or null. */
    Long renderedHeap() {
        return heapRendered ? heap : null;
    }

    private static long wholeMi(long bytes) {
        return bytes / Units.MI * Units.MI;
    }

    private static long roundUpToMi(long bytes) {
        return (bytes + Units.MI - 1) / Units.MI * Units.MI;
    }

    /** Classes a typical service of this stack loads, for the metaspace estimate (R9). */
    private static int typicalLoadedClasses(Runtime runtime) {
        return switch (runtime) {
            case SpringBootTomcat, SpringBootJetty, SpringBootUndertow -> 16_000;
            case Quarkus -> 10_000;
            case Generic -> 12_000;
        };
    }

    /** Direct buffers: Netty (Quarkus) and XNIO (Undertow) pool them; servlet NIO connectors need little. */
    private static long directMemory(Runtime runtime) {
        return switch (runtime) {
            case Quarkus, SpringBootUndertow -> 64 * Units.MI;
            default -> 32 * Units.MI;
        };
    }
}
