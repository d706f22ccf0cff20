package dev.jvmtuning.operator.metrics;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jvmtuning.operator.api.v1alpha1.Metrics;
import dev.jvmtuning.operator.api.v1alpha1.MetricsSource;
import dev.jvmtuning.operator.api.v1alpha1.Observed;
import dev.jvmtuning.operator.api.v1alpha1.Runtime;
import dev.jvmtuning.operator.api.v1alpha1.Setting;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import dev.jvmtuning.operator.config.OperatorSettings;
import dev.jvmtuning.operator.planner.Units;
import dev.jvmtuning.operator.pressure.PressureDetector;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.processing.event.source.polling.PerResourcePollingEventSource;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Reads a profile's metrics off the reconcile threads: scrapes each Ready pod of the target (its own
 * IP, the profile's port and path) or queries the Prometheus configured at install time, never a URL
 * from the profile. Every request is bounded in time and size; failures become a MetricsAvailable=False
 * report, never an exception.
 */
public final class MetricsFetcher implements PerResourcePollingEventSource.ResourceFetcher<MetricsReport, TuningProfile> {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final KubernetesClient client;
    private final Function<TuningProfile, Optional<Deployment>> targetOf;
    private final OperatorSettings.Metrics settings;
    private final Clock clock;
    private final HttpClient http;
    private final Map<String, Window.History> history = new ConcurrentHashMap<>();

    public MetricsFetcher(KubernetesClient client, Function<TuningProfile, Optional<Deployment>> targetOf,
            OperatorSettings.Metrics settings, Clock clock) {
        this.client = client;
        this.targetOf = targetOf;
        this.settings = settings;
        this.clock = clock;
        ExecutorService executor = Executors.newFixedThreadPool(settings.concurrency(), r -> {
            Thread t = new Thread(r, "metrics-scrape");
            t.setDaemon(true);
            return t;
        });
        this.http = HttpClient.newBuilder().connectTimeout(settings.timeout()).executor(executor)
                .followRedirects(HttpClient.Redirect.NEVER).build();
    }

    @Override
    public Set<MetricsReport> fetchResources(TuningProfile profile) {
        try {
            return Set.of(report(profile));
        } catch (RuntimeException e) {
            return Set.of(MetricsReport.unavailable("ScrapeFailed", "metrics could not be read: " + e.getMessage()));
        }
    }

    @Override
    public Optional<Duration> fetchDelay(Set<MetricsReport> lastFetched, TuningProfile profile) {
        return Optional.of(Duration.ofMillis((long) (Units.seconds(metrics(profile).getInterval()) * 1000)));
    }

    /** Forgets a deleted profile's samples. */
    public void forget(TuningProfile profile) {
        history.remove(key(profile));
    }

    private MetricsReport report(TuningProfile profile) {
        Optional<Deployment> target = targetOf.apply(profile);
        if (target.isEmpty()) {
            return MetricsReport.unavailable("TargetNotFound", "no target Deployment to read metrics from");
        }
        List<Pod> pods = readyPods(target.get());
        if (pods.isEmpty()) {
            return MetricsReport.unavailable("NoReadyPods", "Deployment " + target.get().getMetadata().getName() + " has no Ready pod");
        }
        Metrics metrics = metrics(profile);
        Map<String, Outcome> outcomes = metrics.getSource() == MetricsSource.Prometheus
                ? queryPrometheus(profile, pods)
                : scrapePods(pods, metrics.effectivePort(), path(profile));
        Map<String, PodSnapshot> snapshots = new LinkedHashMap<>();
        Map<String, String> failures = new LinkedHashMap<>();
        outcomes.forEach((pod, outcome) -> {
            if (outcome.snapshot() != null) {
                snapshots.put(pod, outcome.snapshot());
            } else {
                failures.put(pod, outcome.problem());
            }
        });
        if (snapshots.isEmpty()) {
            return MetricsReport.unavailable(metrics.getSource() == MetricsSource.Prometheus ? "QueryFailed" : "ScrapeFailed",
                    failures.entrySet().stream().limit(3).map(e -> e.getKey() + ": " + e.getValue()).collect(Collectors.joining("; ")));
        }
        Window.History past = history.getOrDefault(key(profile), Window.History.EMPTY);
        Observed observed = Window.observe(past.snapshots(), snapshots, cores(profile));
        history.put(key(profile), new Window.History(snapshots, observed != null ? observed : past.observed()));
        String read = "read " + snapshots.size() + " of " + pods.size() + " Ready pods"
                + (failures.isEmpty() ? "" : "; failed: " + failures.entrySet().stream().limit(3)
                        .map(e -> e.getKey() + ": " + e.getValue()).collect(Collectors.joining("; ")));
        if (observed == null) {
            return new MetricsReport("True", "FirstSample", read + "; rates follow after the next sample", null, null);
        }
        return new MetricsReport("True", "MetricsRead", read, observed,
                PressureDetector.judge(observed, past.observed(), profile.getSpec().getPressure(), settings(profile), cores(profile)));
    }

    private List<Pod> readyPods(Deployment deployment) {
        Map<String, String> selector = deployment.getSpec().getSelector().getMatchLabels();
        return client.pods().inNamespace(deployment.getMetadata().getNamespace()).withLabels(selector).list().getItems().stream()
                .filter(p -> p.getMetadata().getDeletionTimestamp() == null && p.getStatus() != null && p.getStatus().getPodIP() != null)
                .filter(p -> Objects.requireNonNullElse(p.getStatus().getConditions(), List.<io.fabric8.kubernetes.api.model.PodCondition>of())
                        .stream().anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus())))
                .toList();
    }

    record Outcome(PodSnapshot snapshot, String problem) {
    }

    private Map<String, Outcome> scrapePods(List<Pod> pods, int port, String path) {
        Map<String, CompletableFuture<Outcome>> inFlight = new LinkedHashMap<>();
        for (Pod pod : pods) {
            URI uri = URI.create("http://" + hostLiteral(pod.getStatus().getPodIP()) + ":" + port + path);
            HttpRequest request = HttpRequest.newBuilder(uri).timeout(settings.timeout())
                    .header("Accept", "text/plain;version=0.0.4").GET().build();
            inFlight.put(pod.getMetadata().getName(), http.sendAsync(request, LimitedBody.handler(settings.maxBodyBytes()))
                    .orTimeout(settings.timeout().toMillis(), TimeUnit.MILLISECONDS)
                    .thenApply(response -> {
                        if (response.statusCode() != 200) {
                            return new Outcome(null, "HTTP " + response.statusCode() + " from " + uri);
                        }
                        Scrape scrape = PrometheusTextParser.parse(response.body());
                        if (scrape.samples().isEmpty()) {
                            return new Outcome(null, "no metrics in the response of " + uri
                                    + (scrape.skippedLines() > 0 ? " (" + scrape.skippedLines() + " malformed lines)" : ""));
                        }
                        return new Outcome(PodSnapshot.of(scrape, clock.millis()), null);
                    })
                    .exceptionally(e -> new Outcome(null, describe(e) + " (" + uri + ")")));
        }
        Map<String, Outcome> outcomes = new LinkedHashMap<>();
        inFlight.forEach((pod, future) -> {
            Outcome outcome;
            try {
                outcome = future.get(settings.timeout().toMillis() + 1000, TimeUnit.MILLISECONDS);
            } catch (Exception e) {
                future.cancel(true);
                outcome = new Outcome(null, describe(e));
            }
            outcomes.put(pod, outcome);
        });
        return outcomes;
    }

    /** Instant queries of the raw series for the target's pods; rates are computed from consecutive answers, as for scrapes. */
    private Map<String, Outcome> queryPrometheus(TuningProfile profile, List<Pod> pods) {
        Map<String, Outcome> outcomes = new LinkedHashMap<>();
        if (settings.prometheusUrl().isEmpty()) {
            pods.forEach(p -> outcomes.put(p.getMetadata().getName(), new Outcome(null,
                    "metrics.source is Prometheus but the operator was installed without a Prometheus URL")));
            return outcomes;
        }
        String podNames = pods.stream().map(p -> p.getMetadata().getName()).collect(Collectors.joining("|"));
        String query = "{__name__=~\"" + String.join("|", PodSnapshot.SERIES) + "\",namespace=\""
                + profile.getMetadata().getNamespace() + "\",pod=~\"" + podNames + "\"}";
        URI uri = URI.create(settings.prometheusUrl().get().replaceAll("/+$", "") + "/api/v1/query?query="
                + URLEncoder.encode(query, StandardCharsets.UTF_8));
        try {
            var response = http.sendAsync(HttpRequest.newBuilder(uri).timeout(settings.timeout()).GET().build(),
                    LimitedBody.handler(settings.maxBodyBytes())).get(settings.timeout().toMillis() + 1000, TimeUnit.MILLISECONDS);
            if (response.statusCode() != 200) {
                throw new IllegalStateException("HTTP " + response.statusCode() + " from Prometheus");
            }
            Map<String, List<Sample>> byPod = new LinkedHashMap<>();
            Map<String, Long> timeByPod = new LinkedHashMap<>();
            for (JsonNode series : JSON.readTree(response.body()).path("data").path("result")) {
                Map<String, String> labels = new LinkedHashMap<>();
                series.path("metric").fields().forEachRemaining(f -> labels.put(f.getKey(), f.getValue().asText()));
                String pod = labels.get("pod");
                double value = parsePromValue(series.path("value").path(1).asText());
                long at = (long) (series.path("value").path(0).asDouble() * 1000);
                byPod.computeIfAbsent(pod, k -> new java.util.ArrayList<>()).add(new Sample(labels.remove("__name__"), labels, value, at));
                timeByPod.merge(pod, at, Math::max);
            }
            for (Pod pod : pods) {
                String name = pod.getMetadata().getName();
                List<Sample> samples = byPod.get(name);
                outcomes.put(name, samples == null ? new Outcome(null, "Prometheus has no series for this pod")
                        : new Outcome(PodSnapshot.of(new Scrape(samples, 0, List.of()), timeByPod.get(name)), null));
            }
        } catch (Exception e) {
            pods.forEach(p -> outcomes.put(p.getMetadata().getName(), new Outcome(null, describe(e))));
        }
        return outcomes;
    }

    private static double parsePromValue(String text) {
        return switch (text) {
            case "+Inf" -> Double.POSITIVE_INFINITY;
            case "-Inf" -> Double.NEGATIVE_INFINITY;
            case "NaN" -> Double.NaN;
            default -> Double.parseDouble(text);
        };
    }

    private static String describe(Throwable e) {
        Throwable cause = e;
        while ((cause instanceof java.util.concurrent.CompletionException || cause instanceof java.util.concurrent.ExecutionException)
                && cause.getCause() != null) {
            cause = cause.getCause();
        }
        if (cause instanceof java.util.concurrent.TimeoutException || cause instanceof java.net.http.HttpTimeoutException) {
            return "timed out";
        }
        if (cause instanceof java.net.ConnectException) {
            return "connection refused";
        }
        return cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
    }

    private static String hostLiteral(String ip) {
        return ip.contains(":") ? "[" + ip + "]" : ip;
    }

    private static Metrics metrics(TuningProfile profile) {
        return Objects.requireNonNullElseGet(profile.getSpec().getMetrics(), Metrics::new);
    }

    /** The profile's path, else the runtime's usual endpoint. */
    static String path(TuningProfile profile) {
        String path = metrics(profile).getPath();
        if (path != null) {
            return path;
        }
        if (metrics(profile).agentInjected()) {
            return "/metrics";
        }
        Runtime runtime = profile.getSpec().getRuntime();
        return switch (runtime) {
            case SpringBootTomcat, SpringBootJetty, SpringBootUndertow -> "/actuator/prometheus";
            case Quarkus -> "/q/metrics";
            case Generic -> "/metrics";
        };
    }

    private static Map<String, String> settings(TuningProfile profile) {
        return profile.getStatus() == null ? Map.of() : profile.getStatus().getSettings().stream()
                .collect(Collectors.toMap(Setting::getName, Setting::getValue, (a, b) -> b));
    }

    private static Double cores(TuningProfile profile) {
        String value = settings(profile).get("jvm.activeProcessorCount");
        return value == null ? null : Double.valueOf(value);
    }

    private static String key(TuningProfile profile) {
        return profile.getMetadata().getNamespace() + "/" + profile.getMetadata().getName();
    }
}
