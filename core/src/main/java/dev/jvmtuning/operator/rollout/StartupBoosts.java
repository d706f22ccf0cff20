package dev.jvmtuning.operator.rollout;

import dev.jvmtuning.operator.api.v1alpha1.StartupBoost;
import dev.jvmtuning.operator.model.ConditionStatus;
import dev.jvmtuning.operator.model.LabelsAndAnnotations;
import dev.jvmtuning.operator.model.ProfileEvent;
import dev.jvmtuning.operator.model.Reason;
import dev.jvmtuning.operator.model.Units;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerResizePolicy;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * spec.startupBoost, pod by pod: which starting pods to resize above their CPU limit, which boosted pods to bring back
 * to it, and what the StartupBoost condition says. The boost lives only on the pods (the pod {@code resize} subresource),
 * never in the template: the JVM keeps the template's CPU count (-XX:ActiveProcessorCount, and the GC, JIT and pool
 * sizes planned from it), and a pod the ReplicaSet creates again starts on its own limit. Pure.
 */
public final class StartupBoosts {
    /** Resizes per reconcile: a Deployment scaled up by hundreds is boosted over a few reconciles, not in one burst. */
    public static final int MAX_RESIZES = 10;
    /** A pod not Ready this long after it was created is not starting but failing: its boost ends. */
    public static final Duration LONGEST_START = Duration.ofMinutes(10);

    private static final String CPU = "cpu";
    private static final String RESIZE_PENDING = "PodResizePending";
    private static final String RESIZE_IN_PROGRESS = "PodResizeInProgress";
    private static final String INFEASIBLE = "Infeasible";
    private static final String DEFERRED = "Deferred";
    private static final String RESIZE_ERROR = "Error";

    private StartupBoosts() {
    }

    /**
     * One resize of a pod's tuned container.
     *
     * @param request the container's new CPU request, null to leave it (only a Guaranteed pod's request moves with its
     *                limit: a resize may not change the pod's QoS class)
     * @param event   what the Event says once the resize went through
     */
    public record Resize(String namespace, String pod, String container, Quantity limit, Quantity request, ProfileEvent event) {

        /** The strategic merge patch of the pod's resize subresource: the container's CPU and nothing else. */
        public Map<String, Object> patch() {
            Map<String, Object> resources = new LinkedHashMap<>();
            resources.put("limits", Map.of(CPU, limit.toString()));
            if (request != null) {
                resources.put("requests", Map.of(CPU, request.toString()));
            }
            return Map.of("spec", Map.of("containers", List.of(Map.of("name", container, "resources", resources))));
        }
    }

    /**
     * What to do about the boost this reconcile.
     *
     * @param resizes   the resizes to make, lowerings first, at most {@link #MAX_RESIZES}
     * @param condition the StartupBoost condition, empty when the profile has no boost (the condition goes)
     * @param recheckAt when the next boost ends or the resizes left over are due, if any
     */
    public record Verdict(List<Resize> resizes, Optional<BoostCondition> condition, Optional<Instant> recheckAt) {
        public Verdict {
            resizes = List.copyOf(resizes);
        }
    }

    /** The StartupBoost condition's status, reason and message. */
    public record BoostCondition(ConditionStatus status, Reason reason, String message) {
    }

    /**
     * The facts the boost is judged from.
     *
     * @param boost          spec.startupBoost, or null
     * @param notPossible    why no pod may be boosted whatever the pods say (the settings are not applied, ...), or null
     * @param template       the tuned container as the Deployment's template has it: its CPU is the steady state
     * @param settingsHash   the settings in force: only their pods, which the template's JVM flags pin to its CPU count, are boosted
     * @param pods           the target's pods
     * @param previous       the StartupBoost condition the last reconcile left, or null
     * @param generation     the profile's generation now
     */
    public record Facts(StartupBoost boost, String notPossible, Container template, String settingsHash, List<Pod> pods,
            Condition previous, Long generation, Instant now) {
        public Facts {
            pods = List.copyOf(pods);
        }
    }

    /**
     * The condition after the API server refused a resize; nothing else of the decision's boost stands. Only a 403 that names
     * pods/resize is the role's: admission answers 403 too, for a pod on a node it does not know, say.
     */
    public static BoostCondition refused(int code, String message) {
        return code == 403 && message.contains("pods/resize")
                ? new BoostCondition(ConditionStatus.FALSE, Reason.RESIZE_FORBIDDEN, "resizing pods is forbidden to the operator, so no "
                        + "pod is boosted: grant patch on pods/resize (Helm value startupBoost.allowResize) or remove "
                        + "spec.startupBoost; the API server said: " + message)
                : new BoostCondition(ConditionStatus.FALSE, Reason.RESIZE_REFUSED, "the API server refused to resize a pod, so no pod "
                        + "is boosted: " + message);
    }

    public static Verdict judge(Facts facts) {
        Steady steady = Steady.of(facts.template());
        String notPossible = facts.boost() == null ? null : facts.notPossible() != null ? facts.notPossible() : steady.whyNot(facts.boost());
        Duration warmUp = facts.boost() == null ? Duration.ZERO : Units.duration(facts.boost().getWarmUp());
        List<PodFacts> pods = facts.pods().stream().map(p -> PodFacts.of(p, facts.template().getName())).flatMap(Optional::stream)
                .sorted(Comparator.comparing(PodFacts::name)).toList();

        List<Resize> lowerings = new ArrayList<>();
        List<String> infeasible = new ArrayList<>();
        List<String> deferred = new ArrayList<>();
        List<String> boosting = new ArrayList<>();
        Instant recheck = null;
        // Without spec.startupBoost only the pods of a boost just removed come down (the condition it left says so): another
        // resizer's pods, a vertical autoscaler's in place, are not the profile's to take back.
        boolean ownBoosts = facts.boost() != null || facts.previous() != null;
        for (PodFacts pod : pods.stream().filter(p -> ownBoosts && p.boosted(steady)).toList()) {
            Instant end = pod.boostEnd(warmUp);
            String why = facts.boost() == null ? "spec.startupBoost was removed"
                    : notPossible != null ? "the boost is not possible: " + notPossible
                    : pod.restarts() > 0 ? "its container restarted (" + pod.restarts() + " times): a restart is judged as any failing rollout"
                    : pod.resizeProblem(INFEASIBLE) != null ? "the node cannot resize it: " + pod.resizeProblem(INFEASIBLE)
                    : !facts.now().isBefore(end) ? (pod.readySince() == null ? "not Ready " + LONGEST_START.toMinutes() + "m after it started"
                            : "Ready and the warm-up of " + facts.boost().getWarmUp() + " passed")
                    : null;
            if (pod.resizeProblem(INFEASIBLE) != null) {
                infeasible.add("pod " + pod.name() + ": " + pod.resizeProblem(INFEASIBLE));
            }
            if (why != null) {
                lowerings.add(new Resize(pod.namespace(), pod.name(), facts.template().getName(), steady.limit(),
                        pod.requestMoved(steady) ? steady.request() : null, new ProfileEvent(false, Reason.STARTUP_BOOST_ENDED,
                                "pod " + pod.name() + " back to its CPU limit " + steady.limit() + " from " + pod.limit() + ": " + why)));
                continue;
            }
            if (pod.resizeProblem(DEFERRED) != null) {
                deferred.add("pod " + pod.name() + " asked for " + pod.limit() + " CPU: " + pod.resizeProblem(DEFERRED));
            }
            boosting.add(pod.name() + " until " + (pod.readySince() == null ? "Ready + " + facts.boost().getWarmUp() : end));
            recheck = earliest(recheck, end);
        }

        boolean infeasibleBefore = facts.previous() != null && Reason.RESIZE_INFEASIBLE.text().equals(facts.previous().getReason())
                && Objects.equals(facts.previous().getObservedGeneration(), facts.generation());
        List<Resize> raisings = new ArrayList<>();
        if (facts.boost() != null && notPossible == null && infeasible.isEmpty() && !infeasibleBefore) {
            Quantity boost = new Quantity(facts.boost().getCpu());
            List<PodFacts> starting = pods.stream().filter(p -> p.starting(steady, facts.settingsHash(), facts.now())).toList();
            int room = Math.max(0, MAX_RESIZES - lowerings.size());
            if (starting.size() > room) {
                recheck = facts.now();
            }
            for (PodFacts pod : starting.stream().limit(room).toList()) {
                raisings.add(new Resize(pod.namespace(), pod.name(), facts.template().getName(), boost, pod.guaranteed() ? boost : null,
                        new ProfileEvent(false, Reason.STARTUP_BOOST_STARTED, "pod " + pod.name() + " raised from its CPU limit "
                                + steady.limit() + " to " + boost + " while it starts, until Ready + " + facts.boost().getWarmUp()
                                + "; its JVM keeps the CPU count of " + steady.limit())));
                boosting.add(pod.name() + " until Ready + " + facts.boost().getWarmUp());
                recheck = earliest(recheck, pod.created().plus(LONGEST_START));
            }
        }

        List<Resize> resizes = new ArrayList<>(lowerings);
        resizes.addAll(raisings);
        if (resizes.size() > MAX_RESIZES) {
            resizes = resizes.subList(0, MAX_RESIZES);
            recheck = facts.now();
        }
        // The condition outlives a removed boost until its last pod is down, so the next reconcile still lowers the rest.
        Optional<BoostCondition> condition = facts.boost() == null ? (lowerings.isEmpty() ? Optional.empty()
                : Optional.of(new BoostCondition(ConditionStatus.FALSE, Reason.NOT_BOOSTING, "spec.startupBoost was removed: "
                        + lowerings.size() + " pod" + (lowerings.size() == 1 ? "" : "s") + " back to " + steady.limit() + " CPU")))
                : Optional.of(
                notPossible != null ? new BoostCondition(ConditionStatus.FALSE, Reason.BOOST_NOT_POSSIBLE, "no pod is boosted: " + notPossible)
                : !infeasible.isEmpty() ? infeasible(String.join("; ", infeasible))
                : infeasibleBefore ? new BoostCondition(ConditionStatus.FALSE, Reason.RESIZE_INFEASIBLE, facts.previous().getMessage())
                : !deferred.isEmpty() ? new BoostCondition(ConditionStatus.FALSE, Reason.RESIZE_DEFERRED, "the node has no room for the "
                        + "boost yet, the pod keeps its own CPU until it makes room or the boost ends: " + String.join("; ", deferred))
                : !boosting.isEmpty() ? new BoostCondition(ConditionStatus.TRUE, Reason.BOOSTING, boosting.size() + " pod"
                        + (boosting.size() == 1 ? "" : "s") + " at " + facts.boost().getCpu() + " CPU instead of " + steady.limit()
                        + " (the JVM keeps the CPU count of " + steady.limit() + "): " + String.join(", ", boosting))
                : new BoostCondition(ConditionStatus.FALSE, Reason.NOT_BOOSTING, "no pod is starting; a new pod gets "
                        + facts.boost().getCpu() + " CPU instead of " + steady.limit() + " until Ready + " + facts.boost().getWarmUp()));
        return new Verdict(resizes, condition, Optional.ofNullable(recheck));
    }

    private static BoostCondition infeasible(String problems) {
        return new BoostCondition(ConditionStatus.FALSE, Reason.RESIZE_INFEASIBLE, "the node cannot resize the pod in place, so it "
                + "is back on its own CPU and no pod is boosted again until the profile changes: " + problems);
    }

    private static Instant earliest(Instant a, Instant b) {
        return a == null || b.isBefore(a) ? b : a;
    }

    private static BigDecimal cores(Quantity quantity) {
        return Quantity.getAmountInBytes(quantity);
    }

    /** The template's CPU: the limit a pod returns to, and the request (the limit when the template sets none, as the API defaults it). */
    private record Steady(Quantity limit, Quantity request, boolean restartsOnResize) {

        static Steady of(Container template) {
            ResourceRequirements resources = Objects.requireNonNullElseGet(template.getResources(), ResourceRequirements::new);
            Quantity limit = resources.getLimits() == null ? null : resources.getLimits().get(CPU);
            Quantity request = resources.getRequests() == null ? null : resources.getRequests().get(CPU);
            boolean restarts = Objects.requireNonNullElse(template.getResizePolicy(), List.<ContainerResizePolicy>of()).stream()
                    .anyMatch(p -> CPU.equals(p.getResourceName()) && "RestartContainer".equals(p.getRestartPolicy()));
            return new Steady(limit, request == null ? limit : request, restarts);
        }

        /** Why this container cannot be boosted to {@code boost}, or null. */
        String whyNot(StartupBoost boost) {
            if (limit == null) {
                return "the container has no CPU limit to boost above";
            }
            if (cores(new Quantity(boost.getCpu())).compareTo(cores(limit)) <= 0) {
                return "startupBoost.cpu " + boost.getCpu() + " is not above the container's CPU limit " + limit;
            }
            if (restartsOnResize) {
                return "the container's resizePolicy restarts it on a CPU change, which would restart the JVM it should speed up";
            }
            return null;
        }
    }

    /** What a pod says of its tuned container. */
    private record PodFacts(String namespace, String name, Instant created, boolean scheduled, boolean deleting, String settingsHash,
            Quantity limit, Quantity request, boolean guaranteed, int restarts, Instant readySince, List<PodCondition> conditions) {

        static Optional<PodFacts> of(Pod pod, String container) {
            Optional<Container> spec = pod.getSpec() == null ? Optional.empty()
                    : Objects.requireNonNullElse(pod.getSpec().getContainers(), List.<Container>of()).stream()
                            .filter(c -> container.equals(c.getName())).findFirst();
            if (spec.isEmpty() || pod.getMetadata().getCreationTimestamp() == null) {
                return Optional.empty();
            }
            ResourceRequirements resources = Objects.requireNonNullElseGet(spec.get().getResources(), ResourceRequirements::new);
            Quantity limit = resources.getLimits() == null ? null : resources.getLimits().get(CPU);
            Quantity request = resources.getRequests() == null ? null : resources.getRequests().get(CPU);
            List<PodCondition> conditions = pod.getStatus() == null ? List.of()
                    : Objects.requireNonNullElse(pod.getStatus().getConditions(), List.of());
            List<ContainerStatus> statuses = pod.getStatus() == null ? List.of()
                    : Objects.requireNonNullElse(pod.getStatus().getContainerStatuses(), List.of());
            int restarts = statuses.stream().filter(s -> container.equals(s.getName())).findFirst()
                    .map(s -> Objects.requireNonNullElse(s.getRestartCount(), 0)).orElse(0);
            Instant readySince = conditions.stream().filter(c -> "Ready".equals(c.getType()) && ConditionStatus.TRUE.is(c.getStatus())
                    && c.getLastTransitionTime() != null).findFirst().map(c -> Instant.parse(c.getLastTransitionTime())).orElse(null);
            String qos = pod.getStatus() == null ? null : pod.getStatus().getQosClass();
            // Without a reported QoS class, a request equal to the limit is kept equal: that never changes the class.
            boolean guaranteed = qos != null ? "Guaranteed".equals(qos) : request != null && limit != null && cores(request).compareTo(cores(limit)) == 0;
            Map<String, String> annotations = Objects.requireNonNullElse(pod.getMetadata().getAnnotations(), Map.of());
            return Optional.of(new PodFacts(pod.getMetadata().getNamespace(), pod.getMetadata().getName(),
                    Instant.parse(pod.getMetadata().getCreationTimestamp()), pod.getSpec().getNodeName() != null,
                    pod.getMetadata().getDeletionTimestamp() != null, annotations.get(LabelsAndAnnotations.SETTINGS_HASH_ANNOTATION),
                    limit, request, guaranteed, restarts, readySince, conditions));
        }

        /**
         * Runs above the template's limit: the operator's resize, as only it resizes the pods it tuned (an in-place autoscaler on
         * the same container would be taken back).
         */
        boolean boosted(Steady steady) {
            return settingsHash != null && !deleting && limit != null && steady.limit() != null && cores(limit).compareTo(cores(steady.limit())) > 0;
        }

        boolean requestMoved(Steady steady) {
            return request != null && steady.request() != null && cores(request).compareTo(cores(steady.request())) != 0;
        }

        /**
         * A pod of the settings in force whose JVM is starting: on a node (an unscheduled pod's request would have to fit the
         * boost to be placed), never restarted (a crash loop gets no more CPU), not Ready yet, not boosted yet.
         */
        boolean starting(Steady steady, String hash, Instant now) {
            return hash != null && hash.equals(settingsHash) && scheduled && !deleting && restarts == 0 && readySince == null
                    && !boosted(steady) && now.isBefore(created.plus(LONGEST_START));
        }

        /** Ready and the warm-up after it, and never later than the longest start and the warm-up. */
        Instant boostEnd(Duration warmUp) {
            Instant latest = created.plus(LONGEST_START);
            return readySince == null ? latest : earliest(readySince.plus(warmUp), latest.plus(warmUp));
        }

        /** The kubelet's message when it says the pod's resize is {@code reason} (an error in progress counts as infeasible), or null. */
        String resizeProblem(String reason) {
            return conditions.stream().filter(c -> ConditionStatus.TRUE.is(c.getStatus())
                    && ((RESIZE_PENDING.equals(c.getType()) && reason.equals(c.getReason()))
                            || (INFEASIBLE.equals(reason) && RESIZE_IN_PROGRESS.equals(c.getType()) && RESIZE_ERROR.equals(c.getReason()))))
                    .findFirst().map(c -> c.getReason() + (c.getMessage() == null ? "" : ", " + c.getMessage())).orElse(null);
        }
    }
}
