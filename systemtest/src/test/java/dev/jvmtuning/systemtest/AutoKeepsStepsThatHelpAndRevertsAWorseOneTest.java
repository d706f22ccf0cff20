package dev.jvmtuning.systemtest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jvmtuning.systemtest.support.Http;
import dev.jvmtuning.systemtest.support.Load;
import dev.jvmtuning.systemtest.support.Manifests;
import dev.jvmtuning.systemtest.support.Wait;
import io.fabric8.kubernetes.api.model.ContainerState;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Mode Auto on a real pod under real load (closed-loop clients waiting on a slow dependency, as the lab's io-bound
 * scenario): from 10 threads the loop steps while throughput follows (kept); once the dependency slows down it re-plans and
 * steps, the dependency slows again within that step's windows, and the step is reverted and held. The threads are read
 * from the running JVM. The clients follow each rollout to its new pod; at most 40 of them, for at most 12 minutes in all.
 */
@Tag("check-8")
@Order(800)
class AutoKeepsStepsThatHelpAndRevertsAWorseOneTest extends SystemCheck {

    private static final String PROFILE = """
            apiVersion: jvmtuning.dev/v1alpha1
            kind: TuningProfile
            metadata: {name: looper}
            spec:
              targetRef: {kind: Deployment, name: looper}
              runtime: SpringBootTomcat
              mode: Auto
              workload: {requestsPerSecond: 80}
              threads: {max: 10}
              metrics: {port: 8080, path: /actuator/prometheus, interval: 5s}
              auto: {minInterval: 0s, warmUp: 10s, observationWindows: 2, regressionTolerancePercent: 20, threads: {min: 5, max: 100}}
            """;

    @Test
    @DisplayName("8. mode Auto under real load: steps kept, a step that made things worse reverted and held")
    void stepsThatHelpAreKeptAndAStepThatMadeThingsWorseIsRevertedAndHeld() {
        makeRoom();
        cluster.apply(Manifests.workload("looper", 1, "resources: {requests: {cpu: 250m, memory: 512Mi}, limits: {cpu: '1', memory: 512Mi}}"));
        cluster.rolloutStatus("looper", 180);
        try (Load load = Load.start(cluster, "looper", "/work?sleepMinMs=500", 40, Duration.ofMinutes(12))) {
            try {
                stepsKeptThenOneReverted(load);
            } catch (AssertionError | RuntimeException failure) {
                try {
                    whatTheLoopHadDone(load);
                } catch (RuntimeException unread) {
                    failure.addSuppressed(unread);
                }
                throw failure;
            }
        }
    }

    private void stepsKeptThenOneReverted(Load load) {
        cluster.apply(PROFILE);
        // 40 clients each waiting 0.5 s need about 80 req/s: 10 threads serve 20, so the loop steps up and keeps.
        Wait.until(360, "tp/looper: a step kept", () -> historyHas("Kept"));
        Wait.until(420, "tp/looper converged", () -> stateIs("Converged"));
        printHistory();
        String kept = auto().path("settings").path("threads").asText();
        String threadsInJvm = jvmMaxThreads();
        say("converged on threads " + kept + "; the running JVM's Tomcat max threads: " + threadsInJvm);
        say(load.answers());
        assertThat(kept).as("a thread count of the loop's own in status.auto.settings").isNotEmpty();
        // Steps kept while they help: from the 10 threads of the spec, the loop ends higher.
        assertThat(Integer.parseInt(kept)).as("threads kept above the 10 the loop started from").isGreaterThan(10);
        assertThat(threadsInJvm).as("the running JVM's Tomcat max threads to be the " + kept + " kept").isEqualTo(kept);

        int steps = auto().path("history").size();
        // The dependency slows to 1 s: a workload move, so the loop re-plans and steps ...
        load.sendTo("/work?sleepMinMs=1000");
        Wait.until(240, "tp/looper: a step after the workload moved", () -> pendingAfter(steps));
        // ... and slows again to 3 s before that step's windows: the step looks worse and goes back.
        load.sendTo("/work?sleepMinMs=3000");
        Wait.until(300, "tp/looper: the step reverted", () -> historyHas("Reverted"));
        Wait.until(240, "tp/looper holding", () -> stateIs("Holding"));
        printHistory();
        say(load.answers());
        JsonNode auto = auto();
        say("state " + auto.path("state").asText() + ", settings " + auto.path("settings") + ", last good " + auto.path("lastGood")
                + "; waiting for " + orElse(auto.path("waitingFor"), "-"));
        assertThat(auto.path("settings")).as("the settings held to be the last good ones").isEqualTo(auto.path("lastGood"));
        String reverted = history(auto).filter(step -> "Reverted".equals(step.path("verdict").asText()))
                .reduce((first, second) -> second).map(step -> step.path("reason").asText()).orElse("");
        assertThat(reverted).as("the last Reverted step's reason naming the latency").contains("latency");
        cluster.rolloutStatus("looper", 180);
        String threadsAfter = jvmMaxThreads();
        say("after the revert the running JVM's Tomcat max threads: " + threadsAfter);
        assertThat(threadsAfter).as("the running JVM's Tomcat max threads to be the threads held")
                .isNotEmpty().isEqualTo(auto().path("settings").path("threads").asText());
        List<String> reasons = cluster.profileEvents("looper").stream().map(event -> event.substring(0, event.indexOf(": "))).toList();
        say("Events: " + String.join(" ", reasons));
        assertThat(reasons).as("AutoStep, AutoKept and AutoReverted Events of tp/looper").contains("AutoStep", "AutoKept", "AutoReverted");
    }

    /** What the loop had done when the check failed: its history and state, the clients' answers, the pods and the operator's lines on it. */
    private void whatTheLoopHadDone(Load load) {
        say("tp/looper when the check failed:");
        printHistory();
        JsonNode auto = auto();
        say("state " + orElse(auto.path("state"), "-") + ", settings " + auto.path("settings")
                + ", waiting for " + orElse(auto.path("waitingFor"), "-"));
        say(load.answers());
        for (JsonNode condition : cluster.profile("looper").path("status").path("conditions")) {
            String line = condition.path("type").asText() + "=" + condition.path("status").asText() + " " + condition.path("reason").asText() + ": "
                    + condition.path("message").asText();
            say(line.substring(0, Math.min(line.length(), 300)));
        }
        for (Pod pod : cluster.pods("looper")) {
            String containers = pod.getStatus().getContainerStatuses().stream()
                    .map(AutoKeepsStepsThatHelpAndRevertsAWorseOneTest::container).collect(Collectors.joining("; "));
            say(pod.getMetadata().getName() + " " + pod.getStatus().getPhase() + " " + containers);
        }
        cluster.liveLeader().ifPresent(leader -> {
            List<String> lines = cluster.operatorLog(leader, 2000).lines().filter(line -> line.contains("looper")).toList();
            lines.subList(Math.max(0, lines.size() - 15), lines.size()).forEach(SystemCheck::say);
        });
    }

    private static String container(ContainerStatus status) {
        ContainerState state = status.getState();
        String now = state == null ? "-"
                : state.getWaiting() != null ? "waiting " + Objects.toString(state.getWaiting().getReason(), "")
                : state.getTerminated() != null ? "terminated " + Objects.toString(state.getTerminated().getReason(), "")
                : "running ";
        return "ready " + status.getReady() + ", restarts " + status.getRestartCount() + ", state " + now;
    }

    private void printHistory() {
        history(auto()).forEach(step -> say("  iteration " + step.path("iteration").asText() + " " + step.path("verdict").asText()
                + ": threads " + orElse(step.path("from").path("threads"), "default") + " -> " + orElse(step.path("to").path("threads"), "default")
                + "; before " + figures(step.path("before")) + ", after " + figures(step.path("after")) + "; " + orElse(step.path("reason"), "")));
    }

    private static String figures(JsonNode window) {
        return orElse(window.path("requestsPerSecond"), "-") + " req/s " + orElse(window.path("meanLatencyMillis"), "-") + " ms";
    }

    /** What the running Tomcat says its pool may grow to, or empty. */
    private String jvmMaxThreads() {
        return cluster.newestReadyPodIp("looper").map(ip -> Http.get("http://" + ip + ":8080/actuator/prometheus", 10)).orElse("").lines()
                .filter(line -> line.startsWith("tomcat_threads_config_max_threads"))
                .map(line -> String.valueOf((long) Double.parseDouble(line.split("\\s+")[1])))
                .findFirst().orElse("");
    }

    private JsonNode auto() {
        return cluster.profile("looper").path("status").path("auto");
    }

    private static Stream<JsonNode> history(JsonNode auto) {
        return StreamSupport.stream(auto.path("history").spliterator(), false);
    }

    private boolean historyHas(String verdict) {
        return history(auto()).anyMatch(step -> verdict.equals(step.path("verdict").asText()));
    }

    private boolean stateIs(String state) {
        return state.equals(auto().path("state").asText());
    }

    /** A step taken after the first {@code steps}, its verdict still to come. */
    private boolean pendingAfter(int steps) {
        JsonNode history = auto().path("history");
        return history.size() > steps && "Pending".equals(history.path(history.size() - 1).path("verdict").asText());
    }

    /** A field's text, or {@code absent} where it is missing or null. */
    private static String orElse(JsonNode field, String absent) {
        return field.isMissingNode() || field.isNull() ? absent : field.asText();
    }
}
