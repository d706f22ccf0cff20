package dev.jvmtuning.operator.decision;

import static dev.jvmtuning.operator.model.ConditionType.APPLIED;
import static dev.jvmtuning.operator.model.ConditionType.METRICS_AVAILABLE;
import static dev.jvmtuning.operator.model.ConditionType.NATIVE_MEMORY_PRESSURE;
import static dev.jvmtuning.operator.model.ConditionType.PODS_FAILING;
import static dev.jvmtuning.operator.model.ConditionType.READY;
import static dev.jvmtuning.operator.model.ConditionType.ROLLOUT_COMPLETE;
import static dev.jvmtuning.operator.model.ConditionType.SETTINGS_EFFECTIVE;
import static dev.jvmtuning.operator.model.ConditionType.STARTUP_BOOST;
import static dev.jvmtuning.operator.model.ConditionType.VIRTUAL_THREAD_PINNING;

import dev.jvmtuning.operator.api.v1alpha1.AppliedSettings;
import dev.jvmtuning.operator.api.v1alpha1.BoostedPod;
import dev.jvmtuning.operator.api.v1alpha1.LastRecommendations;
import dev.jvmtuning.operator.api.v1alpha1.Observed;
import dev.jvmtuning.operator.api.v1alpha1.Recommendation;
import dev.jvmtuning.operator.api.v1alpha1.RefusedOption;
import dev.jvmtuning.operator.api.v1alpha1.RollBack;
import dev.jvmtuning.operator.api.v1alpha1.Setting;
import dev.jvmtuning.operator.api.v1alpha1.ThreadingStatus;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfileStatus;
import dev.jvmtuning.operator.model.Attestation;
import dev.jvmtuning.operator.model.ConditionStatus;
import dev.jvmtuning.operator.model.ConditionType;
import dev.jvmtuning.operator.model.MetricsReport;
import dev.jvmtuning.operator.model.Reason;
import dev.jvmtuning.operator.model.RequestThreading;
import dev.jvmtuning.operator.planner.PlanResult.Plan;
import dev.jvmtuning.operator.pressure.Finding;
import dev.jvmtuning.operator.pressure.MemoryAccount;
import dev.jvmtuning.operator.pressure.Verdict;
import dev.jvmtuning.operator.render.Rendering;
import dev.jvmtuning.operator.rollout.Rollout;
import dev.jvmtuning.operator.rollout.StartupBoosts;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * Builds a profile's next status from the previous one: a reconcile's from what its steps found, at once
 * ({@link #assemble}); conditions keep their transition times unless their status flips, and what this
 * reconcile did not look at (settings, observed figures) stays as it was. Written to, never read back. Pure.
 */
public final class StatusBuilder {
    private final TuningProfileStatus status = new TuningProfileStatus();
    private final Long generation;
    /** The generation the previous status (and its recommendations) described. */
    private final Long previousGeneration;
    private final String now;

    public StatusBuilder(TuningProfileStatus previous, Long generation, String now) {
        this.generation = generation;
        this.previousGeneration = previous.getObservedGeneration();
        this.now = now;
        status.setObservedGeneration(generation);
        status.setConditions(new ArrayList<>(previous.getConditions()));
        status.setSettings(previous.getSettings());
        status.setWarnings(previous.getWarnings());
        status.setThreading(previous.getThreading());
        status.setJavaVersion(previous.getJavaVersion());
        status.setAotCache(previous.getAotCache());
        status.setJvmImages(previous.getJvmImages());
        status.setObserved(previous.getObserved());
        status.setRecommendations(previous.getRecommendations());
        status.setLastRecommendations(previous.getLastRecommendations());
        status.setLastHealthy(previous.getLastHealthy());
        status.setRolledBack(previous.getRolledBack());
        status.setRefusedOption(previous.getRefusedOption());
        status.setRollout(previous.getRollout());
        status.setTakenBack(previous.getTakenBack());
        status.setLastOomKill(previous.getLastOomKill());
        status.setAuto(previous.getAuto());
        status.setStartupBoosts(previous.getStartupBoosts());
        status.setAdmitted(previous.getAdmitted());
        status.setVerticalScaling(previous.getVerticalScaling());
    }

    /**
     * The status of a reconcile from what its steps found: each part set once, conditions in the order a reader meets them
     * (the plan, Applied and Ready, the metrics and the judgements on them, the boost).
     */
    static TuningProfileStatus assemble(TuningProfileStatus previous, Long generation, String now, Findings found) {
        StatusBuilder builder = new StatusBuilder(previous, generation, now).remembered(found.remembered());
        TuningProfileStatus status = builder.status;
        status.setAdmitted(found.admitted().orElse(null));
        status.setVerticalScaling(found.verticalScaling());
        status.setAuto(found.auto());
        if (found.planned() != null) {
            builder.planned(found.planned().plan(), found.planned().rendering());
            found.planned().polled().ifPresent(builder::threadingReported);
        }
        builder.applied(found.applied(), found.remembered());
        if (found.metrics() != null) {
            builder.metrics(found.metrics().report(), found.metrics().verdict(), found.metrics().remeasured());
        }
        if (found.memory() != null) {
            if (found.memory().judgement() == null) {
                builder.memoryNotJudged();
            } else {
                builder.memory(found.memory().judgement());
            }
        }
        if (found.heapFit() != null) {
            builder.heapFit(found.heapFit());
        }
        if (found.scaleDown() != null) {
            builder.scaleDown(found.scaleDown());
        }
        return builder.startupBoost(found.boost().condition()).startupBoosts(found.boost().boosts()).build();
    }

    private StatusBuilder remembered(Remembered remembered) {
        status.setRollout(remembered.rollout());
        status.setTakenBack(remembered.takenBack());
        status.setLastHealthy(remembered.lastHealthy());
        status.setRolledBack(remembered.rolledBack());
        status.setRefusedOption(remembered.refusedOption());
        status.setLastOomKill(remembered.lastOomKill());
        status.setJavaVersion(remembered.jvm().javaVersion());
        status.setAotCache(remembered.jvm().aotCache());
        status.setJvmImages(remembered.jvm().images());
        return this;
    }

    private void applied(Findings.Applied applied, Remembered remembered) {
        if (applied instanceof Findings.Applied.NotApplied not) {
            notApplied(not.reason(), not.message());
        } else if (applied instanceof Findings.Applied.RecommendOnly) {
            recommendOnly();
        } else if (applied instanceof Findings.Applied.RolledBack back) {
            rolledBack(back.rollBack(), remembered.lastHealthy(), remembered.refusedOption());
        } else {
            Findings.Applied.Rolling rolling = (Findings.Applied.Rolling) applied;
            applied(rolling.message(), rolling.rollout());
            podsFailing(rolling.unheld());
            if (rolling.attestation() != null) {
                attested(rolling.attestation());
            }
        }
    }

    /** A failing pod the settings are not held to account for, and why; or none. */
    StatusBuilder podsFailing(Optional<String> unheld) {
        unheld.ifPresentOrElse(message -> condition(PODS_FAILING, ConditionStatus.TRUE, Reason.NOT_HELD_TO_SETTINGS, message),
                () -> condition(PODS_FAILING, ConditionStatus.FALSE, Reason.NO_POD_FAILING, "no pod of the target fails"));
        return this;
    }

    /**
     * What a metrics poll's JVMs report of virtual threads, beside the model the last plan assumed; a poll in which no pod
     * reports it keeps the known words.
     */
    StatusBuilder threadingReported(MetricsReport metrics) {
        ThreadingStatus threading = status.getThreading();
        if (metrics.threading() != null && threading != null) {
            String reported = metrics.threading().describe(threading.getModel());
            if (reported != null) {
                status.setThreading(new ThreadingStatus(threading.getModel(), threading.getSource(), reported));
            }
        }
        return this;
    }

    /**
     * The pods of these settings failed and the template went back; the same settings are not applied again. Where their JVM
     * refused an option they carried, the settings without it come next.
     *
     * @param lastHealthy the settings the template went back to, or null for the Deployment's own
     * @param refused     the VM option the JVM refused, or null
     */
    public StatusBuilder rolledBack(RollBack rollBack, AppliedSettings lastHealthy, RefusedOption refused) {
        status.setRolledBack(rollBack);
        String to = lastHealthy != null && !lastHealthy.getSettingsHash().equals(rollBack.getSettingsHash())
                ? "the last healthy settings " + lastHealthy.getSettingsHash() : "the Deployment's own template";
        String next = refused != null && refused.getSettingsHash().equals(rollBack.getSettingsHash())
                ? "Their JVM refused " + refused.getFlag() + ", which the operator rendered: the settings without it are rolled out next, "
                        + "once; should they fail too, they are taken back as well"
                : "They are not applied again until the profile or the Deployment's own template changes";
        String message = "pods of settings " + rollBack.getSettingsHash() + " failed, so the Deployment went back to " + to + ": "
                + rollBack.getMessage() + ". " + next;
        condition(APPLIED, ConditionStatus.FALSE, Reason.ROLLED_BACK, message);
        condition(READY, ConditionStatus.FALSE, Reason.ROLLED_BACK, message);
        noRolloutJudged();
        notAttested();
        return this;
    }

    /**
     * A reconcile ended in an unexpected error: Ready says so. The other conditions stay as the last reconcile
     * left them, as nothing tells whether its writes went through.
     */
    StatusBuilder reconcileFailed(String message) {
        condition(READY, ConditionStatus.FALSE, Reason.RECONCILE_FAILED, message);
        return this;
    }

    /** Nothing is applied: the target is missing, the profile conflicts, is invalid or does not fit. */
    StatusBuilder notApplied(Reason reason, String message) {
        condition(APPLIED, ConditionStatus.FALSE, reason, message);
        condition(READY, ConditionStatus.FALSE, reason, message);
        noRolloutJudged();
        notAttested();
        return this;
    }

    /** The plan's settings, each with where it is rendered, what runs the requests, and every warning of planning and rendering. */
    StatusBuilder planned(Plan plan, Rendering rendering) {
        status.setSettings(plan.decisions().stream().map(d -> new Setting(d.name(), d.value(),
                rendering.renderedAs().get(d.setting()), d.rule().id(), d.rationale(), null)).toList());
        RequestThreading threading = plan.current().threading();
        String reported = status.getThreading() == null ? null : status.getThreading().getReported();
        status.setThreading(new ThreadingStatus(threading.model(), threading.source(), reported));
        status.setWarnings(Stream.concat(plan.warnings().stream(), rendering.warnings().stream()).toList());
        return this;
    }

    public StatusBuilder recommendOnly() {
        String message = "Recommend mode: nothing is written to the Deployment; status.settings shows what Apply would render";
        condition(APPLIED, ConditionStatus.FALSE, Reason.RECOMMEND_ONLY, message);
        condition(READY, ConditionStatus.TRUE, Reason.RECOMMEND_ONLY, message);
        noRolloutJudged();
        notAttested();
        return this;
    }

    /**
     * The settings are written; once their rollout completed, {@link #attested} says whether the JVMs run them. Until then
     * Ready says only what the rollout knows: which template the pods run.
     */
    public StatusBuilder applied(String message, Rollout rollout) {
        if (!rollout.complete()) {
            notAttested();
        }
        condition(APPLIED, ConditionStatus.TRUE, Reason.APPLIED, message);
        condition(ROLLOUT_COMPLETE, ConditionStatus.of(rollout.complete()), rollout.reason(), rollout.message());
        condition(READY, ConditionStatus.of(rollout.complete()), rollout.complete() ? Reason.READY : rollout.reason(), rollout.message());
        return this;
    }

    /**
     * What the JVMs of the settings in force report they run, after {@link #applied} with a completed rollout. A pod whose
     * JVM runs another value is not Ready: Ready says the pods run the tuned settings only when their JVMs report every
     * planned option. Pods that report nothing, or only the few options their runtime's metrics show, stay Ready, as a pod
     * without the agent reports no more, but Ready's message says only that they run the tuned template, and what their
     * JVMs left unsaid.
     */
    StatusBuilder attested(Attestation attestation) {
        setEffective(s -> s.getRenderedAs() == null ? null : attestation.effectiveOf(s.getRenderedAs(), s.getName()).map(Attestation.Effective::describe)
                .orElse(null));
        String message = "the planned JVM options are " + attestation.message();
        switch (attestation.verdict()) {
            case IN_EFFECT -> {
                condition(SETTINGS_EFFECTIVE, ConditionStatus.TRUE, Reason.OPTIONS_IN_EFFECT, message);
                condition(READY, ConditionStatus.TRUE, Reason.READY, attestation.inEffect() + " of " + attestation.pods()
                        + " replicas run the tuned settings, as their JVMs report");
            }
            case NOT_REPORTED -> notAllReported(Reason.OPTIONS_NOT_REPORTED, "not reported", message);
            case PARTLY_REPORTED -> notAllReported(Reason.PARTLY_REPORTED, "read only in part", message);
            case DIFFERS -> {
                String overridden = message + ". Something the JVM reads after the operator's variable overrides it (a flag on the "
                        + "command line, often in the image's entrypoint): drop it there, or let the profile plan around it";
                condition(SETTINGS_EFFECTIVE, ConditionStatus.FALSE, Reason.SETTINGS_NOT_EFFECTIVE, overridden);
                condition(READY, ConditionStatus.FALSE, Reason.SETTINGS_NOT_EFFECTIVE, overridden);
            }
        }
        return this;
    }

    /** No rollout of the settings is under judgement: nothing says how it stands or which pods fail beside it. */
    private void noRolloutJudged() {
        status.setConditions(Conditions.remove(Conditions.remove(status.getConditions(), ROLLOUT_COMPLETE), PODS_FAILING));
    }

    /** The JVMs left planned options unsaid: SettingsEffective cannot tell, and Ready claims only the tuned pod template. */
    private void notAllReported(Reason reason, String howFar, String message) {
        condition(SETTINGS_EFFECTIVE, ConditionStatus.UNKNOWN, reason, message);
        String rollout = Conditions.find(status.getConditions(), ROLLOUT_COMPLETE).orElseThrow().getMessage();
        condition(READY, ConditionStatus.TRUE, Reason.READY, rollout + "; what their JVMs run is " + howFar + ": " + message);
    }

    /** Nothing judges what the JVMs run: no SettingsEffective, and no setting says what its pods run. */
    private void notAttested() {
        status.setConditions(Conditions.remove(status.getConditions(), SETTINGS_EFFECTIVE));
        setEffective(s -> null);
    }

    /** Each setting with what the pods run of it; copies, as the previous status shares its settings. */
    private void setEffective(Function<Setting, String> effective) {
        if (status.getSettings() != null) {
            status.setSettings(status.getSettings().stream().map(s -> new Setting(s.getName(), s.getValue(), s.getRenderedAs(), s.getRule(),
                    s.getRationale(), effective.apply(s))).toList());
        }
    }

    /**
     * The metrics poll, the detector's verdict on it (null until a window exists) and the closed loop's
     * recommendations beside the detector's.
     */
    public StatusBuilder metrics(MetricsReport metrics, Verdict verdict, List<Recommendation> remeasured) {
        boolean windowShown = status.getObserved() != null && Conditions.isTrue(status.getConditions(), METRICS_AVAILABLE);
        if (metrics.availableReason() == Reason.FIRST_SAMPLE && windowShown) {
            // A replica that just took over, or a new pod, has one sample: the window shown stands until the next, with no flap or Event.
            return this;
        }
        condition(METRICS_AVAILABLE, metrics.availableStatus(), metrics.availableReason(), metrics.availableMessage());
        Observed shown = status.getObserved();
        if (metrics.observed() != null) {
            // The memory shown stays beside the new window until memory() judges the pods' readings.
            status.setObserved(metrics.observed().withMemory(shown == null ? null : shown.getMemory()));
        }
        if (verdict != null) {
            verdict.findings().forEach(f -> condition(f.type(), f.status(), f.reason(), f.message()));
            if (verdict.findings().stream().noneMatch(f -> f.type() == VIRTUAL_THREAD_PINNING)) {
                // Judged only where pods report pinning: a JDK without virtual threads has nothing to say, not "no data".
                status.setConditions(Conditions.remove(status.getConditions(), VIRTUAL_THREAD_PINNING));
            }
            List<Recommendation> recommendations = new ArrayList<>(verdict.recommendations());
            recommendations.addAll(remeasured);
            keepLastAdvice(shown, recommendations);
            status.setRecommendations(recommendations);
        }
        return this;
    }

    /**
     * The pods' memory against the plan's budget, beside the window shown, and NativeMemoryPressure. A reading within noise of
     * the one shown, with the same verdict, leaves both as they are: a resident set moves a little every poll, and each move
     * would be a status write.
     */
    StatusBuilder memory(MemoryAccount.Judgement judgement) {
        Observed observed = status.getObserved();
        if (observed == null) {
            return this;
        }
        Finding finding = judgement.finding();
        boolean sameVerdict = Conditions.find(status.getConditions(), finding.type())
                .filter(c -> finding.status().is(c.getStatus()) && finding.reason().text().equals(c.getReason())).isPresent();
        if (sameVerdict && MemoryAccount.steady(observed.getMemory(), judgement.memory())) {
            return this;
        }
        status.setObserved(observed.withMemory(judgement.memory()));
        condition(finding.type(), finding.status(), finding.reason(), finding.message());
        return this;
    }

    /** The StartupBoost condition as spec.startupBoost and the pods leave it; empty: the profile has no boost, and no condition. */
    StatusBuilder startupBoost(Optional<StartupBoosts.BoostCondition> boost) {
        boost.ifPresentOrElse(b -> condition(STARTUP_BOOST, b.status(), b.reason(), b.message()),
                () -> status.setConditions(Conditions.remove(status.getConditions(), STARTUP_BOOST)));
        return this;
    }

    /** The pods raised for spec.startupBoost that still run the boost: the only ones lowered. */
    StatusBuilder startupBoosts(List<BoostedPod> boosts) {
        status.setStartupBoosts(new ArrayList<>(boosts));
        return this;
    }

    /**
     * The API server refused a resize this decision asked for: StartupBoost says so, measured from the condition the last
     * reconcile left, so a refusal repeated each reconcile keeps its transition time and writes nothing new.
     */
    StatusBuilder resizeRefused(Optional<Condition> previous, StartupBoosts.BoostCondition refused) {
        List<Condition> conditions = new ArrayList<>(Conditions.remove(status.getConditions(), STARTUP_BOOST));
        previous.ifPresent(conditions::add);
        status.setConditions(conditions);
        condition(STARTUP_BOOST, refused.status(), refused.reason(), refused.message());
        return this;
    }

    /** Whether each pod's heap fits its own limit (HeapOverLimit); a poll without a verdict leaves the last. */
    StatusBuilder heapFit(Finding finding) {
        condition(finding.type(), finding.status(), finding.reason(), finding.message());
        return this;
    }

    /** A memory-scaling autoscaler's stance under the plan (ScaleDownBlocked); absent without one. */
    StatusBuilder scaleDown(Optional<Finding> finding) {
        finding.ifPresentOrElse(f -> condition(f.type(), f.status(), f.reason(), f.message()),
                () -> status.setConditions(Conditions.remove(status.getConditions(), ConditionType.SCALE_DOWN_BLOCKED)));
        return this;
    }

    /** No plan's budget or no memory limit to judge the pods' memory against: neither the memory nor NativeMemoryPressure is shown. */
    StatusBuilder memoryNotJudged() {
        if (status.getObserved() != null) {
            status.setObserved(status.getObserved().withMemory(null));
        }
        status.setConditions(Conditions.remove(status.getConditions(), NATIVE_MEMORY_PRESSURE));
        return this;
    }

    /**
     * Advice shown until now that this window no longer gives moves to lastRecommendations, and new advice
     * takes its place: an idle window (the load test is over) has nothing to say of the load the advice
     * came from, so what was shown stays exportable, marked with its window and generation.
     */
    private void keepLastAdvice(Observed shown, List<Recommendation> recommendations) {
        List<Recommendation> showing = status.getRecommendations();
        if (!recommendations.isEmpty()) {
            status.setLastRecommendations(null);
        } else if (showing != null && !showing.isEmpty()) {
            status.setLastRecommendations(new LastRecommendations(shown == null ? null : shown.getEnd(), previousGeneration,
                    List.copyOf(showing)));
        }
    }

    public TuningProfileStatus build() {
        return status;
    }

    /** A status patch names the profile and carries the status, nothing else of the object. */
    public static TuningProfile patch(TuningProfile profile, TuningProfileStatus status) {
        TuningProfile patch = new TuningProfile();
        patch.setMetadata(new ObjectMetaBuilder().withName(profile.getMetadata().getName()).withNamespace(profile.getMetadata().getNamespace())
                .build());
        patch.setStatus(status);
        return patch;
    }

    private void condition(ConditionType type, ConditionStatus value, Reason reason, String message) {
        status.setConditions(Conditions.set(status.getConditions(), type, value, reason, message, generation, now));
    }
}
