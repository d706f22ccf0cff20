package dev.jvmtuning.operator.reconciler;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jvmtuning.operator.api.v1alpha1.BoostedPod;
import dev.jvmtuning.operator.api.v1alpha1.StartupBoost;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfileStatus;
import dev.jvmtuning.operator.decision.Conditions;
import dev.jvmtuning.operator.decision.Decide;
import dev.jvmtuning.operator.decision.Observation;
import dev.jvmtuning.operator.model.ConditionType;
import dev.jvmtuning.operator.model.LabelsAndAnnotations;
import dev.jvmtuning.operator.model.ProfileEvent;
import dev.jvmtuning.operator.model.Reason;
import dev.jvmtuning.operator.rollout.StartupBoosts;
import dev.jvmtuning.operator.testing.FakeKubelet;
import dev.jvmtuning.operator.testing.LocalControlPlane;
import dev.jvmtuning.operator.testing.StartsProcesses;
import dev.jvmtuning.operator.testing.TestProfiles;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.PolicyRuleBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The resize patch against a real kube-apiserver: what it accepts of a Guaranteed pod, and what a role with or without
 * pods/resize makes of a boost and of a boosted pod. There is no kubelet: the pod's spec changes, its containers' actual CPU
 * is untested here.
 */
@StartsProcesses
class PodResizesTest {
    private static final String HASH = "abc123";
    private static LocalControlPlane controlPlane;
    private static KubernetesClient admin;

    @BeforeAll
    static void controlPlane() {
        controlPlane = LocalControlPlane.shared();
        admin = controlPlane.client();
    }

    /** A Guaranteed pod of the settings in force, placed on a node, its JVM starting. */
    private static Pod startingPod(String namespace) {
        Map<String, Quantity> resources = Map.of("cpu", new Quantity("500m"), "memory", new Quantity("256Mi"));
        return admin.pods().inNamespace(namespace).resource(new PodBuilder().withNewMetadata().withName("orders-1")
                .withAnnotations(Map.of(LabelsAndAnnotations.SETTINGS_HASH_ANNOTATION, HASH)).endMetadata()
                .withNewSpec().withNodeName(new FakeKubelet(admin).node()).addNewContainer().withName("app").withImage("example/orders:1")
                .withNewResources().withLimits(resources).withRequests(resources).endResources().endContainer().endSpec()
                .build()).create();
    }

    /** The decision's boost for the pod as the API server holds it: a raise to 2 CPUs. */
    private static Decide.Decision boost(Observation seen, Pod pod) {
        StartupBoost boost = new StartupBoost();
        boost.setCpu("2");
        StartupBoosts.Verdict verdict = StartupBoosts.judge(new StartupBoosts.Facts(boost, null, pod.getSpec().getContainers().get(0), HASH,
                List.of(pod), List.of(), null, 1L, seen.now()));
        assertThat(verdict.resizes()).as("a Guaranteed pod of the settings in force, starting").hasSize(1);
        TuningProfileStatus status = new TuningProfileStatus();
        status.setStartupBoosts(verdict.boosts());
        return new Decide.Decision(List.of(), verdict.resizes(), status,
                verdict.resizes().stream().map(StartupBoosts.Resize::event).toList(), verdict.recheckAt());
    }

    private static Observation observation(String namespace) {
        TuningProfile profile = Serialization.unmarshal(TestProfiles.yaml("orders", "orders", "startupBoost: {cpu: '2'}"), TuningProfile.class);
        profile.getMetadata().setNamespace(namespace);
        profile.getMetadata().setGeneration(1L);
        return new Observation(profile, Optional.empty(), List.of(), List.of(), List.of(), List.of(), Optional.empty(), List.of(), List.of(), Instant.now());
    }

    private static Quantity cpu(Pod pod, String kind) {
        var resources = pod.getSpec().getContainers().get(0).getResources();
        return (kind.equals("limits") ? resources.getLimits() : resources.getRequests()).get("cpu");
    }

    /** The profile as its status keeps the boosts this decision recorded. */
    private static TuningProfile recording(Observation seen, Decide.Decision decision) {
        TuningProfile profile = Serialization.clone(seen.profile());
        profile.setStatus(decision.status());
        return profile;
    }

    @Test
    void theApiServerTakesTheRaiseAndTheLoweringOfAGuaranteedPodsCpu() {
        String namespace = controlPlane.newNamespace("resize");
        Pod pod = startingPod(namespace);
        Observation seen = observation(namespace);
        Decide.Decision decision = boost(seen, pod);

        assertThat(PodResizes.perform(admin, seen, decision)).as("every resize made").isSameAs(decision);
        Pod raised = admin.pods().inNamespace(namespace).withName("orders-1").get();
        assertThat(cpu(raised, "limits")).isEqualTo(new Quantity("2"));
        assertThat(cpu(raised, "requests")).as("a Guaranteed pod stays Guaranteed").isEqualTo(new Quantity("2"));
        List<BoostedPod> records = decision.status().getStartupBoosts();
        assertThat(records).singleElement().satisfies(r -> {
            assertThat(r.getUid()).isEqualTo(pod.getMetadata().getUid());
            assertThat(r.getFrom()).isEqualTo("500m");
            assertThat(r.getTo()).isEqualTo("2");
        });
        assertThat(raised.getMetadata().getAnnotations()).as("the pod's own metadata untouched").isEqualTo(pod.getMetadata().getAnnotations());

        StartupBoosts.Resize lower = StartupBoosts.takeBack(records, List.of(raised), "back").get(0);
        StartupBoosts.Resize gone = new StartupBoosts.Resize(namespace, "orders-0", "app", new Quantity("500m"), null, null,
                new ProfileEvent(false, Reason.STARTUP_BOOST_ENDED, "gone"));
        Decide.Decision lowered = PodResizes.perform(admin, seen, new Decide.Decision(List.of(), List.of(gone, lower),
                new TuningProfileStatus(), List.of(gone.event(), lower.event()), Optional.empty()));
        assertThat(lowered.resizes()).as("a pod deleted meanwhile is skipped").containsExactly(lower);
        assertThat(lowered.events()).containsExactly(lower.event());
        Pod back = admin.pods().inNamespace(namespace).withName("orders-1").get();
        assertThat(cpu(back, "limits")).isEqualTo(new Quantity("500m"));
        assertThat(cpu(back, "requests")).isEqualTo(new Quantity("500m"));
        assertThat(StartupBoosts.takeBack(records, List.of(back), "back")).as("a record whose pod is back at its own limit is no boost")
                .isEmpty();
    }

    /** A client of a service account whose role has the chart's read rules for pods and {@code writes} besides. */
    private static KubernetesClient operatorWith(String namespace, PolicyRule... writes) {
        admin.serviceAccounts().inNamespace(namespace).resource(new ServiceAccountBuilder().withNewMetadata().withName("operator")
                .endMetadata().build()).create();
        admin.rbac().roles().inNamespace(namespace).resource(new RoleBuilder().withNewMetadata().withName("operator").endMetadata()
                .addNewRule().withApiGroups("").withResources("pods").withVerbs("get", "list", "watch").endRule().addToRules(writes)
                .build()).create();
        admin.rbac().roleBindings().inNamespace(namespace).resource(new RoleBindingBuilder().withNewMetadata().withName("operator")
                .endMetadata().withNewRoleRef().withApiGroup("rbac.authorization.k8s.io").withKind("Role").withName("operator").endRoleRef()
                .addNewSubject().withKind("ServiceAccount").withName("operator").withNamespace(namespace).endSubject().build()).create();
        return serviceAccountClient(namespace, "operator");
    }

    private static PolicyRule patch(String resource) {
        return new PolicyRuleBuilder().withApiGroups("").withResources(resource).withVerbs("patch").build();
    }

    private static Condition startupBoost(Decide.Decision decision) {
        return Conditions.find(decision.status().getConditions(), ConditionType.STARTUP_BOOST).orElseThrow();
    }

    /** The boost of a starting pod, carried out by a role with the chart's read rules for pods and {@code writes}. */
    private static Decide.Decision boostWith(String namespace, PolicyRule... writes) {
        Pod pod = startingPod(namespace);
        Observation seen = observation(namespace);
        try (KubernetesClient operator = operatorWith(namespace, writes)) {
            return PodResizes.perform(operator, seen, boost(seen, pod));
        }
    }

    @Test
    void theChartsOnlyPodWriteIsEnoughForABoost() {
        String namespace = controlPlane.newNamespace("resize");

        Decide.Decision boosted = boostWith(namespace, patch("pods/resize"));

        assertThat(boosted.resizes()).hasSize(1);
        assertThat(boosted.status().getStartupBoosts()).extracting(BoostedPod::getPod).containsExactly("orders-1");
        assertThat(cpu(admin.pods().inNamespace(namespace).withName("orders-1").get(), "limits")).isEqualTo(new Quantity("2"));
    }

    @Test
    void withoutPatchOnPodsResizeTheProfileSaysResizeForbiddenAndThePodIsUntouched() {
        String namespace = controlPlane.newNamespace("resize");

        // The chart's rules for pods without its pods/resize rule (Helm value startupBoost.allowResize=false).
        Decide.Decision refused = boostWith(namespace);

        assertThat(refused.resizes()).isEmpty();
        assertThat(startupBoost(refused)).satisfies(c -> {
            assertThat(c.getStatus()).isEqualTo("False");
            assertThat(c.getReason()).isEqualTo("ResizeForbidden");
            assertThat(c.getMessage()).contains("so no pod is boosted", "cannot patch resource \"pods/resize\"");
        });
        assertThat(refused.events()).extracting(ProfileEvent::reason).containsExactly(Reason.RESIZE_FORBIDDEN);
        assertThat(refused.status().getStartupBoosts()).as("a refused raise records nothing").isEmpty();
        assertThat(cpu(admin.pods().inNamespace(namespace).withName("orders-1").get(), "limits")).isEqualTo(new Quantity("500m"));
    }

    @Test
    void aBoostedPodTheOperatorMayNoLongerLowerIsSaidToStayBoosted() {
        String namespace = controlPlane.newNamespace("resize");
        Pod pod = startingPod(namespace);
        Observation seen = observation(namespace);
        TuningProfile profile = recording(seen, PodResizes.perform(admin, seen, boost(seen, pod)));
        List<Pod> boosted = List.of(admin.pods().inNamespace(namespace).withName("orders-1").get());

        List<ProfileEvent> events;
        // The role after the Helm value startupBoost.allowResize went false, or the profile's namespace left the watch list.
        try (KubernetesClient operator = operatorWith(namespace)) {
            events = PodResizes.takeBack(operator, profile, boosted, "back");
        }

        assertThat(events).singleElement().satisfies(e -> {
            assertThat(e.reason()).isEqualTo(Reason.RESIZE_FORBIDDEN);
            assertThat(e.message()).contains("these stay boosted until the operator may resize them again or they are replaced: "
                    + "orders-1 at 2 CPU instead of its own 500m");
        });
        assertThat(cpu(admin.pods().inNamespace(namespace).withName("orders-1").get(), "limits")).isEqualTo(new Quantity("2"));
        assertThat(PodResizes.takeBack(admin, profile, boosted, "back")).extracting(ProfileEvent::reason).containsExactly(Reason.STARTUP_BOOST_ENDED);
        assertThat(cpu(admin.pods().inNamespace(namespace).withName("orders-1").get(), "limits")).isEqualTo(new Quantity("500m"));
    }

    private static KubernetesClient serviceAccountClient(String namespace, String serviceAccount) {
        String token = admin.serviceAccounts().inNamespace(namespace).withName(serviceAccount)
                .tokenRequest(new TokenRequestBuilder().withNewSpec().withExpirationSeconds(3600L).endSpec().build())
                .getStatus().getToken();
        Config config = admin.getConfiguration();
        return new KubernetesClientBuilder().withConfig(new ConfigBuilder(Config.empty()).withMasterUrl(config.getMasterUrl())
                .withCaCertData(config.getCaCertData()).withCaCertFile(config.getCaCertFile()).withOauthToken(token).build()).build();
    }
}
