package dev.jvmtuning.operator.reconciler;

import dev.jvmtuning.operator.api.v1alpha1.AppliedSettings;
import dev.jvmtuning.operator.api.v1alpha1.RollBack;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import dev.jvmtuning.operator.config.OperatorSettings;
import dev.jvmtuning.operator.render.DeploymentTuning;
import dev.jvmtuning.operator.render.Rendering;
import dev.jvmtuning.operator.render.TuningConfigMap;
import dev.jvmtuning.operator.rollout.RolloutJudge;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.jboss.logging.Logger;

/** Apply mode's writes: a change reaches the pods as one new template, and comes back out when {@link RolloutJudge} says its pods fail. */
final class Rollouts {
    private static final Logger LOG = Logger.getLogger(Rollouts.class);

    private final TargetWrites writes;
    private final Function<Deployment, List<Pod>> podsOf;
    private final OperatorSettings.Agent agent;

    Rollouts(TargetWrites writes, Function<Deployment, List<Pod>> podsOf, OperatorSettings.Agent agent) {
        this.writes = writes;
        this.podsOf = podsOf;
        this.agent = agent;
    }

    /**
     * Writes the values and then the template that points at them, so no pod reads a half-written set;
     * then carries out the judge's step: record the rollout, or write the settings back when its pods fail.
     */
    void apply(TuningProfile profile, Deployment deployment, Container userContainer, Rendering rendering,
            StatusBuilder status, Instant now) {
        String name = profile.getMetadata().getName();
        Long generation = profile.getMetadata().getGeneration();
        ConfigMap values = TuningConfigMap.desired(profile, rendering);
        String configMapName = values.getMetadata().getName();
        String hash = DeploymentTuning.hash(rendering, configMapName);
        Optional<RollBack> keptOut = RolloutJudge.keptOut(status.rolledBack(), hash, generation);
        if (keptOut.isPresent()) {
            status.rolledBack(keptOut.get());
            return;
        }
        writes.configMap(values);
        Deployment live = writes.deployment(deployment,
                DeploymentTuning.desired(deployment, userContainer, name, rendering, configMapName, agent(profile)), name);
        AppliedSettings lastHealthy = status.lastHealthy();
        // The values a failed rollout would go back to stay too.
        writes.pruneConfigMaps(profile, live, lastHealthy == null ? Set.of(configMapName)
                : Stream.of(configMapName, lastHealthy.getConfigMap()).collect(Collectors.toSet()));
        AppliedSettings applying = new AppliedSettings(hash, rendering.jvmOptionsValue(), configMapName, TuningConfigMap.data(rendering));
        RolloutJudge.Step step = RolloutJudge.judge(live, podsOf.apply(live), applying, userContainer.getName(), lastHealthy, generation, now);
        if (step instanceof RolloutJudge.TakeBack takeBack) {
            LOG.warnf("pods of TuningProfile %s failed with settings %s; rolling back: %s", profile.key(), hash, takeBack.rollBack().getMessage());
            AppliedSettings to = takeBack.to();
            if (to != null) {
                writes.configMap(TuningConfigMap.desired(profile, to.getConfigMap(), to.getConfigMapData()));
                writes.deployment(live, DeploymentTuning.desired(live, userContainer, name, TuningConfigMap.rendering(
                        rendering.jvmOptionsVariable(), to.getJvmOptions(), to.getConfigMapData()), to.getConfigMap(), agent(profile)), name);
            } else {
                writes.restore(live, name);
            }
            status.rolledBack(takeBack.rollBack());
            return;
        }
        RolloutJudge.Progress progress = (RolloutJudge.Progress) step;
        if (progress.healthy() != null) {
            status.healthy(progress.healthy());
        }
        status.applied("settings " + hash + " rendered into container " + userContainer.getName() + " of Deployment "
                + deployment.getMetadata().getName(), progress.rollout());
    }

    /** The agent image and jar set at install time, for a profile that injects the agent; else null. */
    private DeploymentTuning.Agent agent(TuningProfile profile) {
        return DeploymentTuning.Agent.ifInjected(profile.getSpec(), agent.image(), agent.jarPath());
    }
}
