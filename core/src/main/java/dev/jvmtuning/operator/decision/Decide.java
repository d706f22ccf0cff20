package dev.jvmtuning.operator.decision;

import dev.jvmtuning.operator.api.v1alpha1.BoostedPod;
import dev.jvmtuning.operator.api.v1alpha1.LastOomKill;
import dev.jvmtuning.operator.api.v1alpha1.Metrics;
import dev.jvmtuning.operator.api.v1alpha1.Mode;
import dev.jvmtuning.operator.api.v1alpha1.Recommendation;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfileSpec;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfileStatus;
import dev.jvmtuning.operator.api.v1alpha1.VerticalScaling;
import dev.jvmtuning.operator.closedloop.ObservedWorkload;
import dev.jvmtuning.operator.deployment.TargetPods;
import dev.jvmtuning.operator.deployment.VerticalScalers.VerticalScaler;
import dev.jvmtuning.operator.deployment.ThreadingDetection;
import dev.jvmtuning.operator.model.ConditionStatus;
import dev.jvmtuning.operator.model.ConditionType;
import dev.jvmtuning.operator.model.ContainerFacts;
import dev.jvmtuning.operator.model.CurrentSettings;
import dev.jvmtuning.operator.model.MemoryUse;
import dev.jvmtuning.operator.model.MetricsReport;
import dev.jvmtuning.operator.model.ProfileEvent;
import dev.jvmtuning.operator.model.Reason;
import dev.jvmtuning.operator.model.Rule;
import dev.jvmtuning.operator.model.Setting;
import dev.jvmtuning.operator.model.Units;
import dev.jvmtuning.operator.planner.MemoryBudget;
import dev.jvmtuning.operator.planner.OomAnswer;
import dev.jvmtuning.operator.planner.PlanResult;
import dev.jvmtuning.operator.pressure.CarrierPinning;
import dev.jvmtuning.operator.pressure.HeapFit;
import dev.jvmtuning.operator.pressure.ScaleDown;
import dev.jvmtuning.operator.pressure.MemoryAccount;
import dev.jvmtuning.operator.pressure.PressureDetector;
import dev.jvmtuning.operator.preview.Preview;
import dev.jvmtuning.operator.render.DeploymentTuning;
import dev.jvmtuning.operator.render.TuningConfigMap;
import dev.jvmtuning.operator.rollout.RolloutJudge;
import dev.jvmtuning.operator.rollout.StartupBoosts;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A reconcile's decision from what it observed: look up the target, plan, render, judge the rollout
 * (Apply mode) and the metrics against the plan, take mode Auto's step; the writes to make, in order,
 * the status that follows and the Events it deserves. Values in, values out: the reconciler reads the
 * observation and carries the writes out.
 */
public final class Decide {

    /**
     * What an installation decides beyond the profile.
     *
     * @param preview        the flags it allows and its guardrail check
     * @param agentImage     the image holding the metrics agent, for profiles that inject it
     * @param agentJarPath   where the agent's jar sits in that image
     */
    public record Installation(Preview.Installation preview, String agentImage, String agentJarPath) {
    }

    /**
     * The writes to make, in this order, then the pods to resize (spec.startupBoost), the status to record and the Events to
     * write, and when to look again for a boost that ends before the next resync.
     *
     * @param resizes each carries its Event, which {@link #events} holds too: a resize refused takes its own out
     */
    public record Decision(List<Write> writes, List<StartupBoosts.Resize> resizes, TuningProfileStatus status, List<ProfileEvent> events,
            Optional<Instant> recheckAt) {
        public Decision {
            writes = List.copyOf(writes);
            resizes = List.copyOf(resizes);
            events = List.copyOf(events);
        }
    }

    /** What tuning the target found: mode Auto's Events, and the container and settings in force a boost is judged against. */
    private record Tuned(List<ProfileEvent> autoEvents, Container userContainer, String settingsHash) {
        static final Tuned NOTHING = new Tuned(List.of(), null, null);
    }

    private Decide() {
    }

    public static Decision of(Observation seen, Installation installation) {
        TuningProfileStatus before = seen.previousStatus();
        StatusBuilder status = statusFrom(seen.profile(), seen.now());
        List<Write> writes = new ArrayList<>();
        Tuned tuned = Tuned.NOTHING;
        if (seen.target().isEmpty()) {
            status.notApplied(Reason.TARGET_NOT_FOUND, "Deployment " + Observation.targetName(seen.profile()) + " not found in namespace "
                    + seen.profile().getMetadata().getNamespace());
        } else {
            tuned = tune(seen, seen.target().get(), installation, status, writes);
        }
        StartupBoosts.Verdict boost = boost(seen, tuned, status);
        TuningProfileStatus after = status.build();
        return new Decision(writes, boost.resizes(), after, Stream.of(tuned.autoEvents().stream(), boost.resizes().stream()
                .map(StartupBoosts.Resize::event), EventPolicy.events(before, after).stream()).flatMap(e -> e).toList(), boost.recheckAt());
    }

    /**
     * spec.startupBoost against the pods: boosts only where the settings in force are applied, whose flags pin the JVM's CPU
     * count to the template's; boosted pods come back down whatever the profile says now.
     */
    private static StartupBoosts.Verdict boost(Observation seen, Tuned tuned, StatusBuilder status) {
        if (tuned.userContainer() == null) {
            List<BoostedPod> live = StartupBoosts.live(seen.previousStatus().getStartupBoosts(), seen.pods());
            status.startupBoost(Optional.empty()).startupBoosts(live);
            return new StartupBoosts.Verdict(List.of(), Optional.empty(), Optional.empty(), live);
        }
        TuningProfile profile = seen.profile();
        Optional<Condition> applied = Conditions.find(status.build().getConditions(), ConditionType.APPLIED);
        String notPossible = profile.getSpec().getMode() == Mode.Recommend ? "mode Recommend writes nothing but to bring boosted pods back"
                : tuned.settingsHash() == null || applied.filter(c -> ConditionStatus.TRUE.is(c.getStatus())).isEmpty()
                        ? "the settings are not applied" + applied.map(c -> " (Applied is " + c.getStatus() + ", reason " + c.getReason() + ")").orElse("")
                        : null;
        StartupBoosts.Verdict verdict = StartupBoosts.judge(new StartupBoosts.Facts(profile.getSpec().getStartupBoost(), notPossible,
                tuned.userContainer(), tuned.settingsHash(), seen.pods(), seen.previousStatus().getStartupBoosts(),
                Conditions.find(seen.previousStatus().getConditions(), ConditionType.STARTUP_BOOST).orElse(null),
                profile.getMetadata().getGeneration(), seen.now()));
        status.startupBoost(verdict.condition()).startupBoosts(verdict.boosts());
        return verdict;
    }

    /** The API server's refusal of a resize: its HTTP code and message. */
    public record ResizeRefusal(int code, String message) {
    }

    /**
     * The decision as its resizes went: only those made stand, with their Events and records (a pod deleted meanwhile was not
     * resized). On a refusal StartupBoost says what the API server said, and nothing else of the decision changes.
     *
     * @param performed the decision's resizes that went through
     */
    public static Decision resized(Observation seen, Decision decision, List<StartupBoosts.Resize> performed, Optional<ResizeRefusal> refusal) {
        List<ProfileEvent> unannounced = decision.resizes().stream().filter(r -> !performed.contains(r)).map(StartupBoosts.Resize::event).toList();
        List<BoostedPod> boosts = StartupBoosts.after(StartupBoosts.live(seen.previousStatus().getStartupBoosts(), seen.pods()), performed);
        StatusBuilder status = new StatusBuilder(decision.status(), seen.profile().getMetadata().getGeneration(), seen.now().toString())
                .startupBoosts(boosts);
        if (refusal.isEmpty()) {
            return new Decision(decision.writes(), performed, status.build(),
                    decision.events().stream().filter(e -> !unannounced.contains(e)).toList(), decision.recheckAt());
        }
        status.resizeRefused(Conditions.find(seen.previousStatus().getConditions(), ConditionType.STARTUP_BOOST),
                StartupBoosts.refused(refusal.get().code(), refusal.get().message(), boosts));
        TuningProfileStatus after = status.build();
        Stream<ProfileEvent> kept = decision.events().stream().filter(e -> !aboutBoostCondition(e) && !unannounced.contains(e));
        Stream<ProfileEvent> boostCondition = EventPolicy.events(seen.previousStatus(), after).stream().filter(Decide::aboutBoostCondition);
        return new Decision(decision.writes(), performed, after, Stream.concat(kept, boostCondition).toList(), decision.recheckAt());
    }

    private static boolean aboutBoostCondition(ProfileEvent event) {
        return event.reason().conditions().contains(ConditionType.STARTUP_BOOST);
    }

    /**
     * A write of the decision was refused: nothing else of it stands (whatever went through, the next reconcile
     * sees and finishes). Status says the API's answer; the next reconcile tries again.
     */
    public static Decision writesRefused(Observation seen, String message) {
        return noWrites(seen.profile(), statusFrom(seen.profile(), seen.now()).notApplied(Reason.APPLY_FAILED,
                "writing to Deployment " + Observation.targetName(seen.profile()) + " failed: " + message));
    }

    /**
     * A reconcile that threw, said in status and an Event rather than only in the operator's log. The
     * next reconcile that gets through writes Ready again.
     */
    public static Decision reconcileFailed(TuningProfile profile, Exception failure, Instant now) {
        return noWrites(profile, statusFrom(profile, now).reconcileFailed("reconcile failed: " + failure.getClass().getSimpleName()
                + (failure.getMessage() == null ? "" : ": " + failure.getMessage())));
    }

    /**
     * The Events of the boosts taken back as a profile goes (deleted, or its namespace no longer watched): each pod back, then a
     * refusal naming the pods that stay boosted.
     *
     * @param records the profile's status.startupBoosts
     */
    public static List<ProfileEvent> boostsTakenBack(List<BoostedPod> records, List<Pod> pods, List<StartupBoosts.Resize> performed,
            Optional<ResizeRefusal> refusal) {
        return Stream.concat(performed.stream().map(StartupBoosts.Resize::event), refusal.map(r -> StartupBoosts.refused(r.code(),
                r.message(), StartupBoosts.after(StartupBoosts.live(records, pods), performed)))
                .map(c -> new ProfileEvent(true, c.reason(), c.message())).stream()).toList();
    }

    /**
     * A deleted profile's writes: the user's template back if this profile tuned it, then its ConfigMaps gone.
     *
     * @param configMaps the profile's ConfigMaps as the informer holds them; only those it owns are deleted
     */
    public static List<Write> cleanup(TuningProfile profile, Optional<Deployment> target, List<ConfigMap> configMaps) {
        List<Write> writes = new ArrayList<>();
        target.ifPresent(deployment -> restoreIfTuned(deployment, profile.getMetadata().getName(), writes));
        writes.add(new Write.DeleteConfigMaps(configMaps.stream().filter(c -> TuningConfigMap.ownedBy(c, profile)).toList()));
        return writes;
    }

    private static StatusBuilder statusFrom(TuningProfile profile, Instant now) {
        return new StatusBuilder(Observation.previousStatus(profile), profile.getMetadata().getGeneration(), now.toString());
    }

    private static Decision noWrites(TuningProfile profile, StatusBuilder status) {
        TuningProfileStatus after = status.build();
        return new Decision(List.of(), List.of(), after, EventPolicy.events(Observation.previousStatus(profile), after), Optional.empty());
    }

    /** The target exists: arbitrate, preview, then apply or recommend. */
    private static Tuned tune(Observation seen, Deployment deployment, Installation installation, StatusBuilder status,
            List<Write> writes) {
        TuningProfile profile = seen.profile();
        String name = profile.getMetadata().getName();
        Optional<TuningProfile> owner = ProfileArbitration.owner(seen.targeting());
        if (owner.isPresent() && !owner.get().getMetadata().getName().equals(name)) {
            status.notApplied(Reason.CONFLICT, "Deployment " + deployment.getMetadata().getName() + " is already tuned by TuningProfile "
                    + owner.get().getMetadata().getName() + ", which is older; this profile writes nothing");
            return Tuned.NOTHING;
        }
        // The version and the AOT cache the JVMs report, not guessed from the image: the first poll that reads them may change
        // the plan, once.
        String images = TargetPods.images(deployment);
        if (seen.pods().stream().filter(TargetPods::ready).allMatch(p -> images.equals(TargetPods.images(p)))) {
            seen.metrics().ifPresent(report -> status.jvmReported(report, images));
        }
        // A JVM's refusal of an option holds for the release and the profile it was refused under, as a rollback does.
        status.refusedOption(RolloutJudge.refusalInForce(status.refusedOption(), () -> DeploymentTuning.templateHash(deployment, name),
                profile.getMetadata().getGeneration()).orElse(null));
        Preview preview = Preview.of(name, profile.getSpec(), status.auto(), status.lastOomKill(), deployment, new Preview.Live(seen.pods(),
                status.rollout(), seen.previousStatus().getStartupBoosts(), seen.autoscalers(), seen.verticalScalers(), status.refusedOption()),
                status.javaVersion(), status.aotCache(), installation.preview());
        if (preview instanceof Preview.NoContainer missing) {
            restoreIfTuned(deployment, name, writes, status);
            status.notApplied(Reason.INVALID, missing.problem());
            return Tuned.NOTHING;
        }
        boolean auto = profile.getSpec().getMode() == Mode.Auto;
        if (!auto) {
            status.auto(null);
        }
        if (preview instanceof Preview.Rejected rejected) {
            status.admitted(rejected.admitted());
            // Flags planned for another spec or container must not stay: the user's own template comes back.
            restoreIfTuned(deployment, name, writes, status);
            status.notApplied(rejected.reason(), String.join("; ", rejected.messages()));
            // No plan, but the container still says what runs the requests, which decides whether the thread pool is judged.
            CurrentSettings current = CurrentSettings.noPlan(ThreadingDetection.detect(profile.getSpec(), rejected.facts()));
            recordOomKills(seen, rejected.userContainer(), rejected.facts(), null, status);
            report(seen, null, rejected.facts(), current, installation, status);
            status.memoryNotJudged();
            return new Tuned(List.of(), rejected.userContainer(), null);
        }
        Preview.Rendered rendered = (Preview.Rendered) preview;
        status.admitted(rendered.admitted());
        status.verticalScaling(rendered.verticalScaler().map(v -> verticalScaling(v, rendered.plan().budget())).orElse(null));
        PlanResult.Plan plan = rendered.plan();
        status.planned(plan, rendered.rendering());
        seen.metrics().ifPresent(status::threadingReported);
        String settingsHash = null;
        if (profile.getSpec().getMode() == Mode.Recommend) {
            restoreIfTuned(deployment, name, writes, status);
            status.recommendOnly();
            // The pods run the Deployment's own template: each kill is held against the budget Apply would give it.
            recordOomKills(seen, rendered.userContainer(), rendered.facts(), plan.budget(), status);
        } else if (OomAnswer.exhausted(status.lastOomKill())) {
            restoreIfTuned(deployment, name, writes, status);
            recordOomKills(seen, rendered.userContainer(), rendered.facts(), null, status);
            LastOomKill kill = status.lastOomKill();
            status.notApplied(Reason.OOM_KILLS_REPEATED, "pods were OOM-killed " + kill.getAnsweredInARow() + " times in a row for "
                    + kill.getCause() + ", the first " + OomAnswer.MAX_ANSWERED_IN_A_ROW + " answered each with a larger budget, without a "
                    + "healthy rollout between: the part keeps growing, which no budget answers (a leak?), so the Deployment stays on its "
                    + "own template until the profile changes; last: " + kill.getMessage());
        } else {
            settingsHash = DeploymentTuning.hash(rendered.rendering(), TuningConfigMap.name(name, rendered.rendering()));
            writes.addAll(ApplyStep.decide(seen, deployment, rendered.userContainer(), rendered.facts(), rendered.rendering(), plan.values().heapBytes(),
                    plan.budget(), DeploymentTuning.Agent.ifInjected(profile.getSpec(), installation.agentImage(), installation.agentJarPath()),
                    status));
        }
        report(seen, plan, rendered.facts(), plan.current(), installation, status);
        judgeMemory(seen, rendered, status);
        judgeHeapFit(seen, rendered, status);
        status.scaleDown(ScaleDown.judge(TargetPods.autoscalersOf(seen.autoscalers(), deployment), plan.values()));
        return new Tuned(auto ? AutoStep.decide(seen, deployment, plan, rendered.facts(), installation.preview().flagPolicy(), status) : List.of(),
                rendered.userContainer(), settingsHash);
    }

    /** The stance beside a VerticalPodAutoscaler, as status says it, with the JVM's floor for its minAllowed. */
    private static VerticalScaling verticalScaling(VerticalScaler scaler, MemoryBudget budget) {
        List<String> stance = new ArrayList<>();
        if (scaler.memoryLimit()) {
            stance.add("the heap as its share of each pod's memory limit (-XX:MaxRAMPercentage), planned at "
                    + (scaler.minAllowedMemoryBytes() != null ? "the least memory it allows (minAllowed)" : "the template's limit")
                    + ": below jvmFloor the share leaves too little for the JVM's memory beside the heap");
        }
        if (scaler.cpuLimit()) {
            stance.add("no CPU count, GC thread count or scheduler parallelism: each JVM reads its CPU quota at start");
        }
        return new VerticalScaling(scaler.name(), scaler.updateMode(), scaler.controls(), stance.isEmpty()
                ? "it moves no limit a JVM is sized against: the settings are rendered as without it" : String.join("; ", stance),
                budget == null ? null : Units.mebibytes(budget.total()));
    }

    /**
     * The kills of pods that run the Deployment's own template, where no plan of the profile is in force: Apply's kills are
     * ApplyStep's, which knows the settings each pod ran.
     *
     * @param budget the budget each pod is held against, null for none
     */
    private static void recordOomKills(Observation seen, Container userContainer, ContainerFacts facts, MemoryBudget budget, StatusBuilder status) {
        OomKills.record(seen, userContainer.getName(), facts.memoryLimitBytes(), null, null, budget, status);
    }

    /**
     * Mode Recommend's answer to the last OOM kill (R9b): what Apply would change, each with the kill's figures; the heap gives
     * way to the part that ran over.
     */
    private static List<Recommendation> oomAnswer(PlanResult.Plan plan, LastOomKill kill) {
        if (plan.decisions().stream().noneMatch(d -> d.rule() == Rule.R9B)) {
            return List.of();
        }
        String heapAtKill = kill.getPlannedHeapBytes() == null ? null : Units.mebibytes(kill.getPlannedHeapBytes());
        return plan.decisions().stream().filter(d -> d.rule() == Rule.R9B || d.setting() == Setting.HEAP_SIZE)
                .map(d -> Recommendation.set(d.name(), d.setting() == Setting.HEAP_SIZE ? heapAtKill : null, d.value(), d.rationale()))
                .toList();
    }

    /**
     * The user's own template back, by the operator's own hand: no rollout of its settings is in force any more, and nothing it
     * wrote can be taken back by another manager.
     */
    private static void restoreIfTuned(Deployment deployment, String profile, List<Write> writes, StatusBuilder status) {
        restoreIfTuned(deployment, profile, writes);
        status.rollout(null).takenBack(null);
    }

    private static void restoreIfTuned(Deployment deployment, String profile, List<Write> writes) {
        if (DeploymentTuning.tunedBy(deployment, profile)) {
            writes.add(new Write.RestoreDeployment(DeploymentTuning.restored(deployment, profile)));
        }
    }

    /**
     * The memory of the Ready pods of the settings in force against the plan's budget, beside a new window: in mode Recommend
     * every Ready pod, which runs the Deployment's own template, is held against the budget Apply would give it. Not judged
     * without a memory limit, which nothing is killed at, or a budget.
     */
    private static void judgeMemory(Observation seen, Preview.Rendered rendered, StatusBuilder status) {
        Long limit = rendered.facts().memoryLimitBytes();
        MemoryBudget budget = rendered.plan().budget();
        if (limit == null || budget == null) {
            status.memoryNotJudged();
            return;
        }
        seen.metrics().filter(report -> report.observed() != null).ifPresent(report -> {
            Set<String> pods = podsOfThePlan(seen, rendered);
            Map<String, MemoryUse> memory = new TreeMap<>();
            pods.forEach(pod -> memory.put(pod, report.memory().getOrDefault(pod, MemoryUse.NONE)));
            status.memory(MemoryAccount.judge(memory, limit, budget));
        });
    }

    /**
     * Each Ready pod's maximum heap, as its JVM reports it, against its own memory limit (as the kubelet applied it, after any
     * in-place resize) beside the plan's non-heap budget, whoever sized the heap: the pods of the settings in force (in mode
     * Recommend every pod, which runs the Deployment's own template). A pod of earlier settings is held to its own plan, which
     * this budget is not: during a rollout it would be judged against the next one. Not judged without a budget, or from a
     * poll that read no options.
     */
    private static void judgeHeapFit(Observation seen, Preview.Rendered rendered, StatusBuilder status) {
        MemoryBudget budget = rendered.plan().budget();
        if (budget == null) {
            return;
        }
        Set<String> judged = podsOfThePlan(seen, rendered);
        seen.metrics().filter(report -> !report.effectiveOptions().isEmpty()).ifPresent(report -> {
            Map<String, Long> heaps = new TreeMap<>();
            report.effectiveOptions().forEach((pod, options) -> options.option("MaxHeapSize").filter(o -> judged.contains(pod))
                    .ifPresent(o -> heaps.put(pod, (long) o.value())));
            Map<String, Long> limits = new TreeMap<>();
            seen.pods().stream().filter(TargetPods::ready).forEach(pod -> TargetPods.memoryLimitBytes(pod, rendered.userContainer().getName())
                    .ifPresent(limit -> limits.put(pod.getMetadata().getName(), limit)));
            status.heapFit(HeapFit.judge(HeapFit.pods(heaps, limits), budget.nonHeap()));
        });
    }

    /** The Ready pods the plan in force speaks for: in mode Recommend every one, else those of its settings. */
    private static Set<String> podsOfThePlan(Observation seen, Preview.Rendered rendered) {
        return seen.profile().getSpec().getMode() == Mode.Recommend
                ? seen.pods().stream().filter(TargetPods::ready).map(p -> p.getMetadata().getName()).collect(Collectors.toSet())
                : ApplyStep.readyPodsRunning(DeploymentTuning.hash(rendered.rendering(),
                        TuningConfigMap.name(seen.profile().getMetadata().getName(), rendered.rendering())), seen);
    }

    /**
     * The metrics of the target's pods, judged against the plan in force, and the closed loop's advice: the workload measured
     * only from a window of warm JVMs (spec.metrics.warmUp), judged by the window as polled, not as steadied for status.
     */
    private static void report(Observation seen, PlanResult.Plan plan, ContainerFacts facts, CurrentSettings current, Installation installation,
            StatusBuilder status) {
        TuningProfileSpec spec = seen.profile().getSpec();
        seen.metrics().ifPresent(polled -> {
            MetricsReport report = polled.steadied(status.observed());
            var verdict = report.observed() == null ? null
                    : PressureDetector.judge(report.observed(), report.previous(), spec.getPressure(), current)
                            .with(CarrierPinning.judge(report.virtualThreads(), report.observed().getWindow()));
            boolean warm = polled.observed() != null && ObservedWorkload.fromWarmJvms(polled.observed(), TargetPods.youngestStart(seen.pods()),
                    Units.duration(Objects.requireNonNullElseGet(spec.getMetrics(), Metrics::new).getWarmUp()));
            List<Recommendation> remeasured = plan == null ? List.of() : Stream.concat(
                    warm ? ObservedWorkload.replan(spec, facts, plan, report.observed(), installation.preview().flagPolicy()).stream() : Stream.empty(),
                    spec.getMode() == Mode.Recommend ? oomAnswer(plan, status.lastOomKill()).stream() : Stream.empty()).toList();
            status.metrics(report, verdict, remeasured);
        });
    }
}
