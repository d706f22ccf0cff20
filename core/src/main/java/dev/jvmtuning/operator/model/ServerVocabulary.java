package dev.jvmtuning.operator.model;

import dev.jvmtuning.operator.api.v1alpha1.Runtime;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The property names of each runtime (see docs/explanation/tuning-rules.md, "Server vocabulary") and how each maps to an environment variable.
 *
 * @param alwaysSet      server properties rendered with any others: the server's metrics the operator reads need them
 * @param agentJvmOptions JVM options rendered with the operator's agent: the figures the agent reads from the server need them
 * @param probesShareWorkers the health and metrics endpoints run on the requests' worker pool, on the management port too
 *                       (Quarkus's blocking routes): a bounded worker queue rejects them with the load
 */
public record ServerVocabulary(Map<Setting, String> properties, Map<String, String> alwaysSet, List<String> agentJvmOptions, boolean quarkusNaming,
        boolean probesShareWorkers) {

    /** XNIO's worker counts its busy threads (jboss-threads' active count) only when told to; without it Undertow's pool reports -1. */
    public static final String UNDERTOW_BUSY_COUNT = "-Djboss.threads.eqe.statistics.active-count=true";

    public static ServerVocabulary of(Runtime runtime) {
        Map<Setting, String> p = new EnumMap<>(Setting.class);
        switch (runtime) {
            case SpringBootTomcat -> {
                p.put(Setting.THREADS_MAX, "server.tomcat.threads.max");
                p.put(Setting.THREADS_MIN_SPARE, "server.tomcat.threads.min-spare");
                p.put(Setting.QUEUE_ACCEPT_COUNT, "server.tomcat.accept-count");
                p.put(Setting.QUEUE_MAX_CONNECTIONS, "server.tomcat.max-connections");
                p.put(Setting.QUEUE_MAX_QUEUE_SIZE, "server.tomcat.threads.max-queue-capacity");
                putHikari(p);
                // Tomcat's thread-pool metrics exist only with its MBean registry on.
                return new ServerVocabulary(p, Map.of("server.tomcat.mbeanregistry.enabled", "true"), List.of(), false, false);
            }
            case SpringBootJetty -> {
                p.put(Setting.THREADS_MAX, "server.jetty.threads.max");
                p.put(Setting.THREADS_MIN_SPARE, "server.jetty.threads.min");
                p.put(Setting.QUEUE_MAX_CONNECTIONS, "server.jetty.max-connections");
                p.put(Setting.QUEUE_MAX_QUEUE_SIZE, "server.jetty.threads.max-queue-capacity");
                putHikari(p);
                return new ServerVocabulary(p, Map.of(), List.of(), false, false);
            }
            case SpringBootUndertow -> {
                p.put(Setting.THREADS_MAX, "server.undertow.threads.worker");
                putHikari(p);
                return new ServerVocabulary(p, Map.of(), List.of(UNDERTOW_BUSY_COUNT), false, false);
            }
            case Quarkus -> {
                p.put(Setting.THREADS_MAX, "quarkus.thread-pool.max-threads");
                p.put(Setting.THREADS_MIN_SPARE, "quarkus.thread-pool.core-threads");
                p.put(Setting.QUEUE_ACCEPT_COUNT, "quarkus.http.accept-backlog");
                p.put(Setting.QUEUE_MAX_CONNECTIONS, "quarkus.http.limits.max-connections");
                p.put(Setting.QUEUE_MAX_QUEUE_SIZE, "quarkus.thread-pool.queue-size");
                p.put(Setting.POOL_MAX_SIZE, "quarkus.datasource.jdbc.max-size");
                p.put(Setting.POOL_MIN_IDLE, "quarkus.datasource.jdbc.min-size");
                p.put(Setting.POOL_ACQUISITION_TIMEOUT, "quarkus.datasource.jdbc.acquisition-timeout");
                return new ServerVocabulary(p, Map.of(), List.of(), true, true);
            }
            default -> {
                return new ServerVocabulary(p, Map.of(), List.of(), false, false);
            }
        }
    }

    private static void putHikari(Map<Setting, String> p) {
        p.put(Setting.POOL_MAX_SIZE, "spring.datasource.hikari.maximum-pool-size");
        p.put(Setting.POOL_MIN_IDLE, "spring.datasource.hikari.minimum-idle");
        p.put(Setting.POOL_ACQUISITION_TIMEOUT, "spring.datasource.hikari.connection-timeout");
    }

    /** Whether the runtime has a property for this setting; the planner derives values only for those. */
    public boolean has(Setting setting) {
        return properties.containsKey(setting);
    }

    /**
     * A planned value as the property takes it. The one duration, the acquisition timeout, is planned in milliseconds:
     * HikariCP binds a bare number as milliseconds, Quarkus as seconds, so Quarkus gets the unit.
     */
    public String value(Setting setting, int value) {
        return quarkusNaming && setting == Setting.POOL_ACQUISITION_TIMEOUT ? value + "ms" : Integer.toString(value);
    }

    /**
     * The environment variable a property binds from: Spring Boot's relaxed binding upper-cases,
     * turns dots into underscores and drops dashes; Quarkus turns every other character into an underscore.
     */
    public String environmentVariable(String property) {
        String upper = property.toUpperCase(Locale.ROOT);
        return quarkusNaming ? upper.replaceAll("[^A-Z0-9]", "_") : upper.replace("-", "").replace('.', '_');
    }
}
