package dev.jvmtuning.operator.metrics;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * When each profile's poll last finished and scheduled the next one. The framework chains a profile's polls,
 * each scheduling the next once it is done: a poll that throws past the fetcher ends its chain for good, and
 * nothing else notices. A chain that has not beaten for much longer than its interval is taken for dead.
 */
public final class PollHeartbeat {
    /** Never stale sooner than this, whatever the interval: a few slow scrapes must not restart the operator. */
    static final Duration FLOOR = Duration.ofMinutes(3);
    /** Intervals a chain may miss before it counts as dead. */
    static final int MISSED_INTERVALS = 3;
    private static final int NAMED = 3;

    private final Clock clock;
    private final Map<String, Beat> beats = new ConcurrentHashMap<>();

    /** The last time a profile's poll scheduled its successor, and the interval it scheduled it at. */
    public record Beat(Instant at, Duration interval) {
        Instant staleAt() {
            Duration missed = interval.multipliedBy(MISSED_INTERVALS);
            return at.plus(missed.compareTo(FLOOR) > 0 ? missed : FLOOR);
        }
    }

    public PollHeartbeat(Clock clock) {
        this.clock = clock;
    }

    /** A profile's poll is scheduled {@code interval} from now. */
    void beat(String profile, Duration interval) {
        beats.put(profile, new Beat(clock.instant(), interval));
    }

    void forget(String profile) {
        beats.remove(profile);
    }

    /**
     * Why polling has died, if it has: the profiles among {@code live} whose chain is stale. Profiles no
     * longer there (deleted, their chain cancelled) are forgotten.
     */
    public Optional<String> stalled(Collection<String> live) {
        beats.keySet().retainAll(live);
        return stalled(beats, clock.instant());
    }

    /** The decision alone: which beats are stale at {@code now}, said in a sentence. */
    static Optional<String> stalled(Map<String, Beat> beats, Instant now) {
        Map<String, Beat> stale = beats.entrySet().stream().filter(e -> now.isAfter(e.getValue().staleAt()))
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
        if (stale.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of("metrics polls of " + stale.size() + " of " + beats.size() + " profiles stopped: "
                + stale.entrySet().stream().sorted(Map.Entry.comparingByKey()).limit(NAMED)
                        .map(e -> e.getKey() + " last polled " + e.getValue().at() + ", every " + e.getValue().interval().toSeconds() + "s")
                        .collect(Collectors.joining("; ")));
    }
}
