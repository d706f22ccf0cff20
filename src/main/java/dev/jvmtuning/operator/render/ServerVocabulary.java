package dev.jvmtuning.operator.render;

import dev.jvmtuning.operator.api.v1alpha1.Runtime;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;

/** The property names of each runtime (TUNING.md's renderer vocabulary) and how each maps to an environment variable. */
public record ServerVocabulary(Map<Knob, String> properties, Map<String, String> alwaysSet, boolean quarkusNaming) {

    public static ServerVocabulary of(Runtime runtime) {
        Map<Knob, String> p = new EnumMap<>(Knob.class);
        switch (runtime) {
            case SpringBootTomcat -> {
                p.put(Knob.MAX_THREADS, "server.tomcat.threads.max");
                p.put(Knob.MIN_SPARE_THREADS, "server.tomcat.threads.min-spare");
                p.put(Knob.ACCEPT_COUNT, "server.tomcat.accept-count");
                p.put(Knob.MAX_CONNECTIONS, "server.tomcat.max-connections");
                p.put(Knob.MAX_QUEUE_SIZE, "server.tomcat.threads.max-queue-capacity");
                putHikari(p);
                // Tomcat's thread-pool metrics exist only with its MBean registry on.
                return new ServerVocabulary(p, Map.of("server.tomcat.mbeanregistry.enabled", "true"), false);
            }
            case SpringBootJetty -> {
                p.put(Knob.MAX_THREADS, "server.jetty.threads.max");
                p.put(Knob.MIN_SPARE_THREADS, "server.jetty.threads.min");
                p.put(Knob.MAX_CONNECTIONS, "server.jetty.max-connections");
                p.put(Knob.MAX_QUEUE_SIZE, "server.jetty.threads.max-queue-capacity");
                putHikari(p);
                return new ServerVocabulary(p, Map.of(), false);
            }
            case SpringBootUndertow -> {
                p.put(Knob.MAX_THREADS, "server.undertow.threads.worker");
                putHikari(p);
                return new ServerVocabulary(p, Map.of(), false);
            }
            case Quarkus -> {
                p.put(Knob.MAX_THREADS, "quarkus.thread-pool.max-threads");
                p.put(Knob.MIN_SPARE_THREADS, "quarkus.thread-pool.core-threads");
                p.put(Knob.ACCEPT_COUNT, "quarkus.http.accept-backlog");
                p.put(Knob.MAX_CONNECTIONS, "quarkus.http.limits.max-connections");
                p.put(Knob.MAX_QUEUE_SIZE, "quarkus.thread-pool.queue-size");
                p.put(Knob.POOL_MAX_SIZE, "quarkus.datasource.jdbc.max-size");
                p.put(Knob.POOL_MIN_IDLE, "quarkus.datasource.jdbc.min-size");
                return new ServerVocabulary(p, Map.of(), true);
            }
            default -> {
                return new ServerVocabulary(p, Map.of(), false);
            }
        }
    }

    private static void putHikari(Map<Knob, String> p) {
        p.put(Knob.POOL_MAX_SIZE, "spring.datasource.hikari.maximum-pool-size");
        p.put(Knob.POOL_MIN_IDLE, "spring.datasource.hikari.minimum-idle");
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
