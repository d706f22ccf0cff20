package dev.jvmtuning.operator.testing;

import dev.jvmtuning.operator.config.Leadership;
import dev.jvmtuning.operator.config.OperatorSettings;
import dev.jvmtuning.operator.reconciler.TuningProfileReconciler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Operator settings for tests that run the reconciler outside Quarkus: the defaults of OperatorSettings but for what a test sets. */
public record TestSettings(Duration resyncPeriod, Optional<String> ownNamespace, Metrics metrics, Agent agent, FlagPolicySettings flagPolicy, Discovery discovery)
        implements OperatorSettings {

    public static TestSettings of(Duration resyncPeriod, Optional<String> prometheusUrl) {
        return of(resyncPeriod, prometheusUrl, Map.of());
    }

    /** @param guardrailQueries the installation's guardrail queries, name to PromQL template */
    public static TestSettings of(Duration resyncPeriod, Optional<String> prometheusUrl, Map<String, String> guardrailQueries) {
        return new TestSettings(resyncPeriod, Optional.empty(), new TestMetrics(prometheusUrl, Duration.ofSeconds(10), 16 * 1024 * 1024, 20_000, 8, guardrailQueries),
                new TestAgent("example/jvm-tuning-agent:test", "/jvm-tuning-agent.jar"), new TestFlagPolicy(Optional.empty()),
                new TestDiscovery(50, Duration.ofMinutes(2), Optional.empty()));
    }

    /** These settings, recording the watched namespaces in {@code namespace}. */
    public TestSettings withOwnNamespace(String namespace) {
        return new TestSettings(resyncPeriod, Optional.of(namespace), metrics, agent, flagPolicy, discovery);
    }

    /** These settings, with an install-time flag allow-list. */
    public TestSettings withFlagPolicyAllow(List<String> allow) {
        return new TestSettings(resyncPeriod, ownNamespace, metrics, agent, new TestFlagPolicy(Optional.of(allow)), discovery);
    }

    /** The reconciler as tests run it, outside Quarkus: these settings and a private meter registry. */
    public static TuningProfileReconciler reconciler(Duration resyncPeriod, Optional<String> prometheusUrl) {
        return new TuningProfileReconciler(of(resyncPeriod, prometheusUrl), new SimpleMeterRegistry(), Leadership.alone("test"));
    }

    public record TestAgent(String image, String jarPath) implements Agent {
    }

    public record TestFlagPolicy(Optional<List<String>> allow) implements FlagPolicySettings {
    }

    public record TestDiscovery(int maxProfilesPerNamespace, Duration interval, Optional<List<String>> namespaces) implements Discovery {
    }

    public record TestMetrics(Optional<String> prometheusUrl, Duration timeout, int maxBodyBytes, int maxSamples, int concurrency,
            Map<String, String> guardrailQueries) implements Metrics {
    }
}
