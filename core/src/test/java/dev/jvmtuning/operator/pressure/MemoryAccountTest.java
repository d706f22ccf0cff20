package dev.jvmtuning.operator.pressure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.jvmtuning.operator.api.v1alpha1.MemoryBucket;
import dev.jvmtuning.operator.api.v1alpha1.ObservedMemory;
import dev.jvmtuning.operator.api.v1alpha1.Runtime;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfileSpec;
import dev.jvmtuning.operator.api.v1alpha1.Workload;
import dev.jvmtuning.operator.model.ConditionStatus;
import dev.jvmtuning.operator.model.ConditionType;
import dev.jvmtuning.operator.model.ContainerFacts;
import dev.jvmtuning.operator.model.MemoryUse;
import dev.jvmtuning.operator.model.NativeMemory;
import dev.jvmtuning.operator.model.Reason;
import dev.jvmtuning.operator.model.Units;
import dev.jvmtuning.operator.planner.MemoryBudget;
import dev.jvmtuning.operator.planner.PlanResult;
import dev.jvmtuning.operator.planner.Planner;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

class MemoryAccountTest {
    private static final long MI = Units.MI;
    private static final long LIMIT = 384 * MI;
    /**
     * A Quarkus service in 384Mi, as R9 budgets it: metaspace 60Mi, code cache 48Mi, 160 threads of 256Ki (40Mi), direct memory
     * 32Mi, JVM overhead 51Mi, and the heap what the limit leaves, 153Mi.
     */
    private static final MemoryBudget BUDGET = new MemoryBudget(LIMIT, 153 * MI, 60 * MI, 8_000, true, 48 * MI, 160, 256 * Units.KI,
            32 * MI, 51 * MI, null);

    /** The JVM's own account with tracking on: heap, class metadata, thread stacks, code, Other (direct buffers), GC, symbols. */
    private static NativeMemory tracked(long stacks, long other) {
        Map<String, Long> categories = new LinkedHashMap<>();
        categories.put("Java Heap", 153 * MI);
        categories.put("Class", 52 * MI);
        categories.put("Thread", stacks);
        categories.put("Code", 30 * MI);
        categories.put("GC", 21 * MI);
        categories.put("Other", other);
        categories.put("Symbol", 9 * MI);
        return new NativeMemory(categories, categories.values().stream().mapToLong(Long::longValue).sum());
    }

    private static MemoryUse use(long heapUsed, long stacks, long other, long threads, long resident) {
        return new MemoryUse(heapUsed, 153 * MI, 52 * MI, 12 * MI, threads, resident, tracked(stacks, other));
    }

    /** Without tracking: the pools, the thread count and the resident set only. */
    private static MemoryUse untracked(long threads, long direct, long resident) {
        return new MemoryUse(140 * MI, 153 * MI, 55 * MI, direct, threads, resident, NativeMemory.NONE);
    }

    static Stream<Arguments> readings() {
        return Stream.of(
                Arguments.of("thread stacks past their budget near the limit",
                        Map.of("orders-7d9f-abc", use(110 * MI, 96 * MI, 20 * MI, 220, 370 * MI)),
                        ConditionStatus.TRUE, Reason.NATIVE_MEMORY_OVER_BUDGET,
                        "pod orders-7d9f-abc at 370Mi of its 384Mi limit (96%); thread stacks 96Mi against a budget of 40Mi (220 threads), "
                                + "56Mi over; heap 153Mi of its 153Mi"),
                Arguments.of("several parts over: the one furthest over first",
                        Map.of("orders-7d9f-abc", use(110 * MI, 60 * MI, 90 * MI, 180, 380 * MI)),
                        ConditionStatus.TRUE, Reason.NATIVE_MEMORY_OVER_BUDGET,
                        "pod orders-7d9f-abc at 380Mi of its 384Mi limit (99%); direct memory 90Mi against a budget of 32Mi, 58Mi over; "
                                + "thread stacks 60Mi against a budget of 40Mi (180 threads); heap 153Mi of its 153Mi"),
                Arguments.of("no tracking: stacks estimated from the threads, code cache in the rest",
                        Map.of("orders-7d9f-abc", untracked(400, 10 * MI, 365 * MI)),
                        ConditionStatus.TRUE, Reason.NATIVE_MEMORY_OVER_BUDGET,
                        "pod orders-7d9f-abc at 365Mi of its 384Mi limit (95%); thread stacks 100Mi against a budget of 40Mi "
                                + "(400 threads, estimated), 60Mi over; heap 153Mi of its 153Mi"),
                Arguments.of("the heap near its maximum, the resident set well below the limit",
                        Map.of("orders-7d9f-abc", use(150 * MI, 30 * MI, 20 * MI, 120, 250 * MI)),
                        ConditionStatus.FALSE, Reason.MEMORY_HEADROOM, "pod orders-7d9f-abc at 250Mi of its 384Mi limit (65%), 134Mi (35%) below it"),
                Arguments.of("near the limit, every part within its budget: the heap fills it as planned",
                        Map.of("orders-7d9f-abc", use(150 * MI, 38 * MI, 30 * MI, 150, 350 * MI)),
                        ConditionStatus.FALSE, Reason.WITHIN_BUDGET, "pod orders-7d9f-abc at 350Mi of its 384Mi limit (91%), every part beyond the "
                                + "heap within its budget: heap 153Mi of its 153Mi fills the rest as planned"),
                Arguments.of("a part over its budget far from the limit is said, not pressure",
                        Map.of("orders-7d9f-abc", untracked(240, 10 * MI, 300 * MI)),
                        ConditionStatus.FALSE, Reason.MEMORY_HEADROOM, "pod orders-7d9f-abc at 300Mi of its 384Mi limit (78%), 84Mi (22%) below it; "
                                + "thread stacks 60Mi against a budget of 40Mi (240 threads, estimated)"),
                Arguments.of("the pod in trouble, not the largest",
                        Map.of("orders-7d9f-aaa", use(150 * MI, 38 * MI, 30 * MI, 150, 354 * MI),
                                "orders-7d9f-bbb", use(110 * MI, 80 * MI, 20 * MI, 200, 350 * MI)),
                        ConditionStatus.TRUE, Reason.NATIVE_MEMORY_OVER_BUDGET,
                        "pod orders-7d9f-bbb at 350Mi of its 384Mi limit (91%); thread stacks 80Mi against a budget of 40Mi (200 threads), "
                                + "40Mi over; heap 153Mi of its 153Mi"),
                Arguments.of("no resident set reported", Map.of("orders-7d9f-abc", MemoryUse.NONE),
                        ConditionStatus.UNKNOWN, Reason.NO_DATA, "no Ready pod of the settings in force reports its resident set "
                                + "(process_resident_memory_bytes): add the jvm-tuning agent to the pods"),
                Arguments.of("no pod", Map.of(), ConditionStatus.UNKNOWN, Reason.NO_DATA, "no Ready pod of the settings in force to read"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("readings")
    void judgesTheResidentSetAgainstTheLimitAndThePartsAgainstTheirBudgets(String name, Map<String, MemoryUse> pods, ConditionStatus status,
            Reason reason, String message) {
        Finding finding = MemoryAccount.judge(pods, LIMIT, BUDGET).finding();
        assertThat(finding.type()).isEqualTo(ConditionType.NATIVE_MEMORY_PRESSURE);
        assertThat(finding.status()).isEqualTo(status);
        assertThat(finding.reason()).isEqualTo(reason);
        assertThat(finding.message()).isEqualTo(message);
    }

    @Test
    void statusShowsEachPartBesideItsBudget() {
        ObservedMemory memory = MemoryAccount.judge(Map.of("orders-7d9f-abc", use(110 * MI, 96 * MI, 20 * MI, 220, 370 * MI)), LIMIT, BUDGET)
                .memory();
        assertThat(memory).extracting(ObservedMemory::getPod, ObservedMemory::getPods, ObservedMemory::getLimit, ObservedMemory::getResident,
                ObservedMemory::getThreads, ObservedMemory::getNativeMemoryTracking).containsExactly("orders-7d9f-abc", 1, "384Mi", "370Mi", 220L, true);
        assertThat(memory.getBuckets()).extracting(MemoryBucket::getBucket, MemoryBucket::getBudget, MemoryBucket::getUsed,
                MemoryBucket::getCommitted).containsExactly(
                tuple("heap", "153Mi", "110Mi", "153Mi"), tuple("metaspace", "60Mi", "52Mi", null), tuple("codeCache", "48Mi", "30Mi", null),
                tuple("threadStacks", "40Mi", "96Mi", null), tuple("directMemory", "32Mi", "20Mi", null),
                tuple("otherNative", "51Mi", "19Mi", null));

        List<MemoryBucket> untracked = MemoryAccount.judge(Map.of("orders-7d9f-abc", untracked(400, 10 * MI, 365 * MI)), LIMIT, BUDGET)
                .memory().getBuckets();
        assertThat(untracked).extracting(MemoryBucket::getBucket, MemoryBucket::getBudget, MemoryBucket::getUsed).containsExactly(
                tuple("heap", "153Mi", "140Mi"), tuple("metaspace", "60Mi", "55Mi"), tuple("codeCache", "48Mi", null),
                tuple("threadStacks", "40Mi", "100Mi"), tuple("directMemory", "32Mi", "10Mi"), tuple("otherNative", "99Mi", "47Mi"));
        assertThat(untracked.get(2).getNote()).contains("counted in otherNative");
        assertThat(untracked.get(3).getNote()).startsWith("estimated");
    }

    @Test
    void aHeapCommittedButNotYetTouchedLeavesTheRestUnmeasuredNotZero() {
        // -Xms commits the whole heap at start; 100Mi of its 153Mi not touched yet, so the parts' committed memory exceeds the
        // resident set by 37Mi
        ObservedMemory memory = MemoryAccount.judge(Map.of("orders-7d9f-abc", use(40 * MI, 40 * MI, 12 * MI, 150, 250 * MI)), LIMIT, BUDGET)
                .memory();
        assertThat(memory.getBuckets().get(0)).extracting(MemoryBucket::getUsed, MemoryBucket::getCommitted).containsExactly("40Mi", "153Mi");
        MemoryBucket rest = memory.getBuckets().get(5);
        assertThat(rest.getBucket()).isEqualTo("otherNative");
        assertThat(rest.getUsed()).as("not measured, rather than 0").isNull();
        assertThat(rest.getNote()).startsWith("not measured").contains("by 37Mi");
    }

    @Test
    void aReadingWithinNoiseOfTheOneShownIsTheSame() {
        ObservedMemory shown = MemoryAccount.judge(Map.of("a", use(110 * MI, 96 * MI, 20 * MI, 220, 370 * MI)), LIMIT, BUDGET).memory();
        ObservedMemory drifted = MemoryAccount.judge(Map.of("a", use(110 * MI, 97 * MI, 20 * MI, 221, 372 * MI)), LIMIT, BUDGET).memory();
        ObservedMemory grown = MemoryAccount.judge(Map.of("a", use(110 * MI, 96 * MI, 20 * MI, 220, 378 * MI)), LIMIT, BUDGET).memory();
        ObservedMemory other = MemoryAccount.judge(Map.of("b", use(110 * MI, 96 * MI, 20 * MI, 220, 370 * MI)), LIMIT, BUDGET).memory();
        assertThat(MemoryAccount.steady(shown, drifted)).as("2Mi of 372Mi").isTrue();
        assertThat(MemoryAccount.steady(shown, grown)).as("8Mi of 378Mi").isFalse();
        assertThat(MemoryAccount.steady(shown, other)).as("another pod").isFalse();
        assertThat(MemoryAccount.steady(null, shown)).isFalse();
    }

    @ParameterizedTest(name = "virtual threads {0}: {1} platform threads budgeted")
    @CsvSource({"false, 144", "true, 62"})
    void withoutTrackingAPodAtThePlannedThreadsHasItsStacksWithinTheirBudget(boolean virtual, int platformThreads) {
        TuningProfileSpec spec = new TuningProfileSpec();
        spec.setRuntime(Runtime.SpringBootTomcat);
        // R1 on platform threads: 400 req/s x 200 ms + 25% = 100 workers; R18 on virtual threads
        spec.setWorkload(new Workload().setRequestsPerSecond(400.0).setMeanLatency("200ms"));
        ContainerFacts facts = new ContainerFacts(2.0, 2.0, 2 * Units.GI, 2 * Units.GI,
                virtual ? Map.of("SPRING_THREADS_VIRTUAL_ENABLED", "true") : Map.of(), Set.of(), List.of(), List.of(), 21, 1);
        MemoryBudget budget = ((PlanResult.Plan) Planner.plan(spec, facts)).budget();
        assertThat(budget.threads()).as("on virtual threads the carriers, the server's and the JVM's, not 200 workers").isEqualTo(platformThreads);

        // The JVM's live thread count leaves virtual threads out, as the budget does.
        MemoryBucket stacks = MemoryAccount.judge(Map.of("orders-7d9f-abc", untracked(platformThreads, 10 * MI, 900 * MI)), 2 * Units.GI, budget)
                .memory().getBuckets().get(3);
        assertThat(stacks.getBucket()).isEqualTo("threadStacks");
        assertThat(stacks.getUsed()).isEqualTo(stacks.getBudget());
        assertThat(stacks.getNote().contains("the virtual threads' stacks are in the heap")).isEqualTo(virtual);
    }
}
