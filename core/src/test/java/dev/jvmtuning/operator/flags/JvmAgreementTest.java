package dev.jvmtuning.operator.flags;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jvmtuning.operator.testing.StartsProcesses;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The policy against real JVMs: for a sample of flags, each started as {@code java <flag> -version} on
 * every supported JDK this machine has. What the policy takes the JVM must take, and what the JVM
 * refuses the policy must refuse, so a wrong list (a missing flag, a wrong type or range) fails here.
 */
@StartsProcesses
class JvmAgreementTest {
    /** Tuning flags the policy takes: the JVM must start with each. */
    private static final List<String> TAKEN = List.of("-XX:+UseG1GC", "-XX:+UseSerialGC", "-XX:+UseParallelGC", "-XX:+UseZGC",
            "-XX:MaxGCPauseMillis=1", "-XX:MaxRAMPercentage=100", "-XX:MaxRAMPercentage=0.5", "-XX:MaxTenuringThreshold=16",
            "-XX:G1ReservePercent=50", "-XX:TieredStopAtLevel=4", "-XX:ActiveProcessorCount=1", "-XX:ReservedCodeCacheSize=64m",
            "-XX:NativeMemoryTracking=detail", "-XX:+ExitOnOutOfMemoryError", "-Xss136k", "-Xss1g", "-XX:ThreadStackSize=136",
            "-Xmx32m", "-Xms1m", "-Xmn1m", "-Xlog:gc*=debug:stderr:uptime,tid,level", "-Xlog:disable", "-Xshare:off", "-Xint");
    /** Broken flags: the JVM must refuse each, and so must the policy. */
    private static final List<String> BROKEN = List.of("-XX:+UseFooGC", "-XX:MaxGCPauseMillis=0", "-XX:MaxRAMPercentage=100.5",
            "-XX:MaxTenuringThreshold=17", "-XX:G1ReservePercent=51", "-XX:TieredStopAtLevel=5", "-XX:UseG1GC=true",
            "-XX:+MaxGCPauseMillis", "-XX:NativeMemoryTracking=bogus", "-XX:ParallelGCThreads=-1", "-Xss1k", "-Xss135k", "-Xss1025m",
            "-XX:ThreadStackSize=1", "-Xmx0", "-Xmx1m", "-Xms1k", "-Xmn0", "-Xmxlots", "-Xlog:gc+nosuchtag", "-Xlog:gc:stdout:sometimes",
            "-XX:+LogCompilation", "-XX:+PrintAssembly", "-XX:+UseEpsilonGC");


    @ParameterizedTest(name = "JDK {0}")
    @MethodSource("dev.jvmtuning.operator.flags.Jdks#each")
    void theJvmStartsWithEveryFlagThePolicyTakes(int feature, Jdks.Jdk jdk) {
        FlagPolicy policy = FlagPolicy.standard();
        for (String flag : TAKEN) {
            assertThat(policy.problems(List.of(flag), feature)).as("policy on %s for JDK %d", flag, feature).isEmpty();
            Jdks.Run run = jdk.run(flag, "-version");
            assertThat(run.exitStatus()).as("JDK %d with %s:%n%s", feature, flag, run.output()).isZero();
        }
    }

    @ParameterizedTest(name = "JDK {0}")
    @MethodSource("dev.jvmtuning.operator.flags.Jdks#each")
    void whatTheJvmRefusesThePolicyRefuses(int feature, Jdks.Jdk jdk) {
        FlagPolicy policy = FlagPolicy.standard();
        List<String> flags = new ArrayList<>(BROKEN);
        flags.addAll(justOutsideTheirRange(feature));
        for (String flag : flags) {
            Jdks.Run run = jdk.run(flag, "-version");
            assertThat(run.exitStatus()).as("JDK %d should refuse %s:%n%s", feature, flag, run.output()).isNotZero();
            assertThat(policy.problems(List.of(flag), feature)).as("policy on %s for JDK %d", flag, feature).isNotEmpty();
        }
    }

    /** A flag removed from this JDK is unknown to it (or, within the JDK's grace period, ignored): never a tuning flag to take. */
    @ParameterizedTest(name = "JDK {0}")
    @MethodSource("dev.jvmtuning.operator.flags.Jdks#each")
    void flagsOnlyOtherJdksKnowAreUnknownToThisOne(int feature, Jdks.Jdk jdk) {
        FlagPolicy policy = FlagPolicy.standard();
        for (String flag : flagsOnlyOtherJdksKnow(feature)) {
            Jdks.Run run = jdk.run(flag, "-version");
            assertThat(run.output()).as("JDK %d on %s", feature, flag).containsAnyOf("Unrecognized VM option", "Ignoring option");
            assertThat(policy.problems(List.of(flag), feature)).as("policy on %s for JDK %d", flag, feature).singleElement().asString()
                    .contains("is not a flag of JDK " + feature);
        }
    }

    /** Some boolean product flags another supported JDK knows and this one does not: the list must not have them either. */
    private static List<String> flagsOnlyOtherJdksKnow(int feature) {
        Set<String> own = KnownFlags.bundled(feature).flags().keySet();
        return KnownFlags.SUPPORTED.stream().filter(other -> other != feature)
                .flatMap(other -> KnownFlags.bundled(other).flags().values().stream())
                .filter(f -> f.isBoolean() && f.kind() == FlagKind.PRODUCT && !own.contains(f.name()))
                .map(KnownFlag::name).distinct().sorted().filter(everyNth(7)).limit(6)
                .map(name -> "-XX:+" + name).toList();
    }

    /**
     * One past the top of the range the list gives some integer product flags, where that range is
     * narrower than the type: the JVM must say the value is out of range, so the recorded range is not too wide.
     */
    private static List<String> justOutsideTheirRange(int feature) {
        return KnownFlags.bundled(feature).flags().values().stream()
                .filter(f -> f.kind() == FlagKind.PRODUCT && !f.isBoolean() && !f.isString() && !f.isDouble())
                .filter(f -> f.max() != null && f.max().compareTo(BigDecimal.valueOf(1_000_000)) < 0)
                .map(KnownFlag::name).sorted().filter(everyNth(5)).limit(8)
                .map(name -> "-XX:" + name + "=" + KnownFlags.bundled(feature).flags().get(name).max().add(BigDecimal.ONE).toPlainString())
                .toList();
    }

    /** A spread-out sample that is the same on every run. */
    private static java.util.function.Predicate<String> everyNth(int n) {
        int[] seen = {0};
        return name -> seen[0]++ % n == 0;
    }
}
