package dev.jvmtuning.operator.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Flow;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/** An exposition body kept line by line as it arrives: only what the parser would read, up to the caps. */
class LimitedBodyTest {
    private static final Predicate<String> READ = Set.of("jvm_gc_pause_seconds_sum", "process_cpu_seconds_total")::contains;
    private static final String BODY = """
            # HELP jvm_gc_pause_seconds_sum pauses
            # TYPE jvm_gc_pause_seconds_sum counter
            jvm_gc_pause_seconds_sum{cause="G1 Evacuation Pause"} 2.5
            http_server_requests_seconds_bucket{le="0.1"} 17
              \t
            <html>not metrics</html>
            process_cpu_seconds_total 3
            # EOF
            """;

    @Test
    void keepsTheLinesTheParserReadsAndParsesToTheSameSamples() {
        String kept = read(LimitedBody.lines(1024, READ, 100), BODY, 7);

        assertThat(kept).isEqualTo("""
                jvm_gc_pause_seconds_sum{cause="G1 Evacuation Pause"} 2.5
                <html>not metrics</html>
                process_cpu_seconds_total 3
                # EOF
                """);
        Scrape whole = PrometheusTextParser.parse(BODY, READ, 100);
        Scrape filtered = PrometheusTextParser.parse(kept, READ, 100);
        assertThat(filtered.samples()).isEqualTo(whole.samples()).hasSize(2);
        assertThat(filtered.skippedLines()).isEqualTo(whole.skippedLines()).isEqualTo(1);
    }

    @Test
    void stopsReadingOnceItHoldsTheLinesAskedFor() {
        String many = "process_cpu_seconds_total 1\n".repeat(1000);
        Subscription subscription = new Subscription();

        String kept = read(LimitedBody.lines(1 << 20, READ, 3), many, 64, subscription);

        assertThat(kept.lines()).hasSize(3);
        assertThat(subscription.cancelled).isTrue();
    }

    private static String read(LimitedBody.Handler handler, String body, int chunk) {
        return read(handler, body, chunk, new Subscription());
    }

    /** Feeds the body in chunks of {@code chunk} bytes, as a connection would, until done or cancelled. */
    private static String read(LimitedBody.Handler handler, String body, int chunk, Subscription subscription) {
        var subscriber = handler.apply(null);
        subscriber.onSubscribe(subscription);
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < bytes.length && !subscription.cancelled; i += chunk) {
            subscriber.onNext(List.of(ByteBuffer.wrap(bytes, i, Math.min(chunk, bytes.length - i))));
        }
        if (!subscription.cancelled) {
            subscriber.onComplete();
        }
        return subscriber.getBody().toCompletableFuture().join();
    }

    private static final class Subscription implements Flow.Subscription {
        boolean cancelled;

        @Override
        public void request(long n) {
        }

        @Override
        public void cancel() {
            cancelled = true;
        }
    }
}
