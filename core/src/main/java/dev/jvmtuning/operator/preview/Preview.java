package dev.jvmtuning.operator.preview;

import dev.jvmtuning.operator.api.v1alpha1.AdmittedPod;
import dev.jvmtuning.operator.api.v1alpha1.AutoStatus;
import dev.jvmtuning.operator.api.v1alpha1.BoostedPod;
import dev.jvmtuning.operator.api.v1alpha1.Guardrail;
import dev.jvmtuning.operator.api.v1alpha1.LastOomKill;
import dev.jvmtuning.operator.api.v1alpha1.RefusedOption;
import dev.jvmtuning.operator.api.v1alpha1.Sizing;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfileSpec;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfileStatus;
import dev.jvmtuning.operator.closedloop.Overlay;
import dev.jvmtuning.operator.flags.FlagPolicy;
import dev.jvmtuning.operator.model.ContainerFacts;
import dev.jvmtuning.operator.model.Reason;
import dev.jvmtuning.operator.planner.OomAnswer;
import dev.jvmtuning.operator.planner.PlanResult;
import dev.jvmtuning.operator.planner.Planner;
import dev.jvmtuning.operator.render.DeploymentTuning;
import dev.jvmtuning.operator.render.Renderer;
import dev.jvmtuning.operator.render.Rendering;
import dev.jvmtuning.operator.rollout.Rollout;
import dev.jvmtuning.operator.rollout.RolloutJudge;
import dev.jvmtuning.operator.deployment.AdmittedContainer;
import dev.jvmtuning.operator.deployment.TargetContainer;
import dev.jvmtuning.operator.deployment.VerticalScalers;
import dev.jvmtuning.operator.deployment.VerticalScalers.VerticalScaler;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * What the operator renders for a profile and its Deployment: the target container as the user wrote it,
 * the planner's view of it, the profile's spec with mode Auto's settings laid over it, the installation's
 * guardrail check and flag policy, the plan and its rendering. The reconciler acts on it and {@code kubectl tp}
 * shows it, so a preview is what the operator then does. Values in, values out.
 */
public sealed interface Preview {

    /**
     * What an installation decides beyond the profile: the flags it allows, and why a profile's guardrail
     * cannot be evaluated (empty when it can).
     */
    record Installation(FlagPolicy flagPolicy, Function<Guardrail, Optional<String>> guardrailRefusal) {
    }

    /** The Deployment has no container the profile can tune; the message says what to set. */
    record NoContainer(String problem) implements Preview {
    }

    /**
     * No settings: the profile (as laid over) is refused for this container; each message names the numbers.
     *
     * @param admitted how the newest pod differs from the template, which the facts follow
     */
    record Rejected(Container userContainer, ContainerFacts facts, Optional<AdmittedPod> admitted, Reason reason, List<String> messages)
            implements Preview {
    }

    /**
     * The settings to write: the spec planned (the profile's, or Auto's overlay), its plan and rendering.
     *
     * @param admitted       how the newest pod differs from the template, which the facts follow
     * @param verticalScaler the VerticalPodAutoscaler of the target and the limits it moves, which the rendering leaves to the JVM
     */
    record Rendered(Container userContainer, ContainerFacts facts, Optional<AdmittedPod> admitted, Optional<VerticalScaler> verticalScaler,
            TuningProfileSpec spec, PlanResult.Plan plan, Rendering rendering) implements Preview {
        /** The container as the plan leaves it: with the resources spec.sizing has it size, which its pods then run. */
        public ContainerFacts asPlanned() {
            return plan.values().resources().appliedTo(facts);
        }
    }

    /**
     * The target as it runs, beside its template.
     *
     * @param pods            the target's pods: the plan is for the resources the newest of its own template was admitted with
     * @param replicaSets     the target's ReplicaSets while it rolls out, which say which pods run the template as it is now
     * @param boosts          the profile's status.startupBoosts: a boosted pod's own CPU limit is the one planned for
     * @param autoscalers     the HorizontalPodAutoscalers of the namespace: the pool adds up over the most replicas they allow
     * @param verticalScalers the VerticalPodAutoscalers of the namespace (none where the CRD is not installed)
     * @param refused         the VM option the JVMs of this template refused (status.refusedOption while it holds), which is
     *                        left out; null for none
     */
    record Live(List<Pod> pods, List<ReplicaSet> replicaSets, List<BoostedPod> boosts, List<HorizontalPodAutoscaler> autoscalers,
            List<GenericKubernetesResource> verticalScalers, RefusedOption refused) {
        /** The template alone, as offline planning sees it. */
        public static final Live NONE = new Live(List.of(), List.of(), List.of(), List.of(), List.of(), null);

        public Live {
            pods = List.copyOf(pods);
            replicaSets = List.copyOf(replicaSets);
            boosts = List.copyOf(boosts);
            autoscalers = List.copyOf(autoscalers);
            verticalScalers = List.copyOf(verticalScalers);
        }

        /**
         * The cluster around a stored profile's target: its boosts and the option its JVMs refused as the profile's
         * status records them.
         */
        Live withStatusOf(TuningProfile profile, Deployment deployment) {
            TuningProfileStatus status = profile.getStatus();
            if (status == null) {
                return this;
            }
            RefusedOption refused = RolloutJudge.refusalInForce(status.getRefusedOption(),
                    () -> DeploymentTuning.templateHash(deployment, profile.getMetadata().getName()), profile.getMetadata().getGeneration())
                    .orElse(null);
            return new Live(pods, replicaSets, status.getStartupBoosts(), autoscalers, verticalScalers, refused);
        }

        /** The VM options left out of the rendering. */
        Set<String> refusedVmOptions() {
            return refused == null ? Set.of() : Set.of(refused.getOption());
        }
    }

    /**
     * A stored profile's preview: its spec, with what its status says of mode Auto's loop, of the last OOM kill, of the
     * rollout and the boosts, and of the Java version and the AOT cache the target's pods report.
     *
     * @param cluster          the target's pods and the autoscalers around it; none to plan for the template alone
     * @param javaMajorVersion the JVM's feature version to plan for, over the one status records; null for status's
     */
    static Preview of(TuningProfile profile, Deployment deployment, Live cluster, Integer javaMajorVersion, Installation installation) {
        TuningProfileStatus status = profile.getStatus();
        Integer javaVersion = javaMajorVersion != null || status == null ? javaMajorVersion : status.getJavaVersion();
        return of(profile.getMetadata().getName(), profile.getSpec(), status == null ? null : status.getAuto(),
                status == null ? null : status.getLastOomKill(), deployment, cluster.withStatusOf(profile, deployment), javaVersion,
                status == null ? null : status.getAotCache(), installation);
    }

    /**
     * @param profile          the profile's name: what it wrote into the Deployment before is not the user's
     * @param auto             the profile's status.auto as the last reconcile left it; its settings count in mode Auto only
     * @param lastOomKill      the profile's status.lastOomKill, which the memory budget answers (R9b); null when none
     * @param live             the target as it runs
     * @param javaMajorVersion the JVM's feature version when known, else null (flags are checked against every supported JDK)
     * @param reportedAotCache the AOT cache or CDS archive the pods' JVMs report (status.aotCache), else null
     */
    static Preview of(String profile, TuningProfileSpec spec, AutoStatus auto, LastOomKill lastOomKill, Deployment deployment, Live live,
            Integer javaMajorVersion, String reportedAotCache, Installation installation) {
        TargetContainer.Lookup lookup = TargetContainer.find(deployment, spec.getContainer());
        if (!lookup.isFound()) {
            return new NoContainer(lookup.problem());
        }
        Container userContainer = DeploymentTuning.userContainer(deployment, lookup.container(), profile);
        Optional<VerticalScaler> verticalScaler = VerticalScalers.of(live.verticalScalers(), deployment, lookup.container().getName());
        Optional<AdmittedContainer> pod = live.pods().isEmpty() ? Optional.empty() : AdmittedContainer.newest(deployment, lookup.container(),
                live.pods(), RolloutJudge.ofTemplateInForce(Rollout.of(deployment), deployment, live.replicaSets(), profile), live.boosts());
        Optional<AdmittedPod> admitted = pod.flatMap(p -> p.differences(lookup.container()));
        // Where a VPA moves the memory limit pod by pod, the heap is a share of the limit, which each JVM applies to its own:
        // planning for one pod's limit would roll every pod each time the VPA moves one. The share is planned at the least
        // memory the VPA may give (its minAllowed), else at the template's limit: at any limit above, heap and the rest fit.
        Optional<Long> sharePlannedAt = verticalScaler.filter(VerticalScaler::memoryLimit).flatMap(v -> Optional.ofNullable(
                v.minAllowedMemoryBytes()).or(() -> Optional.ofNullable(TargetContainer.facts(deployment, userContainer, Optional.empty(),
                List.of(), null, null).memoryLimitBytes())));
        ContainerFacts facts = sharePlannedAt.isPresent()
                ? TargetContainer.facts(deployment, withMemoryLimit(userContainer, sharePlannedAt.get()), Optional.empty(), live.autoscalers(),
                        javaMajorVersion, reportedAotCache)
                : TargetContainer.facts(deployment, userContainer, pod, live.autoscalers(), javaMajorVersion, reportedAotCache);
        // An Auto loop without the guardrail its author asked for would run unguarded: such a profile is refused as a whole.
        Optional<String> refusal = installation.guardrailRefusal().apply(spec.getAuto() == null ? null : spec.getAuto().getGuardrail());
        if (refusal.isPresent()) {
            return new Rejected(userContainer, facts, admitted, Reason.INVALID, List.of(refusal.get()));
        }
        Optional<String> sizedTwice = verticalScaler.flatMap(v -> sizedAlsoBy(v, spec.getSizing()));
        if (sizedTwice.isPresent()) {
            return new Rejected(userContainer, facts, admitted, Reason.CONFLICT, List.of(sizedTwice.get()));
        }
        TuningProfileSpec planned = Overlay.spec(spec, auto);
        PlanResult result = Planner.plan(planned, facts, installation.flagPolicy(), OomAnswer.to(lastOomKill, planned.getSizing()));
        if (result instanceof PlanResult.Rejected rejected) {
            return new Rejected(userContainer, facts, admitted, rejected.reason(), rejected.messages());
        }
        PlanResult.Plan plan = (PlanResult.Plan) result;
        Renderer.Owned owned = verticalScaler.map(v -> new Renderer.Owned(v.memoryLimit(), v.cpuLimit())).orElse(Renderer.Owned.NONE);
        return new Rendered(userContainer, facts, admitted, verticalScaler, planned, plan, Renderer.render(plan.values(), planned, facts, owned,
                live.refusedVmOptions()));
    }

    /** Why the profile and the VPA would both size one resource of the container; empty when they do not. */
    private static Optional<String> sizedAlsoBy(VerticalScaler verticalScaler, Sizing sizing) {
        if (sizing == null) {
            return Optional.empty();
        }
        List<String> both = Stream.of(sizing.plansMemory() ? "memory" : null, sizing.plansCpu() ? "cpu" : null)
                .filter(resource -> resource != null && verticalScaler.sizes().contains(resource)).toList();
        return both.isEmpty() ? Optional.empty() : Optional.of("sizing." + String.join(" and sizing.", both) + " is Plan, and "
                + "VerticalPodAutoscaler " + verticalScaler.name() + " sizes the container's " + String.join(" and ", both) + " too: each "
                + "would undo the other's change on every pod; set the profile's sizing to Keep, or leave the resource out of the "
                + "autoscaler's controlledResources");
    }

    /** The container with this memory limit (and no larger request): the limit a VPA's share is planned at. */
    private static Container withMemoryLimit(Container container, long bytes) {
        Container copy = new ContainerBuilder(container).build();
        ResourceRequirements resources = Objects.requireNonNullElseGet(copy.getResources(), ResourceRequirements::new);
        Map<String, Quantity> limits = new HashMap<>(Objects.requireNonNullElse(resources.getLimits(), Map.of()));
        limits.put("memory", new Quantity(Long.toString(bytes)));
        Map<String, Quantity> requests = new HashMap<>(Objects.requireNonNullElse(resources.getRequests(), Map.of()));
        requests.computeIfPresent("memory", (k, q) -> Quantity.getAmountInBytes(q).longValue() > bytes ? new Quantity(Long.toString(bytes)) : q);
        copy.setResources(new ResourceRequirements(resources.getClaims(), limits, requests));
        return copy;
    }
}
