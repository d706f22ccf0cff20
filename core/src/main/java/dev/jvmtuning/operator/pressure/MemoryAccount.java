package dev.jvmtuning.operator.pressure;

import static dev.jvmtuning.operator.model.ConditionType.NATIVE_MEMORY_PRESSURE;
import static dev.jvmtuning.operator.model.Units.mebibytes;

import dev.jvmtuning.operator.api.v1alpha1.MemoryBucket;
import dev.jvmtuning.operator.api.v1alpha1.ObservedMemory;
import dev.jvmtuning.operator.model.ConditionStatus;
import dev.jvmtuning.operator.model.MemoryUse;
import dev.jvmtuning.operator.model.NativeMemory;
import dev.jvmtuning.operator.model.Reason;
import dev.jvmtuning.operator.model.Units;
import dev.jvmtuning.operator.planner.MemoryBudget;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.BinaryOperator;

/**
 * What each pod uses of each part of the plan's memory budget (R9), and the NativeMemoryPressure condition: True when a pod's
 * resident set is near the container's limit and a part beyond the heap grew past its budget, so the heap does not explain
 * it. The JVM's native memory tracking gives the parts when the pod runs with it; without it, what the JVM's pools and the
 * thread count say. Pure: readings and the budget in, the condition and the figures status shows out.
 */
public final class MemoryAccount {
    /**
     * How near the limit a resident set must be to count: the JVM grows in steps of a heap region, a thread's stack, a glibc
     * malloc arena (64 MiB), so within a tenth of the limit the next step may be the OOM kill; further off, a part over its
     * budget is worth saying, but the limit still holds it.
     */
    static final double NEAR_LIMIT = 0.9;
    /**
     * Figures within 1% of the limit (or 1 MiB, the unit status shows) of those shown are the same reading: a resident set and
     * the parts in it move every poll, and what counts is how near the limit they are.
     */
    static final double NOISE = 0.01;

    /** The parts of the budget, as status names them and as messages say them. */
    public enum Bucket {
        HEAP("heap", "heap"),
        METASPACE("metaspace", "metaspace"),
        CODE_CACHE("codeCache", "code cache"),
        THREAD_STACKS("threadStacks", "thread stacks"),
        DIRECT_MEMORY("directMemory", "direct memory"),
        /** GC structures, symbol tables, malloc arenas, native libraries: the resident set beyond the other parts. */
        OTHER_NATIVE("otherNative", "other native memory");

        private final String key;
        private final String words;

        Bucket(String key, String words) {
            this.key = key;
            this.words = words;
        }

        public String key() {
            return key;
        }
    }

    /**
     * One part of one pod: its budget, what the pod uses of it (null when not reported), for the heap what the JVM committed to
     * it (null for the other parts, whose use is their committed memory), and how the figures were arrived at.
     */
    record Part(Bucket bucket, long budget, Long used, Long committed, String note) {
        Part(Bucket bucket, long budget, Long used, String note) {
            this(bucket, budget, used, null, note);
        }

        /** What the part takes of the limit at most: its committed memory where that is known apart from its use. */
        Long taken() {
            return committed != null ? committed : used;
        }

        boolean over() {
            return used != null && used > budget;
        }

        long excess() {
            return used == null ? 0 : used - budget;
        }
    }

    /** One pod's memory against the budget. */
    record Account(String pod, long limit, long resident, Long threads, boolean tracked, List<Part> parts) {
        boolean nearLimit() {
            return resident >= NEAR_LIMIT * limit;
        }

        /** The parts beyond the heap over their budgets, the furthest over first. */
        List<Part> overBudget() {
            return parts.stream().filter(p -> p.bucket() != Bucket.HEAP && p.over())
                    .sorted(Comparator.comparingLong(Part::excess).reversed()).toList();
        }

        Part part(Bucket bucket) {
            return parts.stream().filter(p -> p.bucket() == bucket).findFirst().orElseThrow();
        }
    }

    /** The condition and the figures of the pod it speaks of; no figures when no pod reported its resident set. */
    public record Judgement(Finding finding, ObservedMemory memory) {
    }

    private MemoryAccount() {
    }

    /**
     * @param pods       the memory of each pod to judge (the Ready pods of the settings in force), by name
     * @param limitBytes the container's memory limit
     * @param budget     the plan's memory budget
     */
    public static Judgement judge(Map<String, MemoryUse> pods, long limitBytes, MemoryBudget budget) {
        List<Account> accounts = new TreeMap<>(pods).entrySet().stream().filter(e -> e.getValue().residentBytes() != null)
                .map(e -> account(e.getKey(), e.getValue(), limitBytes, budget)).toList();
        if (accounts.isEmpty()) {
            return new Judgement(new Finding(NATIVE_MEMORY_PRESSURE, ConditionStatus.UNKNOWN, Reason.NO_DATA, pods.isEmpty()
                    ? "no Ready pod of the settings in force to read" : "no Ready pod of the settings in force reports its resident set "
                            + "(process_resident_memory_bytes): add the jvm-tuning agent to the pods"), null);
        }
        // The pod in trouble if any, the furthest over; else the one nearest the limit.
        Account shown = accounts.stream().filter(a -> a.nearLimit() && !a.overBudget().isEmpty())
                .reduce(BinaryOperator.maxBy(Comparator.comparingLong(a -> a.overBudget().get(0).excess())))
                .orElseGet(() -> accounts.stream().reduce(BinaryOperator.maxBy(Comparator.comparingLong(Account::resident))).orElseThrow());
        return new Judgement(finding(shown), observed(shown, accounts.size()));
    }

    /** Whether a new reading says nothing the one shown did not: the same pod and limit, its figures within noise. */
    public static boolean steady(ObservedMemory shown, ObservedMemory now) {
        if (shown == null || now == null || !Objects.equals(shown.getPod(), now.getPod()) || !Objects.equals(shown.getLimit(), now.getLimit())
                || shown.getBuckets().size() != now.getBuckets().size()
                || !Objects.equals(shown.getNativeMemoryTracking(), now.getNativeMemoryTracking())
                || !closeCount(shown.getThreads(), now.getThreads())) {
            return false;
        }
        long noise = Math.max(Units.MI, (long) (NOISE * Units.bytes(now.getLimit())));
        if (!close(shown.getResident(), now.getResident(), noise)) {
            return false;
        }
        for (int i = 0; i < shown.getBuckets().size(); i++) {
            MemoryBucket a = shown.getBuckets().get(i);
            MemoryBucket b = now.getBuckets().get(i);
            if (!a.getBucket().equals(b.getBucket()) || !Objects.equals(a.getNote(), b.getNote()) || !close(a.getBudget(), b.getBudget(), noise)
                    || !close(a.getUsed(), b.getUsed(), noise) || !close(a.getCommitted(), b.getCommitted(), noise)) {
                return false;
            }
        }
        return true;
    }

    private static boolean close(String shown, String now, long noise) {
        if (shown == null || now == null) {
            return Objects.equals(shown, now);
        }
        return Math.abs(Units.bytes(shown) - Units.bytes(now)) <= noise;
    }

    private static boolean closeCount(Long shown, Long now) {
        if (shown == null || now == null) {
            return Objects.equals(shown, now);
        }
        return Math.abs(shown - now) <= Math.max(1, NOISE * Math.max(shown, now));
    }

    static Account account(String pod, MemoryUse use, long limit, MemoryBudget budget) {
        NativeMemory nmt = use.nativeMemory();
        boolean tracked = nmt.reported();
        List<Part> parts = new ArrayList<>();
        Long heapCommitted = use.heapCommittedBytes() != null ? use.heapCommittedBytes() : tracked ? (Long) nmt.committed("Java Heap") : null;
        parts.add(new Part(Bucket.HEAP, budget.heap(), use.heapUsedBytes(), heapCommitted, null));
        // Native memory tracking counts class metadata under Class (and Metaspace from JDK 21), direct buffers under Other.
        Long metaspace = tracked ? (Long) nmt.committed("Class", "Metaspace") : use.metaspaceCommittedBytes();
        parts.add(new Part(Bucket.METASPACE, budget.metaspace(), metaspace, null));
        parts.add(new Part(Bucket.CODE_CACHE, budget.codeCache(), tracked ? (Long) nmt.committed("Code") : null,
                tracked ? null : "not reported without native memory tracking: counted in otherNative"));
        // Without tracking, stacks are the threads at what the plan takes one to commit (R9a): -Xss is only reserved. The live
        // thread count is of platform threads only, as the budget's is: a virtual thread's stack is on the heap when parked.
        Long stacks = tracked ? (Long) nmt.committed("Thread") : use.threads() == null ? null : use.threads() * budget.stackPerThread();
        parts.add(new Part(Bucket.THREAD_STACKS, budget.threadStacks(), stacks, tracked || stacks == null ? null
                : "estimated: threads x " + budget.stackPerThread() / Units.KI + "Ki, the stack budgeted per thread"
                        + (budget.virtualStacks() == null ? "" : " (platform threads: the virtual threads' stacks are in the heap)")));
        Long direct = tracked ? (Long) Math.max(nmt.committed("Other"), Objects.requireNonNullElse(use.directBufferBytes(), 0L))
                : use.directBufferBytes();
        parts.add(new Part(Bucket.DIRECT_MEMORY, budget.directMemory(), direct, null));
        // What no part reports lands in the rest, budget and use alike. The heap counts at its committed size: what it has
        // touched of it is not reported, so what lies beyond is a floor.
        long known = parts.stream().map(Part::taken).filter(Objects::nonNull).mapToLong(Long::longValue).sum();
        long unreportedBudget = parts.stream().filter(p -> p.taken() == null).mapToLong(Part::budget).sum();
        long resident = use.residentBytes();
        String unreported = unreportedBudget == 0 ? null : "with the budget of the parts not reported";
        if (resident >= known) {
            parts.add(new Part(Bucket.OTHER_NATIVE, budget.overhead() + unreportedBudget, resident - known,
                    unreported == null ? null : "the resident set beyond the parts reported, " + unreported));
        } else {
            // Committed memory not yet touched is not resident: -Xms commits the whole heap at start. A 0 here would read as
            // measured; the rest is unknown, only that the parts' committed memory exceeds the resident set.
            parts.add(new Part(Bucket.OTHER_NATIVE, budget.overhead() + unreportedBudget, null, "not measured: the parts reported, the heap "
                    + "at its committed size, exceed the resident set by " + mebibytes(known - resident) + " (committed, not yet touched)"
                    + (unreported == null ? "" : "; " + unreported)));
        }
        return new Account(pod, limit, resident, use.threads(), tracked, List.copyOf(parts));
    }

    private static Finding finding(Account account) {
        String at = "pod " + account.pod() + " at " + mebibytes(account.resident()) + " of its " + mebibytes(account.limit()) + " limit ("
                + Math.round(100.0 * account.resident() / account.limit()) + "%)";
        List<Part> over = account.overBudget();
        Part heap = account.part(Bucket.HEAP);
        String heapText = heap.taken() == null ? "heap not reported" : "heap " + mebibytes(heap.taken()) + " of its " + mebibytes(heap.budget());
        if (account.nearLimit() && !over.isEmpty()) {
            return new Finding(NATIVE_MEMORY_PRESSURE, ConditionStatus.TRUE, Reason.NATIVE_MEMORY_OVER_BUDGET,
                    at + "; " + describe(account, over.get(0)) + ", " + mebibytes(over.get(0).excess()) + " over"
                            + over.stream().skip(1).map(p -> "; " + describe(account, p)).reduce("", String::concat) + "; " + heapText);
        }
        if (account.nearLimit()) {
            return new Finding(NATIVE_MEMORY_PRESSURE, ConditionStatus.FALSE, Reason.WITHIN_BUDGET,
                    at + ", every part beyond the heap within its budget: " + heapText + " fills the rest as planned");
        }
        long margin = account.limit() - account.resident();
        return new Finding(NATIVE_MEMORY_PRESSURE, ConditionStatus.FALSE, Reason.MEMORY_HEADROOM, at + ", " + mebibytes(margin) + " ("
                + Math.round(100.0 * margin / account.limit()) + "%) below it"
                + over.stream().map(p -> "; " + describe(account, p)).reduce("", String::concat));
    }

    /** "thread stacks 96Mi against a budget of 40Mi (220 threads)". */
    private static String describe(Account account, Part part) {
        String threads = part.bucket() == Bucket.THREAD_STACKS && account.threads() != null ? " (" + account.threads() + " threads"
                + (account.tracked() ? "" : ", estimated") + ")" : "";
        return part.bucket().words + " " + mebibytes(part.used()) + " against a budget of " + mebibytes(part.budget()) + threads;
    }

    private static ObservedMemory observed(Account account, int pods) {
        return new ObservedMemory(account.pod(), pods, mebibytes(account.limit()), mebibytes(account.resident()), account.threads(),
                account.tracked(), account.parts().stream().map(p -> new MemoryBucket(p.bucket().key(), mebibytes(p.budget()),
                        p.used() == null ? null : mebibytes(p.used()), p.committed() == null ? null : mebibytes(p.committed()), p.note())).toList());
    }
}
