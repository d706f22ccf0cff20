package dev.jvmtuning.operator.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jvmtuning.operator.api.v1alpha1.Metrics;
import dev.jvmtuning.operator.api.v1alpha1.TargetRef;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfileSpec;
import dev.jvmtuning.operator.config.Leadership;
import dev.jvmtuning.operator.model.MetricsReport;
import dev.jvmtuning.operator.testing.ManualClock;
import dev.jvmtuning.operator.testing.TestSettings;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.IndexerResourceCache;
import io.javaoperatorsdk.operator.processing.event.source.polling.PerResourcePollingConfigurationBuilder;
import io.javaoperatorsdk.operator.processing.event.source.polling.PerResourcePollingEventSource;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * The liveness decision on the metrics poller: a profile's polls that stop scheduling their successors are
 * seen as dead once several intervals (at least a few minutes) have passed, and stay so; polls that go on are not.
 */
class PollHeartbeatTest {
    private static final Instant T0 = Instant.parse("2026-11-24T10:00:00Z");

    @Test
    void aBeatIsStaleAfterThreeIntervalsOrThreeMinutesWhicheverIsLonger() {
        Map<String, PollHeartbeat.Beat> beats = Map.of("shop/orders", new PollHeartbeat.Beat(T0, Duration.ofSeconds(30)),
                "shop/slow", new PollHeartbeat.Beat(T0, Duration.ofMinutes(5)));

        assertThat(PollHeartbeat.stalled(beats, T0.plus(Duration.ofMinutes(3)))).isEmpty();
        assertThat(PollHeartbeat.stalled(beats, T0.plus(Duration.ofMinutes(3)).plusSeconds(1)))
                .hasValueSatisfying(reason -> assertThat(reason).startsWith("metrics polls of 1 of 2 profiles stopped")
                        .contains("shop/orders last polled 2026-11-24T10:00:00Z, every 30s").doesNotContain("shop/slow"));
        assertThat(PollHeartbeat.stalled(beats, T0.plus(Duration.ofMinutes(15)).plusSeconds(1)))
                .hasValueSatisfying(reason -> assertThat(reason).contains("2 of 2").contains("shop/slow"));
    }

    @Test
    void aDeletedProfileIsForgottenNotTakenForADeadPoll() {
        ManualClock clock = new ManualClock();
        PollHeartbeat heartbeat = new PollHeartbeat(clock);
        heartbeat.beat("shop/gone", Duration.ofSeconds(30));
        clock.advance(Duration.ofHours(1));

        assertThat(heartbeat.stalled(List.of("shop/other"))).isEmpty();
        assertThat(heartbeat.stalled(List.of("shop/gone"))).as("forgotten once it was not live").isEmpty();
    }

    /**
     * The framework's own per-profile poller on real threads: a poll that throws ends its chain, and the
     * heartbeat says so however long one waits; polls that keep going beat again after each interval.
     */
    @Test
    void aPollerWhoseTaskThrowsIsSeenDeadAndStaysDead() throws Exception {
        ManualClock clock = new ManualClock();
        AtomicInteger polls = new AtomicInteger();
        MetricsFetcher fetcher = fetcher(clock, profile -> {
            if (profile.getMetadata().getName().equals("breaks") && polls.incrementAndGet() > 1) {
                throw new StackOverflowError("a poll that throws past the fetcher");
            }
            return Optional.empty();
        });
        TuningProfile healthy = profile("healthy");
        TuningProfile breaks = profile("breaks");
        List<String> live = List.of("shop/healthy", "shop/breaks");
        var source = new PerResourcePollingEventSource<>(MetricsReport.class, new EventSourceContext<>(new Profiles(healthy, breaks), null, null,
                TuningProfile.class), new PerResourcePollingConfigurationBuilder<MetricsReport, TuningProfile, String>(fetcher, Duration.ofSeconds(30))
                .withResourceIDMapper(r -> "report").withExecutorService(Executors.newScheduledThreadPool(2)).build());
        source.setEventHandler(event -> { });
        source.start();
        try {
            source.onResourceCreated(healthy);
            source.onResourceCreated(breaks);
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> polls.get() > 1);
            assertThat(fetcher.stalled(live)).isEmpty();

            clock.advance(Duration.ofMinutes(4));
            // the healthy chain beats again within its 100ms interval; the broken one never does
            for (int check = 0; check < 5; check++) {
                Thread.sleep(300);
                assertThat(fetcher.stalled(live)).as("check %d", check).hasValueSatisfying(reason -> assertThat(reason)
                        .startsWith("metrics polls of 1 of 2 profiles stopped").contains("shop/breaks").doesNotContain("shop/healthy"));
            }
        } finally {
            source.stop();
            fetcher.close();
        }
    }

    private static MetricsFetcher fetcher(ManualClock clock, Function<TuningProfile, Optional<Deployment>> targetOf) {
        return new MetricsFetcher(targetOf, d -> List.of(), p -> null, TestSettings.of(Duration.ofMinutes(5), Optional.empty()).metrics(),
                Leadership.alone("heartbeat-test"), clock);
    }

    private static TuningProfile profile(String name) {
        TuningProfile profile = new TuningProfile();
        profile.setMetadata(new ObjectMetaBuilder().withNamespace("shop").withName(name).build());
        TuningProfileSpec spec = new TuningProfileSpec();
        TargetRef target = new TargetRef();
        target.setName(name);
        spec.setTargetRef(target);
        Metrics metrics = new Metrics();
        // below the 5s the CRD admits: the poller's timing is what is under test, not admission
        metrics.setInterval("100ms");
        spec.setMetrics(metrics);
        profile.setSpec(spec);
        return profile;
    }

    /** The controller's cache of profiles, as the poller reads it: fixed. */
    private record Profiles(List<TuningProfile> items) implements IndexerResourceCache<TuningProfile> {
        Profiles(TuningProfile... items) {
            this(List.of(items));
        }

        @Override
        public Optional<TuningProfile> get(ResourceID id) {
            return items.stream().filter(p -> ResourceID.fromResource(p).equals(id)).findFirst();
        }

        @Override
        public Stream<ResourceID> keys() {
            return items.stream().map(ResourceID::fromResource);
        }

        @Override
        public Stream<TuningProfile> list(Predicate<TuningProfile> predicate) {
            return items.stream().filter(predicate);
        }

        @Override
        public Stream<TuningProfile> list(String namespace, Predicate<TuningProfile> predicate) {
            return list(p -> namespace.equals(p.getMetadata().getNamespace()) && predicate.test(p));
        }

        @Override
        public List<TuningProfile> byIndex(String indexName, String indexKey) {
            return List.of();
        }

        @Override
        public void addIndexers(Map<String, Function<TuningProfile, List<String>>> indexers) {
        }
    }
}
