package dev.jvmtuning.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.jvmtuning.lab.harness.ClosedLoopLoad;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The load generator's clients against servers on loopback that answer, and that shed connections. */
class ClosedLoopLoadTest {

    @Test
    void answeredRequestsAreCountedAndNoneFails() throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
        server.createContext("/", exchange -> {
            exchange.sendResponseHeaders(200, 2);
            exchange.getResponseBody().write("ok".getBytes());
            exchange.close();
        });
        server.start();
        try (ClosedLoopLoad load = new ClosedLoopLoad("http://127.0.0.1:" + server.getAddress().getPort() + "/work?x=1", 2)) {
            load.measure(1);
            ClosedLoopLoad.Result result = load.measure(1);
            assertTrue(result.requestsPerSecond() > 10, "answered: " + result);
            assertEquals(0, result.errors());
        } finally {
            server.stop(0);
        }
    }

    /** As Quarkus's connection limit sheds: the connection is accepted and closed at once, no answer. */
    @Test
    void aConnectionClosedUnansweredFailsItsRequestAndTheClientPausesBeforeComingBack() throws Exception {
        AtomicInteger accepted = new AtomicInteger();
        try (ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread acceptor = new Thread(() -> {
                while (!server.isClosed()) {
                    try (Socket shed = server.accept()) {
                        accepted.incrementAndGet();
                    } catch (IOException closed) {
                        return;
                    }
                }
            });
            acceptor.setDaemon(true);
            acceptor.start();
            ClosedLoopLoad.Result result;
            int before;
            try (ClosedLoopLoad load = new ClosedLoopLoad("http://127.0.0.1:" + server.getLocalPort() + "/work?x=1", 2)) {
                load.measure(1);
                before = accepted.get();
                result = load.measure(2);
            }
            int connects = accepted.get() - before;
            assertEquals(0, result.requestsPerSecond());
            assertTrue(result.errors() > 0, "every shed connection is a failed request: " + result);
            // 2 clients pausing 100 ms between connects: about 40 in 2 s; without the pause, thousands.
            assertTrue(connects <= 60, connects + " connects in 2 s");
            acceptor.interrupt();
        }
    }
}
