package dev.jvmtuning.operator.decision;

import dev.jvmtuning.operator.api.v1alpha1.AppliedSettings;
import dev.jvmtuning.operator.api.v1alpha1.RefusedOption;
import dev.jvmtuning.operator.api.v1alpha1.RollBack;
import dev.jvmtuning.operator.api.v1alpha1.RollbackPolicy;
import dev.jvmtuning.operator.api.v1alpha1.TrackedRollout;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import dev.jvmtuning.operator.deployment.FieldOwners;
import dev.jvmtuning.operator.deployment.TargetPods;
import dev.jvmtuning.operator.model.Attestation;
import dev.jvmtuning.operator.model.ContainerFacts;
import dev.jvmtuning.operator.model.EffectiveOptions;
import dev.jvmtuning.operator.model.JvmFlags;
import dev.jvmtuning.operator.model.LabelsAndAnnotations;
import dev.jvmtuning.operator.model.MetricsReport;
import dev.jvmtuning.operator.model.Reason;
import dev.jvmtuning.operator.model.Units;
import dev.jvmtuning.operator.planner.MemoryBudget;
import dev.jvmtuning.operator.render.DeploymentTuning;
import dev.jvmtuning.operator.render.Rendering;
import dev.jvmtuning.operator.render.TuningConfigMap;
import dev.jvmtuning.operator.rollout.Rollout;
import dev.jvmtuning.operator.rollout.RolloutHealth;
import dev.jvmtuning.operator.rollout.RolloutJudge;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Apply mode's writes: a change reaches the pods as one new template, and comes back out when
 * {@link RolloutJudge} says its pods fail; an OOM kill of the tuned container, in a rollout or after it, is recorded
 * with its cause ({@link OomKills}). Pure: returns the writes, in order, and records the step in status.
 */
final class ApplyStep {

    private ApplyStep() {
    }

    /**
     * @param facts            the container as its newest pod was admitted, whose memory limit an OOM kill is held against
     * @param plannedHeapBytes the maximum heap the plan sets, null when it leaves it to the JVM
     * @param budget           the plan's memory budget, null without one
     */
    static List<Write> decide(Observation seen, Deployment deployment, Container userContainer, ContainerFacts facts, Rendering rendering,
            Long plannedHeapBytes,
            MemoryBudget budget, DeploymentTuning.Agent agent, StatusBuilder status) {
        TuningProfile profile = seen.profile();
        String name = profile.getMetadata().getName();
        Long generation = profile.getMetadata().getGeneration();
        ConfigMap values = TuningConfigMap.desired(profile, rendering);
        String configMapName = values.getMetadata().getName();
        String hash = DeploymentTuning.hash(rendering, configMapName);
        List<OomKills.Kill> kills = OomKills.record(seen, userContainer.getName(),
                facts.memoryLimitBytes(), hash, plannedHeapBytes, budget, status);
        String template = DeploymentTuning.templateHash(deployment, name);
        Optional<RollBack> keptOut = RolloutJudge.keptOut(status.rolledBack(), hash, template, generation);
        if (keptOut.isPresent()) {
            status.rolledBack(keptOut.get());
            return List.of();
        }
        Deployment desired = DeploymentTuning.desired(deployment, userContainer, name, rendering, configMapName, agent);
        boolean writing = !DeploymentTuning.upToDate(deployment, desired, name);
        TakeBacks.Verdict takenBack = TakeBacks.judge(status.takenBack(), status.rollout(), writing,
                writing ? takenBy(deployment, desired) : Optional.empty(), hash, template, deployment.getMetadata().getGeneration(), generation,
                seen.now());
        status.takenBack(takenBack.record());
        if (!takenBack.write()) {
            status.notApplied(Reason.TAKEN_BACK, TakeBacks.message(takenBack.record(), deployment.getMetadata().getName()));
            return List.of();
        }
        Rollout live = Rollout.of(deployment);
        // A template still to be written is judged as written: its rollout has started, and its pods are judged next time.
        Rollout rollout = writing ? Rollout.written(deployment) : live;
        TrackedRollout tracked = RolloutJudge.track(status.rollout(), hash, template, writing, live, rollout, seen.now());
        status.rollout(tracked);
        AppliedSettings lastHealthy = status.lastHealthy();
        AppliedSettings applying = new AppliedSettings(hash, rendering.jvmOptionsValue(), configMapName, TuningConfigMap.data(rendering));
        RolloutJudge.Step step = RolloutJudge.judge(tracked, rollout, seen.pods(), applying, userContainer.getName(), lastHealthy, generation,
                rollbackWindow(profile), seen.now());
        List<Write> writes = new ArrayList<>();
        if (step instanceof RolloutJudge.TakeBack takeBack) {
            AppliedSettings to = takeBack.to();
            if (to != null) {
                createIfMissing(seen, TuningConfigMap.desired(profile, to.getConfigMap(), to.getConfigMapData()), writes);
                Deployment back = DeploymentTuning.desired(deployment, userContainer, name, TuningConfigMap.rendering(
                        rendering.jvmOptionsVariable(), to.getJvmOptions(), to.getConfigMapData()), to.getConfigMap(), agent);
                if (!DeploymentTuning.upToDate(deployment, back, name)) {
                    writes.add(new Write.ApplyDeployment(deployment, back));
                }
            } else {
                writes.add(new Write.RestoreDeployment(DeploymentTuning.restored(deployment, name)));
            }
            prune(seen, deployment, configMapName, lastHealthy, writes);
            // One try without a refused option per release and profile: with a refusal in force, these settings were that try.
            if (status.refusedOption() == null) {
                takeBack.refusedVmOption().flatMap(refused -> refusedOption(refused, rendering, takeBack.rollBack()))
                        .ifPresent(status::refusedOption);
            }
            status.rolledBack(withCause(takeBack.rollBack(), kills));
            status.failedOn(TargetPods.images(deployment));
            return writes;
        }
        createIfMissing(seen, values, writes);
        if (writing) {
            writes.add(new Write.ApplyDeployment(deployment, desired));
        }
        prune(seen, deployment, configMapName, lastHealthy, writes);
        RolloutJudge.Progress progress = (RolloutJudge.Progress) step;
        if (progress.healthy() != null) {
            status.healthy(progress.healthy());
        }
        RefusedOption refused = status.refusedOption();
        status.applied("settings " + hash + " rendered into container " + userContainer.getName() + " of Deployment "
                + deployment.getMetadata().getName() + (refused == null ? "" : ", without " + refused.getFlag() + ", which the JVM refused ("
                        + refused.getJvmMessage() + "): the rest of the settings are tried once without it"), progress.rollout());
        status.podsFailing(progress.unheld());
        if (progress.rollout().complete()) {
            status.attested(Attestation.of(rendering.renderedFlags(), rendering.serverSettings(), optionsOfPodsRunning(hash, seen)));
        }
        return writes;
    }

    /**
     * The record of a VM option the JVM refused, where the operator rendered it: the settings can go without it. An option of
     * the user's own (the container's variable, spec.jvmOptions) is theirs to drop.
     */
    private static Optional<RefusedOption> refusedOption(RolloutHealth.RefusedVmOption refused, Rendering rendering, RollBack rollBack) {
        return rendering.renderedFlags().stream().filter(flag -> JvmFlags.vmOptionName(flag).filter(refused.name()::equals).isPresent())
                .findFirst().map(flag -> new RefusedOption(refused.name(), flag, refused.jvmLine(), rollBack.getSettingsHash(),
                        rollBack.getGeneration(), rollBack.getTemplateHash(), rollBack.getAt()));
    }

    /** The other field manager that last wrote the fields the operator sets in the template, if any. */
    private static Optional<FieldOwners.Owner> takenBy(Deployment live, Deployment desired) {
        Container ours = desired.getSpec().getTemplate().getSpec().getContainers().get(0);
        return FieldOwners.lastOther(live, LabelsAndAnnotations.OPERATOR, ours.getName(), ours.getEnv().stream().map(EnvVar::getName).toList(),
                desired.getSpec().getTemplate().getMetadata().getAnnotations().keySet());
    }

    private static Duration rollbackWindow(TuningProfile profile) {
        RollbackPolicy policy = Objects.requireNonNullElseGet(profile.getSpec().getRollback(), RollbackPolicy::new);
        return Units.duration(policy.getWindow());
    }

    /**
     * A rollback of pods OOM-killed says why they ran out: the kill of the pod its message names, else of another pod of the
     * same settings.
     */
    private static RollBack withCause(RollBack rollBack, List<OomKills.Kill> kills) {
        return kills.stream().filter(k -> rollBack.getSettingsHash().equals(k.settingsHash()))
                .min(Comparator.comparing(k -> !rollBack.getMessage().startsWith("pod " + k.pod() + ",")))
                .map(k -> new RollBack(rollBack.getSettingsHash(), rollBack.getGeneration(), rollBack.getTemplateHash(),
                        rollBack.getMessage() + "; " + k.sentence(), rollBack.getAt()))
                .orElse(rollBack);
    }

    /**
     * The options reported by the Ready pods whose template carries these settings: a poll from before the rollout, or a
     * pod of the old template still stopping, says nothing of them.
     */
    private static Map<String, EffectiveOptions> optionsOfPodsRunning(String hash, Observation seen) {
        Set<String> running = readyPodsRunning(hash, seen);
        Map<String, EffectiveOptions> reported = seen.metrics().map(MetricsReport::effectiveOptions).orElse(Map.of());
        Map<String, EffectiveOptions> judged = new TreeMap<>();
        running.forEach(pod -> judged.put(pod, reported.getOrDefault(pod, EffectiveOptions.NONE)));
        return judged;
    }

    /** The names of the Ready pods whose template carries these settings. */
    static Set<String> readyPodsRunning(String hash, Observation seen) {
        return seen.pods().stream()
                .filter(p -> TargetPods.ready(p) && hash.equals(TargetPods.settingsHash(p)))
                .map(p -> p.getMetadata().getName()).collect(Collectors.toSet());
    }

    private static void createIfMissing(Observation seen, ConfigMap configMap, List<Write> writes) {
        String name = configMap.getMetadata().getName();
        if (seen.configMaps().stream().noneMatch(c -> c.getMetadata().getName().equals(name))) {
            writes.add(new Write.CreateConfigMap(configMap));
        }
    }

    /** The profile's ConfigMaps other than these values and those a failed rollout would go back to: they go, once no ReplicaSet names them. */
    private static void prune(Observation seen, Deployment deployment, String configMapName, AppliedSettings lastHealthy, List<Write> writes) {
        Set<String> keep = lastHealthy == null ? Set.of(configMapName)
                : Stream.of(configMapName, lastHealthy.getConfigMap()).collect(Collectors.toSet());
        List<ConfigMap> unused = seen.configMaps().stream()
                .filter(c -> TuningConfigMap.ownedBy(c, seen.profile()) && !keep.contains(c.getMetadata().getName())).toList();
        if (!unused.isEmpty()) {
            writes.add(new Write.PruneConfigMaps(deployment, unused));
        }
    }
}
