package dev.jvmtuning.operator.planner;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jvmtuning.operator.api.v1alpha1.Collector;
import dev.jvmtuning.operator.api.v1alpha1.ConnectionPool;
import dev.jvmtuning.operator.api.v1alpha1.Gc;
import dev.jvmtuning.operator.api.v1alpha1.Heap;
import dev.jvmtuning.operator.api.v1alpha1.JvmOptionsVariable;
import dev.jvmtuning.operator.api.v1alpha1.Mode;
import dev.jvmtuning.operator.api.v1alpha1.Queue;
import dev.jvmtuning.operator.api.v1alpha1.Runtime;
import dev.jvmtuning.operator.api.v1alpha1.TargetRef;
import dev.jvmtuning.operator.api.v1alpha1.Threads;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfileSpec;
import dev.jvmtuning.operator.api.v1alpha1.Workload;
import dev.jvmtuning.operator.model.ContainerFacts;
import dev.jvmtuning.operator.model.Rule;
import dev.jvmtuning.operator.model.Setting;
import dev.jvmtuning.operator.model.TuningValues;
import dev.jvmtuning.operator.model.Units;
import dev.jvmtuning.operator.planner.PlanResult.Plan;
import dev.jvmtuning.operator.planner.PlanResult.Rejected;
import dev.jvmtuning.operator.render.Renderer;
import dev.jvmtuning.operator.render.Rendering;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Builders;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.Tuple.Tuple2;
import net.jqwik.api.statistics.Statistics;

/**
 * Properties of the pure planner over every spec the API server would admit (the CRD's schema and CEL rules)
 * and containers from a tenth of a CPU and 64Mi to 64 CPUs and 64Gi.
 */
class PlannerPropertiesTest {
    private static final long MI = Units.MI;
    private static final long GI = Units.GI;
    private static final long MICROS_PER_SECOND = 1_000_000;
    private static final long LONGEST_DURATION_MICROS = 24 * 3600 * MICROS_PER_SECOND;

    /** Realistic extra flags, several of which conflict with each other or with what the planner renders. */
    private static final List<String> JVM_OPTIONS = List.of(
            "-XX:+UseG1GC", "-XX:+UseParallelGC", "-XX:+UseZGC",
            "-Xmx512m", "-Xms256m", "-XX:MaxRAMPercentage=75",
            "-XX:ParallelGCThreads=2", "-XX:ConcGCThreads=1", "-XX:ConcGCThreads=4",
            "-Xss512k", "-Xss228k", "-XX:ReservedCodeCacheSize=128m", "-XX:MaxDirectMemorySize=16m",
            "-XX:+ExitOnOutOfMemoryError", "-Dfile.encoding=UTF-8");

    // ---------------------------------------------------------------- properties

    // Once caught: a heap.size with no memory limit or request crashed the renderer (no budget, no code-cache size).
    @Property(tries = 1000)
    void thePlannerNeverThrows(@ForAll("specs") TuningProfileSpec spec, @ForAll("containers") ContainerFacts facts) {
        PlanResult result = Planner.plan(spec, facts);
        if (result instanceof Plan plan) {
            Renderer.render(plan.values(), spec, facts);
        }

        assertThat(result).isInstanceOfAny(Plan.class, Rejected.class);
        Statistics.label("outcome").collect(outcome(result));
        Statistics.label("outcome").coverage(c -> c.check("Plan").percentage(p -> p >= 30));
    }

    // Once caught: a 24 h meanLatency overflowed the thread count and made any heap "fit".
    @Property(tries = 1000)
    void everyPlanFitsItsMemoryLimit(@ForAll("specs") TuningProfileSpec spec, @ForAll("containers") ContainerFacts facts) {
        if (!(resultOf(spec, facts) instanceof Plan plan) || plan.budget() == null) {
            return;
        }
        MemoryBudget budget = plan.budget();
        assertThat(budget.threads()).as(budget.describe()).isPositive();
        assertThat(List.of(budget.heap(), budget.metaspace(), budget.codeCache(), budget.threadStacks(), budget.directMemory(),
                budget.overhead())).as("every part of %s", budget.describe()).allMatch(part -> part >= 0);
        assertThat(budget.total()).as(budget.describe()).isLessThanOrEqualTo(facts.memoryBudgetBytes());
    }

    // Once caught: heap {size: 34M} rendered -Xmx32m while the budget counted 34000000 bytes.
    @Property(tries = 1000)
    void theEffectiveXmxIsTheBudgetedHeap(@ForAll("specs") TuningProfileSpec spec, @ForAll("containers") ContainerFacts facts) {
        if (!(resultOf(spec, facts) instanceof Plan plan) || plan.budget() == null) {
            return;
        }
        Rendering rendering = Renderer.render(plan.values(), spec, facts);
        String options = rendering.jvmOptionsValue();
        Optional<Long> xmx = lastSize(options, "-Xmx");
        if (plan.values().heapBytes() != null) {
            assertThat(xmx).as("the effective -Xmx in %s", options).isPresent();
        }
        xmx.ifPresent(bytes -> assertThat(bytes).as("the effective -Xmx in %s against %s", options, plan.budget().describe())
                .isEqualTo(plan.budget().heap()));
        Statistics.label("heap rendered").collect(plan.values().heapBytes() != null);
    }

    // Once caught: with -Xmx in jvmOptions the budgeted code cache and direct memory were left uncapped.
    @Property(tries = 1000)
    void theEffectiveFlagsCapTheNonHeapMemoryTheBudgetCounts(@ForAll("specs") TuningProfileSpec spec,
            @ForAll("containers") ContainerFacts facts) {
        if (!(resultOf(spec, facts) instanceof Plan plan) || plan.budget() == null) {
            return;
        }
        Rendering rendering = Renderer.render(plan.values(), spec, facts);
        String options = rendering.jvmOptionsValue();
        assertThat(lastSize(options, "-XX:MaxDirectMemorySize=")).as(options).contains(plan.budget().directMemory());
        assertThat(lastSize(options, "-XX:ReservedCodeCacheSize=")).as(options).contains(plan.budget().codeCache());
    }

    @Property(tries = 1000)
    void threadCountsArePositiveAndMinSpareStaysWithinMax(@ForAll("specs") TuningProfileSpec spec,
            @ForAll("containers") ContainerFacts facts) {
        if (!(resultOf(spec, facts) instanceof Plan plan)) {
            return;
        }
        TuningValues values = plan.values();
        for (Integer count : new Integer[] {values.maxThreads(), values.parallelGcThreads(), values.concGcThreads()}) {
            if (count != null) {
                assertThat(count).as("a thread count in %s", values).isPositive();
            }
        }
        if (values.minSpareThreads() != null) {
            assertThat(values.minSpareThreads()).isNotNegative();
            if (values.maxThreads() != null) {
                assertThat(values.minSpareThreads()).as("minSpare against max").isLessThanOrEqualTo(values.maxThreads());
            }
        }
    }

    @Property(tries = 1000)
    void concGcThreadsNeverExceedParallelGcThreadsInTheEffectiveFlags(@ForAll("specs") TuningProfileSpec spec,
            @ForAll("containers") ContainerFacts facts) {
        if (!(resultOf(spec, facts) instanceof Plan plan)) {
            return;
        }
        Rendering rendering = Renderer.render(plan.values(), spec, facts);
        Map<String, Long> flags = effectiveIntFlags(rendering.jvmOptionsValue());
        Long parallel = flags.get("ParallelGCThreads");
        Long concurrent = flags.get("ConcGCThreads");
        Statistics.label("both GC thread flags").collect(parallel != null && concurrent != null);
        if (parallel != null && concurrent != null) {
            assertThat(concurrent).as(rendering.jvmOptionsValue()).isLessThanOrEqualTo(parallel);
        }
    }

    @Property(tries = 1000)
    void planningIsDeterministicAndLeavesTheSpecAlone(@ForAll("specs") TuningProfileSpec spec,
            @ForAll("containers") ContainerFacts facts) {
        String before = spec.toString();

        PlanResult first = resultOf(spec, facts);
        if (first == null) {
            return;
        }
        PlanResult second = Planner.plan(spec, facts);

        assertThat(second).isEqualTo(first);
        assertThat(spec).as("the spec after planning").hasToString(before);
    }

    @Property(tries = 1000)
    void aRejectionAlwaysSaysWhy(@ForAll("specs") TuningProfileSpec spec, @ForAll("containers") ContainerFacts facts) {
        if (!(resultOf(spec, facts) instanceof Rejected rejected)) {
            return;
        }
        assertThat(rejected.reason()).isNotNull();
        assertThat(rejected.messages()).isNotEmpty().anyMatch(m -> m != null && !m.isBlank()).noneMatch(m -> m == null || m.isBlank());
    }

    /*
     * The values are positive integers or "true", except a 0 the profile set itself: threads.minSpare,
     * queue.maxQueueSize and connectionPool.minIdle admit 0 in the CRD, and the planner passes it through.
     */
    @Property(tries = 1000)
    void serverEnvironmentNamesAreEnvironmentVariablesAndValuesArePositiveIntegersOrTrue(
            @ForAll("specs") TuningProfileSpec spec, @ForAll("containers") ContainerFacts facts) {
        if (!(resultOf(spec, facts) instanceof Plan plan)) {
            return;
        }
        Rendering rendering = Renderer.render(plan.values(), spec, facts);
        Map<String, Setting> settingOfVariable = new HashMap<>();
        rendering.renderedAs().forEach((setting, target) -> settingOfVariable.put(target, setting));
        rendering.serverEnvironment().forEach((name, value) -> {
            assertThat(name).matches("^[A-Z0-9_]+$");
            if (value.equals("0")) {
                Setting setting = settingOfVariable.get(name);
                assertThat(plan.decisions()).as("%s=0 is only rendered when the profile set it", name)
                        .anyMatch(d -> d.setting() == setting && d.rule() == Rule.SPEC && d.value().equals("0"));
            } else {
                assertThat(value).as(name).matches("^([1-9][0-9]*|true)$");
            }
        });
    }

    // ---------------------------------------------------------------- specs the API server admits

    @Provide
    Arbitrary<TuningProfileSpec> specs() {
        return Builders.withBuilder(() -> new TuningProfileSpec().setTargetRef(new TargetRef().setName("web")))
                .use(Arbitraries.of(Runtime.class)).in(TuningProfileSpec::setRuntime)
                .use(Arbitraries.of(Mode.class)).in(TuningProfileSpec::setMode)
                .use(Arbitraries.of(JvmOptionsVariable.class)).in(TuningProfileSpec::setJvmOptionsVariable)
                .use(workloads()).withProbability(0.8).in(TuningProfileSpec::setWorkload)
                .use(threads()).withProbability(0.4).in(TuningProfileSpec::setThreads)
                .use(queues()).withProbability(0.3).in(TuningProfileSpec::setQueue)
                .use(heaps()).withProbability(0.4).in(TuningProfileSpec::setHeap)
                .use(gcs()).withProbability(0.5).in(TuningProfileSpec::setGc)
                .use(connectionPools()).withProbability(0.3).in(TuningProfileSpec::setConnectionPool)
                .use(Arbitraries.of(JVM_OPTIONS).list().ofMaxSize(4)).withProbability(0.5).in(TuningProfileSpec::setJvmOptions)
                .build()
                .filter(PlannerPropertiesTest::admittedByTheApiServer);
    }

    /** The spec-level CEL rules of TuningProfileSpec; the rules within each section hold by construction below. */
    private static boolean admittedByTheApiServer(TuningProfileSpec spec) {
        Workload w = spec.getWorkload();
        boolean threadsDerivable = w != null && w.getRequestsPerSecond() != null && w.getMeanLatency() != null;
        boolean poolDerivable = w != null && w.getRequestsPerSecond() != null && w.getDbTimePerRequest() != null;
        return (spec.getThreads() == null || spec.getThreads().getMax() != null || threadsDerivable)
                && (spec.getConnectionPool() == null || spec.getConnectionPool().getMaxSize() != null || poolDerivable);
    }

    /** meanLatency and cpuPerRequest are positive, and neither cpuPerRequest nor dbTimePerRequest exceeds meanLatency. */
    Arbitrary<Workload> workloads() {
        return Combinators.combine(
                        Arbitraries.doubles().between(0.01, 100_000).ofScale(2).injectNull(0.15),
                        upperAndLower(durations(1).injectNull(0.15), durations(1).injectNull(0.5)),
                        durations(0).injectNull(0.6),
                        durations(0).injectNull(0.6))
                .as((rate, latencyAndCpu, db, queueWait) -> {
                    Duration latency = latencyAndCpu.get1();
                    Duration dbTime = latency != null && db != null && db.micros() > latency.micros() ? latency : db;
                    return new Workload()
                            .setRequestsPerSecond(rate)
                            .setMeanLatency(Duration.text(latency))
                            .setCpuPerRequest(Duration.text(latencyAndCpu.get2()))
                            .setDbTimePerRequest(Duration.text(dbTime))
                            .setMaxQueueWait(Duration.text(queueWait));
                });
    }

    Arbitrary<Threads> threads() {
        return upperAndLower(Arbitraries.integers().between(1, 100_000).injectNull(0.3),
                Arbitraries.integers().between(0, 100_000).injectNull(0.4))
                .map(maxAndMinSpare -> new Threads().setMax(maxAndMinSpare.get1()).setMinSpare(maxAndMinSpare.get2()));
    }

    Arbitrary<ConnectionPool> connectionPools() {
        return upperAndLower(Arbitraries.integers().between(1, 10_000).injectNull(0.3),
                Arbitraries.integers().between(0, 10_000).injectNull(0.4))
                .map(maxAndMinIdle -> new ConnectionPool().setMaxSize(maxAndMinIdle.get1()).setMinIdle(maxAndMinIdle.get2()));
    }

    Arbitrary<Queue> queues() {
        return Builders.withBuilder(Queue::new)
                .use(Arbitraries.integers().between(1, 65_535)).withProbability(0.5).in(Queue::setAcceptCount)
                .use(Arbitraries.integers().between(1, 1_000_000)).withProbability(0.5).in(Queue::setMaxConnections)
                .use(Arbitraries.integers().between(0, 10_000_000)).withProbability(0.5).in(Queue::setMaxQueueSize)
                .build();
    }

    /** heap.size (at least 32Mi, in binary or decimal units) or heap.percentOfLimit, never both; sometimes an empty section. */
    Arbitrary<Heap> heaps() {
        Arbitrary<String> sizes = Arbitraries.oneOf(
                Arbitraries.integers().between(32, 65_536).map(n -> n + "Mi"),
                Arbitraries.integers().between(1, 64).map(n -> n + "Gi"),
                Arbitraries.integers().between(34, 68_719).map(n -> n + "M"),
                Arbitraries.integers().between(1, 68).map(n -> n + "G"));
        return Arbitraries.oneOf(
                sizes.map(size -> new Heap().setSize(size)),
                Arbitraries.integers().between(10, 90).map(percent -> new Heap().setPercentOfLimit(percent)),
                Arbitraries.create(Heap::new));
    }

    /** Any collector including Auto; a pause goal only where the CRD allows one (not with Serial). */
    Arbitrary<Gc> gcs() {
        return Combinators.combine(Arbitraries.of(Collector.class), Arbitraries.integers().between(1, 10_000).injectNull(0.5))
                .as((collector, pause) -> new Gc().setCollector(collector).setMaxPauseMillis(collector == Collector.Serial ? null : pause));
    }

    /**
     * A duration as a user writes it: mostly request-like (1 ms to 10 s), sometimes anything up to a day,
     * spelled in one of the units that express it exactly (250ms, 0.25s, 1.5m, 2h).
     */
    record Duration(long micros, int spelling) implements Comparable<Duration> {
        @Override
        public int compareTo(Duration other) {
            return Long.compare(micros, other.micros);
        }

        static String text(Duration duration) {
            if (duration == null) {
                return null;
            }
            List<String> spellings = spellings(duration.micros());
            return spellings.get(duration.spelling() % spellings.size());
        }

        private static List<String> spellings(long micros) {
            BigDecimal value = BigDecimal.valueOf(micros);
            List<String> spellings = new ArrayList<>();
            for (Tuple2<String, Long> unit : List.of(Tuple.of("ms", 1_000L), Tuple.of("s", MICROS_PER_SECOND),
                    Tuple.of("m", 60 * MICROS_PER_SECOND), Tuple.of("h", 3600 * MICROS_PER_SECOND))) {
                try {
                    BigDecimal inUnit = value.divide(BigDecimal.valueOf(unit.get2())).stripTrailingZeros();
                    if (inUnit.scale() <= 6) {
                        spellings.add(inUnit.toPlainString() + unit.get1());
                    }
                } catch (ArithmeticException nonTerminating) {
                    // 1m is 60000000 micros: 1 micro has no exact spelling in minutes
                }
            }
            return spellings;
        }
    }

    private static Arbitrary<Duration> durations(long minMicros) {
        Arbitrary<Long> micros = Arbitraries.frequencyOf(
                Tuple.of(4, Arbitraries.longs().between(Math.max(minMicros, 1_000), 10 * MICROS_PER_SECOND)),
                Tuple.of(1, Arbitraries.longs().between(minMicros, LONGEST_DURATION_MICROS)));
        return Combinators.combine(micros, Arbitraries.integers().between(0, 3)).as(Duration::new);
    }

    // ---------------------------------------------------------------- containers

    @Provide
    Arbitrary<ContainerFacts> containers() {
        Arbitrary<Double> cores = Arbitraries.doubles().between(0.1, 64).ofScale(3);
        Arbitrary<Long> memory = Arbitraries.oneOf(
                Arbitraries.longs().between(64, 64 * 1024).map(mebibytes -> mebibytes * MI),
                Arbitraries.longs().between(64 * MI, 64 * GI));
        return Combinators.combine(
                        upperAndLower(cores.injectNull(0.2), cores.injectNull(0.3)),
                        upperAndLower(memory.injectNull(0.2), memory.injectNull(0.3)),
                        Arbitraries.of(17, 21, 25).injectNull(0.25),
                        Arbitraries.integers().between(1, 50))
                .as((cpu, mem, javaVersion, replicas) -> new ContainerFacts(cpu.get1(), cpu.get2(), mem.get1(), mem.get2(),
                        Map.of(), Set.of(), List.of(), List.of(), javaVersion, replicas));
    }

    /**
     * Two optional amounts where the lower never exceeds the upper when both are set (a draw the other way round is
     * swapped): limit and request, threads.max and minSpare, meanLatency and cpuPerRequest.
     */
    private static <T extends Comparable<T>> Arbitrary<Tuple2<T, T>> upperAndLower(Arbitrary<T> upper, Arbitrary<T> lower) {
        return Combinators.combine(upper, lower).as((u, l) -> u != null && l != null && l.compareTo(u) > 0 ? Tuple.of(l, u) : Tuple.of(u, l));
    }

    // ---------------------------------------------------------------- reading the rendered flags

    /**
     * The planner's result, or null when it threw. Throwing is for thePlannerNeverThrows to report; the other
     * properties judge the results, so one bug does not hide the others.
     */
    private static PlanResult resultOf(TuningProfileSpec spec, ContainerFacts facts) {
        try {
            return Planner.plan(spec, facts);
        } catch (RuntimeException e) {
            return null;
        }
    }

    private static String outcome(PlanResult result) {
        return result instanceof Rejected rejected ? "Rejected " + rejected.reason() : "Plan";
    }

    private static final Pattern INT_FLAG = Pattern.compile("-XX:([A-Za-z0-9]+)=([0-9]+)");
    private static final Pattern JVM_SIZE = Pattern.compile("([0-9]+)([kKmMgG]?)");

    /** Every -XX:Name=N of a JVM options string; the last occurrence of a name wins, as in HotSpot. */
    private static Map<String, Long> effectiveIntFlags(String options) {
        Map<String, Long> flags = new HashMap<>();
        for (String token : options.trim().split("\\s+")) {
            Matcher m = INT_FLAG.matcher(token);
            if (m.matches()) {
                flags.put(m.group(1), Long.parseLong(m.group(2)));
            }
        }
        return flags;
    }

    /** The bytes of the last flag with this prefix, e.g. -Xmx1536m. */
    private static Optional<Long> lastSize(String options, String prefix) {
        Long bytes = null;
        for (String token : options.trim().split("\\s+")) {
            if (token.startsWith(prefix)) {
                Matcher m = JVM_SIZE.matcher(token.substring(prefix.length()));
                assertThat(m.matches()).as("a JVM size in %s", token).isTrue();
                long multiplier = switch (m.group(2).toLowerCase()) {
                    case "k" -> 1024L;
                    case "m" -> MI;
                    case "g" -> GI;
                    default -> 1L;
                };
                bytes = Long.parseLong(m.group(1)) * multiplier;
            }
        }
        return Optional.ofNullable(bytes);
    }
}
