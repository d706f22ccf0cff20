package dev.jvmtuning.operator.reconciler;

import static org.assertj.core.api.Assertions.assertThat;

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
import dev.jvmtuning.operator.testing.LocalControlPlane;
import dev.jvmtuning.operator.testing.StartsProcesses;
import dev.jvmtuning.operator.testing.TestProfiles;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
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
 * The resize patch against a real kube-apiserver: what it accepts of a Guaranteed pod, and what a role without
 * pods/resize makes of a boost. There is no kubelet: the pod's spec changes, its containers' actual CPU is untested here.
 */
@StartsProcesses
class PodResizesTest {
    private static final String HASH = "abc123";
    /** A node object only: no kubelet stands behind it. */
    private static final String NODE = "resize-test-node";
    private static LocalControlPlane controlPlane;
    private static KubernetesClient admin;

    @BeforeAll
    static void controlPlane() {
        controlPlane = LocalControlPlane.shared();
        admin = controlPlane.client();
    }

    /** A Guaranteed pod of the settings in force, placed on a node, its JVM starting. */
    private static Pod startingPod(String namespace) {
        // Admission refuses (403) to resize a pod on a node the API server does not know ("node ... not found"), or to raise
        // a request beyond the node's allocatable ("node didn't have enough allocatable resources").
        if (admin.nodes().withName(NODE).get() == null) {
            Map<String, Quantity> allocatable = Map.of("cpu", new Quantity("8"), "memory", new Quantity("8Gi"), "pods", new Quantity("110"));
            admin.nodes().resource(new NodeBuilder().withNewMetadata().withName(NODE).endMetadata().build()).create();
            admin.nodes().withName(NODE).editStatus(node -> new NodeBuilder(node).withNewStatus().withCapacity(allocatable)
                    .withAllocatable(allocatable).endStatus().build());
        }
        Map<String, Quantity> resources = Map.of("cpu", new Quantity("500m"), "memory", new Quantity("256Mi"));
        return admin.pods().inNamespace(namespace).resource(new PodBuilder().withNewMetadata().withName("orders-1")
                .withAnnotations(Map.of(LabelsAndAnnotations.SETTINGS_HASH_ANNOTATION, HASH)).endMetadata()
                .withNewSpec().withNodeName(NODE).addNewContainer().withName("app").withImage("example/orders:1")
                .withNewResources().withLimits(resources).withRequests(resources).endResources().endContainer().endSpec()
                .build()).create();
    }

    /** The decision's boost for the pod as the API server holds it: a raise to 2 CPUs. */
    private static Decide.Decision boost(Observation seen, Pod pod) {
        StartupBoost boost = new StartupBoost();
        boost.setCpu("2");
        StartupBoosts.Verdict verdict = StartupBoosts.judge(new StartupBoosts.Facts(boost, null, pod.getSpec().getContainers().get(0), HASH,
                List.of(pod), null, 1L, seen.now()));
        assertThat(verdict.resizes()).as("a Guaranteed pod of the settings in force, starting").hasSize(1);
        return new Decide.Decision(List.of(), verdict.resizes(), new TuningProfileStatus(),
                verdict.resizes().stream().map(StartupBoosts.Resize::event).toList(), verdict.recheckAt());
    }

    private static Observation observation(String namespace) {
        TuningProfile profile = Serialization.unmarshal(TestProfiles.yaml("orders", "orders", "startupBoost: {cpu: '2'}"), TuningProfile.class);
        profile.getMetadata().setNamespace(namespace);
        profile.getMetadata().setGeneration(1L);
        return new Observation(profile, Optional.empty(), List.of(), List.of(), List.of(), Optional.empty(), List.of(), Instant.now());
    }

    private static Quantity cpu(Pod pod, String kind) {
        var resources = pod.getSpec().getContainers().get(0).getResources();
        return (kind.equals("limits") ? resources.getLimits() : resources.getRequests()).get("cpu");
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

        StartupBoosts.Resize lower = new StartupBoosts.Resize(namespace, "orders-1", "app", new Quantity("500m"), new Quantity("500m"),
                new ProfileEvent(false, Reason.STARTUP_BOOST_ENDED, "back"));
        StartupBoosts.Resize gone = new StartupBoosts.Resize(namespace, "orders-0", "app", new Quantity("500m"), null,
                new ProfileEvent(false, Reason.STARTUP_BOOST_ENDED, "gone"));
        Decide.Decision lowered = PodResizes.perform(admin, seen, new Decide.Decision(List.of(), List.of(gone, lower),
                new TuningProfileStatus(), List.of(gone.event(), lower.event()), Optional.empty()));
        assertThat(lowered.resizes()).as("a pod deleted meanwhile is skipped").containsExactly(lower);
        assertThat(lowered.events()).containsExactly(lower.event());
        Pod back = admin.pods().inNamespace(namespace).withName("orders-1").get();
        assertThat(cpu(back, "limits")).isEqualTo(new Quantity("500m"));
        assertThat(cpu(back, "requests")).isEqualTo(new Quantity("500m"));
    }

    @Test
    void withoutPatchOnPodsResizeTheProfileSaysResizeForbiddenAndThePodIsUntouched() {
        String namespace = controlPlane.newNamespace("resize");
        Pod pod = startingPod(namespace);
        admin.serviceAccounts().inNamespace(namespace).resource(new ServiceAccountBuilder().withNewMetadata().withName("operator")
                .endMetadata().build()).create();
        // The chart's rules for pods without its pods/resize rule (Helm value startupBoost.allowResize=false).
        admin.rbac().roles().inNamespace(namespace).resource(new RoleBuilder().withNewMetadata().withName("operator").endMetadata()
                .addNewRule().withApiGroups("").withResources("pods").withVerbs("get", "list", "watch").endRule().build()).create();
        admin.rbac().roleBindings().inNamespace(namespace).resource(new RoleBindingBuilder().withNewMetadata().withName("operator")
                .endMetadata().withNewRoleRef().withApiGroup("rbac.authorization.k8s.io").withKind("Role").withName("operator").endRoleRef()
                .addNewSubject().withKind("ServiceAccount").withName("operator").withNamespace(namespace).endSubject().build()).create();
        Observation seen = observation(namespace);

        Decide.Decision refused;
        try (KubernetesClient operator = serviceAccountClient(namespace, "operator")) {
            refused = PodResizes.perform(operator, seen, boost(seen, pod));
        }

        assertThat(refused.resizes()).isEmpty();
        assertThat(Conditions.find(refused.status().getConditions(), ConditionType.STARTUP_BOOST)).hasValueSatisfying(c -> {
            assertThat(c.getStatus()).isEqualTo("False");
            assertThat(c.getReason()).isEqualTo("ResizeForbidden");
            assertThat(c.getMessage()).contains("cannot patch resource \"pods/resize\"");
        });
        assertThat(refused.events()).extracting(ProfileEvent::reason).containsExactly(Reason.RESIZE_FORBIDDEN);
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
