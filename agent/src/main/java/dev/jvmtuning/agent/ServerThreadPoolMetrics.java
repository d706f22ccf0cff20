package dev.jvmtuning.agent;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.CounterSnapshot.CounterDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricMetadata;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.Unit;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.LongSupplier;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * Busy and maximum request threads of the embedded web server, from the MBeans that Tomcat, Jetty and
 * Undertow (XNIO) register. Servers that register none (Spring Boot's Tomcat without
 * server.tomcat.mbeanregistry.enabled=true) produce no series. XNIO's worker pool on jboss-threads counts its busy
 * threads only with -Djboss.threads.eqe.statistics.active-count=true and reports -1 otherwise: such a pool states its
 * maximum only. Quarkus's worker pool registers none: its busy threads are counted from the JVM's threads
 * ({@link ExecutorThreads}). A pool that serves the management port (Spring Boot's {@code management.server.port}, a server of its own
 * with its own pool) is labelled {@code role="management"}: its threads answer probes and scrapes, not the workload.
 * One collector, so that a collection reads the MBeans and the JVM's threads once for every figure. The busy threads
 * are also summed over time, each collection's count times the time since the one before ({@code
 * jvmtuning_server_threads_busy_seconds_total}): its rate over a window is the window's mean, where a single reading
 * of the gauge may fall on a moment the pool drained (an overloaded Quarkus pool read 200 busy of 200 most
 * seconds and 82 or 99 at others).
 */
final class ServerThreadPoolMetrics implements MultiCollector {

    /**
     * @param busyThreads null when the server does not count them
     * @param maxThreads  null when the server does not state it
     * @param role        "management" for the management port's pool, else "application"
     */
    record ThreadPool(String server, String pool, String role, Double busyThreads, Double maxThreads) {
        PoolLabels key() {
            return new PoolLabels(server, pool, role);
        }
    }

    /** What names a pool in each of its series. */
    private record PoolLabels(String server, String pool, String role) {
        Labels labels() {
            return Labels.of("server", server, "pool", pool, "role", role);
        }
    }

    /** One kind of thread pool MBean: which server it belongs to and where its numbers are. */
    private record PoolMBeans(String server, String query, String poolKey, String busyAttribute, String maxAttribute) {}

    private static final List<PoolMBeans> KNOWN_POOLS = List.of(
            new PoolMBeans("tomcat", "Tomcat:type=ThreadPool,name=*", "name", "currentThreadsBusy", "maxThreads"),
            new PoolMBeans("tomcat", "Catalina:type=ThreadPool,name=*", "name", "currentThreadsBusy", "maxThreads"),
            new PoolMBeans("jetty", "org.eclipse.jetty.util.thread:type=queuedthreadpool,*", "id", "busyThreads", "maxThreads"),
            new PoolMBeans("undertow", "org.xnio:type=Xnio,provider=*,worker=*", "worker", "BusyWorkerThreadCount", "MaxWorkerPoolSize"));

    private static final MetricMetadata BUSY = new MetricMetadata("jvmtuning_server_threads_busy",
            "Request threads of the web server's pool that are handling a request");
    private static final MetricMetadata BUSY_SECONDS = new MetricMetadata("jvmtuning_server_threads_busy_seconds",
            "Busy request threads of the web server's pool summed over time, each collection's count times the time since "
                    + "the previous one, stamped with the collection's time: its rate is the mean busy threads", Unit.SECONDS);
    private static final MetricMetadata MAX = new MetricMetadata("jvmtuning_server_threads_max",
            "Maximum size of the web server's request thread pool");

    /** XNIO's MBean of each listening channel: its worker (pool) and the address it is bound to. */
    private static final String XNIO_SERVERS = "org.xnio:type=Xnio,provider=*,worker=*,address=*";

    private final MBeanServer mbeanServer;
    private final ThreadMXBean threads;
    private final ExecutorThreads quarkusWorkers;
    private final String managementPort;
    private final LongSupplier nanoClock;
    /** The wall clock when nanoClock read originNanos: the busy time's timestamps follow nanoClock from there. */
    private final long originMillis;
    private final long originNanos;
    /** Per pool: its busy threads summed over the collections so far. */
    private final Map<PoolLabels, Double> busySeconds = new LinkedHashMap<>();
    private long collectedAtNanos;
    private boolean collected;

    /**
     * @param quarkusWorkers how Quarkus's worker pool, which registers no MBean, is told among the JVM's threads
     * @param managementPort the port of the management server, or null when it shares the application's
     */
    ServerThreadPoolMetrics(MBeanServer mbeanServer, ThreadMXBean threads, ExecutorThreads quarkusWorkers, Integer managementPort,
            LongSupplier nanoClock) {
        this.mbeanServer = mbeanServer;
        this.threads = threads;
        this.quarkusWorkers = quarkusWorkers;
        this.managementPort = managementPort == null ? null : managementPort.toString();
        this.nanoClock = nanoClock;
        this.originMillis = System.currentTimeMillis();
        this.originNanos = nanoClock.getAsLong();
    }

    /** Spring Boot's management port as this JVM is given it: the system property, else the environment variable. */
    static Integer managementPort(String property, String environment) {
        String value = property != null ? property : environment;
        try {
            int port = value == null ? 0 : Integer.parseInt(value.strip());
            return port > 0 ? port : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    void register(PrometheusRegistry registry) {
        registry.register(this);
    }

    /** Whatever fails, the scrape goes on without these series, as with the other collectors (FailSafe). */
    @Override
    public synchronized MetricSnapshots collect() {
        List<ThreadPool> pools;
        try {
            pools = threadPools();
        } catch (RuntimeException | LinkageError e) {
            pools = List.of();
        }
        long now = nanoClock.getAsLong();
        double sinceLast = collected ? Unit.nanosToSeconds(now - collectedAtNanos) : 0;
        collectedAtNanos = now;
        collected = true;
        for (ThreadPool pool : pools) {
            if (pool.busyThreads() != null) {
                busySeconds.merge(pool.key(), pool.busyThreads() * sinceLast, Double::sum);
            }
        }
        List<MetricSnapshot> metrics = new ArrayList<>();
        gauge(BUSY, pools, ThreadPool::busyThreads, metrics);
        gauge(MAX, pools, ThreadPool::maxThreads, metrics);
        if (!busySeconds.isEmpty()) {
            // A scrape serves the latest collection, up to seconds old on a busy CPU: a window's mean is its increase over
            // the time between the collections, which their timestamps give, not between the scrapes.
            long collectedAtMillis = originMillis + TimeUnit.NANOSECONDS.toMillis(now - originNanos);
            metrics.add(new CounterSnapshot(BUSY_SECONDS, busySeconds.entrySet().stream()
                    .map(pool -> new CounterDataPointSnapshot(pool.getValue(), pool.getKey().labels(), null, 0L, collectedAtMillis))
                    .toList()));
        }
        return new MetricSnapshots(metrics);
    }

    /** The pools that state the figure, as one gauge; none when no pool does. */
    private static void gauge(MetricMetadata metadata, List<ThreadPool> pools, Function<ThreadPool, Double> figure, List<MetricSnapshot> out) {
        List<GaugeDataPointSnapshot> points = pools.stream().filter(pool -> figure.apply(pool) != null)
                .map(pool -> new GaugeDataPointSnapshot(figure.apply(pool), pool.key().labels(), null))
                .toList();
        if (!points.isEmpty()) {
            out.add(new GaugeSnapshot(metadata, points));
        }
    }

    /** Pools whose MBean cannot be read (being unregistered, odd attribute types) are left out. */
    List<ThreadPool> threadPools() {
        // Keyed by server and pool: Tomcat may register the same pool in both of its domains.
        Map<List<String>, ThreadPool> pools = new LinkedHashMap<>();
        Map<String, String> xnioPorts = xnioWorkerPorts();
        for (PoolMBeans kind : KNOWN_POOLS) {
            for (ObjectName name : queryNames(kind.query())) {
                try {
                    String pool = poolName(name, kind.poolKey());
                    double busy = ((Number) mbeanServer.getAttribute(name, kind.busyAttribute())).doubleValue();
                    double max = ((Number) mbeanServer.getAttribute(name, kind.maxAttribute())).doubleValue();
                    String port = kind.server().equals("undertow") ? xnioPorts.get(pool) : trailingPort(pool);
                    String role = port != null && port.equals(managementPort) ? "management" : "application";
                    pools.putIfAbsent(List.of(kind.server(), pool), new ThreadPool(kind.server(), pool, role, busy < 0 ? null : busy, max));
                } catch (Exception e) {
                    // Skip this pool only.
                }
            }
        }
        Double quarkusBusy = quarkusWorkers.busy(threads);
        if (quarkusBusy != null) {
            // Its maximum is Vert.x's worker-pool figure (active + idle), which the operator reads from the app.
            pools.put(List.of("quarkus", quarkusWorkers.namePrefix()), new ThreadPool("quarkus", "executor", "application", quarkusBusy, null));
        }
        return new ArrayList<>(pools.values());
    }

    private List<ObjectName> queryNames(String pattern) {
        try {
            return new ArrayList<>(mbeanServer.queryNames(new ObjectName(pattern), null));
        } catch (Exception e) {
            return List.of();
        }
    }

    /** Tomcat names a connector's pool after its protocol, address and port: "http-nio-8080", "http-nio-127.0.0.1-8081". */
    private static String trailingPort(String pool) {
        String last = pool.substring(pool.lastIndexOf('-') + 1);
        return !last.isEmpty() && last.chars().allMatch(Character::isDigit) ? last : null;
    }

    /** The port each XNIO worker listens on ("/127.0.0.1:8081"); a worker behind several ports is the application's. */
    private Map<String, String> xnioWorkerPorts() {
        Map<String, String> ports = new LinkedHashMap<>();
        for (ObjectName server : queryNames(XNIO_SERVERS)) {
            String address = poolName(server, "address");
            String port = address.substring(address.lastIndexOf(':') + 1);
            ports.merge(poolName(server, "worker"), port, (one, other) -> one.equals(other) ? one : "");
        }
        return ports;
    }

    /** MBean names quote some values ("http-nio-8080" in quotes); labels should not carry the quotes. */
    private static String poolName(ObjectName name, String poolKey) {
        String value = name.getKeyProperty(poolKey);
        if (value == null) {
            return name.getKeyPropertyListString();
        }
        return value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"") ? ObjectName.unquote(value) : value;
    }
}
