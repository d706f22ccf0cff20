package dev.jvmtuning.operator.metrics;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;
import java.util.function.Predicate;

/**
 * A response body read into a string, cancelled as soon as it exceeds a byte limit, or when the
 * scrape's deadline passes (then its bytes are dropped at once, not when the body ends). For an
 * exposition body it keeps, as the bytes arrive, only the lines the parser will read (a sample of a
 * series the caller uses, a malformed line, the OpenMetrics end), at most a number of them and
 * {@link #MAX_KEPT_CHARS} characters: what a body costs in memory is what the caller uses, however
 * much the pod sends.
 */
final class LimitedBody implements HttpResponse.BodySubscriber<String> {
    /** Text kept of one exposition body: far above the series a real pod exports that the window reads. */
    static final int MAX_KEPT_CHARS = 2 * 1024 * 1024;

    private final int maxBytes;
    private final Predicate<String> keepLine;
    private final int maxLines;
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final StringBuilder kept = new StringBuilder();
    private int keptLines;
    private long received;
    private final CompletableFuture<String> result = new CompletableFuture<>();
    private Flow.Subscription subscription;

    private LimitedBody(int maxBytes, Predicate<String> keepLine, int maxLines) {
        this.maxBytes = maxBytes;
        this.keepLine = keepLine;
        this.maxLines = maxLines;
    }

    /** Hands out one body per response and can abort the one in progress. */
    static final class Handler implements HttpResponse.BodyHandler<String> {
        private final int maxBytes;
        private final Predicate<String> keepLine;
        private final int maxLines;
        private volatile LimitedBody body;

        private Handler(int maxBytes, Predicate<String> keepLine, int maxLines) {
            this.maxBytes = maxBytes;
            this.keepLine = keepLine;
            this.maxLines = maxLines;
        }

        @Override
        public HttpResponse.BodySubscriber<String> apply(HttpResponse.ResponseInfo info) {
            body = new LimitedBody(maxBytes, keepLine, maxLines);
            return body;
        }

        /** Stops reading the body, if one is being read, and frees what it holds. */
        void abort() {
            LimitedBody current = body;
            if (current != null) {
                current.abort();
            }
        }
    }

    /** The whole body, up to {@code maxBytes}. */
    static Handler handler(int maxBytes) {
        return new Handler(maxBytes, null, Integer.MAX_VALUE);
    }

    /** Of a body of up to {@code maxBytes}, the lines {@code keepLine} accepts; reading stops after {@code maxLines} of them. */
    static Handler lines(int maxBytes, Predicate<String> keepLine, int maxLines) {
        return new Handler(maxBytes, keepLine, maxLines);
    }

    private synchronized void abort() {
        if (subscription != null) {
            subscription.cancel();
        }
        bytes.reset();
        kept.setLength(0);
        kept.trimToSize();
        result.completeExceptionally(new IOException("scrape cut off at its deadline"));
    }

    @Override
    public CompletionStage<String> getBody() {
        return result;
    }

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
        this.subscription = subscription;
        subscription.request(Long.MAX_VALUE);
    }

    @Override
    public synchronized void onNext(List<ByteBuffer> buffers) {
        if (result.isDone()) {
            return;
        }
        for (ByteBuffer buffer : buffers) {
            received += buffer.remaining();
            if (received > maxBytes) {
                subscription.cancel();
                result.completeExceptionally(new IOException("body larger than " + maxBytes + " bytes"));
                return;
            }
            if (keepLine == null) {
                byte[] chunk = new byte[buffer.remaining()];
                buffer.get(chunk);
                bytes.writeBytes(chunk);
                continue;
            }
            while (buffer.hasRemaining()) {
                byte b = buffer.get();
                if (b == '\n') {
                    endLine();
                    if (keptLines >= maxLines || kept.length() >= MAX_KEPT_CHARS) {
                        // enough for the parser to hit its own cap and say so; the rest is not read
                        subscription.cancel();
                        result.complete(kept.toString());
                        return;
                    }
                } else if (bytes.size() <= PrometheusTextParser.MAX_LINE_CHARS) {
                    // past the longest line the parser reads, the rest of it is dropped: it is skipped as too long anyway
                    bytes.write(b);
                }
            }
        }
    }

    private void endLine() {
        String line = bytes.toString(StandardCharsets.UTF_8);
        bytes.reset();
        if (PrometheusTextParser.worthReading(line, keepLine)) {
            kept.append(line).append('\n');
            keptLines++;
        }
    }

    @Override
    public void onError(Throwable throwable) {
        result.completeExceptionally(throwable);
    }

    @Override
    public synchronized void onComplete() {
        if (keepLine == null) {
            result.complete(bytes.toString(StandardCharsets.UTF_8));
            return;
        }
        if (bytes.size() > 0) {
            endLine();
        }
        result.complete(kept.toString());
    }
}
