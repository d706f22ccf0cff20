package dev.jvmtuning.operator.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A Deployment's pods: its full selector and its own ReplicaSets, nothing that merely shares labels. */
class TargetPodsTest {

    @Test
    void aSelectorOfExpressionsOnlyMatchesAsTheApiServerReadsIt() {
        LabelSelector expressions = new LabelSelectorBuilder()
                .addNewMatchExpression().withKey("app").withOperator("In").withValues("web", "api").endMatchExpression()
                .addNewMatchExpression().withKey("track").withOperator("NotIn").withValues("canary").endMatchExpression()
                .addNewMatchExpression().withKey("tier").withOperator("Exists").endMatchExpression()
                .addNewMatchExpression().withKey("debug").withOperator("DoesNotExist").endMatchExpression()
                .build();

        assertThat(TargetPods.matches(expressions, Map.of("app", "web", "tier", "front"))).isTrue();
        assertThat(TargetPods.matches(expressions, Map.of("app", "web", "tier", "front", "track", "canary"))).isFalse();
        assertThat(TargetPods.matches(expressions, Map.of("app", "web"))).isFalse();
        assertThat(TargetPods.matches(expressions, Map.of("app", "web", "tier", "front", "debug", "1"))).isFalse();
        assertThat(TargetPods.matches(expressions, Map.of("app", "db", "tier", "front"))).isFalse();
        assertThat(TargetPods.matches(new LabelSelector(), Map.of("app", "web"))).as("an empty selector selects nothing").isFalse();
    }

    @Test
    void labelsAndExpressionsMustBothHold() {
        LabelSelector both = new LabelSelectorBuilder().addToMatchLabels("app", "web")
                .addNewMatchExpression().withKey("track").withOperator("NotIn").withValues("canary").endMatchExpression().build();

        assertThat(TargetPods.matches(both, Map.of("app", "web", "track", "stable"))).isTrue();
        assertThat(TargetPods.matches(both, Map.of("app", "web", "track", "canary"))).isFalse();
        assertThat(TargetPods.matches(both, Map.of("app", "api"))).isFalse();
    }

    @Test
    void onlyPodsOfTheDeploymentsOwnReplicaSetsBelongToIt() {
        Deployment web = new DeploymentBuilder().withNewMetadata().withName("web").withNamespace("shop").endMetadata()
                .withNewSpec().withNewSelector().addToMatchLabels("app", "web").endSelector().endSpec().build();

        assertThat(TargetPods.belongsTo(pod("shop", "web-5d8f", "5d8f", "web"), web)).isTrue();
        assertThat(TargetPods.belongsTo(pod("shop", "web-canary-77aa", "77aa", "web"), web)).as("another Deployment's pods with the same labels")
                .isFalse();
        assertThat(TargetPods.belongsTo(pod("other", "web-5d8f", "5d8f", "web"), web)).isFalse();
        assertThat(TargetPods.belongsTo(pod("shop", "web-5d8f", "5d8f", "api"), web)).isFalse();
        assertThat(TargetPods.belongsTo(new PodBuilder().withNewMetadata().withName("bare").withNamespace("shop")
                .addToLabels("app", "web").endMetadata().build(), web)).as("a pod no ReplicaSet owns").isFalse();
    }

    @Test
    void theYoungestJvmIsTheLatestRunningContainerOfAnyPodAndAWaitingOneIsNone() {
        Pod older = new PodBuilder().withNewStatus().addNewContainerStatus().withName("app").withNewState().withNewRunning()
                .withStartedAt("2026-11-23T10:00:00Z").endRunning().endState().endContainerStatus()
                .addNewContainerStatus().withName("sidecar").withNewState().withNewRunning()
                .withStartedAt("2026-11-23T10:02:00Z").endRunning().endState().endContainerStatus().endStatus().build();
        Pod restarting = new PodBuilder().withNewStatus().addNewContainerStatus().withName("app").withNewState().withNewWaiting()
                .withReason("CrashLoopBackOff").endWaiting().endState().endContainerStatus().endStatus().build();
        Pod scheduled = new PodBuilder().withNewStatus().endStatus().build();

        assertThat(TargetPods.youngestStart(List.of(older, restarting, scheduled))).contains(Instant.parse("2026-11-23T10:02:00Z"));
        assertThat(TargetPods.youngestStart(List.of(restarting, scheduled))).isEmpty();
    }

    private static Pod pod(String namespace, String replicaSet, String hash, String app) {
        return new PodBuilder().withNewMetadata().withName(replicaSet + "-x1").withNamespace(namespace)
                .addToLabels("app", app).addToLabels("pod-template-hash", hash)
                .addNewOwnerReference().withKind("ReplicaSet").withName(replicaSet).withController(true).endOwnerReference()
                .endMetadata().build();
    }
}
