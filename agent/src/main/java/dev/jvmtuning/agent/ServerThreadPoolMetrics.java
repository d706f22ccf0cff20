package dev.jvmtuning.agent;

import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * Busy and maximum request threads of the embedded web server, from the MBeans that Tomcat, Jetty and
 * Undertow (XNIO) register. Servers that register none (Spring Boot's Tomcat without
 * server.tomcat.mbeanregistry.enabled=true) produce no series. XNIO's worker pool on jboss-threads counts its busy
 * threads only with -Djboss.threads.eqe.statistics.active-count=true and reports -1 otherwise: such a pool states its
 * maximum only.
 */
final class ServerThreadPoolMetrics {

    /** @param busyThreads null when the server does not count them */
    record ThreadPool(String server, String pool, Double busyThreads, double maxThreads) {}

    /** One kind of thread pool MBean: which server it belongs to and where its numbers are. */
    private record PoolMBeans(String server, String query, String poolKey, String busyAttribute, String maxAttribute) {}

    private static final List<PoolMBeans> KNOWN_POOLS = List.of(
            new PoolMBeans("tomcat", "Tomcat:type=ThreadPool,name=*", "name", "currentThreadsBusy", "maxThreads"),
            new PoolMBeans("tomcat", "Catalina:type=ThreadPool,name=*", "name", "currentThreadsBusy", "maxThreads"),
            new PoolMBeans("jetty", "org.eclipse.jetty.util.thread:type=queuedthreadpool,*", "id", "busyThreads", "maxThreads"),
            new PoolMBeans("undertow", "org.xnio:type=Xnio,provider=*,worker=*", "worker", "BusyWorkerThreadCount", "MaxWorkerPoolSize"));

    private final MBeanServer mbeanServer;

    ServerThreadPoolMetrics(MBeanServer mbeanServer) {
        this.mbeanServer = mbeanServer;
    }

    void register(PrometheusRegistry registry) {
        GaugeWithCallback.builder()
                .name("jvmtuning_server_threads_busy")
                .help("Request threads of the web server's pool that are handling a request")
                .labelNames("server", "pool")
                .callback(FailSafe.callback(callback -> threadPools().stream().filter(pool -> pool.busyThreads() != null)
                        .forEach(pool -> callback.call(pool.busyThreads(), pool.server(), pool.pool()))))
                .register(registry);
        GaugeWithCallback.builder()
                .name("jvmtuning_server_threads_max")
                .help("Maximum size of the web server's request thread pool")
                .labelNames("server", "pool")
                .callback(FailSafe.callback(callback -> threadPools()
                        .forEach(pool -> callback.call(pool.maxThreads(), pool.server(), pool.pool()))))
                .register(registry);
    }

    /** Pools whose MBean cannot be read (being unregistered, odd attribute types) are left out. */
    List<ThreadPool> threadPools() {
        // Keyed by server and pool: Tomcat may register the same pool in both of its domains.
        Map<List<String>, ThreadPool> pools = new LinkedHashMap<>();
        for (PoolMBeans kind : KNOWN_POOLS) {
            for (ObjectName name : queryNames(kind.query())) {
                try {
                    String pool = poolName(name, kind.poolKey());
                    double busy = ((Number) mbeanServer.getAttribute(name, kind.busyAttribute())).doubleValue();
                    double max = ((Number) mbeanServer.getAttribute(name, kind.maxAttribute())).doubleValue();
                    pools.putIfAbsent(List.of(kind.server(), pool), new ThreadPool(kind.server(), pool, busy < 0 ? null : busy, max));
                } catch (Exception e) {
                    // Skip this pool only.
                }
            }
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

    /** MBean names quote some values ("http-nio-8080" in quotes); labels should not carry the quotes. */
    private static String poolName(ObjectName name, String poolKey) {
        String value = name.getKeyProperty(poolKey);
        if (value == null) {
            return name.getKeyPropertyListString();
        }
        return value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"") ? ObjectName.unquote(value) : value;
    }
}
