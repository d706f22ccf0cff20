package dev.jvmtuning.operator.model;

/**
 * One pod's memory at one reading, as its JVM reports it: what a container's memory limit has to hold. A null figure
 * was not exposed.
 *
 * @param heapUsedBytes           live and not yet collected objects
 * @param heapCommittedBytes      heap the JVM has taken from the system
 * @param metaspaceCommittedBytes class metadata, compressed class space included
 * @param directBufferBytes       memory of direct ByteBuffers (BufferPoolMXBean "direct")
 * @param threads                 live threads, each with its stack
 * @param residentBytes           the process's resident set
 * @param nativeMemory            the JVM's own account by category, when it tracks native memory
 */
public record MemoryUse(Long heapUsedBytes, Long heapCommittedBytes, Long metaspaceCommittedBytes, Long directBufferBytes, Long threads,
        Long residentBytes, NativeMemory nativeMemory) {
    public static final MemoryUse NONE = new MemoryUse(null, null, null, null, null, null, NativeMemory.NONE);

    public boolean reported() {
        return !equals(NONE);
    }
}
