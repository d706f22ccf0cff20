package dev.jvmtuning.operator.planner;

import static dev.jvmtuning.operator.model.Units.mebibytes;

import dev.jvmtuning.operator.model.OomKill.Cause;
import dev.jvmtuning.operator.model.Units;

/**
 * R9: what the JVM needs besides the heap, and whether it all fits the container's memory.
 *
 * @param limit          the memory limit (or request) the JVM must fit into
 * @param heap           -Xmx
 * @param metaspace      class metadata: 14 MiB + 5.8 KiB per loaded class
 * @param classes        the loaded classes metaspace is budgeted for
 * @param classesKnown   whether that count is the service's own (set or measured) rather than its runtime's typical one
 * @param codeCache      -XX:ReservedCodeCacheSize
 * @param threads        platform threads with a native stack: the workers (on virtual threads the carriers), the JVM's and the server's own
 * @param stackPerThread what one thread's stack really commits (R9a), not -Xss
 * @param directMemory   -XX:MaxDirectMemorySize
 * @param overhead       GC data structures, symbol tables, malloc arenas
 * @param virtualStacks  on virtual threads, the share of the heap their stacks may take; null on platform threads
 */
public record MemoryBudget(long limit, long heap, long metaspace, int classes, boolean classesKnown, long codeCache, int threads, long stackPerThread,
        long directMemory, long overhead, VirtualStacks virtualStacks) {

    /**
     * The stacks of the virtual threads in flight, which the JVM keeps on the heap as stack chunks while they are parked.
     *
     * @param threads       the most requests in flight (R18's connection limit)
     * @param chunkPerThread what one parked request's stack chunk takes
     */
    public record VirtualStacks(int threads, long chunkPerThread) {
        public long bytes() {
            return threads * chunkPerThread;
        }

        /** "400 virtual threads x 32Ki stacks 12.5Mi". */
        String describe() {
            return threads + " virtual threads x " + (chunkPerThread / Units.KI) + "Ki stacks " + mebibytes(bytes());
        }
    }

    /** The heap's share for the virtual threads' stacks: nothing on platform threads. */
    public long virtualStackBytes() {
        return virtualStacks == null ? 0 : virtualStacks.bytes();
    }

    public long threadStacks() {
        return threads * stackPerThread;
    }

    public long nonHeap() {
        return metaspace + codeCache + threadStacks() + directMemory + overhead;
    }

    public long total() {
        return heap + nonHeap();
    }

    /** What the limit leaves for thread stacks beside the heap and the rest of non-heap memory. */
    public long roomForThreads() {
        return limit - heap - (nonHeap() - threadStacks());
    }

    public boolean fits() {
        return total() <= limit;
    }

    /**
     * The sum spelled out, e.g. "heap 1536Mi + 440 threads x 256Ki stacks 110Mi + ... = 2157Mi"; on virtual threads the heap
     * names the share their stacks may take, e.g. "heap 1536Mi (holding up to 400 virtual threads x 32Ki stacks 12.5Mi)".
     */
    public String describe() {
        return "heap " + mebibytes(heap) + (virtualStacks == null ? "" : " (holding up to " + virtualStacks.describe() + ")")
                + " + " + threads + " threads x " + (stackPerThread / Units.KI) + "Ki stacks " + mebibytes(threadStacks())
                + " + metaspace " + mebibytes(metaspace) + " (" + classes + (classesKnown ? "" : " typical") + " classes)"
                + " + code cache " + mebibytes(codeCache)
                + " + direct memory " + mebibytes(directMemory)
                + " + JVM overhead " + mebibytes(overhead)
                + " = " + mebibytes(total());
    }

    /** The budget of the part an OOM kill names; 0 for a cause that is not a part beyond the heap. */
    public long part(Cause cause) {
        return switch (cause) {
            case METASPACE -> metaspace;
            case DIRECT_MEMORY -> directMemory;
            case THREAD_STACKS -> threadStacks();
            case NATIVE_OTHER -> overhead;
            default -> 0;
        };
    }

    /** This budget with another size for the part an OOM kill names; thread stacks grow per thread, rounded up to a KiB. */
    MemoryBudget withPart(Cause cause, long bytes) {
        return switch (cause) {
            case METASPACE -> new MemoryBudget(limit, heap, bytes, classes, classesKnown, codeCache, threads, stackPerThread, directMemory, overhead,
                    virtualStacks);
            case DIRECT_MEMORY -> new MemoryBudget(limit, heap, metaspace, classes, classesKnown, codeCache, threads, stackPerThread, bytes, overhead,
                    virtualStacks);
            case THREAD_STACKS -> new MemoryBudget(limit, heap, metaspace, classes, classesKnown, codeCache, threads,
                    (bytes / threads + Units.KI - 1) / Units.KI * Units.KI, directMemory, overhead, virtualStacks);
            case NATIVE_OTHER -> new MemoryBudget(limit, heap, metaspace, classes, classesKnown, codeCache, threads, stackPerThread, directMemory, bytes,
                    virtualStacks);
            default -> this;
        };
    }

    public MemoryBudget withHeap(long newHeap) {
        return new MemoryBudget(limit, newHeap, metaspace, classes, classesKnown, codeCache, threads, stackPerThread, directMemory, overhead, virtualStacks);
    }

    public MemoryBudget withThreads(int newThreads) {
        return new MemoryBudget(limit, heap, metaspace, classes, classesKnown, codeCache, newThreads, stackPerThread, directMemory, overhead, virtualStacks);
    }
}
