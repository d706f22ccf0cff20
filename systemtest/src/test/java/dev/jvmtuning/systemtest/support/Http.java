package dev.jvmtuning.systemtest.support;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;

/** Requests to pod addresses of the local cluster, each bounded in time (as curl -m). */
public final class Http {

    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private Http() {
    }

    /** The body of a GET, or empty when it failed or took longer than {@code seconds} (as curl -s -m). */
    public static String get(String url, int seconds) {
        try {
            return CLIENT.send(request(url, seconds), HttpResponse.BodyHandlers.ofString()).body();
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** The status of a GET, or 0 when it failed or took longer than {@code seconds} (as curl -s -m -w '%{http_code}'). */
    public static int status(String url, int seconds) {
        try {
            return CLIENT.send(request(url, seconds), HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException e) {
            return 0;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** {@code clients} GETs of one URL at once, each at most {@code seconds}; returns when all have answered or given up. */
    public static void together(String url, int clients, int seconds) {
        CompletableFuture.allOf(IntStream.range(0, clients)
                .mapToObj(i -> CLIENT.sendAsync(request(url, seconds), HttpResponse.BodyHandlers.discarding()).exceptionally(failed -> null))
                .toArray(CompletableFuture[]::new)).join();
    }

    private static HttpRequest request(String url, int seconds) {
        return HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(seconds)).build();
    }
}
