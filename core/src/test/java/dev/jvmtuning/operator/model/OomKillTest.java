package dev.jvmtuning.operator.model;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jvmtuning.operator.model.EffectiveOptions.Option;
import dev.jvmtuning.operator.model.EffectiveOptions.Origin;
import dev.jvmtuning.operator.model.OomKill.Attribution;
import dev.jvmtuning.operator.model.OomKill.Cause;
import dev.jvmtuning.operator.model.OomKill.Termination;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

class OomKillTest {
    private static final long MIB = 1024 * 1024;
    private static final Termination KERNEL = new Termination("OOMKilled", 137, null);
    private static final EffectiveOptions STACKS_1M = new EffectiveOptions(Map.of("ThreadStackSize", new Option(1024, Origin.DEFAULT)));

    /**
     * Each injected cause and what the pod's last reading said before it died. The direct and thread figures are an
     * agent's on JDK 17 (-Xmx128m, 96 direct buffers of 1 MiB; 400 sleeping threads), the others shaped like them.
     */
    static Stream<Arguments> causes() {
        return Stream.of(
                Arguments.of("the JVM's own heap OutOfMemoryError",
                        new Termination("Error", 3, "Terminating due to java.lang.OutOfMemoryError: Java heap space"), 512 * MIB, 256 * MIB,
                        new MemoryUse(250 * MIB, 256 * MIB, 40 * MIB, 0L, 30L, 400 * MIB, NativeMemory.NONE), STACKS_1M,
                        Cause.HEAP, "the JVM ended on java.lang.OutOfMemoryError: Java heap space: heap used 250 MiB of max 256 MiB; not a kernel kill"),
                Arguments.of("classes loaded without end, under no MaxMetaspaceSize",
                        KERNEL, 512 * MIB, 256 * MIB,
                        new MemoryUse(100 * MIB, 256 * MIB, 180 * MIB, 8192L, 30L, 490 * MIB, NativeMemory.NONE), STACKS_1M,
                        Cause.METASPACE, "OOM-killed at limit 512 MiB: metaspace 180 MiB beyond heap committed 256 MiB, direct buffers 0.0 MiB, "
                                + "threads 30 x 1.0 MiB stacks = 30 MiB at most, native beyond these 24 MiB (resident 490 MiB)"),
                Arguments.of("direct buffers (an agent's reading: 96 of 1 MiB held)",
                        KERNEL, 256 * MIB, 128 * MIB,
                        new MemoryUse(5954536L, 134217728L, 6356992L, 100671488L, 10L, 167288832L, NativeMemory.NONE), STACKS_1M,
                        Cause.DIRECT_MEMORY, "OOM-killed at limit 256 MiB: direct buffers 96 MiB beyond heap committed 128 MiB, metaspace 6.1 MiB, "
                                + "threads 10 x 1.0 MiB stacks = 10 MiB at most, native beyond these 0.0 MiB (resident 160 MiB)"),
                Arguments.of("thread stacks (an agent's reading: 410 threads)",
                        KERNEL, 512 * MIB, 128 * MIB,
                        new MemoryUse(8439088L, 134217728L, 6356992L, 8192L, 410L, 105181184L, NativeMemory.NONE), STACKS_1M,
                        Cause.THREAD_STACKS, "OOM-killed at limit 512 MiB: threads 410 x 1.0 MiB stacks = 410 MiB at most beyond heap committed "
                                + "128 MiB, metaspace 6.1 MiB, direct buffers 0.0 MiB, native beyond these 0.0 MiB (resident 100 MiB)"),
                Arguments.of("native malloc, which tracking does not see: resident far beyond the JVM's account",
                        KERNEL, 512 * MIB, 256 * MIB,
                        new MemoryUse(120 * MIB, 256 * MIB, 50 * MIB, MIB, 40L, 505 * MIB, new NativeMemory(Map.of("Java Heap", 256 * MIB,
                                "Class", 45 * MIB, "Metaspace", 5 * MIB, "Thread", 42 * MIB, "Other", MIB, "GC", 20 * MIB, "Code", 15 * MIB),
                                384 * MIB)), STACKS_1M,
                        Cause.NATIVE_OTHER, "OOM-killed at limit 512 MiB: native beyond the JVM's account 121 MiB (resident 505 MiB) beyond "
                                + "heap committed 256 MiB, metaspace 50 MiB, direct buffers 1.0 MiB, threads 42 MiB (40 threads), "
                                + "JVM internals (GC, code, symbols...) 35 MiB"),
                Arguments.of("no reading before the kill",
                        KERNEL, 512 * MIB, 256 * MIB, MemoryUse.NONE, EffectiveOptions.NONE,
                        Cause.UNKNOWN, "OOM-killed at limit 512 MiB: no memory reading of the pod before it ended"),
                Arguments.of("a heap that leaves less than a JVM needs, whatever the reading",
                        KERNEL, 300 * MIB, 280 * MIB, MemoryUse.NONE, EffectiveOptions.NONE,
                        Cause.LIMIT_BELOW_HEAP, "OOM-killed at limit 300 MiB: max heap 280 MiB plus the 40 MiB any JVM needs beyond it does not fit; "
                                + "the plan itself cannot fit"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("causes")
    void eachInjectedCauseIsNamedWithItsFigures(String injected, Termination termination, long limit, long heap, MemoryUse reading,
            EffectiveOptions options, Cause cause, String explanation) {
        assertThat(OomKill.attribute(termination, limit, heap, reading, options)).hasValueSatisfying(found ->
                assertThat(new Attribution(found.cause(), found.explanation())).isEqualTo(new Attribution(cause, explanation)));
    }

    @Test
    void theJvmsOwnErrorsAreToldByTheirMessage() {
        MemoryUse reading = new MemoryUse(10 * MIB, 64 * MIB, 60 * MIB, 64 * MIB, 2000L, null, NativeMemory.NONE);
        EffectiveOptions options = new EffectiveOptions(Map.of("MaxMetaspaceSize", new Option(64 * MIB, Origin.VM_CREATION),
                "MaxDirectMemorySize", new Option(64 * MIB, Origin.VM_CREATION), "ExitOnOutOfMemoryError", new Option(1, Origin.ENVIRON_VAR)));
        assertThat(cause("Exception in thread \"main\" java.lang.OutOfMemoryError: Metaspace", reading, options)).isEqualTo(Cause.METASPACE);
        assertThat(cause("java.lang.OutOfMemoryError: Cannot reserve 1048576 bytes of direct buffer memory (allocated: 67108864, limit: 67108864)",
                reading, options)).isEqualTo(Cause.DIRECT_MEMORY);
        assertThat(cause("java.lang.OutOfMemoryError: unable to create native thread: possibly out of memory", reading, options))
                .isEqualTo(Cause.THREAD_STACKS);
        assertThat(cause("java.lang.OutOfMemoryError: GC overhead limit exceeded", reading, options)).isEqualTo(Cause.HEAP);
        // exit code 3 under ExitOnOutOfMemoryError and no message: the figure at its maximum
        assertThat(cause(null, reading, options)).isEqualTo(Cause.METASPACE);
        assertThat(OomKill.attribute(new Termination("Error", 3, null), null, 64 * MIB, reading, options).orElseThrow().explanation())
                .isEqualTo("the JVM exited with code 3 on an OutOfMemoryError (ExitOnOutOfMemoryError): metaspace committed 60 MiB of "
                        + "MaxMetaspaceSize 64 MiB");
    }

    private static Cause cause(String message, MemoryUse reading, EffectiveOptions options) {
        return OomKill.attribute(new Termination("Error", 3, message), 512 * MIB, 64 * MIB, reading, options).orElseThrow().cause();
    }

    @Test
    void otherEndsAreNoOutOfMemory() {
        assertThat(OomKill.attribute(new Termination("Completed", 0, null), 512 * MIB, 256 * MIB, MemoryUse.NONE, EffectiveOptions.NONE)).isEmpty();
        // a SIGKILL that is not the kernel's OOM kill: a failed liveness probe, a grace period run out
        assertThat(OomKill.attribute(new Termination("Error", 137, null), 512 * MIB, 256 * MIB, MemoryUse.NONE, EffectiveOptions.NONE)).isEmpty();
        // exit code 3 without ExitOnOutOfMemoryError is the application's own
        assertThat(OomKill.attribute(new Termination("Error", 3, null), 512 * MIB, 256 * MIB, MemoryUse.NONE, EffectiveOptions.NONE)).isEmpty();
        assertThat(OomKill.attribute(new Termination("Error", 1, "java.lang.OutOfMemoryError: Java heap space"), 512 * MIB, 256 * MIB,
                MemoryUse.NONE, EffectiveOptions.NONE)).map(Attribution::cause).isEqualTo(Optional.of(Cause.HEAP));
    }

    @Test
    void directMemoryNoBufferPoolShowsIsSeenByTracking() {
        // Netty's cleaner-less buffers: Unsafe memory that NMT counts under Other and the buffer pool does not
        MemoryUse reading = new MemoryUse(100 * MIB, 200 * MIB, 50 * MIB, MIB, 40L, 500 * MIB, new NativeMemory(Map.of("Java Heap", 200 * MIB,
                "Class", 50 * MIB, "Thread", 40 * MIB, "Other", 180 * MIB), 470 * MIB));
        assertThat(OomKill.attribute(KERNEL, 512 * MIB, 200 * MIB, reading, STACKS_1M)).map(Attribution::cause).contains(Cause.DIRECT_MEMORY);
    }

    /** A JVM at its heap near the 900 MiB an -Xmx on its command line gives it, little else beside: 1010 MiB resident. */
    private static final MemoryUse HEAP_NEAR_900 = new MemoryUse(800 * MIB, 890 * MIB, 60 * MIB, 5 * MIB, 40L, 1010 * MIB, NativeMemory.NONE);

    private static EffectiveOptions maxHeap(long bytes) {
        return new EffectiveOptions(Map.of("MaxHeapSize", new Option(bytes, Origin.VM_CREATION),
                "ThreadStackSize", new Option(1024, Origin.DEFAULT)));
    }

    @Test
    void aJvmThatRunsALargerHeapThanPlannedIsKilledByItsHeapNotByAPartBesideIt() {
        Attribution killed = OomKill.attribute(KERNEL, 1024 * MIB, 300 * MIB, HEAP_NEAR_900, maxHeap(900 * MIB)).orElseThrow();
        assertThat(killed.cause()).isEqualTo(Cause.HEAP_NOT_PLANNED);
        assertThat(killed.explanation()).isEqualTo("OOM-killed at limit 1024 MiB: the JVM runs max heap 900 MiB, not the planned 300 MiB: "
                + "its heap is set outside the operator (an -Xmx on the image's command line, after the operator's variable), and 900 MiB "
                + "with the 724 MiB the plan leaves beside its heap exceeds the limit; no memory budget is planned anew until the JVM runs "
                + "the planned heap; metaspace 60 MiB beyond heap committed 890 MiB, direct buffers 5.0 MiB, threads 40 x 1.0 MiB stacks = "
                + "40 MiB at most, native beyond these 15 MiB (resident 1010 MiB)");
        assertThat(killed.partBytes()).as("no part beside the heap to budget for").isNull();
        assertThat(OomKill.attribute(KERNEL, 1024 * MIB, 300 * MIB, MemoryUse.NONE, maxHeap(900 * MIB)).orElseThrow().explanation())
                .as("the JVM's report outlives its reading").endsWith("its heap exceeds the limit; no memory budget is planned anew until the "
                        + "JVM runs the planned heap; no memory reading of the pod before it ended");
        assertThat(OomKill.attribute(new Termination("Error", 3, "java.lang.OutOfMemoryError: Java heap space"), 1024 * MIB, 300 * MIB,
                HEAP_NEAR_900, maxHeap(900 * MIB)).orElseThrow().explanation()).as("the JVM's own error, by the heap it ran")
                .endsWith("heap used 800 MiB of max 900 MiB; not a kernel kill");
    }

    @Test
    void aJvmThatRunsAnotherHeapThanPlannedIsNotHeldToThePlansBudgetsWhateverPartGrew() {
        MemoryUse metaspaceGrown = new MemoryUse(200 * MIB, 256 * MIB, 600 * MIB, MIB, 40L, 1000 * MIB, NativeMemory.NONE);
        Attribution smaller = OomKill.attribute(KERNEL, 1024 * MIB, 540 * MIB, metaspaceGrown, maxHeap(256 * MIB)).orElseThrow();
        assertThat(smaller.cause()).isEqualTo(Cause.HEAP_NOT_PLANNED);
        assertThat(smaller.explanation()).startsWith("OOM-killed at limit 1024 MiB: the JVM runs max heap 256 MiB, not the planned 540 MiB: "
                + "its heap is set outside the operator").doesNotContain("exceeds the limit")
                .contains("; no memory budget is planned anew until the JVM runs the planned heap; metaspace 600 MiB beyond heap committed 256 MiB");

        // HotSpot's alignment of the planned heap is the planned heap
        assertThat(OomKill.attribute(KERNEL, 1024 * MIB, 539 * MIB, metaspaceGrown, maxHeap(540 * MIB))).map(Attribution::cause)
                .contains(Cause.METASPACE);
    }

    @Test
    void withoutAPlannedHeapTheReportedMaxHeapDecidesWhetherThePlanFits() {
        EffectiveOptions options = new EffectiveOptions(Map.of("MaxHeapSize", new Option(500 * MIB, Origin.ERGONOMIC)));
        assertThat(OomKill.attribute(KERNEL, 512 * MIB, null, MemoryUse.NONE, options)).map(Attribution::cause)
                .contains(Cause.LIMIT_BELOW_HEAP);
        assertThat(OomKill.attribute(KERNEL, null, null, MemoryUse.NONE, options)).map(Attribution::cause).contains(Cause.UNKNOWN);
    }
}
