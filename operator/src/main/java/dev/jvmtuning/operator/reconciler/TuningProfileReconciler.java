package dev.jvmtuning.operator.reconciler;

import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import dev.jvmtuning.operator.config.Leadership;
import dev.jvmtuning.operator.config.OperatorSettings;
import dev.jvmtuning.operator.decision.Decide;
import dev.jvmtuning.operator.decision.Observation;
import dev.jvmtuning.operator.rollout.Rollout;
import dev.jvmtuning.operator.decision.StatusBuilder;
import dev.jvmtuning.operator.flags.FlagPolicy;
import dev.jvmtuning.operator.installation.GuardrailQueries;
import dev.jvmtuning.operator.installation.PublishedSettings;
import dev.jvmtuning.operator.model.LabelsAndAnnotations;
import dev.jvmtuning.operator.model.MetricsReport;
import dev.jvmtuning.operator.preview.Preview;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.api.reconciler.Cleaner;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.DeleteControl;
import io.javaoperatorsdk.operator.api.reconciler.ErrorStatusUpdateControl;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.annotation.PreDestroy;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * The reconcile as observe, decide, act: what it reads comes from {@link Watches} (the event sources and the
 * metrics poller) into one {@link Observation}; {@link Decide} turns that into writes, status and Events, purely;
 * {@link TargetWrites} carries the writes out.
 */
// The profiles' informer keeps the default item store, managed fields and all: an annotation cannot tell one informer
// from one per namespace, and a store shared by several loses objects (see Watches).
@ControllerConfiguration(name = TuningProfileReconciler.NAME, fieldManager = TuningProfileReconciler.FIELD_MANAGER)
public class TuningProfileReconciler implements Reconciler<TuningProfile>, Cleaner<TuningProfile> {
    public static final String NAME = "tuningprofile";
    public static final String FIELD_MANAGER = LabelsAndAnnotations.OPERATOR;
    private static final Logger LOG = Logger.getLogger(TuningProfileReconciler.class);
    private static final Duration MIN_RECHECK = Duration.ofSeconds(1);
    /** A refused write is tried again this soon where the resync is later: a loaded API server that timed out answers a minute on. */
    private static final Duration WRITE_RETRY = Duration.ofSeconds(30);

    private final OperatorSettings settings;
    private final OperatorMetrics metrics;
    private final Watches watches;
    private final Decide.Installation installation;
    private final Leadership leadership;

    public TuningProfileReconciler(OperatorSettings settings, MeterRegistry registry, Leadership leadership) {
        this.settings = settings;
        this.leadership = leadership;
        this.installation = new Decide.Installation(new Preview.Installation(FlagPolicy.bundled(settings.flagPolicy().allow().orElse(List.of())),
                GuardrailQueries.of(settings.metrics().guardrailQueries())::refusal), settings.agent().image(), settings.agent().jarPath());
        this.metrics = new OperatorMetrics(registry, NAME);
        this.watches = new Watches(settings.metrics(), leadership);
    }

    @Override
    public List<EventSource<?, TuningProfile>> prepareEventSources(EventSourceContext<TuningProfile> context) {
        // Only a leader releases and publishes: during a rolling upgrade the old leader still watches the namespaces the new list
        // drops, with its own settings.
        settings.ownNamespace().ifPresent(namespace -> {
            leadership.whenLeading(new NamespaceRelease(context.getClient(), namespace, context.getControllerConfiguration()));
            leadership.whenLeading(new SettingsPublication(context.getClient(), namespace, published(settings)));
        });
        return watches.eventSources(context);
    }

    /** What a running operator publishes of its settings. */
    private static PublishedSettings published(OperatorSettings settings) {
        return new PublishedSettings(settings.flagPolicy().allow().orElse(List.of()), settings.metrics().guardrailQueries(),
                settings.agent().image(), settings.agent().jarPath());
    }

    /** Why this operator's metrics polling is dead, if it is: its liveness check reports it, so the pod is restarted. */
    public Optional<String> metricsPollingStopped() {
        return watches.pollingStopped();
    }

    @PreDestroy
    void stop() {
        watches.close();
    }

    @Override
    public UpdateControl<TuningProfile> reconcile(TuningProfile profile, Context<TuningProfile> context) {
        return metrics.reconcile(() -> reconcileAndReport(profile, context));
    }

    /**
     * A reconcile that threw (not a refused write, which the reconcile reports itself): said in status and an Event
     * rather than only in the operator's log. The framework retries with backoff.
     */
    @Override
    public ErrorStatusUpdateControl<TuningProfile> updateErrorStatus(TuningProfile profile, Context<TuningProfile> context, Exception e) {
        Decide.Decision failed = Decide.reconcileFailed(profile, e, Instant.now());
        report(profile, failed, context);
        return failed.status().equals(profile.getStatus()) ? ErrorStatusUpdateControl.noStatusUpdate()
                : ErrorStatusUpdateControl.patchStatus(StatusBuilder.patch(profile, failed.status()));
    }

    /** Observe, decide, act: every read first, then the pure decision, then its writes, status and Events. */
    private UpdateControl<TuningProfile> reconcileAndReport(TuningProfile profile, Context<TuningProfile> context) {
        Observation seen = observe(profile, context);
        Decide.Decision decision = Decide.of(seen, installation);
        boolean refused = false;
        try {
            new TargetWrites(context).perform(decision.writes());
        } catch (KubernetesClientException e) {
            // Said in status and an Event rather than retried in silence; the profile is reconciled again within WRITE_RETRY.
            refused = true;
            String refusal = TargetWrites.refusal(e);
            LOG.warnf("applying TuningProfile %s failed: %s", profile.key(), refusal);
            decision = Decide.writesRefused(seen, refusal);
        }
        decision = PodResizes.perform(context.getClient(), seen, decision);
        report(profile, decision, context);
        UpdateControl<TuningProfile> control = decision.status().equals(seen.previousStatus()) ? UpdateControl.noUpdate()
                : UpdateControl.patchStatus(StatusBuilder.patch(profile, decision.status()));
        // The resync timer, rollout or not: no shorter check during a rollout, as its pods' and the Deployment's status
        // changes each reconcile the profile. A startup boost that ends sooner is the exception: no pod event marks its end.
        Duration next = nextReconcile(seen.now(), decision.recheckAt());
        return control.rescheduleAfter(refused && WRITE_RETRY.compareTo(next) < 0 ? WRITE_RETRY : next);
    }

    /** The resync period, or sooner when a boost ends before it (at least a second on, so a boost already due cannot spin). */
    private Duration nextReconcile(Instant now, Optional<Instant> recheckAt) {
        Duration resync = settings.resyncPeriod();
        return recheckAt.map(at -> Duration.between(now, at)).map(d -> d.compareTo(MIN_RECHECK) < 0 ? MIN_RECHECK : d)
                .filter(d -> d.compareTo(resync) < 0).orElse(resync);
    }

    /** Everything the decision needs, read once: the informers' caches and the latest metrics poll. */
    private Observation observe(TuningProfile profile, Context<TuningProfile> context) {
        Optional<Deployment> target = context.getSecondaryResource(Deployment.class);
        Optional<MetricsReport> report = watches.latestReport(profile);
        report.ifPresent(r -> watches.countAsPolled(profile, r));
        return new Observation(profile, target,
                target.map(d -> List.copyOf(Watches.profilesTargeting(d, context))).orElse(List.of()),
                target.map(watches::podsOf).orElse(List.of()),
                // Only while a rollout is under way do some pods run another template than the Deployment's.
                target.filter(d -> !Rollout.of(d).complete()).map(d -> Watches.replicaSetsOf(context.getClient(), d)).orElse(List.of()),
                List.copyOf(context.getSecondaryResources(ConfigMap.class)),
                report,
                target.map(watches::autoscalersOf).orElse(List.of()),
                target.map(watches::verticalScalersOf).orElse(List.of()),
                Instant.now());
    }

    private void report(TuningProfile profile, Decide.Decision decision, Context<TuningProfile> context) {
        new EventRecorder(context.getClient()).record(profile, decision.events());
        metrics.record(profile, decision.status());
    }

    @Override
    public DeleteControl cleanup(TuningProfile profile, Context<TuningProfile> context) {
        Optional<Deployment> target = context.getSecondaryResource(Deployment.class);
        new EventRecorder(context.getClient()).record(profile, PodResizes.takeBack(context.getClient(), profile,
                target.map(watches::podsOf).orElse(List.of()), "the profile was deleted"));
        new TargetWrites(context).perform(Decide.cleanup(profile, target, List.copyOf(context.getSecondaryResources(ConfigMap.class))));
        watches.forget(profile);
        metrics.forget(profile.key());
        return DeleteControl.defaultDelete();
    }
}
