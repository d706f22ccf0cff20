package dev.jvmtuning.operator.reconciler;

import dev.jvmtuning.operator.api.v1alpha1.Mode;
import dev.jvmtuning.operator.api.v1alpha1.Recommendation;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfileStatus;
import dev.jvmtuning.operator.config.Leadership;
import dev.jvmtuning.operator.config.OperatorSettings;
import dev.jvmtuning.operator.config.PublishedSettings;
import dev.jvmtuning.operator.flags.FlagPolicy;
import dev.jvmtuning.operator.metrics.GuardrailQueries;
import dev.jvmtuning.operator.model.ContainerFacts;
import dev.jvmtuning.operator.model.CurrentSettings;
import dev.jvmtuning.operator.model.LabelsAndAnnotations;
import dev.jvmtuning.operator.model.Reason;
import dev.jvmtuning.operator.closedloop.ObservedWorkload;
import dev.jvmtuning.operator.planner.PlanResult;
import dev.jvmtuning.operator.pressure.PressureDetector;
import dev.jvmtuning.operator.preview.Preview;
import dev.jvmtuning.operator.render.DeploymentTuning;
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
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * The reconcile as a pipeline: look up the target, plan, render, apply (Apply mode), judge the
 * metrics against the plan, report. Every step but the writes is a pure function of its inputs; the
 * writes go through {@link TargetWrites}, the event sources and the metrics fetcher through {@link Watches}.
 */
// The profiles' informer keeps the default item store, managed fields and all: an annotation cannot tell one informer
// from one per namespace, and a store shared by several loses objects (see Watches).
@ControllerConfiguration(name = TuningProfileReconciler.NAME, fieldManager = TuningProfileReconciler.FIELD_MANAGER)
public class TuningProfileReconciler implements Reconciler<TuningProfile>, Cleaner<TuningProfile> {
    public static final String NAME = "tuningprofile";
    public static final String FIELD_MANAGER = LabelsAndAnnotations.OPERATOR;
    private static final Logger LOG = Logger.getLogger(TuningProfileReconciler.class);

    private final OperatorSettings settings;
    private final OperatorMetrics metrics;
    private final Watches watches;
    private final FlagPolicy flagPolicy;
    private final Preview.Installation installation;
    private final AutoMode autoMode;
    private final Leadership leadership;

    public TuningProfileReconciler(OperatorSettings settings, MeterRegistry registry, Leadership leadership) {
        this.settings = settings;
        this.leadership = leadership;
        this.flagPolicy = FlagPolicy.bundled(settings.flagPolicy().allow().orElse(List.of()));
        this.installation = new Preview.Installation(flagPolicy, GuardrailQueries.of(settings.metrics().guardrailQueries())::refusal);
        this.metrics = new OperatorMetrics(registry, NAME);
        this.watches = new Watches(settings.metrics(), leadership);
        this.autoMode = new AutoMode(flagPolicy);
    }

    @Override
    public List<EventSource<?, TuningProfile>> prepareEventSources(EventSourceContext<TuningProfile> context) {
        // Only a leader releases and publishes: during a rolling upgrade the old leader still watches the namespaces the new list
        // drops, with its own settings.
        settings.ownNamespace().ifPresent(namespace -> {
            leadership.whenLeading(new NamespaceRelease(context.getClient(), namespace, context.getControllerConfiguration()));
            leadership.whenLeading(new SettingsPublication(context.getClient(), namespace, PublishedSettings.of(settings)));
        });
        return watches.eventSources(context);
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
     * A reconcile that threw (not a refused write, which tune reports itself): said in status and an Event rather
     * than only in the operator's log. The framework retries with backoff; the next reconcile that gets through
     * writes Ready again.
     */
    @Override
    public ErrorStatusUpdateControl<TuningProfile> updateErrorStatus(TuningProfile profile, Context<TuningProfile> context, Exception e) {
        TuningProfileStatus before = Objects.requireNonNullElseGet(profile.getStatus(), TuningProfileStatus::new);
        TuningProfileStatus after = new StatusBuilder(before, profile.getMetadata().getGeneration(), Instant.now().toString())
                .reconcileFailed("reconcile failed: " + e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage()))
                .build();
        new EventRecorder(context.getClient()).record(profile, EventPolicy.events(before, after));
        metrics.record(profile, after);
        return after.equals(before) ? ErrorStatusUpdateControl.noStatusUpdate()
                : ErrorStatusUpdateControl.patchStatus(StatusBuilder.patch(profile, after));
    }

    private UpdateControl<TuningProfile> reconcileAndReport(TuningProfile profile, Context<TuningProfile> context) {
        TuningProfileStatus before = Objects.requireNonNullElseGet(profile.getStatus(), TuningProfileStatus::new);
        // One moment per reconcile: status, a rollback and the Auto loop's decision all say the same time.
        Instant now = Instant.now();
        StatusBuilder status = new StatusBuilder(before, profile.getMetadata().getGeneration(), now.toString());
        Optional<Deployment> target = context.getSecondaryResource(Deployment.class);
        if (target.isEmpty()) {
            status.notApplied(Reason.TARGET_NOT_FOUND, "Deployment " + Watches.targetName(profile) + " not found in namespace "
                    + profile.getMetadata().getNamespace());
        } else {
            try {
                tune(profile, target.get(), context, status, now);
            } catch (KubernetesClientException e) {
                // Said in status and an Event rather than retried in silence; the next reconcile tries again.
                LOG.warnf("applying TuningProfile %s failed: %s", profile.key(), e.getMessage());
                status.notApplied(Reason.APPLY_FAILED, "writing to Deployment " + Watches.targetName(profile) + " failed: "
                        + Objects.requireNonNullElse(e.getStatus() == null ? null : e.getStatus().getMessage(), e.getMessage()));
            }
        }
        TuningProfileStatus after = status.build();
        new EventRecorder(context.getClient()).record(profile, EventPolicy.events(before, after));
        metrics.record(profile, after);
        UpdateControl<TuningProfile> control = after.equals(before) ? UpdateControl.noUpdate()
                : UpdateControl.patchStatus(StatusBuilder.patch(profile, after));
        // The resync timer alone, rollout or not: no shorter check during a rollout, as its pods' and the Deployment's status
        // changes each reconcile the profile.
        return control.rescheduleAfter(settings.resyncPeriod());
    }

    private void tune(TuningProfile profile, Deployment deployment, Context<TuningProfile> context, StatusBuilder status, Instant now) {
        String name = profile.getMetadata().getName();
        Optional<TuningProfile> owner = ProfileArbitration.owner(Watches.profilesTargeting(deployment, context));
        if (owner.isPresent() && !owner.get().getMetadata().getName().equals(name)) {
            status.notApplied(Reason.CONFLICT, "Deployment " + deployment.getMetadata().getName() + " is already tuned by TuningProfile "
                    + owner.get().getMetadata().getName() + ", which is older; this profile writes nothing");
            return;
        }
        TargetWrites writes = new TargetWrites(context);
        Preview preview = Preview.of(name, profile.getSpec(), status.auto(), deployment, null, installation);
        if (preview instanceof Preview.NoContainer missing) {
            restoreIfTuned(deployment, name, writes);
            status.notApplied(Reason.INVALID, missing.problem());
            return;
        }
        boolean auto = profile.getSpec().getMode() == Mode.Auto;
        if (!auto) {
            status.auto(null);
        }
        if (preview instanceof Preview.Rejected rejected) {
            // Flags planned for another spec or container must not stay: the user's own template comes back.
            restoreIfTuned(deployment, name, writes);
            status.notApplied(rejected.reason(), String.join("; ", rejected.messages()));
            watches.planned(profile, CurrentSettings.UNKNOWN);
            report(profile, null, rejected.facts(), CurrentSettings.UNKNOWN, status);
            return;
        }
        Preview.Rendered rendered = (Preview.Rendered) preview;
        PlanResult.Plan plan = rendered.plan();
        status.planned(plan, rendered.rendering());
        watches.planned(profile, plan.current());
        if (profile.getSpec().getMode() == Mode.Recommend) {
            restoreIfTuned(deployment, name, writes);
            status.recommendOnly();
        } else {
            new Rollouts(writes, watches::podsOf, settings.agent()).apply(profile, deployment, rendered.userContainer(), rendered.rendering(), status, now);
        }
        report(profile, plan, rendered.facts(), plan.current(), status);
        if (auto) {
            new EventRecorder(context.getClient()).record(profile, autoMode.decide(profile, deployment, watches.podsOf(deployment), plan, rendered.facts(),
                    watches.metrics(profile), status, context.getClient(), now));
        }
    }

    private static void restoreIfTuned(Deployment deployment, String profile, TargetWrites writes) {
        if (DeploymentTuning.tunedBy(deployment, profile)) {
            writes.restore(deployment, profile);
        }
    }

    /** The metrics of the target's pods, judged against the plan in force, and the closed loop's advice. */
    private void report(TuningProfile profile, PlanResult.Plan plan, ContainerFacts facts, CurrentSettings current, StatusBuilder status) {
        watches.metrics(profile).map(polled -> polled.steadied(status.observed())).ifPresent(report -> {
            var verdict = report.observed() == null ? null
                    : PressureDetector.judge(report.observed(), report.previous(), profile.getSpec().getPressure(), current);
            List<Recommendation> remeasured = plan == null ? List.of()
                    : ObservedWorkload.replan(profile.getSpec(), facts, plan, report.observed(), flagPolicy);
            status.metrics(report, verdict, remeasured);
        });
    }

    @Override
    public DeleteControl cleanup(TuningProfile profile, Context<TuningProfile> context) {
        TargetWrites writes = new TargetWrites(context);
        context.getSecondaryResource(Deployment.class).ifPresent(d -> restoreIfTuned(d, profile.getMetadata().getName(), writes));
        writes.deleteConfigMaps(profile);
        watches.forget(profile);
        metrics.forget(profile.key());
        return DeleteControl.defaultDelete();
    }
}
