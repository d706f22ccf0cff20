package dev.jvmtuning.operator.rollout;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jvmtuning.operator.api.v1alpha1.BoostedPod;
import dev.jvmtuning.operator.api.v1alpha1.StartupBoost;
import dev.jvmtuning.operator.model.ConditionStatus;
import dev.jvmtuning.operator.model.LabelsAndAnnotations;
import dev.jvmtuning.operator.model.Reason;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class StartupBoostsTest {
    private static final Instant NOW = Instant.parse("2026-11-26T10:00:00Z");
    private static final String HASH = "abc123";
    private static final Container TEMPLATE = container("500m", "500m");
    /** The profile's status.startupBoosts: the records of the pods built boosted, by name. */
    private static final Map<String, BoostedPod> RECORDS = new LinkedHashMap<>();

    enum Action { RAISE, LOWER, NONE }

    /** A pod of the settings in force on a node, starting: created 10 s ago, 500m CPU, never restarted, not Ready. */
    private static final class PodSpec {
        String name = "orders-1";
        String hash = HASH;
        String limit = "500m";
        String request = "500m";
        Instant created = NOW.minusSeconds(10);
        Instant readySince;
        int restarts;
        boolean scheduled = true;
        boolean deleting;
        String qos;
        /** The CPU limit the profile's record says the pod had before the boost; null for no record. */
        String ownLimit;
        final List<PodCondition> resize = new ArrayList<>();

        /** Boosted by the operator to 2 CPU from its own 500m. */
        PodSpec boosted() {
            limit = "2";
            ownLimit = "500m";
            return this;
        }

        Pod build() {
            if (ownLimit != null) {
                RECORDS.put(name, new BoostedPod(name, uid(name), "app", ownLimit, limit, created.toString()));
            }
            List<PodCondition> conditions = new ArrayList<>(resize);
            conditions.add(new PodConditionBuilder().withType("Ready").withStatus(readySince == null ? "False" : "True")
                    .withLastTransitionTime((readySince == null ? created : readySince).toString()).build());
            return new PodBuilder().withNewMetadata().withName(name).withUid(uid(name)).withNamespace("shop")
                    .withCreationTimestamp(created.toString()).withDeletionTimestamp(deleting ? NOW.toString() : null)
                    .withAnnotations(hash == null ? Map.of() : Map.of(LabelsAndAnnotations.SETTINGS_HASH_ANNOTATION, hash)).endMetadata()
                    .withNewSpec().withNodeName(scheduled ? "node-1" : null).withContainers(container(limit, request)).endSpec()
                    .withNewStatus().withQosClass(qos).withConditions(conditions).addNewContainerStatus().withName("app")
                    .withRestartCount(restarts).endContainerStatus().endStatus().build();
        }
    }

    private static String uid(String pod) {
        return pod + "-uid";
    }

    @BeforeEach
    void noRecords() {
        RECORDS.clear();
    }

    private static List<BoostedPod> records() {
        return List.copyOf(RECORDS.values());
    }

    private static Container container(String limit, String request) {
        ContainerBuilder container = new ContainerBuilder().withName("app").withNewResources().endResources();
        if (limit != null) {
            container.editResources().addToLimits("cpu", new Quantity(limit)).endResources();
        }
        if (request != null) {
            container.editResources().addToRequests("cpu", new Quantity(request)).endResources();
        }
        return container.build();
    }

    private static StartupBoost boost(String cpu) {
        StartupBoost boost = new StartupBoost();
        boost.setCpu(cpu);
        boost.setWarmUp("1m");
        return boost;
    }

    private static PodCondition resize(String type, String reason, String message) {
        return new PodConditionBuilder().withType(type).withStatus("True").withReason(reason).withMessage(message).build();
    }

    private static StartupBoosts.Verdict judge(StartupBoost boost, String notPossible, Container template, Condition previous, Pod... pods) {
        return StartupBoosts.judge(new StartupBoosts.Facts(boost, notPossible, template, HASH, List.of(pods), records(), previous,
                3L, NOW));
    }

    private static Pod pod(UnaryOperator<PodSpec> pod) {
        return pod.apply(new PodSpec()).build();
    }

    /** A pod the operator boosted, Ready and past its warm-up: due to come back. */
    private static Pod warmBoosted(String name) {
        return pod(p -> {
            p.name = name;
            p.boosted();
            p.readySince = NOW.minusSeconds(120);
            return p;
        });
    }

    private static StartupBoosts.Verdict judge(UnaryOperator<PodSpec> pod) {
        return judge(boost("2"), null, TEMPLATE, null, pod.apply(new PodSpec()).build());
    }

    static Stream<Arguments> onePod() {
        return Stream.of(
                Arguments.of("a starting pod is raised", (UnaryOperator<PodSpec>) p -> p, Action.RAISE, Reason.BOOSTING),
                Arguments.of("a pod on no node yet waits: its request would have to fit the boost", (UnaryOperator<PodSpec>) p -> {
                    p.scheduled = false;
                    return p;
                }, Action.NONE, Reason.NOT_BOOSTING),
                Arguments.of("a pod of other settings (its JVM may not pin the CPU count) is left alone", (UnaryOperator<PodSpec>) p -> {
                    p.hash = "other";
                    return p;
                }, Action.NONE, Reason.NOT_BOOSTING),
                Arguments.of("a pod of the user's own template is left alone", (UnaryOperator<PodSpec>) p -> {
                    p.hash = null;
                    return p;
                }, Action.NONE, Reason.NOT_BOOSTING),
                Arguments.of("a restarted container gets no more CPU", (UnaryOperator<PodSpec>) p -> {
                    p.restarts = 1;
                    return p;
                }, Action.NONE, Reason.NOT_BOOSTING),
                Arguments.of("a pod on its way out is left alone", (UnaryOperator<PodSpec>) p -> {
                    p.deleting = true;
                    return p;
                }, Action.NONE, Reason.NOT_BOOSTING),
                Arguments.of("a Ready pod never boosted is not raised any more", (UnaryOperator<PodSpec>) p -> {
                    p.readySince = NOW.minusSeconds(5);
                    return p;
                }, Action.NONE, Reason.NOT_BOOSTING),
                Arguments.of("a pod starting for longer than the longest start is not raised", (UnaryOperator<PodSpec>) p -> {
                    p.created = NOW.minus(StartupBoosts.LONGEST_START).minusSeconds(1);
                    return p;
                }, Action.NONE, Reason.NOT_BOOSTING),
                Arguments.of("a boosted pod not yet Ready stays boosted", (UnaryOperator<PodSpec>) p -> {
                    p.boosted();
                    p.request = "2";
                    return p;
                }, Action.NONE, Reason.BOOSTING),
                Arguments.of("a boosted pod inside its warm-up stays boosted", (UnaryOperator<PodSpec>) p -> {
                    p.boosted();
                    p.readySince = NOW.minusSeconds(30);
                    return p;
                }, Action.NONE, Reason.BOOSTING),
                Arguments.of("a boosted pod past Ready and its warm-up is lowered", (UnaryOperator<PodSpec>) p -> {
                    p.boosted();
                    p.readySince = NOW.minusSeconds(61);
                    return p;
                }, Action.LOWER, Reason.NOT_BOOSTING),
                Arguments.of("a boosted pod whose container restarted is lowered", (UnaryOperator<PodSpec>) p -> {
                    p.boosted();
                    p.restarts = 1;
                    return p;
                }, Action.LOWER, Reason.NOT_BOOSTING),
                Arguments.of("a boosted pod not Ready after the longest start is lowered", (UnaryOperator<PodSpec>) p -> {
                    p.boosted();
                    p.created = NOW.minus(StartupBoosts.LONGEST_START);
                    return p;
                }, Action.LOWER, Reason.NOT_BOOSTING),
                Arguments.of("a resize the node calls infeasible is taken back", (UnaryOperator<PodSpec>) p -> {
                    p.boosted();
                    p.resize.add(resize("PodResizePending", "Infeasible", "Node didn't have enough capacity: cpu, requested: 2000, capacity: 1000"));
                    return p;
                }, Action.LOWER, Reason.RESIZE_INFEASIBLE),
                Arguments.of("a resize that failed on the node is taken back", (UnaryOperator<PodSpec>) p -> {
                    p.boosted();
                    p.resize.add(resize("PodResizeInProgress", "Error", "could not update cgroup"));
                    return p;
                }, Action.LOWER, Reason.RESIZE_INFEASIBLE),
                Arguments.of("a resize the node defers waits for room", (UnaryOperator<PodSpec>) p -> {
                    p.boosted();
                    p.resize.add(resize("PodResizePending", "Deferred", "Node didn't have enough resource: cpu"));
                    return p;
                }, Action.NONE, Reason.RESIZE_DEFERRED),
                Arguments.of("a pod an in-progress resize has not reached yet is boosted as asked", (UnaryOperator<PodSpec>) p -> {
                    p.boosted();
                    p.resize.add(resize("PodResizeInProgress", null, null));
                    return p;
                }, Action.NONE, Reason.BOOSTING));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void onePod(String name, UnaryOperator<PodSpec> pod, Action action, Reason reason) {
        StartupBoosts.Verdict verdict = judge(pod);

        assertThat(verdict.resizes()).hasSize(action == Action.NONE ? 0 : 1);
        verdict.resizes().forEach(r -> {
            assertThat(r.limit()).isEqualTo(new Quantity(action == Action.RAISE ? "2" : "500m"));
            assertThat(r.event().reason()).isEqualTo(action == Action.RAISE ? Reason.STARTUP_BOOST_STARTED : Reason.STARTUP_BOOST_ENDED);
        });
        assertThat(verdict.condition()).hasValueSatisfying(c -> {
            assertThat(c.reason()).as(c.message()).isEqualTo(reason);
            assertThat(c.status()).isEqualTo(reason == Reason.BOOSTING ? ConditionStatus.TRUE : ConditionStatus.FALSE);
        });
    }

    @Test
    void podsOfAnOlderTemplateAtTheirOwnHigherLimitAreNeverLowered() {
        // The user cut the template's CPU limit from 1 to 500m: its new pod waits for a node, while the previous template's
        // pods run at their own 1 CPU, their JVMs planned for it; the operator never boosted them.
        UnaryOperator<PodSpec> previousTemplate = p -> {
            p.hash = "previous";
            p.limit = "1";
            p.request = "1";
            p.created = NOW.minusSeconds(7200);
            p.readySince = NOW.minusSeconds(3600);
            return p;
        };
        Pod first = pod(p -> {
            previousTemplate.apply(p).name = "orders-a";
            return p;
        });
        Pod second = pod(p -> {
            previousTemplate.apply(p).name = "orders-b";
            return p;
        });
        Pod pending = pod(p -> {
            p.name = "orders-new";
            p.scheduled = false;
            return p;
        });

        StartupBoosts.Verdict verdict = judge(boost("2"), null, TEMPLATE, null, first, second, pending);

        assertThat(verdict.resizes()).isEmpty();
        assertThat(verdict.condition()).hasValueSatisfying(c -> assertThat(c.reason()).isEqualTo(Reason.NOT_BOOSTING));
    }

    @Test
    void theBoostEndsAtReadyAndTheWarmUpOrAtTheLongestStart() {
        assertThat(judge(p -> {
            p.boosted();
            p.readySince = NOW.minusSeconds(30);
            return p;
        }).recheckAt()).contains(NOW.plusSeconds(30));
        assertThat(judge(p -> p).recheckAt()).contains(NOW.minusSeconds(10).plus(StartupBoosts.LONGEST_START));
        assertThat(judge(p -> {
            p.readySince = NOW;
            return p;
        }).recheckAt()).isEmpty();
    }

    @Test
    void aGuaranteedPodsRequestMovesWithItsLimitAndComesBack() {
        assertThat(judge(p -> p).resizes()).singleElement().satisfies(r -> assertThat(r.request()).isEqualTo(new Quantity("2")));
        assertThat(judge(p -> {
            p.boosted();
            p.request = "2";
            p.restarts = 1;
            return p;
        }).resizes()).singleElement().satisfies(r -> assertThat(r.request()).isEqualTo(new Quantity("500m")));
    }

    @Test
    void aBurstablePodsRequestStays() {
        StartupBoosts.Verdict verdict = judge(boost("2"), null, container("500m", "250m"), null, pod(p -> {
            p.request = "250m";
            p.qos = "Burstable";
            return p;
        }));

        assertThat(verdict.resizes()).singleElement().satisfies(r -> {
            assertThat(r.request()).isNull();
            assertThat(r.patch()).isEqualTo(Map.of("spec", Map.of("containers", List.of(Map.of("name", "app", "resources",
                    Map.of("limits", Map.of("cpu", "2")))))));
        });
    }

    @Test
    void theResizePatchCarriesTheContainersCpuOnly() {
        assertThat(judge(p -> p).resizes().get(0).patch()).isEqualTo(Map.of("spec", Map.of("containers", List.of(Map.of("name", "app",
                "resources", Map.of("limits", Map.of("cpu", "2"), "requests", Map.of("cpu", "2")))))));
    }

    static Stream<Arguments> notPossible() {
        return Stream.of(
                Arguments.of(boost("500m"), null, TEMPLATE, "startupBoost.cpu 500m is not above the container's CPU limit 500m"),
                Arguments.of(boost("2"), null, container(null, "500m"), "the container has no CPU limit to boost above"),
                Arguments.of(boost("2"), null, new ContainerBuilder(TEMPLATE).addNewResizePolicy().withResourceName("cpu")
                        .withRestartPolicy("RestartContainer").endResizePolicy().build(), "the container's resizePolicy restarts it"),
                Arguments.of(boost("2"), "mode Recommend writes nothing, pods included", TEMPLATE, "mode Recommend"));
    }

    @ParameterizedTest
    @MethodSource
    void notPossible(StartupBoost boost, String why, Container template, String message) {
        StartupBoosts.Verdict starting = judge(boost, why, template, null, new PodSpec().build());

        assertThat(starting.resizes()).isEmpty();
        assertThat(starting.condition()).hasValueSatisfying(c -> {
            assertThat(c.reason()).isEqualTo(Reason.BOOST_NOT_POSSIBLE);
            assertThat(c.message()).contains(message);
        });
    }

    @Test
    void aBoostedPodComesDownWhenTheBoostIsNoLongerPossible() {
        PodSpec boosted = new PodSpec().boosted();
        boosted.request = "2";

        assertThat(judge(boost("2"), "the settings are not applied", TEMPLATE, null, boosted.build()).resizes()).singleElement()
                .satisfies(r -> assertThat(r.event().message()).contains("not possible: the settings are not applied"));
    }

    @Test
    void withoutABoostEveryRecordedBoostComesDownAndTheConditionGoesOnceTheyAreDown() {
        StartupBoosts.Verdict verdict = judge(null, null, TEMPLATE, null, new PodSpec().boosted().build(), pod(p -> {
            p.name = "orders-2";
            return p;
        }));

        assertThat(verdict.resizes()).singleElement().satisfies(r -> {
            assertThat(r.pod()).isEqualTo("orders-1");
            assertThat(r.event().message()).contains("the profile has no spec.startupBoost");
        });
        assertThat(verdict.condition()).as("kept while a pod is still up").hasValueSatisfying(c -> {
            assertThat(c.reason()).isEqualTo(Reason.NOT_BOOSTING);
            assertThat(c.message()).isEqualTo("the profile has no spec.startupBoost: 1 pod back to its own CPU limit");
        });
        assertThat(judge(null, null, TEMPLATE, null, new PodSpec().build()).condition()).as("gone once every pod is down").isEmpty();
    }

    @Test
    void aPodAboveTheTemplatesLimitWithoutTheOperatorsRecordIsLeftAlone() {
        PodSpec resizedByAnother = new PodSpec();
        resizedByAnother.limit = "2";
        resizedByAnother.readySince = NOW.minusSeconds(3600);

        StartupBoosts.Verdict withoutBoost = judge(null, null, TEMPLATE, null, resizedByAnother.build());
        assertThat(withoutBoost.resizes()).isEmpty();
        assertThat(withoutBoost.condition()).isEmpty();
        assertThat(judge(boost("2"), null, TEMPLATE, null, resizedByAnother.build()).resizes()).isEmpty();
    }

    @Test
    void aBoostComesBackToTheLimitItsPodRecordedNotTheTemplates() {
        StartupBoosts.Verdict verdict = judge(boost("2"), null, TEMPLATE, null, pod(p -> {
            p.boosted();
            p.ownLimit = "1";
            p.request = "2";
            p.qos = "Guaranteed";
            p.readySince = NOW.minusSeconds(120);
            return p;
        }));

        assertThat(verdict.resizes()).singleElement().satisfies(r -> {
            assertThat(r.limit()).isEqualTo(new Quantity("1"));
            assertThat(r.request()).as("a Guaranteed pod stays Guaranteed").isEqualTo(new Quantity("1"));
            assertThat(r.record()).isNull();
            assertThat(r.event().message()).startsWith("pod orders-1 back to its own CPU limit 1 from 2: Ready and the warm-up");
        });
    }

    @Test
    void aRaiseRecordsThePodsOwnLimitAndTheBoost() {
        StartupBoosts.Verdict verdict = judge(boost("2"), null, TEMPLATE, null, pod(p -> {
            // a pod of the settings in force from before the template's limit was cut to 500m
            p.limit = "1";
            p.request = "1";
            return p;
        }));

        assertThat(verdict.resizes()).singleElement().satisfies(r -> {
            assertThat(r.record()).isEqualTo(new BoostedPod("orders-1", "orders-1-uid", "app", "1", "2", NOW.toString()));
            assertThat(r.event().message()).startsWith("pod orders-1 raised from its own CPU limit 1 to 2");
        });
        assertThat(verdict.condition()).hasValueSatisfying(c -> assertThat(c.message())
                .endsWith(": orders-1 at 2 CPU instead of its own 1 until Ready + 1m"));
        assertThat(verdict.boosts()).as("recorded once the resize goes through").containsExactly(verdict.resizes().get(0).record());
    }

    @Test
    void aLoweringTakesItsPodOutOfTheRecordsAndAGonePodLeavesThem() {
        Pod warm = warmBoosted("warm");
        Pod starting = pod(p -> {
            p.name = "starting";
            p.boosted();
            return p;
        });
        pod(p -> {
            p.name = "gone";
            return p.boosted();
        });

        StartupBoosts.Verdict verdict = judge(boost("2"), null, TEMPLATE, null, warm, starting);

        assertThat(verdict.resizes()).extracting(StartupBoosts.Resize::pod).containsExactly("warm");
        assertThat(verdict.boosts()).containsExactly(RECORDS.get("starting"));
        assertThat(StartupBoosts.after(StartupBoosts.live(records(), List.of(warm, starting)), List.of()))
                .as("the lowering refused: the record stays").containsExactly(RECORDS.get("warm"), RECORDS.get("starting"));
    }

    @Test
    void aStartingPodAlreadyAtTheBoostIsNotRaised() {
        assertThat(judge(p -> {
            p.limit = "2";
            p.request = "2";
            return p;
        }).resizes()).isEmpty();
    }

    static Stream<Arguments> notABoost() {
        BoostedPod record = new BoostedPod("orders-1", "orders-1-uid", "app", "500m", "2", NOW.toString());
        return Stream.of(
                Arguments.of("a record whose pod is back at its own limit", record, "500m"),
                Arguments.of("a boost another resizer changed since", record, "3"),
                Arguments.of("a record of a pod replaced under the same name",
                        new BoostedPod("orders-1", "earlier-uid", "app", "500m", "2", NOW.toString()), "2"),
                Arguments.of("a record of a pod not observed", new BoostedPod("orders-0", "orders-0-uid", "app", "500m", "2",
                        NOW.toString()), "2"),
                Arguments.of("a record of another container", new BoostedPod("orders-1", "orders-1-uid", "sidecar", "500m", "2",
                        NOW.toString()), "2"),
                Arguments.of("a record edited into something else", new BoostedPod("orders-1", "orders-1-uid", "app", "lots", "2",
                        NOW.toString()), "2"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void notABoost(String name, BoostedPod record, String limit) {
        Pod pod = pod(p -> {
            p.limit = limit;
            p.readySince = NOW.minusSeconds(3600);
            return p;
        });
        RECORDS.put(record.getPod(), record);

        StartupBoosts.Verdict verdict = judge(null, null, TEMPLATE, null, pod);
        assertThat(verdict.resizes()).isEmpty();
        assertThat(verdict.boosts()).as("dropped").isEmpty();
        assertThat(StartupBoosts.takeBack(records(), List.of(pod), "the profile was deleted")).isEmpty();
    }

    @Test
    void aDeletedProfileTakesBackEveryRecordedBoostToItsPodsOwnLimit() {
        Pod boosted = pod(p -> {
            p.boosted();
            p.ownLimit = "1";
            p.readySince = NOW.minusSeconds(5);
            return p;
        });
        Pod another = pod(p -> {
            p.name = "orders-2";
            p.limit = "2";
            return p;
        });

        assertThat(StartupBoosts.takeBack(records(), List.of(boosted, another), "the profile was deleted")).singleElement().satisfies(r -> {
            assertThat(r.pod()).isEqualTo("orders-1");
            assertThat(r.limit()).isEqualTo(new Quantity("1"));
            assertThat(r.event().message()).isEqualTo("pod orders-1 back to its own CPU limit 1 from 2: the profile was deleted");
        });
    }

    @Test
    void afterAnInfeasibleResizeNoPodIsRaisedUntilTheProfileChanges() {
        Condition infeasible = new ConditionBuilder().withType("StartupBoost").withStatus("False").withReason("ResizeInfeasible")
                .withMessage("pod orders-0: Infeasible").withObservedGeneration(3L).build();

        StartupBoosts.Verdict sameProfile = judge(boost("2"), null, TEMPLATE, infeasible, new PodSpec().build());
        assertThat(sameProfile.resizes()).isEmpty();
        assertThat(sameProfile.condition()).hasValueSatisfying(c -> assertThat(c.message()).isEqualTo("pod orders-0: Infeasible"));

        infeasible.setObservedGeneration(2L);
        assertThat(judge(boost("2"), null, TEMPLATE, infeasible, new PodSpec().build()).resizes()).hasSize(1);
    }

    @Test
    void atMostTenResizesAReconcileLoweringsFirstAndTheRestSoon() {
        List<Pod> pods = new ArrayList<>(IntStream.range(0, 11).mapToObj(i -> pod(p -> {
            p.name = "starting-" + (10 + i);
            return p;
        })).toList());
        pods.add(warmBoosted("warm"));

        StartupBoosts.Verdict verdict = judge(boost("2"), null, TEMPLATE, null, pods.toArray(Pod[]::new));

        assertThat(verdict.resizes()).hasSize(StartupBoosts.MAX_RESIZES);
        assertThat(verdict.resizes().get(0).pod()).isEqualTo("warm");
        assertThat(verdict.recheckAt()).contains(NOW);
        assertThat(verdict.condition()).hasValueSatisfying(c -> assertThat(c.message()).as("only the pods raised").startsWith("9 pods above their own CPU limit"));
    }

    @Test
    void aRefusalSaysWhichPermissionIsMissing() {
        assertThat(StartupBoosts.refused(403, "pods \"orders-1\" is forbidden: User \"system:serviceaccount:jto:jto\" cannot patch "
                + "resource \"pods/resize\" in API group \"\" in the namespace \"shop\"", List.of())).satisfies(c -> {
            assertThat(c.reason()).isEqualTo(Reason.RESIZE_FORBIDDEN);
            assertThat(c.message()).contains("patch on pods/resize", "so no pod is boosted", "is forbidden");
        });
        assertThat(StartupBoosts.refused(404, "the server could not find the requested resource", List.of()).reason())
                .isEqualTo(Reason.RESIZE_REFUSED);
        assertThat(StartupBoosts.refused(403, "pods \"orders-1\" is forbidden: node \"node-1\" not found", List.of()).reason())
                .as("admission's 403 is not the role's").isEqualTo(Reason.RESIZE_REFUSED);
    }

    @Test
    void aRefusalNamesThePodsThatStayBoosted() {
        Pod refusedLowering = warmBoosted("orders-a");
        Pod lowered = warmBoosted("orders-b");
        Pod raised = pod(p -> {
            p.name = "orders-c";
            return p;
        });
        List<StartupBoosts.Resize> resizes = judge(boost("2"), null, TEMPLATE, null, refusedLowering, lowered, raised).resizes();
        assertThat(resizes).extracting(StartupBoosts.Resize::pod).containsExactly("orders-a", "orders-b", "orders-c");

        StartupBoosts.BoostCondition refused = StartupBoosts.refused(403, "cannot patch resource \"pods/resize\"", StartupBoosts.after(
                StartupBoosts.live(records(), List.of(refusedLowering, lowered, raised)), List.of(resizes.get(1), resizes.get(2))));

        assertThat(refused.message()).contains("so no new pod is boosted, and these stay boosted until the operator may resize them "
                + "again or they are replaced: orders-a at 2 CPU instead of its own 500m, orders-c at 2 CPU instead of its own 500m;");
    }
}
