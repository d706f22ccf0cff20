package dev.jvmtuning.operator.flags;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.jvmtuning.operator.api.v1alpha1.Patterns;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The flag policy on the bundled lists: what it takes, what it refuses and what each message says. */
class FlagPolicyTest {
    private static final FlagPolicy STANDARD = FlagPolicy.standard();

    private static List<String> problems(FlagPolicy policy, Integer javaVersion, String... flags) {
        return policy.problems(List.of(flags), javaVersion);
    }

    @ParameterizedTest
    @ValueSource(strings = {"-XX:+UseG1GC", "-XX:-UseAdaptiveSizePolicy", "-XX:MaxGCPauseMillis=200", "-XX:MaxRAMPercentage=75.0",
            "-XX:MaxTenuringThreshold=15", "-XX:ParallelGCThreads=4", "-XX:ReservedCodeCacheSize=240m", "-XX:+ExitOnOutOfMemoryError",
            "-XX:+HeapDumpOnOutOfMemoryError", "-XX:NativeMemoryTracking=summary", "-Xss512k", "-Xmx1g", "-Xms64m", "-Xmn128m",
            "-Xlog:gc*=info:stdout:uptime,level", "-Xlog:gc", "-Xlog", "-Xlog:disable", "-Xshare:auto", "-Xint", "-XX:ActiveProcessorCount=2",
            "-XX:ThreadStackSize=512"})
    void tuningFlagsEveryJdkKnowsPass(String flag) {
        assertThat(problems(STANDARD, null, flag)).isEmpty();
        for (int jdk : KnownFlags.SUPPORTED) {
            assertThat(problems(STANDARD, jdk, flag)).as("JDK %d", jdk).isEmpty();
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "-XX:OnError=reboot                        | runs a shell command when the JVM hits a fatal error; no setting allows it",
            "-XX:OnOutOfMemoryError=kill               | runs a shell command when the JVM runs out of memory",
            "-javaagent:/tmp/a.jar                     | loads a Java agent",
            "-agentpath:/tmp/a.so                      | loads a native agent",
            "-agentlib:jdwp=transport=dt_socket        | loads a native agent",
            "-Xrunjdwp:transport=dt_socket             | loads a native agent",
            "-Xbootclasspath/a:/tmp                    | loads classes from the boot class path; an administrator can allow it",
            "-XX:VMOptionsFile=/tmp/opts               | reads JVM options from a file",
            "-XX:Flags=/tmp/.hotspotrc                 | reads JVM options from a file",
            "-cp                                       | sets the class path",
            "--module-path=/tmp                        | is a java launcher option",
            "--add-opens=java.base/java.lang=ALL-UNNAMED | is a java launcher option",
            "-Djava.security.manager=allow             | sets a system property",
            "-XX:+UnlockDiagnosticVMOptions            | unlocks diagnostic flags",
            "-XX:HeapDumpPath=/tmp                     | takes a string, which HotSpot reads as a file name",
            "-XX:ErrorFile=/tmp/err                    | takes a string",
            "-Xlog:gc:file=/tmp/gc.log                 | writes a log file",
            "-Xlog:gc:/tmp/gc.log                      | writes a log file",
            "-Xloggc:/tmp/gc.log                       | writes a log file",
            "-XX:+LogCompilation                       | is a diagnostic flag: HotSpot refuses it unless -XX:+UnlockDiagnosticVMOptions comes earlier",
            "-XX:+UseFooGC                             | is not a flag of every one of JDK 17, JDK 21 and JDK 25",
            "-XX:UseG1GC=true                          | sets a boolean flag: write -XX:+UseG1GC or -XX:-UseG1GC",
            "-XX:+MaxGCPauseMillis                     | needs a value: write -XX:MaxGCPauseMillis=<uintx>",
            "-XX:MaxGCPauseMillis=0                    | is out of range: 0 is outside [1 ... 18446744073709551614]",
            "-XX:MaxRAMPercentage=150                  | is out of range: 150 is outside [0.000 ... 100.000]",
            "-XX:MaxRAMPercentage=lots                 | takes a decimal number",
            "-XX:ParallelGCThreads=-1                  | takes a whole number of at least 0",
            "-XX:ParallelGCThreads=99999999999         | is larger than a uint holds",
            "-XX:NativeMemoryTracking=bogus            | takes one of [detail, off, summary]",
            "-Xss1k                                    | is below the 136k that every one of JDK 17, JDK 21 and JDK 25 needs at least",
            "-Xss2g                                    | is above the 1048576k that HotSpot allows",
            "-XX:ThreadStackSize=1                     | is below the 136k",
            "-Xmx0                                     | a maximum heap below 32m does not start",
            "-Xmx1m                                    | a maximum heap below 32m",
            "-Xms1k                                    | an initial heap below 1m",
            "-Xmn0                                     | a young generation below 1m",
            "-Xmxlots                                  | takes a size such as -Xmx512m",
            "-Xlog:gc+nosuchtag                        | names log tag 'nosuchtag'",
            "-Xlog:gc:stdout:sometimes                 | names log decorator 'sometimes'",
            "-Xlog:gc:stdout:time:filecount=5          | has output options, which only log files take",
            "-Xverify:none                             | changes bytecode verification",
            "-Xshare:on                                | is not a tuning option",
            "-XshowSettings:all                        | is not a tuning option",
            "-verbose:gc                               | is not a tuning flag",
            "-XX:+UseZGC$(id)                          | is not exactly one JVM flag",
            "'-Xmx1g -XX:OnError=reboot'               | is not exactly one JVM flag"})
    void refusesWithTheEntryAndTheReason(String flag, String reason) {
        assertThat(problems(STANDARD, null, flag)).singleElement().asString()
                .startsWith("jvmOptions[0] '" + flag + "' ")
                .contains(reason);
    }

    @Test
    void aNewlineIsShownEscapedNotPassedOn() {
        assertThat(problems(STANDARD, null, "-Xmx1g\n-XX:OnError=reboot")).singleElement().asString()
                .startsWith("jvmOptions[0] '-Xmx1g\\u000a-XX:OnError=reboot' is not exactly one JVM flag");
    }

    @Test
    void aFlagOnlyOneJdkKnowsPassesForThatJdkAndWhenTheJdkIsUnknownIsRefused() {
        assertThat(problems(STANDARD, 25, "-XX:+UseCompactObjectHeaders")).isEmpty();
        assertThat(problems(STANDARD, 17, "-XX:+UseCompactObjectHeaders")).singleElement().asString().contains("is not a flag of JDK 17");
        assertThat(problems(STANDARD, null, "-XX:+UseCompactObjectHeaders")).singleElement().asString()
                .contains("the target's JDK is not known, so a flag must be one that all of them know");
        assertThat(problems(STANDARD, 21, "-XX:+ZGenerational")).isEmpty();
        assertThat(problems(STANDARD, 25, "-XX:+ZGenerational")).isNotEmpty();
    }

    @Test
    void aFlagWhoseIntegerWidthChangedBetweenJdksStaysKnownToAll() {
        assertThat(problems(STANDARD, null, "-XX:MaxTenuringThreshold=7", "-XX:G1ReservePercent=20")).isEmpty();
    }

    @Test
    void theAllowListWidensWhatIsRefusedByDefaultAndNothingElse() {
        FlagPolicy policy = FlagPolicy.bundled(List.of("-D", "-XX:HeapDumpPath=", "-XX:+UnlockDiagnosticVMOptions", "-Xlog:gc:file="));

        assertThat(problems(policy, null, "-Djava.security.manager=allow", "-Dfile.encoding=UTF-8", "-XX:HeapDumpPath=/dumps",
                "-Xlog:gc:file=/logs/gc.log")).isEmpty();
        assertThat(problems(policy, null, "-XX:+UnlockDiagnosticVMOptions", "-XX:+LogCompilation")).isEmpty();
        assertThat(problems(policy, null, "-XX:+LogCompilation", "-XX:+UnlockDiagnosticVMOptions")).singleElement().asString()
                .startsWith("jvmOptions[0] '-XX:+LogCompilation' is a diagnostic flag");
        assertThat(problems(policy, null, "-XX:ErrorFile=/tmp/e", "-Xlog:gc:/tmp/gc.log", "-XX:OnError=reboot"))
                .hasSize(3)
                .allSatisfy(p -> assertThat(p).contains("is refused"));
        assertThat(problems(policy, null, "-XX:HeapDumpPath=/dumps", "-XX:+UseFooGC")).singleElement().asString()
                .contains("is not a flag of");
    }

    /** The flags the CRD refuses at admission, from its CEL list: the policy refuses them too, and no allow-list entry lets them through. */
    static Stream<String> neverAccepted() {
        return Pattern.compile("'([^']+)'").matcher(Patterns.NEVER_FLAGS).results().map(m -> m.group(1));
    }

    @ParameterizedTest
    @MethodSource("neverAccepted")
    void theAllowListCannotWidenWhatIsNeverAccepted(String entry) {
        FlagPolicy allowingItsStem = FlagPolicy.bundled(List.of(entry.substring(0, entry.length() - 1)));
        assertThat(problems(allowingItsStem, null, entry + "=x")).singleElement().asString().contains("no setting allows it in a TuningProfile");
        assertThatThrownBy(() -> FlagPolicy.bundled(List.of(entry)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(FlagPolicy.ALLOW_SETTING + " entry '" + entry + "' cannot be allowed");
    }

    @Test
    void everyEntryIsJudgedAndNamedByItsPosition() {
        assertThat(problems(STANDARD, null, "-Xmx1g", "-XX:OnError=reboot", "-XX:+UseG1GC", "-XX:+NoSuchFlag"))
                .hasSize(2)
                .satisfiesExactly(p -> assertThat(p).startsWith("jvmOptions[1] '-XX:OnError=reboot'"),
                        p -> assertThat(p).startsWith("jvmOptions[3] '-XX:+NoSuchFlag'"));
    }
}
