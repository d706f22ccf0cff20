package dev.jvmtuning.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.lang.management.ManagementFactory;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.Attribute;
import javax.management.AttributeList;
import javax.management.AttributeNotFoundException;
import javax.management.DynamicMBean;
import javax.management.JMException;
import javax.management.MBeanInfo;
import javax.management.MBeanServer;
import javax.management.MBeanServerFactory;
import javax.management.ObjectName;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ServerThreadPoolMetricsTest {

    private MBeanServer mbeanServer;
    private PrometheusRegistry registry;
    private final AtomicLong nanos = new AtomicLong();

    @BeforeEach
    void registerOverEmptyMBeanServer() {
        mbeanServer = MBeanServerFactory.newMBeanServer();
        registry = new PrometheusRegistry();
        new ServerThreadPoolMetrics(mbeanServer, ManagementFactory.getThreadMXBean(), new ExecutorThreads("no-such-pool-", "none"), 8081, nanos::get)
                .register(registry);
    }

    @Test
    void readsTomcatJettyAndUndertowPools() throws JMException {
        register("Tomcat:type=ThreadPool,name=\"http-nio-8080\"", Map.of("currentThreadsBusy", 7, "maxThreads", 200));
        register("org.eclipse.jetty.util.thread:type=queuedthreadpool,id=0", Map.of("busyThreads", 3, "maxThreads", 50));
        register("org.xnio:type=Xnio,provider=\"nio\",worker=\"XNIO-1\"",
                Map.of("BusyWorkerThreadCount", 2, "MaxWorkerPoolSize", 64));

        assertThat(Exposition.samples(registry)).containsAllEntriesOf(Map.of(
                "jvmtuning_server_threads_busy{pool=\"http-nio-8080\",role=\"application\",server=\"tomcat\"}", 7.0,
                "jvmtuning_server_threads_max{pool=\"http-nio-8080\",role=\"application\",server=\"tomcat\"}", 200.0,
                "jvmtuning_server_threads_busy{pool=\"0\",role=\"application\",server=\"jetty\"}", 3.0,
                "jvmtuning_server_threads_max{pool=\"0\",role=\"application\",server=\"jetty\"}", 50.0,
                "jvmtuning_server_threads_busy{pool=\"XNIO-1\",role=\"application\",server=\"undertow\"}", 2.0,
                "jvmtuning_server_threads_max{pool=\"XNIO-1\",role=\"application\",server=\"undertow\"}", 64.0));
    }

    @Test
    void standaloneTomcatRegistersUnderCatalinaAndDuplicatesAreReportedOnce() throws JMException {
        register("Catalina:type=ThreadPool,name=\"http-nio-8080\"", Map.of("currentThreadsBusy", 4, "maxThreads", 150));
        register("Tomcat:type=ThreadPool,name=\"http-nio-8080\"", Map.of("currentThreadsBusy", 7, "maxThreads", 200));
        register("Catalina:type=ThreadPool,name=\"ajp-nio-8009\"", Map.of("currentThreadsBusy", 1, "maxThreads", 20));

        assertThat(Exposition.samples(registry)).containsOnlyKeys(
                "jvmtuning_server_threads_busy{pool=\"http-nio-8080\",role=\"application\",server=\"tomcat\"}",
                "jvmtuning_server_threads_max{pool=\"http-nio-8080\",role=\"application\",server=\"tomcat\"}",
                "jvmtuning_server_threads_busy{pool=\"ajp-nio-8009\",role=\"application\",server=\"tomcat\"}",
                "jvmtuning_server_threads_max{pool=\"ajp-nio-8009\",role=\"application\",server=\"tomcat\"}",
                "jvmtuning_server_threads_busy_seconds_total{pool=\"http-nio-8080\",role=\"application\",server=\"tomcat\"}",
                "jvmtuning_server_threads_busy_seconds_total{pool=\"ajp-nio-8009\",role=\"application\",server=\"tomcat\"}");
    }

    @Test
    void aPoolThatCannotBeReadIsLeftOutAndTheRestReported() throws JMException {
        register("Tomcat:type=ThreadPool,name=\"broken\"", Map.of("currentThreadsBusy", "many", "maxThreads", 10));
        register("org.eclipse.jetty.util.thread:type=queuedthreadpool,id=1", Map.of("busyThreads", 1));
        register("Tomcat:type=ThreadPool,name=\"http-nio-8080\"", Map.of("currentThreadsBusy", 7, "maxThreads", 200));

        assertThat(Exposition.samples(registry)).containsOnlyKeys(
                "jvmtuning_server_threads_busy{pool=\"http-nio-8080\",role=\"application\",server=\"tomcat\"}",
                "jvmtuning_server_threads_max{pool=\"http-nio-8080\",role=\"application\",server=\"tomcat\"}",
                "jvmtuning_server_threads_busy_seconds_total{pool=\"http-nio-8080\",role=\"application\",server=\"tomcat\"}");
    }

    @Test
    void anUncountedBusyFigureIsLeftOutAndTheMaximumReported() throws JMException {
        // XNIO on jboss-threads without -Djboss.threads.eqe.statistics.active-count=true.
        register("org.xnio:type=Xnio,provider=\"nio\",worker=\"XNIO-1\"",
                Map.of("BusyWorkerThreadCount", -1, "MaxWorkerPoolSize", 40));

        assertThat(Exposition.samples(registry)).containsOnlyKeys(
                "jvmtuning_server_threads_max{pool=\"XNIO-1\",role=\"application\",server=\"undertow\"}");
    }

    @Test
    void theManagementPortsPoolIsToldApartFromTheApplicationsByItsPort() throws JMException {
        register("Tomcat:type=ThreadPool,name=\"http-nio-127.0.0.1-8080\"", Map.of("currentThreadsBusy", 7, "maxThreads", 200));
        register("Tomcat:type=ThreadPool,name=\"http-nio-127.0.0.1-8081\"", Map.of("currentThreadsBusy", 1, "maxThreads", 200));
        register("org.xnio:type=Xnio,provider=\"nio\",worker=\"XNIO-1\"", Map.of("BusyWorkerThreadCount", 5, "MaxWorkerPoolSize", 16));
        register("org.xnio:type=Xnio,provider=\"nio\",worker=\"XNIO-2\"", Map.of("BusyWorkerThreadCount", 0, "MaxWorkerPoolSize", 16));
        register("org.xnio:type=Xnio,provider=\"nio\",worker=\"XNIO-1\",address=\"/127.0.0.1:8080\"", Map.of());
        register("org.xnio:type=Xnio,provider=\"nio\",worker=\"XNIO-2\",address=\"/127.0.0.1:8081\"", Map.of());

        assertThat(Exposition.samples(registry)).containsAllEntriesOf(Map.of(
                "jvmtuning_server_threads_busy{pool=\"http-nio-127.0.0.1-8080\",role=\"application\",server=\"tomcat\"}", 7.0,
                "jvmtuning_server_threads_busy{pool=\"http-nio-127.0.0.1-8081\",role=\"management\",server=\"tomcat\"}", 1.0,
                "jvmtuning_server_threads_max{pool=\"XNIO-1\",role=\"application\",server=\"undertow\"}", 16.0,
                "jvmtuning_server_threads_max{pool=\"XNIO-2\",role=\"management\",server=\"undertow\"}", 16.0));
    }

    @Test
    void theManagementPortIsTheSystemPropertyElseTheEnvironments() {
        assertThat(ServerThreadPoolMetrics.managementPort("9090", "8081")).isEqualTo(9090);
        assertThat(ServerThreadPoolMetrics.managementPort(null, "8081")).isEqualTo(8081);
        assertThat(ServerThreadPoolMetrics.managementPort(null, null)).isNull();
        assertThat(ServerThreadPoolMetrics.managementPort("-1", null)).as("-1 turns the management endpoints off").isNull();
        assertThat(ServerThreadPoolMetrics.managementPort("${PORT}", null)).isNull();
    }

    @Test
    void aScrapeReadsEachPoolOnceForBothFigures() throws JMException {
        Map<String, Integer> reads = new HashMap<>();
        Map<String, Object> counted = new HashMap<>(Map.of("currentThreadsBusy", 7, "maxThreads", 200)) {
            @Override
            public Object get(Object key) {
                reads.merge((String) key, 1, Integer::sum);
                return super.get(key);
            }
        };
        register("Tomcat:type=ThreadPool,name=\"http-nio-8080\"", counted);

        assertThat(Exposition.samples(registry)).hasSize(3);
        assertThat(reads).containsEntry("currentThreadsBusy", 1).containsEntry("maxThreads", 1);
    }

    @Test
    void theBusyThreadsSummedOverTimeGiveAWindowsMeanWhereOneReadingDoesNot() throws JMException {
        Map<String, Object> pool = new HashMap<>(Map.of("currentThreadsBusy", 200, "maxThreads", 200));
        register("Tomcat:type=ThreadPool,name=\"http-nio-8080\"", pool);
        String busySeconds = "jvmtuning_server_threads_busy_seconds_total{pool=\"http-nio-8080\",role=\"application\",server=\"tomcat\"}";

        assertThat(Exposition.samples(registry)).containsEntry(busySeconds, 0.0);
        nanos.addAndGet(TimeUnit.SECONDS.toNanos(1));
        assertThat(Exposition.samples(registry)).containsEntry(busySeconds, 200.0);
        // The pool drained for the moment of this collection: 2 s at 80 busy.
        pool.put("currentThreadsBusy", 80);
        nanos.addAndGet(TimeUnit.SECONDS.toNanos(2));
        assertThat(Exposition.samples(registry)).containsEntry(busySeconds, 360.0);
        pool.put("currentThreadsBusy", 200);
        nanos.addAndGet(TimeUnit.SECONDS.toNanos(1));
        Map<String, Double> last = Exposition.samples(registry);

        assertThat(last.get(busySeconds) / 4).as("the mean over the 4 s").isEqualTo(140.0);
        nanos.addAndGet(TimeUnit.MILLISECONDS.toNanos(1500));
        long collectedAt = Exposition.timestamps(registry).get(busySeconds);
        nanos.addAndGet(TimeUnit.MILLISECONDS.toNanos(2500));
        assertThat(Exposition.timestamps(registry).get(busySeconds) - collectedAt).as("stamped with each collection's time").isEqualTo(2500);
        assertThat(last).containsEntry("jvmtuning_server_threads_busy{pool=\"http-nio-8080\",role=\"application\",server=\"tomcat\"}", 200.0);
    }

    @Test
    void noServerMeansNoSeries() {
        assertThat(Exposition.text(registry)).doesNotContain("jvmtuning_server_threads");
    }

    private void register(String name, Map<String, Object> attributes) throws JMException {
        mbeanServer.registerMBean(new FixedAttributes(attributes), new ObjectName(name));
    }

    /** An MBean with fixed attribute values, named as the servers name theirs. */
    private record FixedAttributes(Map<String, Object> attributes) implements DynamicMBean {

        @Override
        public Object getAttribute(String attribute) throws AttributeNotFoundException {
            if (!attributes.containsKey(attribute)) {
                throw new AttributeNotFoundException(attribute);
            }
            return attributes.get(attribute);
        }

        @Override
        public void setAttribute(Attribute attribute) {
            throw new UnsupportedOperationException();
        }

        @Override
        public AttributeList getAttributes(String[] names) {
            return new AttributeList();
        }

        @Override
        public AttributeList setAttributes(AttributeList attributes) {
            return new AttributeList();
        }

        @Override
        public Object invoke(String actionName, Object[] params, String[] signature) {
            throw new UnsupportedOperationException();
        }

        @Override
        public MBeanInfo getMBeanInfo() {
            return new MBeanInfo(FixedAttributes.class.getName(), "fixture", null, null, null, null);
        }
    }
}
