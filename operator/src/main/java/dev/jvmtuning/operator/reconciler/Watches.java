package dev.jvmtuning.operator.reconciler;

import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import dev.jvmtuning.operator.config.Leadership;
import dev.jvmtuning.operator.config.OperatorSettings;
import dev.jvmtuning.operator.decision.Observation;
import dev.jvmtuning.operator.deployment.TargetContainer;
import dev.jvmtuning.operator.metrics.MetricsFetcher;
import dev.jvmtuning.operator.model.LabelsAndAnnotations;
import dev.jvmtuning.operator.model.MetricsReport;
import dev.jvmtuning.operator.render.DeploymentTuning;
import dev.jvmtuning.operator.rollout.Rollout;
import dev.jvmtuning.operator.deployment.TargetPods;
import dev.jvmtuning.operator.deployment.VerticalScalers;
import io.fabric8.kubernetes.api.model.APIResourceList;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.IndexedResourceCache;
import io.javaoperatorsdk.operator.processing.GroupVersionKind;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.Mappers;
import io.javaoperatorsdk.operator.processing.event.source.polling.PerResourcePollingConfigurationBuilder;
import io.javaoperatorsdk.operator.processing.event.source.polling.PerResourcePollingEventSource;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * What a profile's reconcile reads besides the profile: its target Deployment and its ConfigMap from
 * informers, and its pods' metrics from a poller on threads of its own.
 */
final class Watches implements AutoCloseable {
    private static final String TARGET_INDEX = "target";

    private final OperatorSettings.Metrics settings;
    private final Leadership leadership;
    private final ScheduledExecutorService pollers;
    private MetricsFetcher fetcher;
    private IndexedResourceCache<TuningProfile> profiles;
    private InformerEventSource<Pod, TuningProfile> podSource;
    private InformerEventSource<HorizontalPodAutoscaler, TuningProfile> autoscalerSource;
    private InformerEventSource<GenericKubernetesResource, TuningProfile> verticalScalerSource;
    private PerResourcePollingEventSource<MetricsReport, TuningProfile, String> metricsSource;

    Watches(OperatorSettings.Metrics settings, Leadership leadership) {
        this.settings = settings;
        this.leadership = leadership;
        // Polls of many profiles at once, so that a few slow pods cannot starve the rest; scrapes themselves are capped by the fetcher.
        AtomicInteger threads = new AtomicInteger();
        this.pollers = Executors.newScheduledThreadPool(settings.concurrency(), r -> {
            Thread t = new Thread(r, "metrics-poll-" + threads.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    List<EventSource<?, TuningProfile>> eventSources(EventSourceContext<TuningProfile> context) {
        profiles = context.getPrimaryCache();
        context.getPrimaryCache().addIndexer(TARGET_INDEX, p -> List.of(key(p.getMetadata().getNamespace(), Observation.targetName(p))));
        // The framework runs an informer per watched namespace and hands them all the configuration's one item store:
        // each namespace's first list then drops the other namespaces' objects from it, and the operator is blind
        // there. Managed fields are left out only where one informer owns the store (all namespaces, or one).
        boolean oneInformer = context.getControllerConfiguration().getEffectiveNamespaces().size() == 1;
        InformerEventSource<Deployment, TuningProfile> deploymentSource = AddedSinceStart.source(InformerEventSourceConfiguration
                .from(Deployment.class, TuningProfile.class)
                .withName("deployments")
                .withItemStore(oneInformer ? WithoutManagedFields.butOtherWriters() : null)
                // The Deployment controller writes status several times per rollout; a reconcile is due only when the
                // template or the operator's annotations changed, or the state of a rollout of tuned settings did.
                .withOnUpdateFilter((updated, old) -> !Objects.equals(updated.getMetadata().getGeneration(), old.getMetadata().getGeneration())
                        || !Objects.equals(updated.getMetadata().getAnnotations(), old.getMetadata().getAnnotations())
                        || DeploymentTuning.tuned(updated) && !Rollout.of(updated).equals(Rollout.of(old)))
                .withSecondaryToPrimaryMapper(d -> context.getPrimaryCache()
                        .byIndex(TARGET_INDEX, key(d.getMetadata().getNamespace(), d.getMetadata().getName()))
                        .stream().map(ResourceID::fromResource).collect(Collectors.toSet()))
                .withPrimaryToSecondaryMapper((TuningProfile p) -> Set.of(new ResourceID(Observation.targetName(p), p.getMetadata().getNamespace())))
                .withNamespacesInheritedFromController(), context);
        InformerEventSource<ConfigMap, TuningProfile> configMapSource = AddedSinceStart.source(InformerEventSourceConfiguration
                .from(ConfigMap.class, TuningProfile.class)
                .withName("configmaps")
                .withItemStore(oneInformer ? WithoutManagedFields.all() : null)
                .withSecondaryToPrimaryMapper(Mappers.fromOwnerReferences(TuningProfile.class))
                .withLabelSelector(LabelsAndAnnotations.MANAGED_BY_LABEL + "=" + LabelsAndAnnotations.OPERATOR)
                .withNamespacesInheritedFromController(), context);
        // A pod's change reconciles the profiles of its Deployment (a rollout's pods are judged at once); reads go through podsOf.
        podSource = aboutTargets(InformerEventSourceConfiguration.from(Pod.class, TuningProfile.class).withName("pods"),
                TargetPods::deploymentName, oneInformer, context);
        // An autoscaler's change reconciles the profiles of the Deployment it scales: its stance on the heap is in status.
        autoscalerSource = aboutTargets(InformerEventSourceConfiguration.from(HorizontalPodAutoscaler.class, TuningProfile.class)
                .withName("autoscalers"), Watches::scaledDeployment, oneInformer, context);
        // VerticalPodAutoscalers where their CRD is served when the operator starts; none elsewhere, and no informer failing.
        verticalScalerSource = served(context.getClient(), VerticalScalers.GROUP_VERSION, VerticalScalers.KIND)
                ? aboutTargets(InformerEventSourceConfiguration.from(GroupVersionKind.fromString(VerticalScalers.GROUP_VERSION + "/"
                        + VerticalScalers.KIND), TuningProfile.class).withName("verticalscalers"), VerticalScalers::targetDeployment, oneInformer,
                        context)
                : null;
        Function<TuningProfile, Optional<Deployment>> targetOf = p -> deploymentSource.get(new ResourceID(Observation.targetName(p),
                p.getMetadata().getNamespace()));
        fetcher = new MetricsFetcher(targetOf, this::podsOf,
                p -> targetOf.apply(p).map(d -> TargetContainer.cpuLimitCores(d, p.getSpec().getContainer())).orElse(null),
                settings, leadership, Clock.systemUTC());
        // Polls at each profile's metrics.interval; a changed report triggers a reconcile.
        metricsSource = new PerResourcePollingEventSource<>(MetricsReport.class, context,
                new PerResourcePollingConfigurationBuilder<MetricsReport, TuningProfile, String>(fetcher, Duration.ofSeconds(30))
                        .withName("metrics").withResourceIDMapper(r -> "report").withExecutorService(pollers).build());
        List<EventSource<?, TuningProfile>> sources = new ArrayList<>(List.of(deploymentSource, podSource, configMapSource, autoscalerSource,
                metricsSource));
        if (verticalScalerSource != null) {
            sources.add(verticalScalerSource);
        }
        return sources;
    }

    void forget(TuningProfile profile) {
        if (fetcher != null) {
            fetcher.forget(profile);
        }
    }

    /**
     * An informer of objects about a Deployment (its pods, its autoscalers): a change reconciles the profiles that target the
     * Deployment it names, whose reads go through the informer's cache.
     */
    private static <R extends HasMetadata> InformerEventSource<R, TuningProfile> aboutTargets(
            InformerEventSourceConfiguration.Builder<R> configuration, Function<R, Optional<String>> deployment, boolean oneInformer,
            EventSourceContext<TuningProfile> context) {
        return AddedSinceStart.source(configuration
                .withItemStore(oneInformer ? WithoutManagedFields.<R>all() : null)
                .withSecondaryToPrimaryMapper(r -> deployment.apply(r)
                        .map(d -> context.getPrimaryCache().byIndex(TARGET_INDEX, key(r.getMetadata().getNamespace(), d)).stream()
                                .map(ResourceID::fromResource).collect(Collectors.toSet()))
                        .orElse(Set.of()))
                .withPrimaryToSecondaryMapper((TuningProfile p) -> Set.of())
                .withNamespacesInheritedFromController(), context);
    }

    /** The HorizontalPodAutoscalers that scale a Deployment, from the informer's cache. */
    List<HorizontalPodAutoscaler> autoscalersOf(Deployment deployment) {
        return autoscalerSource.list(deployment.getMetadata().getNamespace(),
                h -> scaledDeployment(h).filter(deployment.getMetadata().getName()::equals).isPresent()).toList();
    }

    /** The VerticalPodAutoscalers that name a Deployment; none where their CRD was not served when the operator started. */
    List<GenericKubernetesResource> verticalScalersOf(Deployment deployment) {
        return verticalScalerSource == null ? List.of() : verticalScalerSource.list(deployment.getMetadata().getNamespace(),
                v -> VerticalScalers.targetDeployment(v).filter(deployment.getMetadata().getName()::equals).isPresent()).toList();
    }

    /** Whether the API server serves a kind: a discovery read, which every authenticated client may make. */
    private static boolean served(KubernetesClient client, String groupVersion, String kind) {
        try {
            APIResourceList resources = client.getApiResources(groupVersion);
            return resources != null && resources.getResources().stream().anyMatch(r -> kind.equals(r.getKind()));
        } catch (KubernetesClientException e) {
            return false;
        }
    }

    private static Optional<String> scaledDeployment(HorizontalPodAutoscaler autoscaler) {
        return Optional.ofNullable(autoscaler.getSpec()).map(s -> s.getScaleTargetRef())
                .filter(t -> "Deployment".equals(t.getKind()) && "apps".equals(t.getApiVersion() == null ? "apps" : t.getApiVersion().split("/")[0]))
                .map(t -> t.getName());
    }

    /**
     * The ReplicaSets a Deployment owns: a request to the API server, which returns at most its revision history. Its pods' own
     * ReplicaSets say which of them run its template as it is now.
     */
    static List<ReplicaSet> replicaSetsOf(KubernetesClient client, Deployment deployment) {
        return client.apps().replicaSets().inNamespace(deployment.getMetadata().getNamespace())
                .withLabels(deployment.getSpec().getSelector().getMatchLabels()).list().getItems().stream()
                .filter(r -> TargetPods.controlledBy(r, deployment)).toList();
    }

    /** A Deployment's pods, from the informer's cache: no request to the API server. */
    List<Pod> podsOf(Deployment deployment) {
        return podSource.list(deployment.getMetadata().getNamespace(), pod -> TargetPods.belongsTo(pod, deployment)).toList();
    }

    /** The last metrics report of a profile, as polled; reading it never scrapes. */
    Optional<MetricsReport> latestReport(TuningProfile profile) {
        return fetcher == null ? Optional.empty() : fetcher.latest(profile);
    }

    /**
     * A report a reconcile read counts as polled, so a first poll that finds the same (no Ready pod yet)
     * raises no reconcile: with 3000 new profiles, 5026 reconciles became 3633.
     */
    void countAsPolled(TuningProfile profile, MetricsReport report) {
        metricsSource.handleRecentResourceCreate(ResourceID.fromResource(profile), report);
    }

    /**
     * Why the metrics poller is dead, if it is: its threads have stopped, or some profile's polls have not
     * run for several intervals. Nothing but a restart brings a profile's polls back.
     */
    Optional<String> pollingStopped() {
        if (fetcher == null) {
            return Optional.empty();
        }
        if (pollers.isShutdown()) {
            return Optional.of("the metrics poller's threads have stopped");
        }
        return fetcher.stalled(profiles.list().map(TuningProfile::key).toList());
    }

    @Override
    public void close() {
        pollers.shutdownNow();
        if (fetcher != null) {
            fetcher.close();
        }
    }

    /** The live profiles (not being deleted) that name this Deployment as their target. */
    static Collection<TuningProfile> profilesTargeting(Deployment deployment, Context<TuningProfile> context) {
        return context.getPrimaryCache().byIndex(TARGET_INDEX, key(deployment.getMetadata().getNamespace(), deployment.getMetadata().getName()));
    }

    private static String key(String namespace, String name) {
        return namespace + "/" + name;
    }
}
