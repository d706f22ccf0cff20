package dev.jvmtuning.operator.model;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jvmtuning.operator.model.Attestation.Difference;
import dev.jvmtuning.operator.model.Attestation.Verdict;
import dev.jvmtuning.operator.model.EffectiveOptions.Option;
import dev.jvmtuning.operator.model.EffectiveOptions.Origin;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class AttestationTest {
    private static final double MI = Units.MI;
    /** What the Renderer renders for a 512 MiB heap on G1 with two CPUs. */
    private static final List<String> RENDERED = List.of("-XX:ActiveProcessorCount=2", "-Xms512m", "-Xmx512m", "-XX:+UseG1GC",
            "-XX:MaxGCPauseMillis=150", "-javaagent:/jvm-tuning-agent/jvm-tuning-agent.jar=port=9404,host=0.0.0.0",
            "-XX:ReservedCodeCacheSize=64m", "-XX:MaxDirectMemorySize=32m");

    /** A JVM that runs with RENDERED from JAVA_TOOL_OPTIONS, with changes. */
    private static EffectiveOptions jvm(Map<String, Option> changes) {
        Map<String, Option> options = new HashMap<>(Map.of(
                "ActiveProcessorCount", new Option(2, Origin.ENVIRON_VAR),
                "InitialHeapSize", new Option(512 * MI, Origin.VM_CREATION),
                "MaxHeapSize", new Option(512 * MI, Origin.VM_CREATION),
                "UseG1GC", new Option(1, Origin.ENVIRON_VAR),
                "UseParallelGC", new Option(0, Origin.DEFAULT),
                "MaxGCPauseMillis", new Option(150, Origin.ENVIRON_VAR),
                "ReservedCodeCacheSize", new Option(64 * MI, Origin.ENVIRON_VAR),
                "MaxDirectMemorySize", new Option(32 * MI, Origin.ENVIRON_VAR),
                "UseContainerSupport", new Option(1, Origin.DEFAULT)));
        options.putAll(changes);
        return new EffectiveOptions(options);
    }

    private static EffectiveOptions jvm() {
        return jvm(Map.of());
    }

    private static Map<String, EffectiveOptions> pods(EffectiveOptions... jvms) {
        Map<String, EffectiveOptions> pods = new LinkedHashMap<>();
        for (int i = 0; i < jvms.length; i++) {
            pods.put("web-" + i, jvms[i]);
        }
        return pods;
    }

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("every pod runs the plan", pods(jvm(), jvm()), Verdict.IN_EFFECT, 2, List.of()),
                Arguments.of("the heap rounded up to the 2 MiB alignment (-Xmx511m runs as 512m)", pods(jvm(Map.of(
                        "MaxHeapSize", new Option(514 * MI, Origin.VM_CREATION)))), Verdict.IN_EFFECT, 1, List.of()),
                Arguments.of("the image's command line sets -Xmx256m after the rendered flags", pods(jvm(), jvm(Map.of(
                        "MaxHeapSize", new Option(256 * MI, Origin.VM_CREATION)))), Verdict.DIFFERS, 1,
                        List.of(new Difference("web-1", "MaxHeapSize", "-Xmx512m", 512 * MI, 256 * MI, Origin.VM_CREATION))),
                Arguments.of("a boolean flipped: an entrypoint's -XX:-UseG1GC -XX:+UseParallelGC", pods(jvm(Map.of(
                        "UseG1GC", new Option(0, Origin.VM_CREATION), "UseParallelGC", new Option(1, Origin.VM_CREATION)))),
                        Verdict.DIFFERS, 0, List.of(new Difference("web-0", "UseG1GC", "-XX:+UseG1GC", 1, 0.0, Origin.VM_CREATION))),
                Arguments.of("a count off by one is not within any tolerance", pods(jvm(Map.of(
                        "ActiveProcessorCount", new Option(3, Origin.VM_CREATION)))), Verdict.DIFFERS, 0,
                        List.of(new Difference("web-0", "ActiveProcessorCount", "-XX:ActiveProcessorCount=2", 2, 3.0, Origin.VM_CREATION))),
                Arguments.of("a size 2% off", pods(jvm(Map.of("ReservedCodeCacheSize", new Option(64 * MI * 1.02, Origin.ERGONOMIC)))),
                        Verdict.DIFFERS, 0, List.of(new Difference("web-0", "ReservedCodeCacheSize", "-XX:ReservedCodeCacheSize=64m",
                                64 * MI, 64 * MI * 1.02, Origin.ERGONOMIC))),
                Arguments.of("one pod without the agent", pods(jvm(), EffectiveOptions.NONE), Verdict.NOT_REPORTED, 1, List.of()),
                Arguments.of("no pod reports", pods(EffectiveOptions.NONE, EffectiveOptions.NONE), Verdict.NOT_REPORTED, 0, List.of()),
                Arguments.of("no readings at all", pods(), Verdict.NOT_REPORTED, 0, List.of()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void judgesWhatEachPodRunsAgainstThePlan(String name, Map<String, EffectiveOptions> pods, Verdict verdict, int inEffect,
            List<Difference> differences) {
        Attestation attestation = Attestation.of(RENDERED, Map.of(), pods);

        assertThat(attestation.verdict()).isEqualTo(verdict);
        assertThat(attestation.pods()).isEqualTo(pods.size());
        assertThat(attestation.inEffect()).isEqualTo(inEffect);
        assertThat(attestation.differences()).isEqualTo(differences);
    }

    static Stream<Arguments> effective() {
        Option otherHeap = new Option(200 * MI, Origin.VM_CREATION);
        return Stream.of(
                Arguments.of("every pod runs the plan", pods(jvm(), jvm()), "-Xmx512m", "512Mi on 2 of 2 pods"),
                Arguments.of("the heap rounded up within the alignment shows what runs", pods(jvm(Map.of("MaxHeapSize",
                        new Option(514 * MI, Origin.VM_CREATION)))), "-Xmx512m", "514Mi on 1 of 1 pods"),
                Arguments.of("a value other than planned first, with its origin", pods(jvm(), jvm(Map.of("MaxHeapSize", otherHeap))),
                        "-Xmx512m", "200Mi (VM_CREATION) on 1 of 2 pods, 512Mi on 1"),
                Arguments.of("then by pods", pods(jvm(Map.of("MaxHeapSize", otherHeap)), jvm(), jvm(Map.of("MaxHeapSize", otherHeap))),
                        "-Xmx512m", "200Mi (VM_CREATION) on 2 of 3 pods, 512Mi on 1"),
                Arguments.of("at most three values listed", pods(jvm(), heap(100), heap(200), heap(300), heap(300), heap(400)), "-Xmx512m",
                        "300Mi (ENVIRON_VAR) on 2 of 6 pods, 100Mi (ENVIRON_VAR) on 1, 200Mi (ENVIRON_VAR) on 1, other values on 2"),
                Arguments.of("a pod that reports nothing is counted apart", pods(jvm(), EffectiveOptions.NONE), "-Xmx512m",
                        "512Mi on 1 of 2 pods, no report from 1"),
                Arguments.of("a size other than whole MiB", pods(jvm(Map.of("ReservedCodeCacheSize", new Option(64 * MI * 1.02, Origin.ERGONOMIC)))),
                        "-XX:ReservedCodeCacheSize=64m", "65.28Mi (ERGONOMIC) on 1 of 1 pods"),
                Arguments.of("a boolean as true or false", pods(jvm(Map.of("UseG1GC", new Option(0, Origin.VM_CREATION))), jvm()),
                        "-XX:+UseG1GC", "false (VM_CREATION) on 1 of 2 pods, true on 1"),
                Arguments.of("a count", pods(jvm()), "-XX:ActiveProcessorCount=2", "2 on 1 of 1 pods"),
                Arguments.of("an option the pod's JVM lacks", pods(jvm(Map.of()), new EffectiveOptions(Map.of("UseG1GC", new Option(1, Origin.ERGONOMIC)))),
                        "-XX:MaxGCPauseMillis=150", "no such option on 1 of 2 pods, 150 on 1"));
    }

    /** A pod whose heap an environment variable other than the operator's set. */
    private static EffectiveOptions heap(int mebibytes) {
        return jvm(Map.of("MaxHeapSize", new Option(mebibytes * MI, Origin.ENVIRON_VAR)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("effective")
    void saysWhatThePodsRunOfTheOptionARenderedFlagSets(String name, Map<String, EffectiveOptions> pods, String flag, String effective) {
        assertThat(Attestation.of(RENDERED, Map.of(), pods).effectiveOf(flag, "heap.size")).map(Attestation.Effective::describe).contains(effective);
    }

    @Test
    void nothingIsSaidOfAFlagWithoutAReportedOptionNorWhenNoPodReports() {
        Attestation attestation = Attestation.of(RENDERED, Map.of(), pods(jvm()));

        assertThat(attestation.effectiveOf("-javaagent:/jvm-tuning-agent/jvm-tuning-agent.jar=port=9404,host=0.0.0.0", "heap.size")).isEmpty();
        assertThat(attestation.effectiveOf("-XX:+AlwaysPreTouch", "heap.size")).as("not planned").isEmpty();
        assertThat(Attestation.of(RENDERED, Map.of(), pods(EffectiveOptions.NONE)).effectiveOf("-Xmx512m", "heap.size")).isEmpty();
        assertThat(attestation.effective().get("MaxHeapSize").podsByValue()).containsExactly(Map.entry("512Mi", 1));
    }

    @Test
    void aSmallHeapRoundedUpToTheHeapAlignmentIsInEffect() {
        // HotSpot 17 runs -Xms11m as 12 MiB: 1 MiB off, over 1% of the plan but within the 2 MiB alignment
        EffectiveOptions rounded = new EffectiveOptions(Map.of("InitialHeapSize", new Option(12_582_912, Origin.VM_CREATION),
                "UseContainerSupport", new Option(1, Origin.DEFAULT)));

        assertThat(Attestation.of(List.of("-Xms11m"), Map.of(), Map.of("web-0", rounded)).verdict()).isEqualTo(Verdict.IN_EFFECT);
    }

    @Test
    void anOptionThePodsJdkLacksIsADifferenceWithoutAValue() {
        EffectiveOptions jdk25 = new EffectiveOptions(Map.of("UseZGC", new Option(1, Origin.ENVIRON_VAR), "UseContainerSupport",
                new Option(1, Origin.DEFAULT)));

        Attestation attestation = Attestation.of(List.of("-XX:+UseZGC", "-XX:+ZGenerational"), Map.of(), Map.of("web-0", jdk25));

        assertThat(attestation.verdict()).isEqualTo(Verdict.DIFFERS);
        assertThat(attestation.differences()).containsExactly(new Difference("web-0", "ZGenerational", "-XX:+ZGenerational", 1, null, null));
        assertThat(attestation.message()).isEqualTo("in effect on 0 of 1 pods; web-0: ZGenerational is not an option of its JVM "
                + "(planned -XX:+ZGenerational)");
    }

    @Test
    void aJvmBlindToItsContainerDiffersWhateverItsFlags() {
        Attestation attestation = Attestation.of(RENDERED, Map.of(), pods(jvm(Map.of("UseContainerSupport", new Option(0, Origin.VM_CREATION)))));

        assertThat(attestation.verdict()).isEqualTo(Verdict.DIFFERS);
        assertThat(attestation.message()).isEqualTo("in effect on 0 of 1 pods; web-0: UseContainerSupport is false (VM_CREATION), planned true "
                + "by the plan, which sizes the JVM for its container");
    }

    @Test
    void theLastFlagOfAnOptionIsThePlanAndFlagsTheAgentDoesNotReadAreNotJudged() {
        assertThat(Attestation.planned(List.of("-Xmx1g", "-XX:+UseSerialGC", "-Xlog:gc", "-Dx=1", "-XX:+AlwaysPreTouch",
                "-XX:MaxHeapSize=768m", "-XX:-UseSerialGC")).values())
                .extracting(Attestation.Planned::option, Attestation.Planned::flag, Attestation.Planned::value)
                .containsExactly(
                        Tuple.tuple("UseContainerSupport", "the plan, which sizes the JVM for its container", 1.0),
                        Tuple.tuple("MaxHeapSize", "-XX:MaxHeapSize=768m", 768 * MI),
                        Tuple.tuple("UseSerialGC", "-XX:-UseSerialGC", 0.0));
    }

    @Test
    void eachFlagFormBecomesTheOptionAndUnitHotSpotReports() {
        assertThat(Attestation.optionsSetBy("-Xmn128m")).extracting(Attestation.Planned::option).containsExactly("NewSize", "MaxNewSize");
        // ThreadStackSize counts KiB, -Xss bytes
        assertThat(Attestation.optionsSetBy("-Xss1m")).singleElement().extracting(Attestation.Planned::value).isEqualTo(1024.0);
        assertThat(Attestation.optionsSetBy("-XX:ThreadStackSize=512")).singleElement().extracting(Attestation.Planned::value).isEqualTo(512.0);
        assertThat(Attestation.optionsSetBy("-XX:MaxRAMPercentage=62.5")).singleElement().extracting(Attestation.Planned::value).isEqualTo(62.5);
        assertThat(Attestation.optionsSetBy("-XX:+ExitOnOutOfMemoryError")).singleElement().extracting(Attestation.Planned::value).isEqualTo(1.0);
        // what the plan renders for ZGC's soft heap target (R10a) and compact headers (R21)
        assertThat(Attestation.optionsSetBy("-XX:SoftMaxHeapSize=921m")).singleElement().extracting(Attestation.Planned::value).isEqualTo(921 * MI);
        assertThat(Attestation.optionsSetBy("-XX:+UseCompactObjectHeaders")).singleElement().extracting(Attestation.Planned::value).isEqualTo(1.0);
        // a size HotSpot would not read, or a shell variable left in a command line
        assertThat(Attestation.optionsSetBy("-Xmx$HEAP")).isEmpty();
        assertThat(Attestation.optionsSetBy("-XX:MaxGCPauseMillis=soon")).isEmpty();
    }

    @Test
    void theMessageCountsPodsAndNamesTheDifferencesAndThePodsThatReportNothing() {
        Attestation attestation = Attestation.of(RENDERED, Map.of(), pods(jvm(), jvm(Map.of("MaxHeapSize", new Option(256 * MI, Origin.VM_CREATION))),
                EffectiveOptions.NONE));

        assertThat(attestation.message()).isEqualTo("in effect on 1 of 3 pods; web-1: MaxHeapSize is 256Mi (VM_CREATION), planned 512Mi "
                + "by -Xmx512m; no options reported by web-2 (no jvm-tuning agent, or an older one)");
    }

    /** The server settings a Spring Boot plan renders beside RENDERED. */
    private static final Map<Setting, String> SERVER = new EnumMap<>(Map.of(Setting.THREADS_MAX, "SERVER_TOMCAT_THREADS_MAX=200",
            Setting.POOL_MAX_SIZE, "SPRING_DATASOURCE_HIKARI_MAXIMUMPOOLSIZE=10", Setting.THREADS_MIN_SPARE, "SERVER_TOMCAT_THREADS_MINSPARE=10"));

    /** A pod without the agent: Micrometer's heap pools of G1 (as JDK 17 and 25 report them) and Tomcat's thread maximum. */
    private static EffectiveOptions micrometer(double oldGenMax, Double maxThreads) {
        return RuntimeMetricsOptions.of(Map.of("G1 Eden Space", -1.0, "G1 Old Gen", oldGenMax, "G1 Survivor Space", -1.0), maxThreads, null);
    }

    static Stream<Arguments> withoutTheAgent() {
        Map<String, Double> serialPools = Map.of("Tenured Gen", 357_957_632.0, "Eden Space", 143_130_624.0, "Survivor Space", 17_891_328.0);
        return Stream.of(
                Arguments.of("what the runtime's metrics show matches, and the rest is not known", pods(micrometer(512 * MI, 200.0),
                        micrometer(512 * MI, 200.0)), Verdict.PARTLY_REPORTED, "in effect as far as read on 2 of 2 pods, read from the "
                                + "runtime's metrics: MaxHeapSize, UseG1GC, threads.max; not checkable without the agent: UseContainerSupport, "
                                + "ActiveProcessorCount, InitialHeapSize, MaxGCPauseMillis, ReservedCodeCacheSize, MaxDirectMemorySize; not shown "
                                + "by the runtime's metrics: connectionPool.maxSize; the jvm-tuning agent (metrics.injectAgent) reads every "
                                + "planned JVM option"),
                Arguments.of("an entrypoint's -Xmx256m", pods(micrometer(512 * MI, 200.0), micrometer(256 * MI, 200.0)), Verdict.DIFFERS,
                        "in effect on 1 of 2 pods, read from the runtime's metrics: MaxHeapSize, UseG1GC, threads.max; not checkable without "
                                + "the agent: UseContainerSupport, ActiveProcessorCount, InitialHeapSize, MaxGCPauseMillis, ReservedCodeCacheSize, "
                                + "MaxDirectMemorySize; not shown by the runtime's metrics: connectionPool.maxSize; web-1: MaxHeapSize is 256Mi "
                                + "(runtime metrics), planned 512Mi by -Xmx512m"),
                Arguments.of("Serial's pools, which hold the heap less a survivor space, where G1 was planned", pods(RuntimeMetricsOptions.of(
                        serialPools, null, null)), Verdict.DIFFERS, "in effect on 0 of 1 pods, read from the runtime's metrics: MaxHeapSize, "
                                + "UseG1GC; not checkable without the agent: UseContainerSupport, ActiveProcessorCount, InitialHeapSize, "
                                + "MaxGCPauseMillis, ReservedCodeCacheSize, MaxDirectMemorySize; not shown by the runtime's metrics: threads.max, "
                                + "connectionPool.maxSize; web-0: UseG1GC is false (runtime metrics), planned true by -XX:+UseG1GC"),
                Arguments.of("the server runs another thread maximum", pods(micrometer(512 * MI, 50.0)), Verdict.DIFFERS,
                        "in effect on 0 of 1 pods, read from the runtime's metrics: MaxHeapSize, UseG1GC, threads.max; not checkable without "
                                + "the agent: UseContainerSupport, ActiveProcessorCount, InitialHeapSize, MaxGCPauseMillis, ReservedCodeCacheSize, "
                                + "MaxDirectMemorySize; not shown by the runtime's metrics: connectionPool.maxSize; web-0: threads.max is 50 "
                                + "(runtime metrics), planned 200 by SERVER_TOMCAT_THREADS_MAX=200"),
                Arguments.of("only Hikari's maximum shows: no JVM option read", pods(RuntimeMetricsOptions.of(Map.of(), null, 10.0)),
                        Verdict.PARTLY_REPORTED, "in effect as far as read on 1 of 1 pods, read from the runtime's metrics: "
                                + "connectionPool.maxSize; not checkable without the agent: UseContainerSupport, ActiveProcessorCount, "
                                + "InitialHeapSize, MaxHeapSize, UseG1GC, MaxGCPauseMillis, ReservedCodeCacheSize, MaxDirectMemorySize; not shown "
                                + "by the runtime's metrics: threads.max; the jvm-tuning agent (metrics.injectAgent) reads every planned JVM option"),
                Arguments.of("the agent's report beside a pod without it, which leaves options unread", pods(jvm(), micrometer(512 * MI, null)),
                        Verdict.PARTLY_REPORTED, "in effect as far as read on 2 of 2 pods, read from the runtime's metrics: MaxHeapSize, "
                                + "UseG1GC; not checkable without the agent: UseContainerSupport, ActiveProcessorCount, InitialHeapSize, "
                                + "MaxGCPauseMillis, ReservedCodeCacheSize, MaxDirectMemorySize; not shown by the runtime's metrics: threads.max, "
                                + "connectionPool.maxSize; the jvm-tuning agent (metrics.injectAgent) reads every planned JVM option"),
                Arguments.of("only the agent: server settings are not judged", pods(jvm()), Verdict.IN_EFFECT, "in effect on 1 of 1 pods"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("withoutTheAgent")
    void withoutTheAgentJudgesWhatTheRuntimesMetricsShowAndSaysWhatTheyCannot(String name, Map<String, EffectiveOptions> pods, Verdict verdict,
            String message) {
        Attestation attestation = Attestation.of(RENDERED, SERVER, pods);

        assertThat(attestation.verdict()).isEqualTo(verdict);
        assertThat(attestation.message()).isEqualTo(message);
    }

    @Test
    void aSettingsEffectiveValueIsWhatThePodsThatShowItRun() {
        Attestation attestation = Attestation.of(RENDERED, SERVER, pods(micrometer(512 * MI, 200.0), micrometer(512 * MI, null)));

        assertThat(attestation.effectiveOf("SERVER_TOMCAT_THREADS_MAX", "threads.max")).map(Attestation.Effective::describe)
                .contains("200 on 1 of 2 pods, no report from 1");
        assertThat(attestation.effectiveOf("-Xmx512m", "heap.size")).map(Attestation.Effective::describe).contains("512Mi on 2 of 2 pods");
        assertThat(attestation.effectiveOf("-Xms512m", "heap.initial")).as("no runtime's metrics show it").isEmpty();
    }

    @Test
    void metricsThatShowNothingPlannedReportNothing() {
        Attestation attestation = Attestation.of(List.of("-XX:MaxMetaspaceSize=128m"), Map.of(),
                Map.of("web-0", RuntimeMetricsOptions.of(Map.of(), 200.0, null)));

        assertThat(attestation.verdict()).isEqualTo(Verdict.NOT_REPORTED);
        assertThat(attestation.message()).isEqualTo("in effect on 0 of 1 pods, nothing planned shows in the runtime's metrics; not checkable "
                + "without the agent: UseContainerSupport, MaxMetaspaceSize; no options reported by web-0 (no jvm-tuning agent, or an older one)");
    }
}
