package dev.jvmtuning.operator.testing;

import dev.jvmtuning.operator.model.ConditionStatus;
import dev.jvmtuning.operator.deployment.TargetPods;
import io.fabric8.kubernetes.api.model.BindingBuilder;
import io.fabric8.kubernetes.api.model.ContainerStateBuilder;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.PodIPBuilder;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.HttpURLConnection;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Plays the kubelet's one part the controllers need: a pod that exists is reported Running and
 * Ready with a loopback IP; and, for a pod to resize, the scheduler's: a node to place it on. Images and probes are out of scope; the Deployment and
 * ReplicaSet controllers still decide, for real, which pods exist and when a rollout is complete.
 */
public final class FakeKubelet {
    /** Loopback, so a local JVM process can stand behind every pod. */
    private static final String POD_IP = "127.0.0.1";

    private final KubernetesClient client;

    public FakeKubelet(KubernetesClient client) {
        this.client = client;
    }

    /**
     * A node object with room for a boost, created on first use; no kubelet stands behind it. Admission refuses (403) to resize
     * a pod on a node the API server does not know ("node ... not found"), or to raise a request beyond the node's allocatable.
     */
    public String node() {
        String node = "fake-kubelet-node";
        if (client.nodes().withName(node).get() == null) {
            client.nodes().resource(new NodeBuilder().withNewMetadata().withName(node).endMetadata().build()).create();
        }
        // Room for every pod the tests of one control plane place on it, whatever they request; set again until it holds, as
        // the node controller writes the new node's status too.
        Map<String, Quantity> allocatable = Map.of("cpu", new Quantity("1000"), "memory", new Quantity("1Ti"), "pods", new Quantity("10000"));
        for (int attempt = 1; !allocatable.equals(client.nodes().withName(node).get().getStatus().getAllocatable()); attempt++) {
            try {
                client.nodes().withName(node).editStatus(n -> new NodeBuilder(n).editOrNewStatus().withCapacity(allocatable)
                        .withAllocatable(allocatable).endStatus().build());
            } catch (KubernetesClientException e) {
                if (e.getCode() != HttpURLConnection.HTTP_CONFLICT || attempt == 5) {
                    throw e;
                }
            }
        }
        return node;
    }

    /** Binds the pod to {@link #node()}, as the scheduler would: the API server resizes only a pod on a node. */
    public void place(String namespace, String pod) {
        client.bindings().inNamespace(namespace).resource(new BindingBuilder().withNewMetadata().withName(pod).endMetadata()
                .withNewTarget().withKind("Node").withName(node()).endTarget().build()).create();
    }

    /** Places the pod on {@link #node()} and reports its containers started but not Ready: a JVM starting. */
    public void starting(String namespace, String pod) {
        place(namespace, pod);
        for (int attempt = 1; ; attempt++) {
            try {
                client.pods().inNamespace(namespace).withName(pod).editStatus(p -> {
                    String now = Instant.now().toString();
                    PodStatus status = new PodStatusBuilder(p.getStatus()).withConditions(condition("PodScheduled", now),
                            condition("Initialized", now), notReady("ContainersReady", now), notReady("Ready", now)).build();
                    status.getContainerStatuses().forEach(c -> c.setReady(false));
                    p.setStatus(status);
                    return p;
                });
                return;
            } catch (KubernetesClientException e) {
                // The controllers update the pod just bound as well: read it again and retry.
                if (e.getCode() != HttpURLConnection.HTTP_CONFLICT || attempt == 5) {
                    throw e;
                }
            }
        }
    }

    /** Marks every pod of the namespace Ready that is not yet; returns how many it marked. */
    public int markPodsReady(String namespace) {
        return markPodsReady(namespace, pod -> POD_IP);
    }

    /**
     * Marks every pod of the namespace Ready that is not yet, each with the IP {@code ipOf} gives it
     * (any 127.x.y.z: Linux routes all of 127.0.0.0/8 to lo, so a test server can stand behind each pod).
     */
    public int markPodsReady(String namespace, Function<Pod, String> ipOf) {
        int marked = 0;
        for (Pod pod : client.pods().inNamespace(namespace).list().getItems()) {
            if (pod.getMetadata().getDeletionTimestamp() != null || isReady(pod)) {
                continue;
            }
            pod.setStatus(readyStatus(pod, ipOf.apply(pod)));
            try {
                client.pods().inNamespace(namespace).resource(pod).updateStatus();
                marked++;
            } catch (KubernetesClientException e) {
                // The ReplicaSet controller may delete or update a pod between the list and this write; the next pass retries.
                if (e.getCode() != HttpURLConnection.HTTP_NOT_FOUND && e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
                    throw e;
                }
            }
        }
        return marked;
    }

    /**
     * Reports the matching pods' containers as the kubelet would report a container that cannot run:
     * not Ready, in {@code waitingReason} with {@code message}, after a termination with {@code lastReason}
     * and the same message (none when {@code lastReason} is null: the container never ran).
     * Returns how many pods it reported.
     */
    public int failContainers(String namespace, Predicate<Pod> which, String waitingReason, String lastReason, String message) {
        int failed = 0;
        for (Pod pod : client.pods().inNamespace(namespace).list().getItems()) {
            if (pod.getMetadata().getDeletionTimestamp() != null || !which.test(pod)) {
                continue;
            }
            String now = Instant.now().toString();
            PodStatusBuilder status = new PodStatusBuilder(pod.getStatus()).withPhase("Running").withPodIP(POD_IP)
                    .withPodIPs(new PodIPBuilder().withIp(POD_IP).build())
                    .withConditions(condition("PodScheduled", now), notReady("ContainersReady", now), notReady("Ready", now))
                    .withContainerStatuses();
            pod.getSpec().getContainers().forEach(c -> status.addToContainerStatuses(new ContainerStatusBuilder()
                    .withName(c.getName()).withImage(c.getImage()).withImageID("").withReady(false).withStarted(false).withRestartCount(2)
                    .withNewState().withNewWaiting().withReason(waitingReason).withMessage(message).endWaiting().endState()
                    .withLastState(lastReason == null ? null : new ContainerStateBuilder().withNewTerminated().withExitCode(1)
                            .withReason(lastReason).withMessage(message).withStartedAt(now).withFinishedAt(now).endTerminated().build())
                    .build()));
            pod.setStatus(status.build());
            client.pods().inNamespace(namespace).resource(pod).updateStatus();
            failed++;
        }
        return failed;
    }

    /** A Deployment's pods as the operator's informer would hand them out: its selector and its ReplicaSets decide. */
    public List<Pod> podsOf(Deployment deployment) {
        return client.pods().inNamespace(deployment.getMetadata().getNamespace()).list().getItems().stream()
                .filter(pod -> TargetPods.belongsTo(pod, deployment)).toList();
    }

    /** Keeps marking pods Ready until the Deployment reports its current template fully available. */
    public Deployment awaitRollout(String namespace, String name, Duration timeout) throws InterruptedException {
        Instant deadline = Instant.now().plus(timeout);
        while (true) {
            markPodsReady(namespace);
            Deployment deployment = client.apps().deployments().inNamespace(namespace).withName(name).get();
            if (isRolledOut(deployment)) {
                return deployment;
            }
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError("Deployment " + namespace + "/" + name + " did not roll out within "
                        + timeout + ": " + (deployment == null ? "absent" : deployment.getStatus()));
            }
            Thread.sleep(200);
        }
    }

    public static boolean isRolledOut(Deployment deployment) {
        if (deployment == null || deployment.getStatus() == null) {
            return false;
        }
        var status = deployment.getStatus();
        int replicas = Objects.requireNonNullElse(deployment.getSpec().getReplicas(), 1);
        return Objects.equals(status.getObservedGeneration(), deployment.getMetadata().getGeneration())
                && Objects.equals(status.getUpdatedReplicas(), replicas)
                && Objects.equals(status.getAvailableReplicas(), replicas)
                && Objects.equals(status.getReplicas(), replicas);
    }

    private static boolean isReady(Pod pod) {
        return pod.getStatus() != null && pod.getStatus().getConditions() != null
                && pod.getStatus().getConditions().stream()
                        .anyMatch(c -> "Ready".equals(c.getType()) && ConditionStatus.TRUE.is(c.getStatus()));
    }

    private PodStatus readyStatus(Pod pod, String ip) {
        String now = Instant.now().toString();
        PodStatusBuilder status = new PodStatusBuilder(pod.getStatus())
                .withPhase("Running")
                .withPodIP(ip)
                .withPodIPs(new PodIPBuilder().withIp(ip).build())
                .withStartTime(now)
                .withConditions(
                        condition("PodScheduled", now), condition("Initialized", now),
                        condition("ContainersReady", now), condition("Ready", now))
                .withContainerStatuses();
        // The resources a container runs with, as a kubelet that resizes in place reports them: the API server resizes no
        // running container without.
        pod.getSpec().getContainers().forEach(c -> status.addToContainerStatuses(new ContainerStatusBuilder()
                .withName(c.getName()).withImage(c.getImage()).withImageID("")
                .withReady(true).withStarted(true).withRestartCount(0)
                .withNewState().withNewRunning().withStartedAt(now).endRunning().endState()
                .withResources(c.getResources())
                .build()));
        return status.build();
    }

    private static io.fabric8.kubernetes.api.model.PodCondition condition(String type, String now) {
        return new PodConditionBuilder().withType(type).withStatus("True").withLastTransitionTime(now).build();
    }

    private static io.fabric8.kubernetes.api.model.PodCondition notReady(String type, String now) {
        return new PodConditionBuilder().withType(type).withStatus("False").withLastTransitionTime(now).build();
    }
}
