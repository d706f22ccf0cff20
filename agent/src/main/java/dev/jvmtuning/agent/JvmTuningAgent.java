package dev.jvmtuning.agent;

import com.sun.net.httpserver.HttpServer;
import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.lang.instrument.Instrumentation;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Java agent that serves, on its own port, the JVM metrics plus the per-container scheduler, cgroup and
 * web server thread pool metrics the JVM tuning operator needs. Whatever goes wrong, the application
 * runs on: the agent prints one line to stderr and serves nothing.
 */
public final class JvmTuningAgent {

    private static final String NAME = "jvm-tuning-agent";
    /** Set once the agent serves, so that the application (or a test workload) can tell. */
    private static final String PORT_PROPERTY = "jvmtuning.agent.port";

    private JvmTuningAgent() {}

    public static void premain(String arguments, Instrumentation instrumentation) {
        start(arguments);
    }

    /** For attaching to a running JVM. */
    public static void agentmain(String arguments, Instrumentation instrumentation) {
        start(arguments);
    }

    private static void start(String rawArguments) {
        AgentArguments arguments;
        try {
            arguments = AgentArguments.parse(rawArguments);
        } catch (RuntimeException e) {
            System.err.println(NAME + ": not started, bad arguments '" + rawArguments + "': " + e.getMessage());
            return;
        }
        // Off the main thread so that a slow start never delays the application, and as a daemon so that
        // the HTTP server's dispatcher thread, which inherits that, never keeps the JVM from exiting.
        Thread starter = new Thread(() -> serve(arguments), NAME + "-start");
        starter.setDaemon(true);
        starter.start();
    }

    private static void serve(AgentArguments arguments) {
        try {
            BackgroundCollector collector = new BackgroundCollector(registry(new HostFiles(Path.of("/"))), System::nanoTime);
            // The first collection before the port opens, so that no scrape finds nothing to serve.
            collector.collect();
            collector.start();

            HttpServer server = HttpServer.create(new InetSocketAddress(arguments.host(), arguments.port()), 3);
            server.createContext("/", new TextFormatMetricsHandler(collector, System::nanoTime));
            server.setExecutor(scrapeExecutor());
            server.start();
            int port = server.getAddress().getPort();
            System.setProperty(PORT_PROPERTY, String.valueOf(port));
            System.err.println(NAME + " listening on " + arguments.host() + ":" + port);
        } catch (Throwable e) {
            String reason = String.valueOf(e).replace('\n', ' ');
            System.err.println(NAME + ": not started on " + arguments.host() + ":" + arguments.port() + ": " + reason);
        }
    }

    /** Every collector the agent serves. */
    static PrometheusRegistry registry(HostFiles hostFiles) {
        PrometheusRegistry registry = new PrometheusRegistry();
        JvmMetrics.builder().register(registry);
        new ThreadSchedulingMetrics(hostFiles).register(registry);
        new CgroupCpuMetrics(hostFiles).register(registry);
        new ServerThreadPoolMetrics(ManagementFactory.getPlatformMBeanServer()).register(registry);
        return registry;
    }

    /** Two threads: scrapers may overlap, and one that reads its response slowly must not hold up the other. */
    private static ExecutorService scrapeExecutor() {
        return Executors.newFixedThreadPool(2, runnable -> {
            Thread thread = new Thread(runnable, NAME + "-http");
            thread.setDaemon(true);
            return thread;
        });
    }
}
