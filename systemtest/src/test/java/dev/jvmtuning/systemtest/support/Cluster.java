package dev.jvmtuning.systemtest.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import io.fabric8.kubernetes.api.model.ContainerState;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseSpec;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.UnaryOperator;
import java.util.stream.StreamSupport;

/**
 * The demo's cluster, from KUBECONFIG (e2e.sh sets it to the local cluster's), in the namespace the checks use
 * ({@code NAMESPACE}, else {@code shop}). Objects are read as JSON: a status field the
 * checks name is read by its name, whatever the model's classes say.
 */
public final class Cluster implements AutoCloseable {

    public static final String NAMESPACE = System.getenv().getOrDefault("NAMESPACE", "shop");
    /** Where demo.sh installs the operator. */
    public static final String OPERATOR_NAMESPACE = "jvm-tuning-system";
    private static final String PROFILES = "jvmtuning.dev/v1alpha1";
    /** Each kubectl exec into a pod: a JVM's flags or a variable are read in a second or two. */
    private static final int EXEC_SECONDS = 120;

    private final KubernetesClient client = new KubernetesClientBuilder().build();

    @Override
    public void close() {
        client.close();
    }

    /** Creates or updates the objects of {@code yaml}, as kubectl apply does: the fields it sets are the checks'. */
    public void apply(String yaml) {
        apply(NAMESPACE, yaml);
    }

    /** Creates or updates the objects of {@code yaml} in {@code namespace}, as kubectl apply -n does. */
    public void apply(String namespace, String yaml) {
        client.resource(yaml).inNamespace(namespace).fieldManager("systemtest").forceConflicts().serverSideApply();
    }

    /** Creates a namespace where it is missing, as kubectl create namespace --dry-run=client -o yaml | kubectl apply -f - does. */
    public void createNamespace(String name) {
        client.resource(new NamespaceBuilder().withNewMetadata().withName(name).endMetadata().build())
                .fieldManager("systemtest").forceConflicts().serverSideApply();
    }

    /** The demo's service where it is missing, and its profile: objects that exist are left as they are. */
    public void demo() {
        demo(NAMESPACE, UnaryOperator.identity());
    }

    /** The demo's service and its profile in {@code namespace} where they are missing, its manifest changed by {@code edit} first. */
    public void demo(String namespace, UnaryOperator<String> edit) {
        try (InputStream manifest = new ByteArrayInputStream(edit.apply(Files.readString(Manifests.DEMO)).getBytes(StandardCharsets.UTF_8))) {
            for (HasMetadata item : client.load(manifest).items()) {
                try {
                    client.resource(item).inNamespace(namespace).create();
                } catch (KubernetesClientException e) {
                    if (e.getCode() != 409) {
                        throw e;
                    }
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("could not read " + Manifests.DEMO, e);
        }
    }

    /** A TuningProfile as JSON. */
    public JsonNode profile(String name) {
        return profile(NAMESPACE, name);
    }

    /** A TuningProfile of {@code namespace} as JSON. */
    public JsonNode profile(String namespace, String name) {
        return json(namespace, PROFILES, "TuningProfile", name);
    }

    /** A Deployment as JSON. */
    public JsonNode deployment(String name) {
        return json(NAMESPACE, "apps/v1", "Deployment", name);
    }

    private JsonNode json(String namespace, String apiVersion, String kind, String name) {
        GenericKubernetesResource resource = client.genericKubernetesResources(apiVersion, kind).inNamespace(namespace).withName(name).get();
        if (resource == null) {
            throw new IllegalStateException("no " + kind + " " + name + " in " + namespace);
        }
        return client.getKubernetesSerialization().convertValue(resource, JsonNode.class);
    }

    /** A condition of a profile, or a missing node when it has none of that type. */
    public JsonNode condition(String profile, String type) {
        return condition(NAMESPACE, profile, type);
    }

    /** A condition of a profile of {@code namespace}, or a missing node when it has none of that type. */
    public JsonNode condition(String namespace, String profile, String type) {
        for (JsonNode condition : profile(namespace, profile).path("status").path("conditions")) {
            if (type.equals(condition.path("type").asText())) {
                return condition;
            }
        }
        return MissingNode.getInstance();
    }

    /** The status of a profile's condition: True, False, or empty while it has none. */
    public String conditionStatus(String profile, String type) {
        return condition(profile, type).path("status").asText();
    }

    public boolean conditionIs(String profile, String type, String status) {
        return status.equals(conditionStatus(profile, type));
    }

    /** kubectl wait --for=condition=TYPE: True, and not from an older generation of the profile when the condition says which. */
    public void waitForCondition(String profile, String type, int seconds) {
        waitForCondition(NAMESPACE, profile, type, seconds);
    }

    /** kubectl wait -n NAMESPACE --for=condition=TYPE, as above. */
    public void waitForCondition(String namespace, String profile, String type, int seconds) {
        Wait.until(seconds, "tp/" + profile + (namespace.equals(NAMESPACE) ? "" : " in " + namespace) + " " + type, () -> {
            JsonNode tp = profile(namespace, profile);
            JsonNode condition = condition(namespace, profile, type);
            JsonNode observed = condition.path("observedGeneration");
            return "True".equals(condition.path("status").asText())
                    && (observed.isMissingNode() || observed.asLong() >= tp.path("metadata").path("generation").asLong());
        });
    }

    /** When a profile's condition last changed, to the second, as the API server keeps it. */
    public Instant conditionChanged(String profile, String type) {
        return Instant.parse(condition(profile, type).path("lastTransitionTime").asText()).truncatedTo(ChronoUnit.SECONDS);
    }

    /** The reason or message of the profile's Applied condition. */
    public String applied(String profile, String field) {
        return condition(profile, "Applied").path(field).asText();
    }

    /** kubectl rollout status: the Deployment's newest template rolled out, every replica on it available, no old pod left. */
    public void rolloutStatus(String deployment, int seconds) {
        Wait.until(seconds, "deployment/" + deployment + " rolled out", () -> rolledOut(deployment(deployment)));
    }

    private static boolean rolledOut(JsonNode d) {
        JsonNode status = d.path("status");
        long wanted = d.path("spec").path("replicas").asLong(1);
        long updated = status.path("updatedReplicas").asLong();
        return status.path("observedGeneration").asLong() >= d.path("metadata").path("generation").asLong()
                && updated >= wanted
                && status.path("replicas").asLong() <= updated
                && status.path("availableReplicas").asLong() >= updated;
    }

    /** Patches a Deployment with a JSON patch, as kubectl patch --type json. */
    public void patchDeployment(String name, String jsonPatch) {
        client.apps().deployments().inNamespace(NAMESPACE).withName(name).patch(PatchContext.of(PatchType.JSON), jsonPatch);
    }

    /** Patches a TuningProfile with a JSON merge patch, as kubectl patch --type merge. */
    public void patchProfile(String name, String mergePatch) {
        client.genericKubernetesResources(PROFILES, "TuningProfile").inNamespace(NAMESPACE).withName(name)
                .patch(PatchContext.of(PatchType.JSON_MERGE), mergePatch);
    }

    /** The hash of the settings the operator rendered into a Deployment's template, or empty. */
    public String settingsHash(String deployment) {
        return deployment(deployment).path("spec").path("template").path("metadata").path("annotations").path("jvmtuning.dev/settings-hash").asText();
    }

    /** The JAVA_TOOL_OPTIONS of a Deployment's template (where the operator renders its flags), or empty. */
    public String tunedFlags(String deployment) {
        for (JsonNode variable : templateEnv(deployment)) {
            if ("JAVA_TOOL_OPTIONS".equals(variable.path("name").asText())) {
                return variable.path("value").asText();
            }
        }
        return "";
    }

    /** The env of the first container of a Deployment's template, missing when it has none. */
    public JsonNode templateEnv(String deployment) {
        return deployment(deployment).path("spec").path("template").path("spec").path("containers").path(0).path("env");
    }

    /** The pods of {@code app} that run and are not on their way out (a rollout leaves old pods Running while they stop). */
    public List<Pod> runningPods(String app) {
        return pods(app).stream().filter(pod -> "Running".equals(pod.getStatus().getPhase())).toList();
    }

    public List<String> runningPodNames(String app) {
        return runningPods(app).stream().map(pod -> pod.getMetadata().getName()).toList();
    }

    /** The address of the newest of the app's pods that is Ready, or none: a rollout's new pod, once it may serve. */
    public Optional<String> newestReadyPodIp(String app) {
        return pods(app).stream()
                .filter(pod -> pod.getStatus().getConditions().stream().anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus())))
                .max(Comparator.comparing(pod -> Instant.parse(pod.getMetadata().getCreationTimestamp())))
                .map(pod -> pod.getStatus().getPodIP());
    }

    /** The operator's pods not on their way out. */
    public List<Pod> operatorPods() {
        return client.pods().inNamespace(OPERATOR_NAMESPACE).withLabel("app.kubernetes.io/name", "jvm-tuning-operator").list().getItems().stream()
                .filter(pod -> pod.getMetadata().getDeletionTimestamp() == null)
                .toList();
    }

    /** The newest of the running pods of {@code app}. */
    public String newestPod(String app) {
        return runningPods(app).stream().max(Comparator.comparing(pod -> Instant.parse(pod.getMetadata().getCreationTimestamp())))
                .map(pod -> pod.getMetadata().getName()).orElseThrow(() -> new AssertionError("no running pod of " + app));
    }

    /** The JAVA_TOOL_OPTIONS a pod's container runs with (its spec, as admitted), or empty. */
    public String podJavaToolOptions(String pod) {
        return pod(pod).getSpec().getContainers().get(0).getEnv().stream().filter(variable -> "JAVA_TOOL_OPTIONS".equals(variable.getName()))
                .map(EnvVar::getValue).filter(Objects::nonNull).findFirst().orElse("");
    }

    /** The pods of {@code app} not on their way out, Running or not. */
    public List<Pod> pods(String app) {
        return client.pods().inNamespace(NAMESPACE).withLabel("app", app).list().getItems().stream()
                .filter(pod -> pod.getMetadata().getDeletionTimestamp() == null)
                .toList();
    }

    public Pod pod(String name) {
        return client.pods().inNamespace(NAMESPACE).withName(name).get();
    }

    /** The first container's status as the kubelet reports it, or none while the pod has none (or is gone). */
    public Optional<ContainerStatus> container(String pod) {
        return Optional.ofNullable(pod(pod)).map(Pod::getStatus).map(PodStatus::getContainerStatuses)
                .filter(statuses -> !statuses.isEmpty()).map(statuses -> statuses.get(0));
    }

    /** The CPU limit the kubelet applied to a pod's container (its resources in the status, which a resize changes). */
    public String appliedCpu(String pod) {
        return appliedLimit(pod, "cpu");
    }

    /** A limit ("cpu", "memory") the kubelet applied to a pod's container, as its status says it ("384Mi"), or empty. */
    public String appliedLimit(String pod, String resource) {
        return container(pod).map(ContainerStatus::getResources).map(resources -> resources.getLimits().get(resource))
                .map(Quantity::toString).orElse("");
    }

    public int restarts(String pod) {
        return container(pod).map(ContainerStatus::getRestartCount).orElse(-1);
    }

    public boolean containerReady(String pod) {
        return container(pod).map(ContainerStatus::getReady).orElse(false);
    }

    /** What a pod's running JVM reports of its flags, over the attach API (jcmd VM.flags). */
    public String jvmFlags(String pod) {
        return exec(pod, "env", "-u", "JAVA_TOOL_OPTIONS", "java", "-m", "jdk.jcmd/sun.tools.jcmd.JCmd", "1", "VM.flags");
    }

    /** A command's output in the container {@code app} of a pod (kubectl exec); a command that fails fails the check. */
    public String exec(String pod, String... command) {
        List<String> line = new ArrayList<>(List.of("kubectl", "exec", "-n", NAMESPACE, pod, "-c", "app", "--"));
        line.addAll(List.of(command));
        return Command.run(EXEC_SECONDS, line).strip();
    }

    /** The operator pod holding the leader's Lease, while it is one of the live operator pods. */
    public Optional<String> liveLeader() {
        Lease lease = client.leases().inNamespace(OPERATOR_NAMESPACE).withName("jvm-tuning-operator").get();
        return Optional.ofNullable(lease).map(Lease::getSpec).map(LeaseSpec::getHolderIdentity)
                .filter(holder -> operatorPods().stream().anyMatch(pod -> pod.getMetadata().getName().equals(holder)));
    }

    /** The last {@code lines} lines of an operator pod's log. */
    public String operatorLog(String pod, int lines) {
        return client.pods().inNamespace(OPERATOR_NAMESPACE).withName(pod).tailingLines(lines).getLog();
    }

    /** Deletes an operator pod without waiting for it. */
    public void deleteOperatorPod(String name) {
        client.pods().inNamespace(OPERATOR_NAMESPACE).withName(name).delete();
    }

    /** The Events of a profile, "REASON: MESSAGE" each. */
    public List<String> profileEvents(String profile) {
        return client.v1().events().inNamespace(NAMESPACE)
                .withField("involvedObject.name", profile).withField("involvedObject.kind", "TuningProfile").list().getItems().stream()
                .map(event -> event.getReason() + ": " + event.getMessage())
                .toList();
    }

    /** Deletes a profile and waits until it is gone (the operator gives its Deployment back first): kubectl delete --timeout. */
    public void deleteProfile(String name, int seconds) {
        var profile = client.genericKubernetesResources(PROFILES, "TuningProfile").inNamespace(NAMESPACE).withName(name);
        profile.delete();
        Wait.until(seconds, "tp/" + name + " deleted", () -> profile.get() == null);
    }

    /** Deletes every profile of a namespace and waits until they are gone (the operator takes its finalizers off first). */
    public void deleteProfiles(String namespace, int seconds) {
        var profiles = client.genericKubernetesResources(PROFILES, "TuningProfile").inNamespace(namespace);
        profiles.delete();
        Wait.until(seconds, "the profiles of " + namespace + " deleted", () -> profiles.list().getItems().isEmpty());
    }

    /** Deletes a namespace, if it is there, without waiting for its objects to go. */
    public void deleteNamespace(String name) {
        client.namespaces().withName(name).delete();
    }

    /** kubectl rollout restart: the Deployment's pods replaced by new ones of the same template. */
    public void restartDeployment(String name) {
        client.apps().deployments().inNamespace(NAMESPACE).withName(name).rolling().restart();
    }

    /** Deletes a Deployment without waiting for its pods. */
    public void deleteDeployment(String name) {
        client.apps().deployments().inNamespace(NAMESPACE).withName(name).delete();
    }

    /** The names of a JSON array's elements' field, as jq's [.[]?.FIELD]. */
    public static List<String> names(JsonNode array, String field) {
        return StreamSupport.stream(array.spliterator(), false).map(element -> element.path(field).asText()).toList();
    }

    /** An object of the namespace as JSON, of any kind (a VerticalPodAutoscaler, a HorizontalPodAutoscaler). */
    public JsonNode object(String apiVersion, String kind, String name) {
        return json(NAMESPACE, apiVersion, kind, name);
    }

    /** Deletes an object of the namespace, or of the cluster for a kind without namespaces, if it is there, without waiting. */
    public void delete(String apiVersion, String kind, String name) {
        client.genericKubernetesResources(apiVersion, kind).inNamespace(NAMESPACE).withName(name).delete();
    }

    /** kubectl rollout restart of the operator, then its rollout status: a restarted operator reads the APIs the cluster serves then. */
    public void restartOperator(int seconds) {
        var operator = client.apps().deployments().inNamespace(OPERATOR_NAMESPACE).withName("jvm-tuning-operator");
        operator.rolling().restart();
        Wait.until(seconds, "deployment/jvm-tuning-operator rolled out",
                () -> rolledOut(client.getKubernetesSerialization().convertValue(operator.get(), JsonNode.class)));
    }

    /** Resizes a running pod in place (kubectl patch --subresource resize, a strategic merge patch of its containers' resources). */
    public void resizePod(String pod, String patch) {
        client.pods().inNamespace(NAMESPACE).withName(pod).subresource("resize").patch(PatchContext.of(PatchType.STRATEGIC_MERGE), patch);
    }

    /** The memory limit of a pod's container as its spec has it (as admitted), in bytes. */
    public long podMemoryLimit(String pod) {
        return Quantity.getAmountInBytes(pod(pod).getSpec().getContainers().get(0).getResources().getLimits().get("memory")).longValueExact();
    }

    /**
     * A pod's container's working set as metrics-server last read it from the kubelet (every 15 s here): the memory the
     * VerticalPodAutoscaler's recommender sizes for. None before its first reading, or once the pod is gone.
     */
    public Optional<Long> workingSetBytes(String pod) {
        try {
            return client.top().pods().metrics(NAMESPACE, pod).getContainers().stream().filter(c -> "app".equals(c.getName())).findFirst()
                    .map(c -> c.getUsage().get("memory")).map(q -> Quantity.getAmountInBytes(q).longValueExact());
        } catch (KubernetesClientException e) {
            return Optional.empty();
        }
    }

    /** The bytes of a quantity ("384Mi"), as numfmt --from=iec-i reads it. */
    public static long bytes(String quantity) {
        return Quantity.getAmountInBytes(new Quantity(quantity)).longValueExact();
    }

    /** The pods of {@code app} whose container was ever OOM-killed, as the kubelet last saw it, on their way out or not. */
    public List<String> oomKilledPods(String app) {
        return client.pods().inNamespace(NAMESPACE).withLabel("app", app).list().getItems().stream()
                .filter(pod -> pod.getStatus().getContainerStatuses().stream()
                        .anyMatch(container -> oomKilled(container.getLastState()) || oomKilled(container.getState())))
                .map(pod -> pod.getMetadata().getName())
                .toList();
    }

    private static boolean oomKilled(ContainerState state) {
        return state != null && state.getTerminated() != null && "OOMKilled".equals(state.getTerminated().getReason());
    }
}
