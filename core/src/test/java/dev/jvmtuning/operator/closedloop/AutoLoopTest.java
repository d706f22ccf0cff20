package dev.jvmtuning.operator.closedloop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jvmtuning.operator.api.v1alpha1.Auto;
import dev.jvmtuning.operator.api.v1alpha1.AutoIteration;
import dev.jvmtuning.operator.api.v1alpha1.AutoSettings;
import dev.jvmtuning.operator.api.v1alpha1.AutoState;
import dev.jvmtuning.operator.api.v1alpha1.AutoStatus;
import dev.jvmtuning.operator.api.v1alpha1.AutoVerdict;
import dev.jvmtuning.operator.api.v1alpha1.Bounds;
import dev.jvmtuning.operator.api.v1alpha1.Observed;
import dev.jvmtuning.operator.model.ProfileEvent;
import dev.jvmtuning.operator.model.Reason;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The loop driven as the reconciler drives it: one decision per poll, each window 10 s long, the
 * status of one decision the input of the next, and a planner stand-in that says where a period's
 * figures would put the threads.
 */
class AutoLoopTest {
    private static final Instant T0 = Instant.parse("2026-11-23T10:00:00Z");
    private static final long MEMORY = 1024L * 1024 * 1024;

    /** The loop and the world around it: the settings in force follow the loop's after each rollout. */
    private static final class Driver {
        final Auto spec;
        final Function<Observed, Optional<Replanner.Replan>> planner;
        AutoStatus status;
        Instant now = T0;
        Instant settledAt;
        Instant jvmsStartedAt;
        int defaultThreads = 200;
        Integer heapInForce;
        /** Why threads.max is no knob here, as the reconciler says it for a target on virtual threads; null on platform threads. */
        String threadsFixed;
        final List<ProfileEvent> events = new ArrayList<>();

        Driver(Auto spec, Function<Observed, Optional<Replanner.Replan>> planner) {
            this.spec = spec;
            this.planner = planner;
        }

        int threads() {
            return status == null || status.getSettings().getThreads() == null ? defaultThreads : status.getSettings().getThreads();
        }

        /** One poll: 10 s pass, the pods show {@code window}; a rollout the last poll asked for completed 5 s ago. */
        AutoStatus poll(Observed window, String podFailure) {
            return poll(window, podFailure == null ? null : new AutoLoop.PodFailure(podFailure, now.plusSeconds(10)));
        }

        AutoStatus poll(Observed window, AutoLoop.PodFailure podFailure) {
            now = now.plusSeconds(10);
            if (status != null && settledAt == null) {
                settledAt = now.minusSeconds(5);
            }
            window.setWindow("10s").setEnd(now.toString()).setMaxThreads((double) threads());
            AutoLoop.Decision d = AutoLoop.decide(new AutoLoop.Input(spec, status, new AutoSettings(threads(), null, heapInForce), MEMORY, settledAt,
                    jvmsStartedAt, podFailure, window, planner::apply, now, threadsFixed));
            boolean changed = status == null || !d.status().getChangedAt().equals(status.getChangedAt());
            // As the API server keeps it: written as JSON, read back.
            status = Serialization.unmarshal(Serialization.asJson(d.status()), AutoStatus.class);
            events.addAll(d.events());
            if (changed) {
                settledAt = null;
            }
            return status;
        }

        AutoStatus poll(Observed window) {
            return poll(window, (AutoLoop.PodFailure) null);
        }

        /** Polls until the loop leaves its current settings or {@code max} polls pass. */
        AutoStatus pollWhileSettled(Function<Integer, Observed> world, int max) {
            for (int i = 0; i < max; i++) {
                String changedAt = status == null ? null : status.getChangedAt();
                poll(world.apply(threads()));
                if (changedAt != null && !changedAt.equals(status.getChangedAt())) {
                    break;
                }
            }
            return status;
        }

        AutoIteration last() {
            return status.getHistory().get(status.getHistory().size() - 1);
        }
    }

    private static Auto fast() {
        return new Auto().setMinInterval("0s").setWarmUp("0s").setObservationWindows(2);
    }

    /** A closed-loop I/O-bound service: 1000 clients, each request 100 ms in the server; throughput grows with threads to the plateau. */
    private static Observed ioBound(int threads) {
        double rate = Math.min(threads, 1000) / 0.1;
        return new Observed().setRequestsPerSecond(rate).setMeanLatencyMillis(100.0).setCpuCores(rate / 1000).setGcTimePercent(1.0)
                .setErrorPercent(0.0);
    }

    /** The same service CPU-bound past 300 threads: the same rate, each request waits longer for a CPU. */
    private static Observed cpuBoundPast300(int threads) {
        return threads <= 300 ? ioBound(threads)
                : new Observed().setRequestsPerSecond(3000.0).setMeanLatencyMillis(100.0 * threads / 300).setCpuCores(3.0).setErrorPercent(0.0);
    }

    /**
     * The loop over that service, planned by Little's law, from {@code threads}, one window a period: no windows agree
     * to lengthen a step, so each goes as far as the kept steps before it allow.
     */
    private static Driver cpuBoundPast300From(int threads) {
        Driver d = new Driver(fast().setObservationWindows(1), AutoLoopTest::littlesLaw);
        d.defaultThreads = threads;
        return d;
    }

    /** The planner for it: Little's law on the declared 10,000 req/s and the period's latency, plus a quarter. */
    private static Optional<Replanner.Replan> littlesLaw(Observed period) {
        int threads = (int) Math.ceil(10_000 * period.getMeanLatencyMillis() / 1000 * 1.25);
        return Optional.of(new Replanner.Proposal(new AutoSettings(threads, null, null), "Little's law"));
    }

    @Test
    void waitsForTheRolloutAndTheWarmUpAndCountsEachWindowOnce() {
        Driver d = new Driver(fast().setWarmUp("15s"), AutoLoopTest::littlesLaw);
        assertThat(d.poll(ioBound(200)).getState()).as("the first rollout").isEqualTo(AutoState.Applying);

        d.poll(ioBound(200));
        assertThat(d.status.getState()).isEqualTo(AutoState.Observing);
        assertThat(d.status.getWindows()).as("the window reaches into the rollout").isEmpty();
        d.poll(ioBound(200));
        assertThat(d.status.getWindows()).as("the window reaches into the warm-up").isEmpty();
        d.poll(ioBound(200));
        assertThat(d.status.getWindows()).hasSize(1);

        AutoLoop.Decision again = AutoLoop.decide(new AutoLoop.Input(d.spec, d.status, new AutoSettings(200, null, null), MEMORY, d.settledAt,
                null, null, d.status.getWindows().get(0), AutoLoopTest::littlesLaw, d.now, null));
        assertThat(again.status().getWindows()).as("a reconcile without a new poll adds nothing").hasSize(1);
    }

    @Test
    void fromDefaultsTheLoopRaisesAnIoBoundPoolToThePlateauAndRestsThere() {
        Driver d = new Driver(fast().setMaxStepPercent(200), AutoLoopTest::littlesLaw);

        for (int i = 0; i < 40 && (d.status == null || d.status.getState() != AutoState.Converged); i++) {
            d.poll(ioBound(d.threads()));
        }

        assertThat(d.threads()).as("at the plateau (1000 clients) with its headroom").isBetween(1000, 1300);
        List<AutoIteration> steps = d.status.getHistory().stream().filter(it -> it.getVerdict() == AutoVerdict.Kept).toList();
        assertThat(steps).extracting(it -> it.getTo().getThreads()).as("every window past 1000: as far as the plan at once").containsExactly(1250);
        assertThat(d.last().getVerdict()).isEqualTo(AutoVerdict.Converged);
        assertThat(d.events).extracting(ProfileEvent::reason)
                .containsExactly(Reason.AUTO_STEP, Reason.AUTO_KEPT, Reason.AUTO_CONVERGED);

        int entries = d.status.getHistory().size();
        for (int i = 0; i < 10; i++) {
            d.poll(ioBound(d.threads()));
        }
        assertThat(d.status.getHistory()).as("resting adds no iterations").hasSize(entries);
        assertThat(d.threads()).isEqualTo(1250);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            a max lowered below the 1250 threads the loop converged on |      | 800  | 800  | threads.max 1250 -> 800 (spec.auto.threads.max 800)
            a min raised above them                                    | 1500 |      | 1500 | threads.max 1250 -> 1500 (spec.auto.threads.min 1500)
            """)
    void boundsTightenedAfterTheLoopConvergedBindAtTheNextDecision(String label, Integer min, Integer max, int threads, String moved) {
        Driver d = new Driver(fast().setMaxStepPercent(200), AutoLoopTest::littlesLaw);
        while (d.status == null || d.status.getState() != AutoState.Converged) {
            d.poll(ioBound(d.threads()));
        }
        assertThat(d.threads()).isEqualTo(1250);
        int iterations = d.status.getHistory().size();

        d.spec.setThreads(new Bounds(min, max));
        d.poll(ioBound(d.threads()));

        assertThat(d.threads()).isEqualTo(threads);
        assertThat(d.status.getLastGood().getThreads()).as("a revert stays within the bounds too").isEqualTo(threads);
        assertThat(d.status.getState()).isEqualTo(AutoState.Converged);
        assertThat(d.events).last().satisfies(event -> {
            assertThat(event.reason()).isEqualTo(Reason.AUTO_CLAMPED);
            assertThat(event.warning()).isFalse();
            assertThat(event.message()).isEqualTo("moved within the bounds: " + moved + "; holding until the workload moves");
        });
        for (int i = 0; i < 10; i++) {
            d.poll(ioBound(d.threads()));
        }
        assertThat(d.threads()).isEqualTo(threads);
        assertThat(d.status.getState()).as("the workload did not move: still resting").isEqualTo(AutoState.Converged);
        assertThat(d.status.getHistory()).as("moving within the bounds is no step").hasSize(iterations);
        assertThat(d.events).filteredOn(event -> event.reason() == Reason.AUTO_CLAMPED).as("said once").hasSize(1);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            holding: the bound binds at once                  | Holding   | 30
            stepping: the next step brings the pool within it | Observing | 40
            """)
    void aPoolMaxLoweredBelowTheLoopsPoolBindsAtOnceOnlyWhileTheLoopRests(String label, AutoState state, int pool) {
        Driver d = new Driver(fast().setConnectionPool(new Bounds(null, 30)), AutoLoopTest::littlesLaw);
        AutoSettings loop = new AutoSettings(300, 40, null);
        d.status = new AutoStatus().setState(state).setChangedAt(T0.toString()).setSettings(loop).setLastGood(loop);
        d.settledAt = T0;

        d.poll(ioBound(d.threads()));

        assertThat(d.status.getSettings()).isEqualTo(new AutoSettings(300, pool, null));
        assertThat(d.status.getState()).isEqualTo(state);
        assertThat(d.events).extracting(ProfileEvent::reason).containsExactlyElementsOf(state == AutoState.Holding ? List.of(Reason.AUTO_CLAMPED)
                : List.of());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            one window a period: each kept step doubles the limit, a half, a third, a fifth   | 1 | 100 34 10
            windows that agree past every limit: a ninth, then the plan                       | 2 | 23 10
            """)
    void keptStepsAndAgreeingWindowsLengthenTheNextSoAFarPlanIsReachedInFewerPeriods(String label, int windows, String kept) {
        // Allocation-bound on one CPU: 100 clients, and each thread fewer leaves the young generation more room.
        Function<Integer, Observed> world = threads -> {
            double rate = 100 + 400.0 * 10 / Math.max(threads, 10);
            return new Observed().setRequestsPerSecond(rate).setMeanLatencyMillis(100_000 / rate).setCpuCores(0.9).setGcTimePercent(5.0)
                    .setErrorPercent(0.0);
        };
        Driver d = new Driver(fast().setObservationWindows(windows), period -> Optional.of(new Replanner.Proposal(new AutoSettings(10, null, null),
                "the young generation")));

        for (int i = 0; i < 40 && (d.status == null || d.status.getState() != AutoState.Converged); i++) {
            d.poll(world.apply(d.threads()));
        }

        assertThat(d.status.getHistory()).filteredOn(it -> it.getVerdict() == AutoVerdict.Kept).extracting(it -> it.getTo().getThreads())
                .containsExactly(Arrays.stream(kept.split(" ")).map(Integer::valueOf).toArray(Integer[]::new));
        assertThat(d.last().getVerdict()).isEqualTo(AutoVerdict.Converged);
    }

    @Test
    void aStepThatMakesThingsWorseIsRevertedAndTheLoopHoldsUntilTheWorkloadMoves() {
        Driver d = cpuBoundPast300From(300);
        Function<Integer, Observed> world = AutoLoopTest::cpuBoundPast300;

        d.pollWhileSettled(world, 10);
        assertThat(d.status.getHistory()).extracting(AutoIteration::getVerdict).containsExactly(AutoVerdict.Pending);
        assertThat(d.threads()).isEqualTo(600);
        d.pollWhileSettled(world, 10);

        AutoIteration reverted = d.last();
        assertThat(reverted.getVerdict()).isEqualTo(AutoVerdict.Reverted);
        assertThat(reverted.getReason()).contains("mean latency 100 -> 200 ms at 3000 -> 3000 req/s");
        assertThat(d.status.getState()).isEqualTo(AutoState.Reverted);
        assertThat(d.threads()).as("the last good settings").isEqualTo(300);
        assertThat(d.events).filteredOn(ProfileEvent::warning).extracting(ProfileEvent::reason).containsExactly(Reason.AUTO_REVERTED);

        for (int i = 0; i < 10; i++) {
            d.poll(world.apply(d.threads()));
        }
        assertThat(d.status.getState()).isEqualTo(AutoState.Holding);
        assertThat(d.threads()).as("held, though the planner would step again").isEqualTo(300);

        // A slower dependency: four times the latency per request.
        for (int i = 0; i < 4 && d.threads() == 300; i++) {
            d.poll(new Observed().setRequestsPerSecond(1500.0).setMeanLatencyMillis(400.0).setCpuCores(1.5));
        }
        assertThat(d.events.subList(d.events.size() - 2, d.events.size())).extracting(ProfileEvent::reason)
                .containsExactly(Reason.AUTO_RESUMED, Reason.AUTO_STEP);
        assertThat(d.threads()).as("re-planned, one step at a time").isEqualTo(600);
    }

    @Test
    void aStepThatLeavesEveryWorkerBusyServingLessIsRevertedThoughItsLatencyInTheServerHolds() {
        // 1000 clients, each request a 300 ms call: below 1000 threads every worker is busy, and the rest of the clients wait
        // in the accept backlog, outside the server's clock, so the server's latency stays 300 ms.
        Function<Integer, Observed> world = threads -> new Observed().setRequestsPerSecond(Math.min(threads, 1000) / 0.3)
                .setMeanLatencyMillis(300.0).setCpuCores(0.8).setErrorPercent(0.0).setBusyThreads((double) Math.min(threads, 1000));
        Driver d = new Driver(fast(), period -> Optional.of(new Replanner.Proposal(new AutoSettings(417, null, null), "the survivor space")));
        d.defaultThreads = 1251;

        d.pollWhileSettled(world, 10);
        assertThat(d.threads()).isEqualTo(417);
        d.pollWhileSettled(world, 10);

        assertThat(d.last().getVerdict()).isEqualTo(AutoVerdict.Reverted);
        assertThat(d.last().getReason()).contains("requests served 3333.33 -> 1390 req/s with 100% of the workers busy");
        assertThat(d.threads()).isEqualTo(1251);
    }

    @Test
    void aStepBeyondTheStepLimitThatIsRevertedIsFollowedByOneWithinItBeforeTheLoopHolds() {
        Driver d = cpuBoundPast300From(150);
        Function<Integer, Observed> world = AutoLoopTest::cpuBoundPast300;

        d.pollWhileSettled(world, 10);
        d.pollWhileSettled(world, 10);
        assertThat(d.threads()).as("after a kept step up, the next may triple").isEqualTo(900);
        d.pollWhileSettled(world, 10);
        assertThat(d.threads()).as("reverted").isEqualTo(300);
        assertThat(d.events.get(d.events.size() - 1).message()).endsWith("a step of at most 100% next");
        d.pollWhileSettled(world, 10);
        assertThat(d.threads()).as("one step at the limit").isEqualTo(600);
        d.pollWhileSettled(world, 10);
        for (int i = 0; i < 10; i++) {
            d.poll(world.apply(d.threads()));
        }

        assertThat(d.status.getHistory()).extracting(it -> it.getTo().getThreads() + " " + it.getVerdict())
                .containsExactly("300 Kept", "900 Reverted", "600 Reverted");
        assertThat(d.status.getState()).isEqualTo(AutoState.Holding);
        assertThat(d.threads()).isEqualTo(300);
        assertThat(d.events).filteredOn(ProfileEvent::warning).extracting(ProfileEvent::message).last().asString()
                .endsWith("holding until the workload moves");
    }

    @Test
    void replicasAnAutoscalerMovesDuringAStepsWindowsHoldItsVerdictUntilAPeriodAtOneCount() {
        Driver d = new Driver(fast(), AutoLoopTest::littlesLaw);
        Function<Integer, Observed> threePods = threads -> ioBound(threads).setPods(3);
        d.pollWhileSettled(threePods, 10);
        assertThat(d.last().getVerdict()).isEqualTo(AutoVerdict.Pending);
        int step = d.threads();
        // The autoscaler adds two pods: each serves less, and the new ones, cold, answer slowly in their first window.
        d.poll(threePods.apply(step));
        d.poll(threePods.apply(step));
        assertThat(d.status.getWindows()).as("the step's first window").hasSize(1);
        d.poll(ioBound(step).setPods(5).setRequestsPerSecond(1200.0).setMeanLatencyMillis(300.0));
        assertThat(d.last().getVerdict()).as("a period across the move is not judged").isEqualTo(AutoVerdict.Pending);
        assertThat(d.status.getWindows()).isEmpty();

        d.poll(ioBound(step).setPods(5).setRequestsPerSecond(1200.0));
        d.poll(ioBound(step).setPods(5).setRequestsPerSecond(1200.0));
        assertThat(d.status.getHistory().get(0).getVerdict()).as("judged per pod at five pods").isEqualTo(AutoVerdict.Kept);
        assertThat(d.events).extracting(ProfileEvent::reason).doesNotContain(Reason.AUTO_REVERTED);
    }

    @Test
    void podsThatFailOnAStepRevertItAtOnce() {
        Driver d = new Driver(fast(), AutoLoopTest::littlesLaw);
        d.pollWhileSettled(AutoLoopTest::ioBound, 10);
        assertThat(d.last().getVerdict()).isEqualTo(AutoVerdict.Pending);

        d.poll(ioBound(200), "pod orders-1, container app: OOMKilled");

        assertThat(d.last().getVerdict()).isEqualTo(AutoVerdict.Reverted);
        assertThat(d.last().getReason()).isEqualTo("the pods failed: pod orders-1, container app: OOMKilled");
        assertThat(d.status.getSettings().getThreads()).as("the profile's own value again").isNull();
    }

    @Test
    void aRollbackFromBeforeTheStepDoesNotRevertIt() {
        Driver d = new Driver(fast(), AutoLoopTest::littlesLaw);
        d.pollWhileSettled(AutoLoopTest::ioBound, 10);
        Instant stepAt = Instant.parse(d.status.getChangedAt());

        d.poll(ioBound(200), new AutoLoop.PodFailure("pod orders-0, container app: CrashLoopBackOff", stepAt.minusSeconds(1)));

        assertThat(d.last().getVerdict()).as("status still shows the rollback of an earlier step").isEqualTo(AutoVerdict.Pending);
    }

    @Test
    void noFlappingBetweenNeighbours() {
        // A planner that, seeing 200 threads, wants 300, and seeing 300, wants 200 again: each setting's window argues for the other.
        Driver d = new Driver(fast(), period -> Optional.of(new Replanner.Proposal(
                new AutoSettings(period.getMaxThreads() < 250 ? 300 : 200, null, null), "flip")));

        for (int i = 0; i < 60; i++) {
            d.poll(new Observed().setRequestsPerSecond(1000.0).setMeanLatencyMillis(100.0).setCpuCores(1.0));
        }

        assertThat(d.status.getHistory()).extracting(AutoIteration::getVerdict).containsExactly(AutoVerdict.Kept, AutoVerdict.Converged);
        assertThat(d.last().getReason()).contains("threads 200, pool default, heap as planned showed 1000 req/s per pod at 100 ms",
                "before iteration 1, no better than now");
        assertThat(d.threads()).isEqualTo(300);
    }

    @Test
    void stepsThatStayWithinTheNoiseOfTheBestStopTheLoopUntilTheWorkloadShifts() {
        // A planner that always wants half the threads, on a service whose figures no thread count changes.
        Driver d = new Driver(fast(), period -> Optional.of(new Replanner.Proposal(
                new AutoSettings((int) (period.getMaxThreads() / 2), null, null), "halve")));
        Function<Double, Observed> flat = rate -> new Observed().setRequestsPerSecond(rate).setMeanLatencyMillis(100.0)
                .setCpuCores(rate / 1000).setErrorPercent(0.0);

        for (int i = 0; i < 60; i++) {
            d.poll(flat.apply(i % 2 == 0 ? 990.0 : 1010.0));
        }

        assertThat(d.status.getHistory()).extracting(AutoIteration::getVerdict)
                .containsExactly(AutoVerdict.Kept, AutoVerdict.Kept, AutoVerdict.Converged);
        assertThat(d.status.getState()).as("no step since, though the planner still wants one").isEqualTo(AutoState.Converged);
        assertThat(d.last().getReason()).contains("the last 2 steps left the figures within their noise of the best, 1000 req/s per pod",
                "threads 200", "noise throughput ±1%");
        assertThat(d.status.getBest().getFigures().getRequestsPerSecondError()).as("the defaults' period, its noise kept").isEqualTo(10.0);
        assertThat(d.threads()).isEqualTo(50);
        assertThat(d.status.getWaitingFor()).startsWith("the workload to move by 30% from ");

        d.poll(flat.apply(2000.0));
        d.poll(flat.apply(2000.0));

        assertThat(d.status.getState()).as("the workload doubled: the loop steps again").isEqualTo(AutoState.Applying);
        assertThat(d.events).extracting(ProfileEvent::reason).contains(Reason.AUTO_RESUMED);
        assertThat(d.status.getBest().getFigures().getRequestsPerSecond()).as("the best measured the workload as it is now").isEqualTo(2000.0);
        assertThat(d.threads()).isEqualTo(25);
    }

    /**
     * Little's law at 1000 req/s, from 40 threads: the first period's windows read 14 and 26 ms, a step to 20 follows; at 20
     * the windows read {@code low} and {@code high} ms, as much on average, at {@code rate} req/s.
     */
    private static Driver from40Then(double low, double high, double rate) {
        Driver d = new Driver(fast(), period -> Optional.of(new Replanner.Proposal(
                new AutoSettings((int) Math.ceil(period.getMeanLatencyMillis()), null, null), "Little's law at 1000 req/s")));
        d.defaultThreads = 40;
        for (int i = 0; i < 20; i++) {
            double latency = d.threads() == 40 ? (i % 2 == 0 ? 14 : 26) : (i % 2 == 0 ? low : high);
            d.poll(new Observed().setRequestsPerSecond(d.threads() == 40 ? 1000.0 : rate).setMeanLatencyMillis(latency).setCpuCores(0.5)
                    .setErrorPercent(0.0));
        }
        return d;
    }

    @Test
    void nearTheBestAStepWithinWhatThePeriodsWindowsEachAskForIsNotTaken() {
        Driver noisy = from40Then(8, 22, 1000);
        assertThat(noisy.threads()).as("15 differs from 20 by the threshold, but 20 lies between 8 and 22").isEqualTo(20);
        assertThat(noisy.status.getHistory()).extracting(AutoIteration::getVerdict).containsExactly(AutoVerdict.Kept, AutoVerdict.Converged);
        assertThat(noisy.last().getReason()).contains("re-planned threads 15", "the period's 2 windows, each planned alone, ask for threads 8 to 22, "
                + "which holds threads 20");

        Driver steady = from40Then(14, 16, 1000);
        assertThat(steady.status.getHistory().get(1).getTo().getThreads()).as("every window asks for fewer than 20").isEqualTo(15);

        Driver slower = from40Then(8, 22, 950);
        assertThat(slower.status.getHistory().get(0).getVerdict()).as("5% less is within the tolerance").isEqualTo(AutoVerdict.Kept);
        assertThat(slower.status.getHistory().get(1).getTo().getThreads()).as("but beyond the noise of the best: the loop steps on").isEqualTo(15);
    }

    @Test
    void beforeAnyStepWindowsThatDisagreeDoNotHoldTheLoopWhereItStarted() {
        // Alone, a window of 14 ms asks for 14 threads and one of 30 ms for 30: 25 lies between, but no step was taken yet.
        Driver d = new Driver(fast(), period -> Optional.of(new Replanner.Proposal(
                new AutoSettings((int) Math.ceil(period.getMeanLatencyMillis()), null, null), "Little's law at 1000 req/s")));
        d.defaultThreads = 25;
        d.pollWhileSettled(threads -> new Observed().setRequestsPerSecond(1000.0).setMeanLatencyMillis(d.status == null
                || d.status.getWindows().isEmpty() ? 14.0 : 30.0).setCpuCores(0.5).setErrorPercent(0.0), 4);

        assertThat(d.status.getHistory().get(0).getTo().getThreads()).isEqualTo(22);
    }

    @Test
    void aPlanWithinTheThresholdIsNoStep() {
        Driver d = new Driver(fast(), period -> Optional.of(new Replanner.Proposal(new AutoSettings(215, null, null), "close")));

        for (int i = 0; i < 20; i++) {
            d.poll(ioBound(d.threads()));
        }

        assertThat(d.status.getState()).isEqualTo(AutoState.Converged);
        assertThat(d.threads()).isEqualTo(200);
        assertThat(d.status.getHistory()).hasSize(1);
    }

    @Test
    void settingsThatDoNotFitTheContainerAreNeverRolledOut() {
        Replanner tooBig = new Replanner() {
            @Override
            public Optional<Replan> propose(Observed period) {
                return littlesLaw(period);
            }

            @Override
            public Optional<String> rejects(AutoSettings settings) {
                return settings.getThreads() > 300 ? Optional.of("Infeasible: " + settings.getThreads() + " threads' stacks exceed the limit")
                        : Optional.empty();
            }
        };
        Auto spec = fast();
        AutoStatus status = null;
        Instant now = T0;
        for (int i = 0; i < 6; i++) {
            now = now.plusSeconds(10);
            Observed window = ioBound(200).setWindow("10s").setEnd(now.toString());
            status = AutoLoop.decide(new AutoLoop.Input(spec, status, new AutoSettings(200, null, null), MEMORY, i == 0 ? null : T0, null, null,
                    window, tooBig, now, null)).status();
        }

        assertThat(status.getState()).isEqualTo(AutoState.Converged);
        assertThat(status.getSettings().getThreads()).isNull();
        assertThat(status.getHistory()).singleElement().satisfies(it -> assertThat(it.getReason()).contains("does not fit: Infeasible"));
    }

    @Test
    void aWorkloadThePlannerRejectsIsNamedAndNothingRollsOut() {
        Replanner rejecting = period -> Optional.of(new Replanner.Unplannable("the planner rejects 10000 req/s per pod: Infeasible (R9)"));
        Auto spec = fast();
        AutoLoop.Decision decision = null;
        Instant now = T0;
        for (int i = 0; i < 6; i++) {
            now = now.plusSeconds(10);
            Observed window = ioBound(200).setWindow("10s").setEnd(now.toString());
            decision = AutoLoop.decide(new AutoLoop.Input(spec, decision == null ? null : decision.status(), new AutoSettings(200, null, null),
                    MEMORY, i == 0 ? null : T0, null, null, window, rejecting, now, null));
            if (decision.status().getState() == AutoState.Converged) {
                break;
            }
        }

        assertThat(decision.status().getState()).isEqualTo(AutoState.Converged);
        assertThat(decision.status().getSettings().getThreads()).isNull();
        assertThat(decision.status().getHistory()).singleElement().satisfies(it -> assertThat(it.getReason()).contains("rejects 10000 req/s"));
        assertThat(decision.events()).singleElement().satisfies(event -> {
            assertThat(event.warning()).isTrue();
            assertThat(event.message()).contains("the planner rejects 10000 req/s per pod: Infeasible (R9)");
        });
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            platform: threads and pool step                               | false | 150 | 1250 | 40 | 1250 | 40 | Pending
            virtual threads: the pool steps alone, the loop's threads go  | true  | 150 | 1250 | 40 |     | 40 | Pending
            virtual threads: a thread move alone is no step               | true  |     | 1250 |    |     |    | Converged
            """)
    void onVirtualThreadsTheLoopStepsNoThreadsAndSaysWhy(String label, boolean virtual, Integer loopThreads, int proposedThreads,
            Integer proposedPool, Integer toThreads, Integer toPool, AutoVerdict verdict) {
        Driver d = new Driver(fast(), period -> Optional.of(new Replanner.Proposal(new AutoSettings(proposedThreads, proposedPool, null),
                "the measured workload")));
        d.threadsFixed = virtual ? "threads.max is not stepped: requests run on virtual threads" : null;
        // The platform pool's 200 threads the metrics show, or the loop's own from an earlier step, are in force either way.
        d.status = new AutoStatus().setState(AutoState.Observing).setChangedAt(T0.toString()).setSettings(new AutoSettings(loopThreads, null, null));
        d.settledAt = T0;
        d.poll(ioBound(d.threads()));
        d.poll(ioBound(d.threads()));

        assertThat(d.last().getVerdict()).isEqualTo(verdict);
        assertThat(d.last().getTo().getThreads()).isEqualTo(toThreads);
        assertThat(d.last().getTo().getConnectionPool()).isEqualTo(toPool);
        assertThat(d.last().getReason().contains("threads.max is not stepped")).as("said in status.auto: " + d.last().getReason())
                .isEqualTo(virtual);
        if (verdict == AutoVerdict.Pending) {
            assertThat(d.status.getSettings()).isEqualTo(new AutoSettings(toThreads, toPool, null));
        }
    }

    @Test
    void stepsWaitForTheMinimumInterval() {
        Driver d = new Driver(fast().setMinInterval("2m"), AutoLoopTest::littlesLaw);

        for (int i = 0; i < 11; i++) {
            d.poll(ioBound(d.threads()));
        }
        assertThat(d.threads()).as("110 s after the start").isEqualTo(200);
        d.poll(ioBound(d.threads()));
        d.poll(ioBound(d.threads()));
        assertThat(d.threads()).as("every window past 1000: as far as the plan").isEqualTo(1250);
    }

    @Test
    void anAutoscaledTargetIsJudgedByTheLoadPerPod() {
        Driver d = new Driver(fast(), AutoLoopTest::littlesLaw);
        d.pollWhileSettled(AutoLoopTest::ioBound, 10);
        assertThat(d.last().getVerdict()).isEqualTo(AutoVerdict.Pending);

        // The autoscaler doubled the replicas: each pod serves half as much, with the same latency, idling more per request.
        for (int i = 0; i < 3; i++) {
            d.poll(new Observed().setRequestsPerSecond(1000.0).setMeanLatencyMillis(100.0).setCpuCores(1.5).setErrorPercent(0.0));
        }

        assertThat(d.status.getHistory().get(0).getVerdict()).as("less work per CPU-second at half the load per pod is not a regression")
                .isEqualTo(AutoVerdict.Kept);
    }

    @Test
    void aStepFromBelowTheBoundsMovesAtMostTheStepLimitTowardThem() {
        // The bounds over a plan of 5 threads, one window a period: a 100% step from 5 reaches 10, the next one, kept after it, 20.
        Driver d = new Driver(fast().setObservationWindows(1).setThreads(new Bounds(20, 800)), period -> Optional.of(new Replanner.Proposal(
                new AutoSettings(20, null, null), "the plan")));
        d.defaultThreads = 5;

        d.pollWhileSettled(threads -> ioBound(threads), 10);
        assertThat(d.last().getTo().getThreads()).as("from 5, doubled at most").isEqualTo(10);
        d.pollWhileSettled(threads -> ioBound(threads), 10);
        d.pollWhileSettled(threads -> ioBound(threads), 10);

        assertThat(d.status.getHistory()).filteredOn(it -> it.getVerdict() == AutoVerdict.Kept).extracting(it -> it.getTo().getThreads())
                .containsExactly(10, 20);
    }

    @Test
    void aStepCarriesNoHeapMoveOfAFewMebibytes() {
        // The plan around 400 threads leaves 548 MiB of a 1 GiB budget for the heap (53%) where 551 (54%) runs.
        Driver d = new Driver(fast().setHeapPercentOfLimit(new Bounds(50, 80)), period -> Optional.of(new Replanner.Proposal(
                new AutoSettings(400, null, 53), "the plan")));
        d.heapInForce = 54;

        d.pollWhileSettled(AutoLoopTest::ioBound, 10);

        assertThat(d.last().getVerdict()).isEqualTo(AutoVerdict.Pending);
        assertThat(d.last().getTo()).isEqualTo(new AutoSettings(400, null, 54));
        assertThat(d.status.getSettings()).as("the heap stays the plan's").isEqualTo(new AutoSettings(400, null, null));
        assertThat(d.last().getReason()).startsWith("threads.max 200 -> 400; ").doesNotContain("heap");
    }

    @Test
    void statusSaysWhatTheLoopWaitsForAndUntilWhen() {
        Driver d = new Driver(new Auto(), AutoLoopTest::littlesLaw);

        d.poll(ioBound(200));
        assertThat(d.status.getWaitingFor()).isEqualTo("the rollout of threads default, pool default, heap as planned to complete");
        assertThat(d.status.getNextDecisionAt()).isNull();
        Instant changedAt = Instant.parse(d.status.getChangedAt());

        d.poll(ioBound(200));
        assertThat(d.status.getWaitingFor()).isEqualTo("the warm-up: windows count from 2026-11-23T10:01:15Z (1m after the rollout completed at "
                + "2026-11-23T10:00:15Z); then 3 metrics windows");
        assertThat(d.status.getNextDecisionAt()).as("three 10 s windows after the warm-up").isEqualTo("2026-11-23T10:01:45Z");

        while (d.status.getWindows().isEmpty()) {
            d.poll(ioBound(200));
        }
        assertThat(d.status.getWaitingFor()).isEqualTo("metrics windows: 1 of 3 seen");
        assertThat(d.status.getNextDecisionAt()).isEqualTo(Instant.parse(d.status.getWindows().get(0).getEnd()).plusSeconds(20).toString());

        d.poll(ioBound(200));
        d.poll(ioBound(200));
        assertThat(d.status.getWaitingFor()).isEqualTo("the minimum interval: 10m since the last change at " + changedAt);
        assertThat(d.status.getNextDecisionAt()).isEqualTo(changedAt.plus(java.time.Duration.ofMinutes(10)).toString());

        while (d.status.getState() != AutoState.Applying) {
            d.poll(ioBound(200));
        }
        assertThat(d.now).as("the first step, at the end of the minimum interval").isEqualTo(changedAt.plus(java.time.Duration.ofMinutes(10)));
        assertThat(d.status.getWaitingFor()).isEqualTo("the rollout of threads 1250, pool default, heap as planned to complete");
    }

    @Test
    void whileHoldingStatusSaysWhatWouldEndTheHold() {
        Driver d = new Driver(fast(), AutoLoopTest::littlesLaw);
        d.pollWhileSettled(AutoLoopTest::ioBound, 10);
        d.poll(ioBound(200), "pod orders-1, container app: OOMKilled");
        assertThat(d.status.getWaitingFor()).isEqualTo("the rollout of threads default, pool default, heap as planned to complete");

        for (int i = 0; i < 4; i++) {
            d.poll(ioBound(d.threads()));
        }

        assertThat(d.status.getState()).isEqualTo(AutoState.Holding);
        assertThat(d.status.getWaitingFor()).startsWith("the workload to move by 30% from 2000 req/s per pod and 100 ms, holding threads default")
                .endsWith(" of 2 seen");
        assertThat(d.status.getNextDecisionAt()).isNotNull();
    }

    @Test
    void windowsOfAJvmYoungerThanTheWarmUpDoNotCount() {
        Driver d = new Driver(fast().setWarmUp("15s").setObservationWindows(3), AutoLoopTest::littlesLaw);
        while (d.status == null || d.status.getWindows().isEmpty()) {
            d.poll(ioBound(200));
        }
        int counted = d.status.getWindows().size();

        // A pod restarted (or an autoscaler added one) 2 s ago, long after the rollout completed: its JVM is cold.
        d.jvmsStartedAt = d.now.plusSeconds(8);
        d.poll(ioBound(200));
        assertThat(d.status.getWindows()).as("the window of a JVM started 2 s ago").hasSize(counted);
        assertThat(d.status.getWaitingFor()).isEqualTo("metrics windows: 1 of 3 seen");
        d.poll(ioBound(200));
        assertThat(d.status.getWindows()).as("12 s after its start").hasSize(counted);
        d.poll(ioBound(200));
        d.poll(ioBound(200));
        assertThat(d.status.getWindows()).as("the first window wholly after its warm-up").hasSize(counted + 1);
    }
}
