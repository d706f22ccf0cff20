package dev.jvmtuning.operator.metrics;

import dev.jvmtuning.operator.api.v1alpha1.Guardrail;
import dev.jvmtuning.operator.api.v1alpha1.Metrics;
import dev.jvmtuning.operator.api.v1alpha1.MetricsSource;
import dev.jvmtuning.operator.api.v1alpha1.Observed;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import dev.jvmtuning.operator.config.Leadership;
import dev.jvmtuning.operator.config.OperatorSettings;
import dev.jvmtuning.operator.deployment.TargetPods;
import dev.jvmtuning.operator.installation.GuardrailQueries;
import dev.jvmtuning.operator.model.ConditionStatus;
import dev.jvmtuning.operator.model.EffectiveOptions;
import dev.jvmtuning.operator.model.MemoryUse;
import dev.jvmtuning.operator.model.MetricsReport;
import dev.jvmtuning.operator.model.Reason;
import dev.jvmtuning.operator.model.ThreadingReport;
import dev.jvmtuning.operator.model.Units;
import dev.jvmtuning.operator.model.VirtualThreads;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.javaoperatorsdk.operator.processing.event.source.polling.PerResourcePollingEventSource;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Reads a profile's metrics off the reconcile threads: scrapes each Ready pod of the target (its own
 * IP; the port and path of each of its {@link MetricsEndpoint}s) or queries the Prometheus configured at install time, never
 * a URL from the profile. Every request is bounded in time and size; failures become a MetricsAvailable=False
 * report, never an exception. It returns what it observed and judges nothing: the reconciler judges the
 * window against the plan in force.
 */
public final class MetricsFetcher implements PerResourcePollingEventSource.ResourceFetcher<MetricsReport, TuningProfile>, AutoCloseable {
    /** The series a reading reads: samples of any other are not kept. */
    private static final Set<String> READ = Set.copyOf(PodReading.SERIES);
    private static final String KEEP_ALIVE_SECONDS = "jdk.httpclient.keepalive.timeout";
    private final Function<TuningProfile, Optional<Deployment>> targetOf;
    private final Function<Deployment, List<Pod>> podsOf;
    private final Function<TuningProfile, Double> processorsOf;
    private final OperatorSettings.Metrics settings;
    private final Leadership leadership;
    private final String userAgent;
    private final Clock clock;
    private final ExecutorService executor;
    private final HttpClient http;
    private final Map<String, Window.History> history = new ConcurrentHashMap<>();
    private final Map<String, MetricsReport> latest = new ConcurrentHashMap<>();
    private final Semaphore slots;
    private final PollHeartbeat heartbeat;
    private final GuardrailQueries guardrails;

    /**
     * @param targetOf     the profile's target Deployment, from the informer's cache
     * @param podsOf       a Deployment's pods, from the informer's cache
     * @param processorsOf the CPU limit of the profile's container (null when unknown), for per-CPU rates
     *                     of pods that do not report their own CPU count
     * @param leadership   whether this replica leads: a standby polls but does not scrape
     */
    public MetricsFetcher(Function<TuningProfile, Optional<Deployment>> targetOf, Function<Deployment, List<Pod>> podsOf,
            Function<TuningProfile, Double> processorsOf, OperatorSettings.Metrics settings, Leadership leadership, Clock clock) {
        this.targetOf = targetOf;
        this.podsOf = podsOf;
        this.processorsOf = processorsOf;
        this.settings = settings;
        this.leadership = leadership;
        // Names the replica in the pods' access logs, so an owner can tell who scrapes them.
        this.userAgent = "jvm-tuning-operator (" + leadership.identity() + ")";
        this.clock = clock;
        this.heartbeat = new PollHeartbeat(clock);
        this.slots = new Semaphore(settings.concurrency());
        this.guardrails = GuardrailQueries.of(settings.guardrailQueries());
        this.executor = Executors.newFixedThreadPool(settings.concurrency(), r -> {
            Thread t = new Thread(r, "metrics-scrape");
            t.setDaemon(true);
            return t;
        });
        keepNoIdleConnections();
        this.http = HttpClient.newBuilder().connectTimeout(settings.timeout()).executor(executor)
                .followRedirects(HttpClient.Redirect.NEVER).build();
    }

    /**
     * Each idle connection of the JDK's HTTP client keeps a 16 KiB read buffer, and it keeps a connection
     * 20 minutes by default: one per pod, polled every 30 s, they were the largest item on the heap at scale
     * (docs/development/benchmarks.md). A scrape opens its own connection instead, which costs a connect per poll. The
     * pool reads the setting once, when the first HTTP client of the JVM is built; one set at launch stands.
     * It is set here, a JVM-wide property in a constructor, because this is the place that builds the JVM's
     * JDK HTTP client (the Kubernetes client runs on Vert.x): set at launch instead (the image's JVM options),
     * the tests and tools that run a fetcher outside the image would scrape with the 20-minute default.
     */
    private static void keepNoIdleConnections() {
        if (System.getProperty(KEEP_ALIVE_SECONDS) == null) {
            System.setProperty(KEEP_ALIVE_SECONDS, "1");
        }
    }

    @Override
    public Set<MetricsReport> fetchResources(TuningProfile profile) {
        if (!leadership.isLeading()) {
            // JOSDK polls on every replica; only the leader reconciles, so only its reads are ever used.
            return Set.of();
        }
        Instant polled = clock.instant();
        MetricsReport report;
        try {
            report = report(profile);
        } catch (RuntimeException e) {
            report = MetricsReport.unavailable(Reason.SCRAPE_FAILED, "metrics could not be read: " + e.getMessage());
        }
        Set<String> existing = targetOf.apply(profile).map(podsOf).orElse(List.of()).stream().map(p -> p.getMetadata().getName())
                .collect(Collectors.toSet());
        report = report.remembering(latest.get(profile.key()), existing, polled);
        latest.put(profile.key(), report);
        return Set.of(report);
    }

    /**
     * The last poll's report, without polling: a reconcile never waits for a scrape. Before the first
     * poll, what that poll will say when it needs no scrape (no target, no Ready pod), so that a new
     * profile's first status already holds it and the poll's reconcile has nothing to write.
     */
    public Optional<MetricsReport> latest(TuningProfile profile) {
        MetricsReport polled = latest.get(profile.key());
        if (polled != null) {
            return Optional.of(polled);
        }
        Optional<Deployment> target = targetOf.apply(profile);
        return withoutScrape(target, target.map(this::readyPods).orElse(List.of()));
    }

    /** Asked each time a profile's next poll is scheduled (the first, and after each poll): the heartbeat of its polling. */
    @Override
    public Optional<Duration> fetchDelay(Set<MetricsReport> lastFetched, TuningProfile profile) {
        Duration interval = Units.duration(metrics(profile).getInterval());
        heartbeat.beat(profile.key(), interval);
        return Optional.of(interval);
    }

    /**
     * Why polling has died, if it has: profiles among {@code live} (namespace/name) whose polls stopped
     * scheduling their successors long ago.
     */
    public Optional<String> stalled(Collection<String> live) {
        return heartbeat.stalled(live);
    }

    /** Forgets a deleted profile's samples. */
    public void forget(TuningProfile profile) {
        history.remove(profile.key());
        latest.remove(profile.key());
        heartbeat.forget(profile.key());
    }

    /** Stops the scrape threads; requests in flight fail and their profiles report so. */
    @Override
    public void close() {
        executor.shutdownNow();
    }

    private MetricsReport report(TuningProfile profile) {
        Optional<Deployment> target = targetOf.apply(profile);
        List<Pod> pods = target.map(this::readyPods).orElse(List.of());
        Optional<MetricsReport> unscraped = withoutScrape(target, pods);
        if (unscraped.isPresent()) {
            return unscraped.get();
        }
        Metrics metrics = metrics(profile);
        Map<String, Outcome> outcomes = metrics.getSource() == MetricsSource.Prometheus
                ? queryPrometheus(profile, pods)
                : scrapePods(pods, MetricsEndpoint.of(profile.getSpec()));
        Map<String, PodSnapshot> snapshots = new LinkedHashMap<>();
        Map<String, Window.SourcedSnapshot> sourced = new LinkedHashMap<>();
        Map<String, EffectiveOptions> options = new LinkedHashMap<>();
        Map<String, MemoryUse> memory = new LinkedHashMap<>();
        Map<String, VirtualThreads> virtualThreads = new LinkedHashMap<>();
        Map<String, String> failures = new LinkedHashMap<>();
        List<PodReading> readings = outcomes.values().stream().map(Outcome::reading).filter(Objects::nonNull).toList();
        Integer javaVersion = PodReading.oldestJavaVersion(readings);
        ThreadingReport threading = PodReading.threading(readings);
        outcomes.forEach((pod, outcome) -> {
            if (outcome.reading() != null) {
                snapshots.put(pod, outcome.reading().snapshot());
                sourced.put(pod, new Window.SourcedSnapshot(outcome.reading().snapshot(), outcome.byEndpoint()));
                options.put(pod, outcome.reading().options());
                memory.put(pod, outcome.reading().memory());
                virtualThreads.put(pod, outcome.reading().virtualThreads());
            }
            if (outcome.problem() != null) {
                failures.put(pod, outcome.problem());
            }
        });
        if (snapshots.isEmpty()) {
            return MetricsReport.unavailable(metrics.getSource() == MetricsSource.Prometheus ? Reason.QUERY_FAILED : Reason.SCRAPE_FAILED,
                    failures.entrySet().stream().limit(3).map(e -> e.getKey() + ": " + e.getValue()).collect(Collectors.joining("; ")));
        }
        Window.History past = history.getOrDefault(profile.key(), Window.History.EMPTY);
        Double containerCores = processorsOf.apply(profile);
        Observed observed = Window.observe(Window.ends(past.snapshots(), sourced), containerCores);
        Map<String, VirtualThreads.Pinning> pinning = Window.pinning(past, snapshots, virtualThreads, containerCores);
        history.put(profile.key(), new Window.History(sourced, virtualThreads, observed != null ? observed : past.observed()));
        String read = "read " + snapshots.size() + " of " + pods.size() + " Ready pods"
                + (failures.isEmpty() ? "" : "; failed: " + failures.entrySet().stream().limit(3)
                        .map(e -> e.getKey() + ": " + e.getValue()).collect(Collectors.joining("; ")));
        if (observed == null) {
            return new MetricsReport(ConditionStatus.TRUE, Reason.FIRST_SAMPLE, read + "; rates follow after the next sample", null, null,
                    options, memory, Map.of(), javaVersion, threading);
        }
        Guardrail guardrail = profile.getSpec().getAuto() == null ? null : profile.getSpec().getAuto().getGuardrail();
        if (guardrail != null) {
            read += guardrail(profile, guardrail, target.get(), pods, observed);
        }
        return new MetricsReport(ConditionStatus.TRUE, Reason.METRICS_READ, read, observed, past.observed(), options, memory, pinning, javaVersion,
                threading);
    }

    /** The report when there is nothing to scrape: no target, or no Ready pod of it. */
    private static Optional<MetricsReport> withoutScrape(Optional<Deployment> target, List<Pod> readyPods) {
        if (target.isEmpty()) {
            return Optional.of(MetricsReport.unavailable(Reason.TARGET_NOT_FOUND, "no target Deployment to read metrics from"));
        }
        if (readyPods.isEmpty()) {
            return Optional.of(MetricsReport.unavailable(Reason.NO_READY_PODS, "Deployment " + target.get().getMetadata().getName() + " has no Ready pod"));
        }
        return Optional.empty();
    }

    private List<Pod> readyPods(Deployment deployment) {
        return podsOf.apply(deployment).stream()
                .filter(p -> TargetPods.ready(p) && p.getStatus().getPodIP() != null)
                .toList();
    }


    /**
     * A pod's reading, with the snapshot of each endpoint that answered (none from Prometheus), and what went wrong: with no
     * reading, why; with one, which endpoint failed, if one did.
     */
    record Outcome(PodReading reading, Map<MetricsEndpoint, PodSnapshot> byEndpoint, String problem) {
    }

    /** What one endpoint of a pod answered: the samples read, or why there are none. */
    private record Answer(MetricsEndpoint endpoint, Scrape scrape, String problem) {
    }

    /** Every endpoint of every pod at once, each scrape bounded on its own: a pod read on two endpoints takes two slots. */
    private Map<String, Outcome> scrapePods(List<Pod> pods, List<MetricsEndpoint> endpoints) {
        Map<String, CompletableFuture<Outcome>> inFlight = new LinkedHashMap<>();
        for (Pod pod : pods) {
            List<CompletableFuture<Answer>> answers = endpoints.stream().map(endpoint -> scrape(endpoint, URI.create("http://"
                    + hostLiteral(pod.getStatus().getPodIP()) + ":" + endpoint.port() + endpoint.path()))).toList();
            inFlight.put(pod.getMetadata().getName(), CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new))
                    .thenApply(allAnswered -> outcome(answers.stream().map(CompletableFuture::join).toList())));
        }
        Map<String, Outcome> outcomes = new LinkedHashMap<>();
        inFlight.forEach((pod, future) -> outcomes.put(pod, future.join()));
        return outcomes;
    }

    /**
     * One reading of the endpoints that answered, as their last answer came, and the others' problems, each named by its
     * endpoint where a pod has several: one endpoint's failure leaves the other's figures, and says so.
     */
    private Outcome outcome(List<Answer> answers) {
        String problem = answers.stream().filter(a -> a.problem() != null)
                .map(a -> (answers.size() > 1 ? a.endpoint().role() + " endpoint: " : "") + a.problem())
                .reduce((a, b) -> a + "; " + b).orElse(null);
        List<Answer> answered = answers.stream().filter(a -> a.scrape() != null).toList();
        if (answered.isEmpty()) {
            return new Outcome(null, Map.of(), problem);
        }
        long atMillis = clock.millis();
        PodReading reading = PodReading.of(Scrape.merge(answered.stream().map(Answer::scrape).toList()), atMillis);
        Map<MetricsEndpoint, PodSnapshot> byEndpoint = answered.size() == 1 ? Map.of(answered.get(0).endpoint(), reading.snapshot())
                : answered.stream().collect(Collectors.toMap(Answer::endpoint, a -> PodSnapshot.of(a.scrape(), atMillis)));
        return new Outcome(reading, byEndpoint, problem);
    }

    /** One scrape: only the samples of the series a reading reads, at most maxSamples of them, within the bounds of {@link #bounded}. */
    private CompletableFuture<Answer> scrape(MetricsEndpoint endpoint, URI uri) {
        HttpRequest request = HttpRequest.newBuilder(uri).timeout(settings.timeout()).header("Accept", "text/plain;version=0.0.4")
                .header("User-Agent", userAgent).GET().build();
        // one line past the cap, so that the parser sees there was more and says so
        return bounded(request, LimitedBody.lines(settings.maxBodyBytes(), READ::contains, settings.maxSamples() + 1))
                .thenApply(response -> {
                    if (response.statusCode() != 200) {
                        return new Answer(endpoint, null, "HTTP " + response.statusCode() + " from " + uri);
                    }
                    Scrape scrape = PrometheusTextParser.parse(response.body(), READ::contains, settings.maxSamples());
                    if (scrape.samples().isEmpty()) {
                        return new Answer(endpoint, null, "no metrics in the response of " + uri
                                + (scrape.skippedLines() > 0 ? " (" + scrape.skippedLines() + " malformed lines)" : ""));
                    }
                    return new Answer(endpoint, scrape, null);
                })
                .exceptionally(e -> new Answer(endpoint, null, describe(e) + " (" + uri + ")"));
    }

    /**
     * One request to a pod or to Prometheus, bounded as a whole: a slot among the requests in flight over
     * all profiles, one deadline from connect to the body's last byte (past it the body is dropped and the
     * connection closed), and the body's byte cap.
     */
    private CompletableFuture<HttpResponse<String>> bounded(HttpRequest request, LimitedBody.Handler body) {
        try {
            if (!slots.tryAcquire(settings.timeout().toMillis(), TimeUnit.MILLISECONDS)) {
                return CompletableFuture.failedFuture(new IllegalStateException("no free slot within " + settings.timeout().toSeconds()
                        + "s: " + settings.concurrency() + " scrapes and queries are in flight"));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return CompletableFuture.failedFuture(e);
        }
        return http.sendAsync(request, body)
                .orTimeout(settings.timeout().toMillis(), TimeUnit.MILLISECONDS)
                .whenComplete((response, e) -> {
                    if (e != null) {
                        body.abort();
                    }
                    slots.release();
                });
    }

    /** Instant queries of the raw series for the target's pods; rates are computed from consecutive answers, as for scrapes. */
    private Map<String, Outcome> queryPrometheus(TuningProfile profile, List<Pod> pods) {
        Map<String, Outcome> outcomes = new LinkedHashMap<>();
        if (settings.prometheusUrl().isEmpty()) {
            pods.forEach(p -> outcomes.put(p.getMetadata().getName(), new Outcome(null, Map.of(),
                    "metrics.source is Prometheus but the operator was installed without a Prometheus URL")));
            return outcomes;
        }
        try {
            // the samples of as many pods as a scrape of each would keep
            int maxSamples = (int) Math.min(Integer.MAX_VALUE, (long) settings.maxSamples() * pods.size());
            Map<String, PodReading> byPod = PrometheusQuery.readingsByPod(query(PrometheusQuery.seriesOfPods(profile.getMetadata().getNamespace(),
                    podNames(pods))), maxSamples);
            for (Pod pod : pods) {
                String name = pod.getMetadata().getName();
                PodReading reading = byPod.get(name);
                outcomes.put(name, reading == null ? new Outcome(null, Map.of(), "Prometheus has no series for this pod")
                        : new Outcome(reading, Map.of(), null));
            }
        } catch (Exception e) {
            pods.forEach(p -> outcomes.put(p.getMetadata().getName(), new Outcome(null, Map.of(), describe(e))));
        }
        return outcomes;
    }

    /** An instant query of the install-time Prometheus, within the bounds of {@link #bounded}: the answer's body. */
    private String query(String promql) throws Exception {
        URI uri = URI.create(settings.prometheusUrl().orElseThrow().replaceAll("/+$", "") + "/api/v1/query?query="
                + URLEncoder.encode(promql, StandardCharsets.UTF_8));
        HttpResponse<String> response = bounded(HttpRequest.newBuilder(uri).timeout(settings.timeout()).header("User-Agent", userAgent).GET().build(),
                LimitedBody.handler(settings.maxBodyBytes())).join();
        if (response.statusCode() != 200) {
            throw new IllegalStateException("HTTP " + response.statusCode() + " from Prometheus");
        }
        return response.body();
    }

    /**
     * Mode Auto's guardrail: the installation's query of that name for the profile's own namespace,
     * Deployment and Ready pods, asked of the install-time Prometheus only. The value goes into the
     * window; a refusal or failure goes into the message, and then no query is sent.
     */
    private String guardrail(TuningProfile profile, Guardrail guardrail, Deployment target, List<Pod> pods, Observed observed) {
        Optional<String> refusal = guardrails.refusal(guardrail);
        if (refusal.isPresent()) {
            return "; auto.guardrail not evaluated: " + refusal.get();
        }
        if (settings.prometheusUrl().isEmpty()) {
            return "; auto.guardrail not evaluated: the operator was installed without a Prometheus URL";
        }
        try {
            Double value = PrometheusQuery.number(query(guardrails.promql(guardrail.getName(), profile.getMetadata().getNamespace(),
                    target.getMetadata().getName(), podNames(pods))));
            observed.setGuardrail(value);
            return value != null ? "" : "; auto.guardrail's query answered no number";
        } catch (Exception e) {
            return "; auto.guardrail query failed: " + describe(e);
        }
    }

    private static List<String> podNames(List<Pod> pods) {
        return pods.stream().map(p -> p.getMetadata().getName()).toList();
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
}
