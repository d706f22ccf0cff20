package dev.jvmtuning.operator.reconciler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.jvmtuning.operator.api.v1alpha1.BoostedPod;
import dev.jvmtuning.operator.api.v1alpha1.TuningProfile;
import dev.jvmtuning.operator.config.Leadership;
import dev.jvmtuning.operator.model.ProfileEvent;
import dev.jvmtuning.operator.model.Reason;
import dev.jvmtuning.operator.render.DeploymentTuning;
import dev.jvmtuning.operator.rollout.StartupBoosts;
import dev.jvmtuning.operator.testing.FakeKubelet;
import dev.jvmtuning.operator.testing.LocalControlPlane;
import dev.jvmtuning.operator.testing.RunningOperator;
import dev.jvmtuning.operator.testing.StartsProcesses;
import dev.jvmtuning.operator.testing.TestSettings;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.javaoperatorsdk.operator.Operator;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * An operator restarted on fewer namespaces releases the profiles it finalized in the ones it dropped:
 * the boosts of their pods taken back, their Deployments back to their own templates, their finalizers
 * off, so that deleting them (or their namespace) completes. Profiles it never watched keep whatever finalizer they carry. Before the release,
 * the dropped namespace's profile kept the finalizer and its delete hung.
 */
@StartsProcesses
class NamespaceReleaseTest {
    private static final String FINALIZER = "tuningprofiles.jvmtuning.dev/finalizer";

    private static Operator operator(LocalControlPlane controlPlane, String ownNamespace, String... namespaces) throws IOException {
        KubernetesClient client = RunningOperator.watchedClient(controlPlane.kubeconfig(), request -> { });
        Operator operator = new Operator(o -> o.withKubernetesClient(client));
        operator.register(new TuningProfileReconciler(TestSettings.of(Duration.ofMinutes(30), Optional.empty()).withOwnNamespace(ownNamespace),
                new SimpleMeterRegistry(), Leadership.alone("namespace-release-test")),
                o -> o.settingNamespaces(namespaces).withLabelSelector(RunningOperator.OWN_OPERATOR_LABEL));
        operator.start();
        return operator;
    }


    private static TuningProfile profile(KubernetesClient client, String namespace, String name) {
        return client.resources(TuningProfile.class).inNamespace(namespace).withName(name).get();
    }

    private static boolean tuned(KubernetesClient client, String namespace, String name) {
        Deployment deployment = client.apps().deployments().inNamespace(namespace).withName(name).get();
        return DeploymentTuning.tunedBy(deployment, name);
    }

    @Test
    void narrowingTheNamespaceListReleasesTheProfilesLeftBehind() throws Exception {
        LocalControlPlane controlPlane = LocalControlPlane.shared();
        controlPlane.ensureControllerManager();
        controlPlane.installCrd();
        KubernetesClient client = controlPlane.client();
        String own = controlPlane.newNamespace("release-own");
        String a = controlPlane.newNamespace("release-a");
        String b = controlPlane.newNamespace("release-b");
        String elsewhere = controlPlane.newNamespace("release-other");
        RunningOperator.serviceWithProfile(client, a, "svc");
        RunningOperator.serviceWithProfile(client, b, "svc");
        // One pod with a CPU limit, for a boost: a patch, which the Deployment controller's status writes cannot conflict with.
        client.apps().deployments().inNamespace(b).withName("svc").patch(PatchContext.of(PatchType.STRATEGIC_MERGE), """
                {"spec": {"replicas": 1, "template": {"spec": {"containers": [{"name": "app", "resources": {"limits": {"cpu": "500m"}}}]}}}}""");
        // another installation's profile, carrying the same finalizer: never this operator's to release
        RunningOperator.serviceWithProfile(client, elsewhere, "svc");
        client.resources(TuningProfile.class).inNamespace(elsewhere).withName("svc").edit(p -> {
            p.getMetadata().getFinalizers().add(FINALIZER);
            return p;
        });

        Operator first = operator(controlPlane, own, a, b);
        try {
            await().atMost(Duration.ofSeconds(60)).alias("both profiles finalized and their Deployments tuned")
                    .until(() -> List.of(a, b).stream().allMatch(ns -> profile(client, ns, "svc").getMetadata().getFinalizers().contains(FINALIZER)
                            && tuned(client, ns, "svc")));
            new FakeKubelet(client).awaitRollout(b, "svc", Duration.ofSeconds(60));
        } finally {
            first.stop();
        }
        // The operator boosted a pod of the dropped namespace before it stopped: placed on a node, its CPU raised, the boost
        // recorded in the profile's status.
        Pod started = client.pods().inNamespace(b).list().getItems().stream().filter(p -> p.getMetadata().getDeletionTimestamp() == null)
                .findFirst().orElseThrow();
        String pod = started.getMetadata().getName();
        BoostedPod record = new BoostedPod(pod, started.getMetadata().getUid(), "app", "500m", "2", Instant.now().toString());
        new FakeKubelet(client).place(b, pod);
        PodResizes.resize(client, List.of(new StartupBoosts.Resize(b, pod, "app", new Quantity("2"), null, record,
                new ProfileEvent(false, Reason.STARTUP_BOOST_STARTED, "raised"))));
        client.resources(TuningProfile.class).inNamespace(b).withName("svc").editStatus(p -> {
            p.getStatus().setStartupBoosts(List.of(record));
            return p;
        });

        Operator second = operator(controlPlane, own, a);
        try {
            await().atMost(Duration.ofSeconds(30)).alias("the profile in the dropped namespace released")
                    .until(() -> profile(client, b, "svc").getMetadata().getFinalizers().isEmpty());
            assertThat(tuned(client, b, "svc")).as("the dropped namespace's Deployment back to its own template").isFalse();
            assertThat(client.v1().events().inNamespace(b).list().getItems()).anySatisfy(e -> {
                assertThat(e.getReason()).isEqualTo("Released");
                assertThat(e.getMessage()).contains("Deployment svc restored to its own template");
            }).anySatisfy(e -> {
                assertThat(e.getReason()).isEqualTo("StartupBoostEnded");
                assertThat(e.getMessage()).isEqualTo("pod " + pod + " back to its own CPU limit 500m from 2: namespace " + b
                        + " is no longer watched by the operator");
            });
            assertThat(profile(client, a, "svc").getMetadata().getFinalizers()).as("still watched").contains(FINALIZER);
            assertThat(tuned(client, a, "svc")).isTrue();
            assertThat(profile(client, elsewhere, "svc").getMetadata().getFinalizers()).as("never watched by this operator").contains(FINALIZER);
            assertThat(client.configMaps().inNamespace(own).withName(NamespaceRelease.RECORD).get().getData())
                    .containsEntry(NamespaceRelease.NAMESPACES, a);

            client.resources(TuningProfile.class).inNamespace(b).withName("svc").delete();
            await().atMost(Duration.ofSeconds(10)).alias("the released profile's delete completes")
                    .until(() -> profile(client, b, "svc") == null);
        } finally {
            second.stop();
            client.resources(TuningProfile.class).inNamespace(elsewhere).withName("svc").edit(p -> {
                p.getMetadata().getFinalizers().remove(FINALIZER);
                return p;
            });
        }
    }
}
