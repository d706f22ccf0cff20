package dev.jvmtuning.agent;

import com.sun.net.httpserver.HttpServer;
import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.lang.instrument.Instrumentation;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * Java agent that serves, on its own port, the JVM metrics plus the per-container scheduler, cgroup and
 * web server thread pool metrics the JVM tuning operator needs, the HotSpot options the JVM runs with, and its
 * native memory by category when it tracks it, and on JDKs with virtual threads, where they pin their carriers.
 * Whatever goes wrong, the application runs on: the agent prints one line to stderr and serves nothing.
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
            // Bound first, so that a port in use is reported at once.
            HttpServer server = HttpServer.create(new InetSocketAddress(arguments.host(), arguments.port()), 3);
            BackgroundCollector collector = collector(new HostFiles(Path.of("/")), arguments.pinnedThreshold());
            // The first collection before the server accepts, so that no scrape finds nothing to serve.
            collector.collect();
            collector.start();
            server.createContext("/", new TextFormatMetricsHandler(collector, System::nanoTime));
            // No executor: the dispatcher thread answers itself. A scrape only copies bytes now, and on a
            // saturated CPU every hand-over to another thread waits hundreds of milliseconds for a CPU.
            server.start();
            int port = server.getAddress().getPort();
            System.setProperty(PORT_PROPERTY, String.valueOf(port));
            System.err.println(NAME + " listening on " + arguments.host() + ":" + port);
        } catch (Throwable e) {
            String reason = String.valueOf(e).replace('\n', ' ');
            System.err.println(NAME + ": not started on " + arguments.host() + ":" + arguments.port() + ": " + reason);
        }
    }

    /**
     * Collects every metric the agent serves. No Prometheus type in the signature: ScrapeBenchmark calls
     * it on the shaded jar, where those types are relocated.
     *
     * @param pinnedThreshold the shortest virtual-thread pinning to count; empty to record none
     */
    static BackgroundCollector collector(HostFiles hostFiles, Optional<Duration> pinnedThreshold) {
        PrometheusRegistry registry = new PrometheusRegistry();
        JvmMetrics.builder().register(registry);
        new ThreadSchedulingMetrics(hostFiles).register(registry);
        new CgroupCpuMetrics(hostFiles).register(registry);
        new ServerThreadPoolMetrics(ManagementFactory.getPlatformMBeanServer(), ManagementFactory.getThreadMXBean(), ExecutorThreads.QUARKUS,
                ServerThreadPoolMetrics.managementPort(System.getProperty("management.server.port"), System.getenv("MANAGEMENT_SERVER_PORT")),
                System::nanoTime)
                .register(registry);
        new VmOptionMetrics().register(registry);
        NativeMemoryMetrics.registerIfTracked(registry);
        VirtualThreadSchedulerMetrics.registerIfPresent(registry, ManagementFactory.getPlatformMBeanServer());
        VirtualThreadUse.registerIfPossible(registry);
        pinnedThreshold.ifPresent(threshold -> {
            try {
                VirtualThreadPinningMetrics.registerIfRecordable(registry, threshold);
            } catch (RuntimeException | LinkageError e) {
                // No flight recorder (a runtime image without jdk.jfr, recording refused): the agent serves the rest.
            }
        });
        return new BackgroundCollector(registry, System::nanoTime);
    }
}
