package dev.jvmtuning.operator.rollout;

import dev.jvmtuning.operator.api.v1alpha1.BoostedPod;
import dev.jvmtuning.operator.api.v1alpha1.StartupBoost;
import dev.jvmtuning.operator.deployment.TargetPods;
import dev.jvmtuning.operator.model.ConditionStatus;
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
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * spec.startupBoost, pod by pod: which starting pods to resize above their CPU limit, which boosted pods to bring back
 * to their own, and what the StartupBoost condition says. The boost lives only on the pods (the pod {@code resize} subresource),
 * never in the template: the JVM keeps the CPU count its template planned (-XX:ActiveProcessorCount, and the GC, JIT and pool
 * sizes planned from it), and a pod the ReplicaSet creates again starts on its own limit. Each boost is recorded in the
 * profile's status ({@link BoostedPod}), and only a recorded boost is taken back, to the limit recorded: a pod of an older
 * template runs its own limit, whatever the template says now. Pure.
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
    private static final String NO_BOOST = "the profile has no spec.startupBoost";

    private StartupBoosts() {
    }

    /**
     * The recorded boosts these pods still run: the pod observed with the uid recorded and not on its way out, its container at
     * the boost. A record whose pod is gone, was replaced, or was resized by another hand is no boost the operator takes back.
     */
    public static List<BoostedPod> live(List<BoostedPod> records, List<Pod> pods) {
        Map<String, Pod> byName = byName(pods);
        // One record a pod, should the status have been edited into two.
        return List.copyOf(records.stream().filter(r -> r.getPod() != null && live(r, byName.get(r.getPod())))
                .collect(Collectors.toMap(BoostedPod::getPod, r -> r, (a, b) -> a, LinkedHashMap::new)).values());
    }

    private static Map<String, Pod> byName(List<Pod> pods) {
        return pods.stream().collect(Collectors.toMap(p -> p.getMetadata().getName(), p -> p, (a, b) -> a));
    }

    private static boolean live(BoostedPod record, Pod pod) {
        if (pod == null || !Objects.equals(record.getUid(), pod.getMetadata().getUid()) || pod.getMetadata().getDeletionTimestamp() != null
                || record.getFrom() == null || record.getTo() == null) {
            return false;
        }
        Quantity limit = containerOf(pod, record.getContainer()).map(c -> cpu(c.getResources(), ResourceRequirements::getLimits)).orElse(null);
        try {
            return limit != null && cores(new Quantity(record.getFrom())).signum() > 0
                    && cores(limit).compareTo(cores(new Quantity(record.getTo()))) == 0;
        } catch (IllegalArgumentException | ArithmeticException e) {
            // A record edited into something else names no limit to come back to: not the operator's to take back.
            return false;
        }
    }

    /** The records once these resizes went through: a raise adds its pod's, a lowering takes it out. */
    public static List<BoostedPod> after(List<BoostedPod> live, List<Resize> performed) {
        Map<String, BoostedPod> records = new LinkedHashMap<>();
        live.forEach(r -> records.put(r.getPod(), r));
        for (Resize resize : performed) {
            if (resize.record() == null) {
                records.remove(resize.pod());
            } else {
                records.put(resize.pod(), resize.record());
            }
        }
        return List.copyOf(records.values());
    }

    /** Each pod with its boost and its own limit, by name: what a message says of the pods that stay boosted. */
    public static String describe(List<BoostedPod> boosts) {
        return boosts.stream().sorted(Comparator.comparing(BoostedPod::getPod)).map(b -> b.getPod() + " at " + describe(b))
                .collect(Collectors.joining(", "));
    }

    private static String describe(BoostedPod boost) {
        return boost.getTo() + " CPU instead of its own " + boost.getFrom();
    }

    /**
     * One resize of a pod's container.
     *
     * @param request the container's new CPU request, null to leave it (only a Guaranteed pod's request moves with its
     *                limit: a resize may not change the pod's QoS class)
     * @param record  what a raise adds to the profile's records once it went through; null for a lowering
     * @param event   what the Event says once the resize went through
     */
    public record Resize(String namespace, String pod, String container, Quantity limit, Quantity request, BoostedPod record,
            ProfileEvent event) {

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
     * @param condition the StartupBoost condition, empty when the profile has no boost and no pod runs one (the condition goes)
     * @param recheckAt when the next boost ends or the resizes left over are due, if any
     * @param boosts    the records once every resize went through
     */
    public record Verdict(List<Resize> resizes, Optional<BoostCondition> condition, Optional<Instant> recheckAt, List<BoostedPod> boosts) {
        public Verdict {
            resizes = List.copyOf(resizes);
            boosts = List.copyOf(boosts);
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
     * @param template       the tuned container as the Deployment's template has it: its CPU limit is a new pod's
     * @param settingsHash   the settings in force: only their pods, which the template's JVM flags pin to its CPU count, are boosted
     * @param pods           the target's pods
     * @param boosts         the boosts the last reconcile recorded (status.startupBoosts)
     * @param previous       the StartupBoost condition the last reconcile left, or null
     * @param generation     the profile's generation now
     */
    public record Facts(StartupBoost boost, String notPossible, Container template, String settingsHash, List<Pod> pods,
            List<BoostedPod> boosts, Condition previous, Long generation, Instant now) {
        public Facts {
            pods = List.copyOf(pods);
            boosts = List.copyOf(boosts);
        }
    }

    /**
     * The condition after the API server refused a resize; nothing else of the decision's boost stands. It names the pods that
     * stay boosted, as the operator cannot bring them back either. Only a 403 that names pods/resize is the role's: admission
     * answers 403 too, for a pod on a node it does not know, say.
     *
     * @param staying the boosts the pods run once the resizes before the refusal went through
     */
    public static BoostCondition refused(int code, String message, List<BoostedPod> staying) {
        String boosts = staying.isEmpty() ? "so no pod is boosted"
                : "so no new pod is boosted, and these stay boosted until the operator may resize them again or they are replaced: "
                        + describe(staying);
        return code == 403 && message.contains("pods/resize")
                ? new BoostCondition(ConditionStatus.FALSE, Reason.RESIZE_FORBIDDEN, "resizing pods is forbidden to the operator, "
                        + boosts + "; grant it patch on pods/resize (Helm value startupBoost.allowResize); the API server said: "
                        + message)
                : new BoostCondition(ConditionStatus.FALSE, Reason.RESIZE_REFUSED, "the API server refused to resize a pod, " + boosts
                        + "; it said: " + message);
    }

    /** Every recorded boost these pods run, taken back to each pod's own limit, as their profile goes (deleted, or no longer watched). */
    public static List<Resize> takeBack(List<BoostedPod> records, List<Pod> pods, String why) {
        Map<String, Pod> byName = byName(pods);
        return live(records, pods).stream().flatMap(b -> PodFacts.of(byName.get(b.getPod()), b.getContainer(), b).stream())
                .sorted(Comparator.comparing(PodFacts::name)).map(pod -> pod.lowering(why)).toList();
    }

    public static Verdict judge(Facts facts) {
        Steady steady = Steady.of(facts.template());
        String notPossible = facts.boost() == null ? null : facts.notPossible() != null ? facts.notPossible() : steady.whyNot(facts.boost());
        Duration warmUp = facts.boost() == null ? Duration.ZERO : Units.duration(facts.boost().getWarmUp());
        List<BoostedPod> live = live(facts.boosts(), facts.pods());
        Map<String, BoostedPod> boosts = live.stream().collect(Collectors.toMap(BoostedPod::getPod, b -> b));
        List<PodFacts> pods = facts.pods().stream().map(p -> PodFacts.of(p, facts.template().getName(), boosts.get(p.getMetadata().getName())))
                .flatMap(Optional::stream).sorted(Comparator.comparing(PodFacts::name)).toList();

        List<Resize> lowerings = new ArrayList<>();
        List<String> infeasible = new ArrayList<>();
        List<String> deferred = new ArrayList<>();
        List<String> boosting = new ArrayList<>();
        Instant recheck = null;
        for (PodFacts pod : pods.stream().filter(PodFacts::boosted).toList()) {
            Instant end = pod.boostEnd(warmUp);
            String why = facts.boost() == null ? NO_BOOST
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
                lowerings.add(pod.lowering(why));
                continue;
            }
            if (pod.resizeProblem(DEFERRED) != null) {
                deferred.add("pod " + pod.name() + " asked for " + pod.limit() + " CPU: " + pod.resizeProblem(DEFERRED));
            }
            boosting.add(pod.name() + " at " + describe(pod.boost()) + " until " + (pod.readySince() == null ? "Ready + " + facts.boost().getWarmUp() : end));
            recheck = earliest(recheck, end);
        }

        boolean infeasibleBefore = facts.previous() != null && Reason.RESIZE_INFEASIBLE.text().equals(facts.previous().getReason())
                && Objects.equals(facts.previous().getObservedGeneration(), facts.generation());
        List<Resize> raisings = new ArrayList<>();
        if (facts.boost() != null && notPossible == null && infeasible.isEmpty() && !infeasibleBefore) {
            Quantity boost = new Quantity(facts.boost().getCpu());
            List<PodFacts> starting = pods.stream().filter(p -> p.starting(boost, facts.settingsHash(), facts.now())).toList();
            int room = Math.max(0, MAX_RESIZES - lowerings.size());
            if (starting.size() > room) {
                recheck = facts.now();
            }
            for (PodFacts pod : starting.stream().limit(room).toList()) {
                Resize raise = pod.raising(boost, facts.boost().getWarmUp(), facts.now());
                raisings.add(raise);
                boosting.add(pod.name() + " at " + describe(raise.record()) + " until Ready + " + facts.boost().getWarmUp());
                recheck = earliest(recheck, pod.created().plus(LONGEST_START));
            }
        }

        List<Resize> resizes = new ArrayList<>(lowerings);
        resizes.addAll(raisings);
        if (resizes.size() > MAX_RESIZES) {
            resizes = resizes.subList(0, MAX_RESIZES);
            recheck = facts.now();
        }
        // Without spec.startupBoost the condition stays while boosted pods come down, so that it says why they do.
        Optional<BoostCondition> condition = facts.boost() == null ? (lowerings.isEmpty() ? Optional.empty()
                : Optional.of(new BoostCondition(ConditionStatus.FALSE, Reason.NOT_BOOSTING, NO_BOOST + ": " + pods(lowerings.size())
                        + " back to " + (lowerings.size() == 1 ? "its" : "their") + " own CPU limit")))
                : Optional.of(
                notPossible != null ? new BoostCondition(ConditionStatus.FALSE, Reason.BOOST_NOT_POSSIBLE, "no pod is boosted: " + notPossible)
                : !infeasible.isEmpty() ? infeasible(String.join("; ", infeasible))
                : infeasibleBefore ? new BoostCondition(ConditionStatus.FALSE, Reason.RESIZE_INFEASIBLE, facts.previous().getMessage())
                : !deferred.isEmpty() ? new BoostCondition(ConditionStatus.FALSE, Reason.RESIZE_DEFERRED, "the node has no room for the "
                        + "boost yet, the pod keeps its own CPU until it makes room or the boost ends: " + String.join("; ", deferred))
                : !boosting.isEmpty() ? new BoostCondition(ConditionStatus.TRUE, Reason.BOOSTING, pods(boosting.size()) + " above "
                        + (boosting.size() == 1 ? "its" : "their") + " own CPU limit while starting, the JVM keeping the CPU count of "
                        + "that limit: " + String.join(", ", boosting))
                : new BoostCondition(ConditionStatus.FALSE, Reason.NOT_BOOSTING, "no pod is starting; a new pod gets "
                        + facts.boost().getCpu() + " CPU instead of " + steady.limit() + " until Ready + " + facts.boost().getWarmUp()));
        return new Verdict(resizes, condition, Optional.ofNullable(recheck), after(live, resizes));
    }

    private static String pods(int count) {
        return count + " pod" + (count == 1 ? "" : "s");
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

    private static Optional<Container> containerOf(Pod pod, String name) {
        return pod.getSpec() == null ? Optional.empty()
                : Objects.requireNonNullElse(pod.getSpec().getContainers(), List.<Container>of()).stream()
                        .filter(c -> c.getName().equals(name)).findFirst();
    }

    /** The CPU of a container's limits or requests, or null. */
    private static Quantity cpu(ResourceRequirements resources, Function<ResourceRequirements, Map<String, Quantity>> kind) {
        Map<String, Quantity> quantities = resources == null ? null : kind.apply(resources);
        return quantities == null ? null : quantities.get(CPU);
    }

    /** The template's CPU limit, a new pod's, and whether a CPU resize would restart its container. */
    private record Steady(Quantity limit, boolean restartsOnResize) {

        static Steady of(Container template) {
            boolean restarts = Objects.requireNonNullElse(template.getResizePolicy(), List.<ContainerResizePolicy>of()).stream()
                    .anyMatch(p -> CPU.equals(p.getResourceName()) && "RestartContainer".equals(p.getRestartPolicy()));
            return new Steady(cpu(template.getResources(), ResourceRequirements::getLimits), restarts);
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

    /**
     * What a pod says of one container: the one its boost's record names while it runs a boost, else the tuned one.
     *
     * @param boost the boost the pod runs, or null
     */
    private record PodFacts(String namespace, String name, String uid, Instant created, boolean scheduled, boolean deleting,
            String settingsHash, String container, Quantity limit, boolean guaranteed, int restarts, Instant readySince,
            List<PodCondition> conditions, BoostedPod boost) {

        /** @param boost the live record of this pod, or null */
        static Optional<PodFacts> of(Pod pod, String tunedContainer, BoostedPod boost) {
            String name = boost == null ? tunedContainer : boost.getContainer();
            Optional<Container> spec = containerOf(pod, name);
            if (spec.isEmpty() || pod.getMetadata().getCreationTimestamp() == null) {
                return Optional.empty();
            }
            Quantity limit = cpu(spec.get().getResources(), ResourceRequirements::getLimits);
            Quantity request = cpu(spec.get().getResources(), ResourceRequirements::getRequests);
            List<PodCondition> conditions = pod.getStatus() == null ? List.of()
                    : Objects.requireNonNullElse(pod.getStatus().getConditions(), List.of());
            List<ContainerStatus> statuses = pod.getStatus() == null ? List.of()
                    : Objects.requireNonNullElse(pod.getStatus().getContainerStatuses(), List.of());
            int restarts = statuses.stream().filter(s -> name.equals(s.getName())).findFirst()
                    .map(s -> Objects.requireNonNullElse(s.getRestartCount(), 0)).orElse(0);
            Instant readySince = conditions.stream().filter(c -> "Ready".equals(c.getType()) && ConditionStatus.TRUE.is(c.getStatus())
                    && c.getLastTransitionTime() != null).findFirst().map(c -> Instant.parse(c.getLastTransitionTime())).orElse(null);
            String qos = pod.getStatus() == null ? null : pod.getStatus().getQosClass();
            // Without a reported QoS class, a request equal to the limit is kept equal: that never changes the class.
            boolean guaranteed = qos != null ? "Guaranteed".equals(qos) : request != null && limit != null && cores(request).compareTo(cores(limit)) == 0;
            return Optional.of(new PodFacts(pod.getMetadata().getNamespace(), pod.getMetadata().getName(), pod.getMetadata().getUid(),
                    Instant.parse(pod.getMetadata().getCreationTimestamp()), pod.getSpec().getNodeName() != null,
                    pod.getMetadata().getDeletionTimestamp() != null, TargetPods.settingsHash(pod),
                    name, limit, guaranteed, restarts, readySince, conditions, boost));
        }

        boolean boosted() {
            return boost != null;
        }

        /**
         * A pod of the settings in force whose JVM is starting: on a node (an unscheduled pod's request would have to fit the
         * boost to be placed), never restarted (a crash loop gets no more CPU), not Ready yet, not boosted yet, below the boost.
         */
        boolean starting(Quantity to, String hash, Instant now) {
            return hash != null && hash.equals(settingsHash) && scheduled && !deleting && restarts == 0 && readySince == null
                    && !boosted() && limit != null && cores(to).compareTo(cores(limit)) > 0 && now.isBefore(created.plus(LONGEST_START));
        }

        /** Raises the container to {@code to}, recording its own limit to come back to. */
        Resize raising(Quantity to, String warmUp, Instant now) {
            return new Resize(namespace, name, container, to, guaranteed ? to : null,
                    new BoostedPod(name, uid, container, limit.toString(), to.toString(), now.toString()),
                    new ProfileEvent(false, Reason.STARTUP_BOOST_STARTED, "pod " + name + " raised from its own CPU limit " + limit + " to "
                            + to + " while it starts, until Ready + " + warmUp + "; its JVM keeps the CPU count of " + limit));
        }

        /** Brings the container back to the limit its boost record holds, never the template's: that may be another pod's. */
        Resize lowering(String why) {
            Quantity own = new Quantity(boost.getFrom());
            return new Resize(namespace, name, container, own, guaranteed ? own : null, null, new ProfileEvent(false,
                    Reason.STARTUP_BOOST_ENDED, "pod " + name + " back to its own CPU limit " + own + " from " + limit + ": " + why));
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
