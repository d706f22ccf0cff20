package dev.jvmtuning.lab.harness;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.timeout.ReadTimeoutHandler;
import java.net.URI;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Closed-loop HTTP load on loopback: a fixed number of clients, each sending its next request when
 * the last one is answered, over keep-alive connections that live as long as the load (Netty, two
 * event-loop threads, so the client costs little of the machine's CPU). Runs are windows of one
 * continuous load. The clients connect one a millisecond: all at once they would overflow Tomcat's
 * default accept backlog of 100 and cost clients 1-3 s SYN retransmits, an artefact of the harness
 * rather than the server's behaviour.
 */
public final class ClosedLoopLoad implements AutoCloseable {
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);
    private static final int MAX_RESPONSE_BYTES = 1 << 20;
    /** How long a client waits before connecting again after its connection was refused or closed unanswered. */
    private static final long RECONNECT_PAUSE_MILLIS = 100;

    /** One window's figures; throughput counts 2xx answers only. */
    public record Result(double requestsPerSecond, double meanMillis, double p99Millis, long errors) {
    }

    /** Latencies of the requests answered in one window. */
    private static final class Window {
        private final long startNanos = System.nanoTime();
        private long[] latencies = new long[1 << 14];
        private int count;
        private long errors;

        synchronized void answered(long nanos) {
            if (count == latencies.length) {
                latencies = Arrays.copyOf(latencies, count * 2);
            }
            latencies[count++] = nanos;
        }

        synchronized void failed() {
            errors++;
        }

        synchronized Result close() {
            double seconds = (System.nanoTime() - startNanos) / 1e9;
            long[] sorted = Arrays.copyOf(latencies, count);
            Arrays.sort(sorted);
            double mean = count == 0 ? 0 : Arrays.stream(sorted).average().orElse(0) / 1e6;
            double p99 = count == 0 ? 0 : sorted[(int) Math.ceil(0.99 * count) - 1] / 1e6;
            return new Result(count / seconds, mean, p99, errors);
        }
    }

    private final EventLoopGroup loops = new NioEventLoopGroup(2);
    private final Bootstrap bootstrap;
    private final FullHttpRequest request;
    private final AtomicInteger open = new AtomicInteger();
    private volatile boolean running = true;
    private volatile Window window = new Window();

    /** Starts {@code clients} clients against {@code url}, which must be on loopback. */
    public ClosedLoopLoad(String url, int clients) {
        URI uri = URI.create(url);
        if (!uri.getHost().startsWith("127.")) {
            throw new IllegalArgumentException("the lab sends load to loopback only, not " + uri.getHost());
        }
        request = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, uri.getRawPath() + "?" + uri.getRawQuery());
        request.headers().set(HttpHeaderNames.HOST, uri.getHost() + ":" + uri.getPort());
        bootstrap = new Bootstrap().group(loops).channel(NioSocketChannel.class).remoteAddress(uri.getHost(), uri.getPort())
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) TIMEOUT.toMillis())
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel channel) {
                        channel.pipeline().addLast(new ReadTimeoutHandler(TIMEOUT.toSeconds(), TimeUnit.SECONDS), new HttpClientCodec(),
                                new HttpObjectAggregator(MAX_RESPONSE_BYTES), new Client());
                    }
                });
        for (int i = 0; i < clients; i++) {
            loops.schedule(this::connect, i, TimeUnit.MILLISECONDS);
        }
    }

    /** A client: one connection at a time, one request at a time; a closed connection is replaced. */
    private void connect() {
        if (!running) {
            return;
        }
        open.incrementAndGet();
        bootstrap.connect().addListener((ChannelFutureListener) connected -> {
            if (!connected.isSuccess()) {
                window.failed();
                open.decrementAndGet();
                loops.schedule(this::connect, RECONNECT_PAUSE_MILLIS, TimeUnit.MILLISECONDS);
            }
        });
    }

    private final class Client extends SimpleChannelInboundHandler<FullHttpResponse> {
        private long sentAt;
        private boolean awaitingAnswer;
        private boolean lostAnswer;

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            send(ctx);
        }

        private void send(ChannelHandlerContext ctx) {
            sentAt = System.nanoTime();
            awaitingAnswer = true;
            ctx.writeAndFlush(request.retainedDuplicate());
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpResponse response) {
            awaitingAnswer = false;
            Window current = window;
            if (response.status().code() / 100 == 2) {
                current.answered(System.nanoTime() - sentAt);
            } else {
                current.failed();
            }
            if (running && HttpUtil.isKeepAlive(response)) {
                send(ctx);
            } else {
                ctx.close();
            }
        }

        /**
         * A connection the server closed before answering (a connection limit sheds that way) failed its request; the client
         * comes back after the same pause as after a refused connect, not in a loop of connects the server must close.
         */
        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            open.decrementAndGet();
            if (awaitingAnswer) {
                lost();
            }
            if (lostAnswer) {
                loops.schedule(ClosedLoopLoad.this::connect, RECONNECT_PAUSE_MILLIS, TimeUnit.MILLISECONDS);
            } else {
                connect();
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            if (awaitingAnswer) {
                lost();
            }
            ctx.close();
        }

        private void lost() {
            awaitingAnswer = false;
            lostAnswer = true;
            window.failed();
        }
    }

    /** Lets the load run for {@code seconds}, then returns the figures of that window. */
    public Result measure(int seconds) throws InterruptedException {
        window = new Window();
        Thread.sleep(seconds * 1000L);
        Window finished = window;
        window = new Window();
        return finished.close();
    }

    /** Stops sending and waits for the answers still due, so the next load starts on an idle server. */
    @Override
    public void close() throws InterruptedException {
        running = false;
        long deadline = System.nanoTime() + STOP_TIMEOUT.toNanos();
        while (open.get() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        loops.shutdownGracefully(0, 1, TimeUnit.SECONDS).await();
    }
}
