package dev.jvmtuning.operator.decision;

import dev.jvmtuning.operator.api.v1alpha1.AppliedSettings;
import dev.jvmtuning.operator.api.v1alpha1.RefusedOption;
import dev.jvmtuning.operator.api.v1alpha1.RollBack;
import dev.jvmtuning.operator.api.v1alpha1.RollbackPolicy;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import dev.jvmtuning.operator.deployment.FieldOwners;
import dev.jvmtuning.operator.deployment.TargetPods;
import dev.jvmtuning.operator.model.Attestation;
import dev.jvmtuning.operator.model.EffectiveOptions;
import dev.jvmtuning.operator.model.JvmFlags;
import dev.jvmtuning.operator.model.LabelsAndAnnotations;
import dev.jvmtuning.operator.model.MetricsReport;
import dev.jvmtuning.operator.model.Reason;
import dev.jvmtuning.operator.model.Units;
import dev.jvmtuning.operator.preview.Preview;
import dev.jvmtuning.operator.render.DeploymentTuning;
import dev.jvmtuning.operator.render.Rendering;
import dev.jvmtuning.operator.render.TuningConfigMap;
import dev.jvmtuning.operator.rollout.Rollout;
import dev.jvmtuning.operator.rollout.RolloutHealth;
import dev.jvmtuning.operator.rollout.RolloutJudge;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Quantity;
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
 * with its cause ({@link OomKills}). Pure: returns the writes, in order, what Applied says and what status carries on.
 */
final class ApplyStep {
    private final Observation seen;
    private final Deployment deployment;
    private final Preview.Rendered rendered;
    private final DeploymentTuning.Agent agent;
    private final String name;
    private final ConfigMap values;
    private final String hash;
    private final String template;

    /** The writes, in order, what the Applied and Ready conditions say, and what status carries to the next reconcile. */
    record Result(List<Write> writes, Findings.Applied applied, Remembered remembered) {
    }

    private ApplyStep(Observation seen, Deployment deployment, Preview.Rendered rendered, DeploymentTuning.Agent agent) {
        this.seen = seen;
        this.deployment = deployment;
        this.rendered = rendered;
        this.agent = agent;
        this.name = seen.profile().getMetadata().getName();
        this.values = TuningConfigMap.desired(seen.profile(), rendered.rendering());
        this.hash = DeploymentTuning.hash(rendered.rendering(), values.getMetadata().getName());
        this.template = DeploymentTuning.templateHash(deployment, name);
    }

    /** @param before what status carried from the last reconcile */
    static Result decide(Observation seen, Deployment deployment, Preview.Rendered rendered, DeploymentTuning.Agent agent, Remembered before) {
        return new ApplyStep(seen, deployment, rendered, agent).decide(before);
    }

    private Result decide(Remembered before) {
        Long generation = seen.profile().getMetadata().getGeneration();
        List<OomKills.Kill> kills = OomKills.of(seen, rendered.userContainer().getName(), rendered.asPlanned().memoryLimitBytes(), hash,
                rendered.plan().values().heapBytes(), rendered.plan().budget());
        Remembered remembered = before.withLastOomKill(OomKills.recorded(kills, before.lastOomKill()));
        Optional<RollBack> keptOut = RolloutJudge.keptOut(remembered.rolledBack(), hash, template, generation);
        if (keptOut.isPresent()) {
            return new Result(List.of(), new Findings.Applied.RolledBack(keptOut.get()), remembered.withRolledBack(keptOut.get()));
        }
        Deployment desired = DeploymentTuning.desired(deployment, rendered.userContainer(), name, rendered.rendering(), values.getMetadata().getName(),
                agent);
        boolean writing = !DeploymentTuning.upToDate(deployment, desired, name);
        TakeBacks.Verdict takenBack = TakeBacks.judge(remembered.takenBack(), remembered.rollout(), writing,
                writing ? takenBy(deployment, desired) : Optional.empty(), hash, template, deployment.getMetadata().getGeneration(), generation,
                seen.now());
        remembered = remembered.withTakenBack(takenBack.record());
        if (!takenBack.write()) {
            return new Result(List.of(), new Findings.Applied.NotApplied(Reason.TAKEN_BACK, TakeBacks.message(takenBack.record(),
                    deployment.getMetadata().getName())), remembered);
        }
        Rollout live = Rollout.of(deployment);
        // A template still to be written is judged as written: its rollout has started, and its pods are judged next time.
        Rollout rollout = writing ? Rollout.written(deployment) : live;
        remembered = remembered.withRollout(RolloutJudge.track(remembered.rollout(), hash, template, writing, live, rollout, seen.now()));
        AppliedSettings applying = new AppliedSettings(hash, rendered.rendering().jvmOptionsValue(), values.getMetadata().getName(),
                TuningConfigMap.data(rendered.rendering()), rendered.rendering().resources());
        RolloutJudge.Step step = RolloutJudge.judge(remembered.rollout(), rollout, seen.pods(), applying, rendered.userContainer().getName(),
                remembered.lastHealthy(), generation, rollbackWindow(seen.profile()), seen.now());
        return step instanceof RolloutJudge.TakeBack takeBack ? takeBack(takeBack, kills, remembered)
                : rollOn((RolloutJudge.Progress) step, writing ? Optional.of(desired) : Optional.empty(), remembered);
    }

    /** The pods of these settings fail: the template goes back to the last healthy settings, or to the user's own. */
    private Result takeBack(RolloutJudge.TakeBack takeBack, List<OomKills.Kill> kills, Remembered remembered) {
        List<Write> writes = new ArrayList<>();
        AppliedSettings to = takeBack.to();
        if (to != null) {
            createIfMissing(TuningConfigMap.desired(seen.profile(), to.getConfigMap(), to.getConfigMapData()), writes);
            Deployment back = DeploymentTuning.desired(deployment, rendered.userContainer(), name, TuningConfigMap.rendering(
                    rendered.rendering().jvmOptionsVariable(), to.getJvmOptions(), to.getConfigMapData(),
                    Objects.requireNonNullElse(to.getResources(), Map.of())), to.getConfigMap(), agent);
            if (!DeploymentTuning.upToDate(deployment, back, name)) {
                writes.add(new Write.ApplyDeployment(deployment, back));
            }
        } else {
            writes.add(new Write.RestoreDeployment(DeploymentTuning.restored(deployment, name)));
        }
        prune(remembered.lastHealthy(), writes);
        // One try without a refused option per release and profile: with a refusal in force, these settings were that try.
        RefusedOption refused = remembered.refusedOption() != null ? remembered.refusedOption()
                : takeBack.refusedVmOption().flatMap(option -> refusedOption(option, rendered.rendering(), takeBack.rollBack())).orElse(null);
        RollBack rollBack = withCause(takeBack.rollBack(), kills);
        return new Result(writes, new Findings.Applied.RolledBack(rollBack), remembered.withRefusedOption(refused).withRolledBack(rollBack)
                .withJvm(remembered.jvm().failedOn(TargetPods.images(deployment))));
    }

    /** The settings roll on: written where the template lacks them; once their rollout completed, the JVMs say what runs. */
    private Result rollOn(RolloutJudge.Progress progress, Optional<Deployment> toWrite, Remembered before) {
        List<Write> writes = new ArrayList<>();
        createIfMissing(values, writes);
        toWrite.ifPresent(desired -> writes.add(new Write.ApplyDeployment(deployment, desired)));
        prune(before.lastHealthy(), writes);
        Remembered remembered = progress.healthy() == null ? before : before.healthy(progress.healthy());
        RefusedOption refused = remembered.refusedOption();
        String message = "settings " + hash + " rendered into container " + rendered.userContainer().getName() + " of Deployment "
                + deployment.getMetadata().getName() + (refused == null ? "" : ", without " + refused.getFlag() + ", which the JVM refused ("
                        + refused.getJvmMessage() + "): the rest of the settings are tried once without it");
        Attestation attestation = !progress.rollout().complete() ? null
                : Attestation.of(rendered.rendering().renderedFlags(), rendered.rendering().serverSettings(), optionsOfPodsRunning(hash, seen));
        return new Result(writes, new Findings.Applied.Rolling(message, progress.rollout(), progress.unheld(), attestation), remembered);
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
                desired.getSpec().getTemplate().getMetadata().getAnnotations().keySet(),
                ours.getResources() == null ? List.of() : Stream.concat(
                        Objects.requireNonNullElse(ours.getResources().getLimits(), Map.<String, Quantity>of()).keySet().stream().map(n -> "limits." + n),
                        Objects.requireNonNullElse(ours.getResources().getRequests(), Map.<String, Quantity>of()).keySet().stream().map(n -> "requests." + n))
                        .toList());
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

    private void createIfMissing(ConfigMap configMap, List<Write> writes) {
        String name = configMap.getMetadata().getName();
        if (seen.configMaps().stream().noneMatch(c -> c.getMetadata().getName().equals(name))) {
            writes.add(new Write.CreateConfigMap(configMap));
        }
    }

    /** The profile's ConfigMaps other than these values and those a failed rollout would go back to: they go, once no ReplicaSet names them. */
    private void prune(AppliedSettings lastHealthy, List<Write> writes) {
        String configMapName = values.getMetadata().getName();
        Set<String> keep = lastHealthy == null ? Set.of(configMapName)
                : Stream.of(configMapName, lastHealthy.getConfigMap()).collect(Collectors.toSet());
        List<ConfigMap> unused = seen.configMaps().stream()
                .filter(c -> TuningConfigMap.ownedBy(c, seen.profile()) && !keep.contains(c.getMetadata().getName())).toList();
        if (!unused.isEmpty()) {
            writes.add(new Write.PruneConfigMaps(deployment, unused));
        }
    }
}
