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

/**
 * A response body read into a string, cancelled as soon as it exceeds a byte limit, or when the
 * scrape's deadline passes (then its bytes are dropped at once, not when the body ends).
 */
final class LimitedBody implements HttpResponse.BodySubscriber<String> {
    private final int maxBytes;
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final CompletableFuture<String> result = new CompletableFuture<>();
    private Flow.Subscription subscription;

    LimitedBody(int maxBytes) {
        this.maxBytes = maxBytes;
    }

    /** Hands out one body per response and can abort the one in progress. */
    static final class Handler implements HttpResponse.BodyHandler<String> {
        private final int maxBytes;
        private volatile LimitedBody body;

        private Handler(int maxBytes) {
            this.maxBytes = maxBytes;
        }

        @Override
        public HttpResponse.BodySubscriber<String> apply(HttpResponse.ResponseInfo info) {
            body = new LimitedBody(maxBytes);
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

    static Handler handler(int maxBytes) {
        return new Handler(maxBytes);
    }

    private synchronized void abort() {
        if (subscription != null) {
            subscription.cancel();
        }
        bytes.reset();
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
            if (bytes.size() + buffer.remaining() > maxBytes) {
                subscription.cancel();
                result.completeExceptionally(new IOException("body larger than " + maxBytes + " bytes"));
                return;
            }
            byte[] chunk = new byte[buffer.remaining()];
            buffer.get(chunk);
            bytes.writeBytes(chunk);
        }
    }

    @Override
    public void onError(Throwable throwable) {
        result.completeExceptionally(throwable);
    }

    @Override
    public void onComplete() {
        result.complete(bytes.toString(StandardCharsets.UTF_8));
    }
}
