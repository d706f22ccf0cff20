package dev.jvmtuning.operator.decision;

import dev.jvmtuning.operator.api.v1alpha1.AutoStatus;
import dev.jvmtuning.operator.api.v1alpha1.BoostedPod;
import dev.jvmtuning.operator.api.v1alpha1.LastOomKill;
import dev.jvmtuning.operator.api.v1alpha1.Mode;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfileStatus;
import dev.jvmtuning.operator.api.v1alpha1.VerticalScaling;
import dev.jvmtuning.operator.closedloop.AutoLoop;
import dev.jvmtuning.operator.deployment.TargetPods;
import dev.jvmtuning.operator.deployment.VerticalScalers.VerticalScaler;
import dev.jvmtuning.operator.deployment.ThreadingDetection;
import dev.jvmtuning.operator.model.ConditionType;
import dev.jvmtuning.operator.model.ContainerFacts;
import dev.jvmtuning.operator.model.CurrentSettings;
import dev.jvmtuning.operator.model.Failures;
import dev.jvmtuning.operator.model.ProfileEvent;
import dev.jvmtuning.operator.model.Reason;
import dev.jvmtuning.operator.model.Units;
import dev.jvmtuning.operator.planner.MemoryBudget;
import dev.jvmtuning.operator.planner.OomAnswer;
import dev.jvmtuning.operator.planner.PlanResult;
import dev.jvmtuning.operator.pressure.ScaleDown;
import dev.jvmtuning.operator.preview.Preview;
import dev.jvmtuning.operator.render.DeploymentTuning;
import dev.jvmtuning.operator.render.TuningConfigMap;
import dev.jvmtuning.operator.rollout.RolloutJudge;
import dev.jvmtuning.operator.rollout.StartupBoosts;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
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

    private Decide() {
    }

    /** Derive what holds from the last status and the observation, let each step decide its part, then assemble the status once. */
    public static Decision of(Observation seen, Installation installation) {
        TuningProfileStatus before = seen.previousStatus();
        Remembered carried = Remembered.of(before, seen.profile().getMetadata().getGeneration());
        Findings tuned = seen.target().map(target -> tune(seen, target, installation, carried))
                .orElseGet(() -> Findings.start(carried, before.getAuto(), new Findings.Applied.NotApplied(Reason.TARGET_NOT_FOUND, "Deployment "
                        + Observation.targetName(seen.profile()) + " not found in namespace " + seen.profile().getMetadata().getNamespace())));
        Findings found = tuned.withBoost(boost(seen, tuned));
        TuningProfileStatus after = StatusBuilder.assemble(before, seen.profile().getMetadata().getGeneration(), seen.now().toString(), found);
        return new Decision(found.writes(), found.boost().resizes(), after, Stream.of(found.autoEvents().stream(), found.boost().resizes().stream()
                .map(StartupBoosts.Resize::event), EventPolicy.events(before, after).stream()).flatMap(e -> e).toList(), found.boost().recheckAt());
    }

    /** The target exists: arbitrate, derive what holds, preview, then apply or recommend. */
    private static Findings tune(Observation seen, Deployment target, Installation installation, Remembered carried) {
        TuningProfile profile = seen.profile();
        String name = profile.getMetadata().getName();
        AutoStatus auto = seen.previousStatus().getAuto();
        Optional<TuningProfile> owner = ProfileArbitration.owner(seen.targeting());
        if (owner.isPresent() && !owner.get().getMetadata().getName().equals(name)) {
            return Findings.start(carried, auto, new Findings.Applied.NotApplied(Reason.CONFLICT, "Deployment " + target.getMetadata().getName()
                    + " is already tuned by TuningProfile " + owner.get().getMetadata().getName() + ", which is older; this profile writes nothing"));
        }
        Remembered remembered = inForce(seen, target, carried);
        Preview preview = Preview.of(name, profile.getSpec(), auto, remembered.lastOomKill(), target, new Preview.Live(seen.pods(),
                seen.replicaSets(), seen.previousStatus().getStartupBoosts(), seen.autoscalers(), seen.verticalScalers(), remembered.refusedOption()),
                remembered.jvm().javaVersion(), remembered.jvm().aotCache(), installation.preview());
        AutoStatus autoInForce = profile.getSpec().getMode() == Mode.Auto ? auto : null;
        if (preview instanceof Preview.NoContainer missing) {
            return restore(Findings.start(remembered, auto, new Findings.Applied.NotApplied(Reason.INVALID, missing.problem())), target, name);
        }
        if (preview instanceof Preview.Rejected rejected) {
            return rejected(seen, target, rejected, installation, remembered).withAuto(autoInForce);
        }
        return rendered(seen, target, (Preview.Rendered) preview, installation, Findings.start(remembered, autoInForce, null));
    }

    /**
     * What holds as the reconcile begins beside the last one's record: the version and the AOT cache the JVMs report, not guessed
     * from the image (the first poll that reads them may change the plan, once), and a JVM's refusal of an option while the release
     * and the profile it was refused under last, as a rollback does.
     */
    private static Remembered inForce(Observation seen, Deployment target, Remembered carried) {
        String images = TargetPods.images(target);
        Remembered.Jvm jvm = seen.pods().stream().filter(TargetPods::ready).allMatch(p -> images.equals(TargetPods.images(p)))
                ? seen.metrics().map(report -> carried.jvm().reported(report, images)).orElse(carried.jvm()) : carried.jvm();
        return carried.withJvm(jvm).withRefusedOption(RolloutJudge.refusalInForce(carried.refusedOption(),
                () -> DeploymentTuning.templateHash(target, seen.profile().getMetadata().getName()), seen.profile().getMetadata().getGeneration())
                .orElse(null));
    }

    /** The profile is refused for this container: the user's own template comes back, as flags planned for another spec must not stay. */
    private static Findings rejected(Observation seen, Deployment target, Preview.Rejected rejected, Installation installation, Remembered remembered) {
        Remembered killed = remembered.withLastOomKill(ownTemplateKills(seen, rejected.userContainer(), rejected.facts(), null, remembered));
        // No plan, but the container still says what runs the requests, which decides whether the thread pool is judged.
        CurrentSettings current = CurrentSettings.noPlan(ThreadingDetection.detect(seen.profile().getSpec(), rejected.facts()));
        return restore(Findings.start(killed, null, new Findings.Applied.NotApplied(rejected.reason(), String.join("; ", rejected.messages()))), target,
                seen.profile().getMetadata().getName())
                .withAdmitted(rejected.admitted())
                .withMetrics(Judgements.metrics(seen, null, rejected.facts(), current, installation.preview().flagPolicy(), killed.lastOomKill()))
                .withMemory(Findings.Memory.NOT_JUDGED)
                .withTuned(new Findings.Tuned(rejected.userContainer(), null));
    }

    /** The settings planned and rendered: applied or recommended, then the pods' metrics and memory judged against them, and Auto's step. */
    private static Findings rendered(Observation seen, Deployment target, Preview.Rendered rendered, Installation installation, Findings start) {
        PlanResult.Plan plan = rendered.plan();
        Findings found = written(seen, target, rendered, installation, start)
                .withAdmitted(rendered.admitted())
                .withVerticalScaling(rendered.verticalScaler().map(v -> verticalScaling(v, plan.budget())).orElse(null))
                .withPlanned(new Findings.Planned(plan, rendered.rendering(), seen.metrics()));
        found = found.withMetrics(Judgements.metrics(seen, plan, rendered.facts(), plan.current(), installation.preview().flagPolicy(),
                        found.remembered().lastOomKill()))
                .withMemory(Judgements.memory(seen, rendered))
                .withHeapFit(Judgements.heapFit(seen, rendered))
                .withScaleDown(ScaleDown.judge(TargetPods.autoscalersOf(seen.autoscalers(), target), plan.values()));
        if (seen.profile().getSpec().getMode() != Mode.Auto) {
            return found;
        }
        AutoLoop.Decision auto = AutoStep.decide(seen, target, plan, rendered.facts(), installation.preview().flagPolicy(), found.auto(),
                found.remembered().rolledBack(), settledAt(found));
        return found.withAuto(auto.status()).withAutoEvents(auto.events());
    }

    /** When the rollout of the settings in force completed, as its record says; null while under way or where none is applied. */
    private static Instant settledAt(Findings found) {
        return found.applied() instanceof Findings.Applied.Rolling rolling && rolling.rollout().complete() && found.remembered().rollout() != null
                && found.remembered().rollout().getCompletedAt() != null ? Instant.parse(found.remembered().rollout().getCompletedAt()) : null;
    }

    /** What the mode writes: nothing in Recommend or once OOM kills repeat beyond what budgets answer; else Apply's step. */
    private static Findings written(Observation seen, Deployment target, Preview.Rendered rendered, Installation installation, Findings start) {
        String name = seen.profile().getMetadata().getName();
        Remembered remembered = start.remembered();
        if (seen.profile().getSpec().getMode() == Mode.Recommend) {
            // The pods run the Deployment's own template: each kill is held against the budget Apply would give it.
            Remembered killed = remembered.withLastOomKill(ownTemplateKills(seen, rendered.userContainer(), rendered.facts(), rendered.plan().budget(),
                    remembered));
            return restore(start.withRemembered(killed).withApplied(new Findings.Applied.RecommendOnly()), target, name)
                    .withTuned(new Findings.Tuned(rendered.userContainer(), null));
        }
        if (OomAnswer.exhausted(remembered.lastOomKill(), seen.profile().getSpec().getSizing())) {
            LastOomKill kill = ownTemplateKills(seen, rendered.userContainer(), rendered.facts(), null, remembered);
            return restore(start.withRemembered(remembered.withLastOomKill(kill)).withApplied(new Findings.Applied.NotApplied(Reason.OOM_KILLS_REPEATED,
                    "pods were OOM-killed " + kill.getAnsweredInARow() + " times in a row for " + kill.getCause() + ", the first "
                            + OomAnswer.MAX_ANSWERED_IN_A_ROW + " answered each with a larger budget, without a healthy rollout between: the part "
                            + "keeps growing, which no budget answers (a leak?), so the Deployment stays on its own template until the profile "
                            + "changes; last: " + kill.getMessage())), target, name).withTuned(new Findings.Tuned(rendered.userContainer(), null));
        }
        ApplyStep.Result applying = ApplyStep.decide(seen, target, rendered, DeploymentTuning.Agent.ifInjected(seen.profile().getSpec(),
                installation.agentImage(), installation.agentJarPath()), remembered);
        return start.withWrites(applying.writes()).withApplied(applying.applied()).withRemembered(applying.remembered())
                .withTuned(new Findings.Tuned(rendered.userContainer(), Judgements.settingsHash(seen, rendered)));
    }

    /**
     * spec.startupBoost against the pods: boosts only where the settings in force are applied, whose flags pin the JVM's CPU
     * count to the template's; boosted pods come back down whatever the profile says now.
     */
    private static StartupBoosts.Verdict boost(Observation seen, Findings found) {
        if (found.tuned() == null) {
            List<BoostedPod> live = StartupBoosts.live(seen.previousStatus().getStartupBoosts(), seen.pods());
            return new StartupBoosts.Verdict(List.of(), Optional.empty(), Optional.empty(), live);
        }
        TuningProfile profile = seen.profile();
        String notPossible = profile.getSpec().getMode() == Mode.Recommend ? "mode Recommend writes nothing but to bring boosted pods back"
                : found.tuned().settingsHash() == null || !(found.applied() instanceof Findings.Applied.Rolling)
                        ? "the settings are not applied (Applied is False, reason " + found.applied().reason().text() + ")"
                        : null;
        return StartupBoosts.judge(new StartupBoosts.Facts(profile.getSpec().getStartupBoost(), notPossible, found.tuned().userContainer(),
                found.tuned().settingsHash(), seen.pods(), seen.previousStatus().getStartupBoosts(),
                Conditions.find(seen.previousStatus().getConditions(), ConditionType.STARTUP_BOOST).orElse(null),
                profile.getMetadata().getGeneration(), seen.now()));
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
     * next reconcile that gets through writes Ready again. A failure without a message (a request that timed out) is
     * named by its cause.
     */
    public static Decision reconcileFailed(TuningProfile profile, Exception failure, Instant now) {
        String cause = failure.getMessage() == null && failure.getCause() != null ? " (caused by " + Failures.named(failure.getCause()) + ")" : "";
        return noWrites(profile, statusFrom(profile, now).reconcileFailed("reconcile failed: " + Failures.named(failure) + cause));
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
        target.ifPresent(deployment -> writes.addAll(restoreIfTuned(deployment, profile.getMetadata().getName())));
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
     * The kills of pods that run the Deployment's own template, where no plan of the profile is in force (Apply's kills are
     * ApplyStep's, which knows the settings each pod ran): the last kill status records after them.
     *
     * @param budget the budget each pod is held against, null for none
     */
    private static LastOomKill ownTemplateKills(Observation seen, Container userContainer, ContainerFacts facts, MemoryBudget budget, Remembered remembered) {
        return OomKills.recorded(OomKills.of(seen, userContainer.getName(), facts.memoryLimitBytes(), null, null, budget), remembered.lastOomKill());
    }

    /**
     * The user's own template back, by the operator's own hand: no rollout of its settings is in force any more, and nothing it
     * wrote can be taken back by another manager.
     */
    private static Findings restore(Findings found, Deployment target, String profile) {
        return found.withWrites(restoreIfTuned(target, profile)).withRemembered(found.remembered().restored());
    }

    private static List<Write> restoreIfTuned(Deployment deployment, String profile) {
        return DeploymentTuning.tunedBy(deployment, profile) ? List.of(new Write.RestoreDeployment(DeploymentTuning.restored(deployment, profile)))
                : List.of();
    }

}
