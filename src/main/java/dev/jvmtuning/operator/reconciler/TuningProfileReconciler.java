package dev.jvmtuning.operator.reconciler;

import static dev.jvmtuning.operator.reconciler.Conditions.APPLIED;
import static dev.jvmtuning.operator.reconciler.Conditions.READY;
import static dev.jvmtuning.operator.reconciler.Conditions.ROLLOUT_COMPLETE;

import dev.jvmtuning.operator.api.v1alpha1.Mode;
import dev.jvmtuning.operator.api.v1alpha1.Observed;
import dev.jvmtuning.operator.api.v1alpha1.Recommendation;
import dev.jvmtuning.operator.api.v1alpha1.Setting;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfileSpec;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfileStatus;
import dev.jvmtuning.operator.api.v1alpha1.Workload;
import dev.jvmtuning.operator.config.OperatorSettings;
import dev.jvmtuning.operator.metrics.MetricsFetcher;
import dev.jvmtuning.operator.metrics.MetricsReport;
import dev.jvmtuning.operator.planner.ContainerFacts;
import dev.jvmtuning.operator.planner.ObservedWorkload;
import dev.jvmtuning.operator.planner.PlanResult;
import dev.jvmtuning.operator.planner.Planner;
import dev.jvmtuning.operator.pressure.Finding;
import dev.jvmtuning.operator.pressure.PressureDetector;
import dev.jvmtuning.operator.render.Rendering;
import dev.jvmtuning.operator.target.TargetContainer;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentCondition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Cleaner;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.DeleteControl;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.Mappers;
import io.javaoperatorsdk.operator.processing.event.source.polling.PerResourcePollingConfigurationBuilder;
import io.javaoperatorsdk.operator.processing.event.source.polling.PerResourcePollingEventSource;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.jboss.logging.Logger;

/**
 * Observe the target, plan, write what the plan needs (Apply mode), report. Writes to the Deployment
 * are server-side applies of the operator's own fields, sent only when they differ from what is there;
 * deleting the profile or switching it to Recommend puts the user's pod template back.
 */
@ControllerConfiguration(name = TuningProfileReconciler.NAME, fieldManager = TuningProfileReconciler.FIELD_MANAGER)
public class TuningProfileReconciler implements Reconciler<TuningProfile>, Cleaner<TuningProfile> {
    public static final String NAME = "tuningprofile";
    public static final String FIELD_MANAGER = "jvm-tuning-operator";
    static final String TARGET_INDEX = "target";
    static final String MANAGED_BY = "app.kubernetes.io/managed-by";
    private static final Logger LOG = Logger.getLogger(TuningProfileReconciler.class);

    private final OperatorSettings settings;
    private final OperatorMetrics metrics;
    private MetricsFetcher metricsFetcher;

    public TuningProfileReconciler(OperatorSettings settings, io.micrometer.core.instrument.MeterRegistry registry) {
        this.settings = settings;
        this.metrics = new OperatorMetrics(registry, NAME);
    }

    @Override
    public List<EventSource<?, TuningProfile>> prepareEventSources(EventSourceContext<TuningProfile> context) {
        context.getPrimaryCache().addIndexer(TARGET_INDEX, p -> List.of(targetKey(p.getMetadata().getNamespace(), targetName(p))));
        var deployments = InformerEventSourceConfiguration.from(Deployment.class, TuningProfile.class)
                .withName("deployments")
                .withSecondaryToPrimaryMapper(d -> context.getPrimaryCache()
                        .byIndex(TARGET_INDEX, targetKey(d.getMetadata().getNamespace(), d.getMetadata().getName()))
                        .stream().map(ResourceID::fromResource).collect(Collectors.toSet()))
                .withPrimaryToSecondaryMapper((TuningProfile p) -> Set.of(new ResourceID(targetName(p), p.getMetadata().getNamespace())))
                .withNamespacesInheritedFromController()
                .build();
        var configMaps = InformerEventSourceConfiguration.from(ConfigMap.class, TuningProfile.class)
                .withName("configmaps")
                .withSecondaryToPrimaryMapper(Mappers.fromOwnerReferences(TuningProfile.class))
                .withLabelSelector(MANAGED_BY + "=" + FIELD_MANAGER)
                .withNamespacesInheritedFromController()
                .build();
        InformerEventSource<Deployment, TuningProfile> deploymentSource = new InformerEventSource<>(deployments, context);
        metricsFetcher = new MetricsFetcher(context.getClient(),
                p -> deploymentSource.get(new ResourceID(targetName(p), p.getMetadata().getNamespace())),
                settings.metrics(), Clock.systemUTC());
        // Polls on its own threads at each profile's metrics.interval; a changed report triggers a reconcile.
        var metrics = new PerResourcePollingEventSource<>(MetricsReport.class, context,
                new PerResourcePollingConfigurationBuilder<MetricsReport, TuningProfile, String>(metricsFetcher, Duration.ofSeconds(30))
                        .withName("metrics").withResourceIDMapper(r -> "report").build());
        return List.of(deploymentSource, new InformerEventSource<>(configMaps, context), metrics);
    }

    @Override
    public UpdateControl<TuningProfile> reconcile(TuningProfile profile, Context<TuningProfile> context) {
        return metrics.reconcile(() -> reconcileAndReport(profile, context));
    }

    private UpdateControl<TuningProfile> reconcileAndReport(TuningProfile profile, Context<TuningProfile> context) {
        TuningProfileStatus before = Objects.requireNonNullElseGet(profile.getStatus(), TuningProfileStatus::new);
        Report report = new Report(before, profile.getMetadata().getGeneration());
        Optional<Deployment> target = context.getSecondaryResource(Deployment.class);
        if (target.isEmpty()) {
            report.notApplied("TargetNotFound", "Deployment " + targetName(profile) + " not found in namespace " + profile.getMetadata().getNamespace());
        } else if (reconcileWith(profile, target.get(), context, report)) {
            context.getSecondaryResource(MetricsReport.class)
                    .ifPresent(metrics -> report.metrics(metrics, remeasured(profile, report, metrics.observed(), context)));
        }
        TuningProfileStatus after = report.status();
        recordEvents(profile, before, after, context.getClient());
        metrics.record(key(profile), after.getConditions());
        UpdateControl<TuningProfile> control;
        if (after.equals(before)) {
            control = UpdateControl.noUpdate();
        } else {
            TuningProfile patch = new TuningProfile();
            patch.setMetadata(new ObjectMetaBuilder()
                    .withName(profile.getMetadata().getName()).withNamespace(profile.getMetadata().getNamespace()).build());
            patch.setStatus(after);
            control = UpdateControl.patchStatus(patch);
        }
        return control.rescheduleAfter(settings.resyncPeriod());
    }

    /** Returns whether the profile governs its target, so that the target's metrics speak of its settings. */
    private boolean reconcileWith(TuningProfile profile, Deployment deployment, Context<TuningProfile> context, Report report) {
        String name = profile.getMetadata().getName();
        Optional<TuningProfile> owner = oldestProfileFor(deployment, context);
        if (owner.isPresent() && !owner.get().getMetadata().getName().equals(name)) {
            report.notApplied("Conflict", "Deployment " + deployment.getMetadata().getName() + " is already tuned by TuningProfile "
                    + owner.get().getMetadata().getName() + ", which is older; this profile writes nothing");
            return false;
        }
        TargetContainer.Lookup lookup = TargetContainer.find(deployment, profile.getSpec().getContainer());
        if (!lookup.isFound()) {
            report.notApplied("Invalid", lookup.problem());
            return false;
        }
        String configMapName = DeploymentTuning.configMapName(name);
        Container userContainer = DeploymentTuning.userContainer(deployment, lookup.container(), configMapName);
        ContainerFacts facts = TargetContainer.facts(deployment, userContainer, null);
        PlanResult result = Planner.plan(profile.getSpec(), facts);
        if (result instanceof PlanResult.Rejected rejected) {
            // The last applied settings, if any, stay in place: a bad edit must not undo a good state.
            report.notApplied(rejected.reason().name(), String.join("; ", rejected.messages()));
            return true;
        }
        PlanResult.Plan plan = (PlanResult.Plan) result;
        report.planned(plan, facts);
        if (profile.getSpec().getMode() == Mode.Recommend) {
            if (DeploymentTuning.tunedBy(deployment, name)) {
                restore(deployment, configMapName, context);
            }
            report.recommendOnly();
            return true;
        }
        applyConfigMap(profile, plan.rendering(), configMapName, context);
        DeploymentTuning.Agent agent = profile.getSpec().getMetrics() != null && profile.getSpec().getMetrics().agentInjected()
                ? new DeploymentTuning.Agent(settings.agent().image(), settings.agent().jarPath()) : null;
        Deployment desired = DeploymentTuning.desired(deployment, userContainer, name, plan.rendering(), configMapName, agent);
        Deployment live = deployment;
        if (!DeploymentTuning.upToDate(deployment, desired, configMapName)) {
            LOG.infof("applying settings %s to Deployment %s/%s", DeploymentTuning.hash(plan.rendering(), configMapName),
                    deployment.getMetadata().getNamespace(), deployment.getMetadata().getName());
            live = context.getClient().resource(desired).fieldManager(FIELD_MANAGER).forceConflicts().serverSideApply();
            cacheRecentWrite(context, Deployment.class, live, deployment);
        }
        report.applied("settings " + DeploymentTuning.hash(plan.rendering(), configMapName) + " rendered into container "
                + userContainer.getName() + " of Deployment " + deployment.getMetadata().getName(), rollout(live));
        return true;
    }

    @Override
    public DeleteControl cleanup(TuningProfile profile, Context<TuningProfile> context) {
        context.getSecondaryResource(Deployment.class)
                .filter(d -> DeploymentTuning.tunedBy(d, profile.getMetadata().getName()))
                .ifPresent(d -> restore(d, DeploymentTuning.configMapName(profile.getMetadata().getName()), context));
        context.getClient().configMaps().inNamespace(profile.getMetadata().getNamespace())
                .withName(DeploymentTuning.configMapName(profile.getMetadata().getName())).delete();
        if (metricsFetcher != null) {
            metricsFetcher.forget(profile);
        }
        metrics.forget(key(profile));
        return DeleteControl.defaultDelete();
    }

    /**
     * The closed loop (observe, then plan): the profile's workload with the figures its pods show,
     * recommended when planning with them would change the threads or the connection pool.
     */
    private static List<Recommendation> remeasured(TuningProfile profile, Report report, Observed observed, Context<TuningProfile> context) {
        Workload declared = profile.getSpec().getWorkload();
        if (report.plan == null || observed == null) {
            return List.of();
        }
        return ObservedWorkload.remeasure(declared, observed).map(measured -> {
            TuningProfileSpec spec = context.getClient().getKubernetesSerialization().clone(profile.getSpec());
            spec.setWorkload(measured);
            return Planner.plan(spec, report.facts) instanceof PlanResult.Plan replanned
                    ? ObservedWorkload.recommend(declared, measured, report.plan.values(), replanned.values(), observed)
                    : List.<Recommendation>of();
        }).orElse(List.of());
    }

    /** One replace with the live resourceVersion: the user's template comes back in a single write, or not at all on a conflict (then retried). */
    private static void restore(Deployment deployment, String configMapName, Context<TuningProfile> context) {
        LOG.infof("restoring Deployment %s/%s", deployment.getMetadata().getNamespace(), deployment.getMetadata().getName());
        Deployment restored = context.getClient().resource(DeploymentTuning.restored(deployment, configMapName)).update();
        cacheRecentWrite(context, Deployment.class, restored, deployment);
    }

    private static void applyConfigMap(TuningProfile profile, Rendering rendering, String configMapName, Context<TuningProfile> context) {
        Map<String, String> data = new LinkedHashMap<>(rendering.serverEnvironment());
        data.put("jvm-options", String.join(" ", rendering.renderedFlags()));
        Optional<ConfigMap> current = context.getSecondaryResource(ConfigMap.class);
        if (current.isPresent() && data.equals(current.get().getData())) {
            return;
        }
        ConfigMap desired = new ConfigMapBuilder()
                .withNewMetadata().withName(configMapName).withNamespace(profile.getMetadata().getNamespace())
                .addToLabels(MANAGED_BY, FIELD_MANAGER).addToLabels("jvmtuning.dev/profile", profile.getMetadata().getName())
                .addNewOwnerReference().withApiVersion(profile.getApiVersion()).withKind(profile.getKind())
                .withName(profile.getMetadata().getName()).withUid(profile.getMetadata().getUid()).withController(true).endOwnerReference()
                .endMetadata()
                .withData(data)
                .build();
        ConfigMap written = context.getClient().resource(desired).fieldManager(FIELD_MANAGER).forceConflicts().serverSideApply();
        cacheRecentWrite(context, ConfigMap.class, written, current.orElse(null));
    }

    /** Tells the informer about our own write, so the next reconcile reads it instead of a stale copy. */
    @SuppressWarnings("unchecked")
    private static <R extends io.fabric8.kubernetes.api.model.HasMetadata> void cacheRecentWrite(Context<TuningProfile> context, Class<R> type,
            R written, R previous) {
        var source = (InformerEventSource<R, TuningProfile>) context.eventSourceRetriever().getEventSourceFor(type);
        if (previous == null) {
            source.handleRecentResourceCreate(ResourceID.fromResource(written), written);
        } else {
            source.handleRecentResourceUpdate(ResourceID.fromResource(written), written, previous);
        }
    }

    /** Two profiles on one Deployment: the older one tunes it (then the name decides), the other reports Conflict. */
    private static Optional<TuningProfile> oldestProfileFor(Deployment deployment, Context<TuningProfile> context) {
        return context.getPrimaryCache()
                .byIndex(TARGET_INDEX, targetKey(deployment.getMetadata().getNamespace(), deployment.getMetadata().getName()))
                .stream()
                .filter(p -> p.getMetadata().getDeletionTimestamp() == null)
                .min(Comparator.comparing((TuningProfile p) -> Instant.parse(p.getMetadata().getCreationTimestamp()))
                        .thenComparing(p -> p.getMetadata().getName()));
    }

    /** RolloutComplete from the Deployment's own status, after it has seen the current template. */
    static Rollout rollout(Deployment deployment) {
        var status = deployment.getStatus();
        int replicas = Objects.requireNonNullElse(deployment.getSpec().getReplicas(), 1);
        if (status == null || status.getObservedGeneration() == null || status.getObservedGeneration() < deployment.getMetadata().getGeneration()) {
            return new Rollout(false, "RollingOut", "the Deployment controller has not yet seen generation " + deployment.getMetadata().getGeneration());
        }
        Optional<DeploymentCondition> stalled = Objects.requireNonNullElse(status.getConditions(), List.<DeploymentCondition>of()).stream()
                .filter(c -> "Progressing".equals(c.getType()) && "False".equals(c.getStatus()) && "ProgressDeadlineExceeded".equals(c.getReason()))
                .findFirst();
        if (stalled.isPresent()) {
            return new Rollout(false, "Degraded", "rollout exceeded its progress deadline: " + stalled.get().getMessage());
        }
        int updated = Objects.requireNonNullElse(status.getUpdatedReplicas(), 0);
        int available = Objects.requireNonNullElse(status.getAvailableReplicas(), 0);
        int total = Objects.requireNonNullElse(status.getReplicas(), 0);
        if (updated == replicas && available == replicas && total == replicas) {
            return new Rollout(true, "RolloutComplete", replicas + " of " + replicas + " replicas run the tuned settings");
        }
        return new Rollout(false, "RollingOut", updated + " of " + replicas + " replicas updated, " + available + " available");
    }

    record Rollout(boolean complete, String reason, String message) {
    }

    /** Events on transitions: Warnings for trouble (pressure True, anything else False), Normal when it clears or succeeds. */
    private static void recordEvents(TuningProfile profile, TuningProfileStatus before, TuningProfileStatus after, KubernetesClient client) {
        EventRecorder events = new EventRecorder(client);
        for (Condition changed : Conditions.transitions(before.getConditions(), after.getConditions())) {
            String status = changed.getStatus();
            // No ready pods (scaled to zero, rolling out) and rolling out are states, not faults: no Event.
            if (changed.getType().equals(READY) || Finding.UNKNOWN.equals(status)
                    || List.of("RollingOut", "NoReadyPods", "FirstSample").contains(changed.getReason())) {
                continue;
            }
            boolean trouble = PressureDetector.CONDITION_TYPES.contains(changed.getType())
                    ? Finding.TRUE.equals(status)
                    : Finding.FALSE.equals(status) && !"RecommendOnly".equals(changed.getReason());
            if (trouble) {
                events.warning(profile, changed.getReason(), changed.getMessage());
            } else if (Conditions.find(before.getConditions(), changed.getType()).isPresent() || Finding.TRUE.equals(status)
                    || "RecommendOnly".equals(changed.getReason())) {
                events.normal(profile, changed.getReason(), changed.getMessage());
            }
        }
        List<String> newWarnings = new ArrayList<>(after.getWarnings());
        newWarnings.removeAll(before.getWarnings());
        newWarnings.forEach(w -> events.warning(profile, "SettingOverridden", w));
    }

    private static String targetName(TuningProfile profile) {
        return profile.getSpec() == null || profile.getSpec().getTargetRef() == null ? "" : profile.getSpec().getTargetRef().getName();
    }

    private static String key(TuningProfile profile) {
        return targetKey(profile.getMetadata().getNamespace(), profile.getMetadata().getName());
    }

    private static String targetKey(String namespace, String name) {
        return namespace + "/" + name;
    }

    /** Builds the next status from the previous one; conditions keep their transition times unless they flip. */
    private static final class Report {
        private final TuningProfileStatus status = new TuningProfileStatus();
        private final Long generation;
        private final String now = Instant.now().toString();
        private PlanResult.Plan plan;
        private ContainerFacts facts;

        Report(TuningProfileStatus previous, Long generation) {
            this.generation = generation;
            status.setObservedGeneration(generation);
            status.setConditions(new ArrayList<>(previous.getConditions()));
            status.setSettings(previous.getSettings());
            status.setWarnings(previous.getWarnings());
            status.setObserved(previous.getObserved());
            status.setRecommendations(previous.getRecommendations());
        }

        void notApplied(String reason, String message) {
            condition(APPLIED, false, reason, message);
            condition(READY, false, reason, message);
            status.setConditions(Conditions.remove(status.getConditions(), ROLLOUT_COMPLETE));
        }

        void planned(PlanResult.Plan plan, ContainerFacts facts) {
            this.plan = plan;
            this.facts = facts;
            status.setSettings(plan.decisions().stream().map(d -> new Setting(d.name(), d.value(),
                    plan.rendering().renderedAs().get(d.name()), d.rule(), d.rationale())).toList());
            status.setWarnings(plan.warnings());
        }

        void recommendOnly() {
            String message = "Recommend mode: nothing is written to the Deployment; status.settings shows what Apply would render";
            condition(APPLIED, false, "RecommendOnly", message);
            condition(READY, true, "RecommendOnly", message);
            status.setConditions(Conditions.remove(status.getConditions(), ROLLOUT_COMPLETE));
        }

        void applied(String message, Rollout rollout) {
            condition(APPLIED, true, "Applied", message);
            condition(ROLLOUT_COMPLETE, rollout.complete(), rollout.reason(), rollout.message());
            condition(READY, rollout.complete(), rollout.complete() ? "Ready" : rollout.reason(), rollout.message());
        }

        /** @param remeasured the closed loop's recommendations, beside the detector's */
        void metrics(MetricsReport metrics, List<Recommendation> remeasured) {
            condition(Conditions.METRICS_AVAILABLE, metrics.availableStatus(), metrics.availableReason(), metrics.availableMessage());
            if (metrics.observed() != null) {
                status.setObserved(metrics.observed());
            }
            if (metrics.verdict() != null) {
                metrics.verdict().findings().forEach(f -> condition(f.type(), f.status(), f.reason(), f.message()));
                List<Recommendation> recommendations = new ArrayList<>(metrics.verdict().recommendations());
                recommendations.addAll(remeasured);
                status.setRecommendations(recommendations);
            }
        }

        private void condition(String type, String value, String reason, String message) {
            status.setConditions(Conditions.set(status.getConditions(), type, value, reason, message, generation, now));
        }

        private void condition(String type, boolean value, String reason, String message) {
            status.setConditions(Conditions.set(status.getConditions(), type, value, reason, message, generation, now));
        }

        TuningProfileStatus status() {
            return status;
        }
    }
}
