package dev.jvmtuning.operator.config;

import dev.jvmtuning.operator.installation.PublishedSettings;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The operator's own settings (application.properties or JVM_TUNING_* environment variables).
 * Watched namespaces are QOSDK's: quarkus.operator-sdk.controllers.tuningprofile.namespaces.
 */
@ConfigMapping(prefix = "jvm-tuning")
public interface OperatorSettings {

    /** How often every profile is reconciled even when nothing changed, to catch drift. */
    @WithDefault("5m")
    Duration resyncPeriod();

    /**
     * The operator's own namespace (the chart sets the pod's), where it records which namespaces it watches: a later
     * start on fewer namespaces releases the profiles it leaves behind (Deployment restored when it still may,
     * finalizer removed). Empty: no record, nothing released.
     */
    Optional<String> ownNamespace();

    /** Metrics reading; the only URL besides the pods' own is this install-time Prometheus. */
    Metrics metrics();

    /** The agent image that profiles with metrics.injectAgent get as an init container. */
    Agent agent();

    /** Which jvmOptions entries profiles may carry beyond tuning flags. */
    FlagPolicySettings flagPolicy();

    /** Recommend profiles for the JVM Deployments of namespaces labelled jvmtuning.dev/discover=recommend. */
    Discovery discovery();

    interface Discovery {
        /** The most profiles discovery keeps in one namespace; JVM Deployments past it (by name) get none. */
        @WithDefault("50")
        int maxProfilesPerNamespace();

        /** How often a labelled namespace is looked through for new or removed JVM Deployments. */
        @WithDefault("2m")
        Duration interval();

        /** The namespaces discovery may act in, when the operator watches only some; empty: all. */
        Optional<List<String>> namespaces();
    }

    interface FlagPolicySettings {
        /**
         * Flag prefixes this installation accepts although the policy refuses them by default, e.g.
         * {@code -D} (every system property), {@code -Dfile.encoding=}, {@code -XX:HeapDumpPath=}. Flags
         * that run commands or load agents stay refused whatever this says.
         */
        Optional<List<String>> allow();
    }

    interface Agent {
        @WithDefault(PublishedSettings.DEFAULT_AGENT_IMAGE)
        String image();

        /** Where the jar sits in that image. */
        @WithDefault(PublishedSettings.DEFAULT_AGENT_JAR_PATH)
        String jarPath();
    }

    interface Metrics {
        /** Base URL of the Prometheus that profiles with metrics.source Prometheus are judged from. */
        Optional<String> prometheusUrl();

        /** Longest one scrape or query may take from connect to the body's last byte; past it the exchange is cut. */
        @WithDefault("10s")
        Duration timeout();

        /** Largest body read from one endpoint; a larger one is a failed scrape, not a memory problem. */
        @WithDefault("16777216")
        int maxBodyBytes();

        /** Samples kept from one body, of the series the operator reads; a body with more is cut there. */
        @WithDefault("20000")
        int maxSamples();

        /** Scrapes and queries in flight at once, over all profiles; polls wait for a free slot rather than pile up. */
        @WithDefault("8")
        int concurrency();

        /**
         * The queries a profile's spec.auto.guardrail may name: name to a PromQL template in which
         * {@code {{namespace}}}, {@code {{deployment}}} and {@code {{pods}}} stand for the profile's own target
         * (GuardrailQueries). Each is the property, or environment variable of that very name,
         * {@code jvm-tuning.metrics.guardrail-queries.NAME}: the upper-case form of a variable's name would
         * turn the dashes of NAME into dots.
         */
        Map<String, String> guardrailQueries();
    }
}
