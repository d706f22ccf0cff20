package dev.jvmtuning.systemtest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jvmtuning.systemtest.support.LocalNode;
import dev.jvmtuning.systemtest.support.Manifests;
import dev.jvmtuning.systemtest.support.Wait;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Admission changes the pods (docs/how-to/other-controllers.md): the plan is for the pod as admitted, not for its template.
 * A LimitRange gives a container without resources its default limits; a MutatingAdmissionPolicy (the API server's own, no
 * webhook) gives a 1Gi template's pods 384Mi, as a VerticalPodAutoscaler's admission does, and appends a -javaagent to
 * JAVA_TOOL_OPTIONS with an init container that brings the jar, as the OpenTelemetry operator does. Each JVM that runs fits
 * its pod, read back from the JVM; status names what admission changed; the injected agent runs beside the tuned flags.
 */
@Tag("check-11")
@Order(1100)
class PlannedForThePodsAsAdmittedTest extends SystemCheck {

    private static final String LIMIT_RANGE = "jto-e2e-defaults";
    private static final String POLICY = "jto-e2e-lower-and-inject";
    private static final String ADMISSION = "admissionregistration.k8s.io/v1";
    private static final String INJECTED_AGENT = "-javaagent:/injected/agent.jar";

    /** The policy and its binding hold every pod's admission in the cluster, and the LimitRange every container's in the namespace. */
    @AfterEach
    void removeTheAdmissionObjects() {
        cluster.delete(ADMISSION, "MutatingAdmissionPolicyBinding", POLICY);
        cluster.delete(ADMISSION, "MutatingAdmissionPolicy", POLICY);
        cluster.delete("v1", "LimitRange", LIMIT_RANGE);
    }

    @Test
    @DisplayName("11. admission changes the pods (a LimitRange default; a mutating policy lowering the limit and injecting a -javaagent): planned for the pods as admitted")
    void thePlanIsForThePodsAsAdmitted() {
        makeRoom();
        cluster.apply("""
                apiVersion: v1
                kind: LimitRange
                metadata: {name: %s}
                spec:
                  limits:
                  - type: Container
                    default: {memory: 512Mi, cpu: "1"}
                    defaultRequest: {memory: 512Mi, cpu: 100m}
                """.formatted(LIMIT_RANGE));
        cluster.apply(Manifests.workload("limited", 1, ""));
        cluster.rolloutStatus("limited", 180);
        cluster.apply(Manifests.profile("limited", "limited", ""));
        Wait.until(240, "tp/limited Ready on its tuned pod", () -> settledReady("limited"));
        String options = cluster.tunedFlags("limited");
        JsonNode admitted = admitted("limited");
        say("template without resources; rendered: " + options + "; status.admitted: " + admitted);
        assertThat(options).as("a heap and the CPU count of the LimitRange's 1 CPU rendered").containsPattern("-XX:ActiveProcessorCount=1 .*-Xmx[0-9]+m");
        assertThat(admitted.path("resources")).as("status.admitted naming the default limit")
                .anyMatch(resource -> changed(resource, "limits.memory", "512Mi") && !resource.hasNonNull("template"));
        assertHeapFits(cluster.newestPod("limited"));

        cluster.apply(POLICY_YAML.formatted(POLICY, LocalNode.agentImage()));
        cluster.apply("""
                apiVersion: admissionregistration.k8s.io/v1
                kind: MutatingAdmissionPolicyBinding
                metadata: {name: %s}
                spec: {policyName: %s}
                """.formatted(POLICY, POLICY));
        // The API server reads a new policy within a second or so: a pod admitted before would be the template's.
        Wait.sleep(Duration.ofSeconds(3));
        cluster.apply(Manifests.workload("admitted", 1, "resources: {requests: {cpu: 100m, memory: 1Gi}, limits: {cpu: '1', memory: 1Gi}}"));
        cluster.rolloutStatus("admitted", 180);
        String pod = cluster.newestPod("admitted");
        say(pod + " admitted with limits.memory " + cluster.pod(pod).getSpec().getContainers().get(0).getResources().getLimits().get("memory")
                + " (the template: 1Gi)");
        cluster.apply(Manifests.profile("admitted", "admitted", ""));
        Wait.until(240, "tp/admitted Ready on its tuned pod", () -> settledReady("admitted"));
        // Without the operator's agent the runtime's metrics show some options only (PartlyReported): none may differ.
        Wait.until(120, "tp/admitted SettingsEffective judged from the JVM", () -> List.of("OptionsInEffect", "PartlyReported", "SettingsNotEffective")
                .contains(cluster.condition("admitted", "SettingsEffective").path("reason").asText()));
        options = cluster.tunedFlags("admitted");
        admitted = admitted("admitted");
        say("rendered: " + options + "; status.admitted: " + admitted);
        assertThat(admitted.path("resources")).as("status.admitted: 384Mi beside the template's 1Gi")
                .anyMatch(resource -> changed(resource, "limits.memory", "384Mi") && "1Gi".equals(resource.path("template").asText()));
        assertThat(admitted.path("addedJvmOptions").toString()).as("status.admitted: the injected agent").isEqualTo("[\"" + INJECTED_AGENT + "\"]");
        assertThat(options).as("no agent of the injector's in the template").doesNotContain("-javaagent");
        pod = cluster.newestPod("admitted");
        String env = cluster.podJavaToolOptions(pod);
        say(pod + " runs JAVA_TOOL_OPTIONS=" + env);
        assertThat(env).as("the pod running the tuned flags and the injected agent").isEqualTo(options + " " + INJECTED_AGENT);
        assertThat(cluster.conditionStatus("admitted", "SettingsEffective")).as("the injected agent taken for no drift: SettingsEffective not False")
                .isNotEqualTo("False");
        assertHeapFits(pod);
        List<String> planned = cluster.profileEvents("admitted").stream().filter(event -> event.startsWith("PlannedForAdmittedPod")).toList();
        planned.forEach(SystemCheck::say);
        assertThat(planned).as("a PlannedForAdmittedPod Event").isNotEmpty();
    }

    /** An entry of status.admitted.resources: that resource, at that value in the pod. */
    private static boolean changed(JsonNode resource, String name, String inThePod) {
        return name.equals(resource.path("resource").asText()) && inThePod.equals(resource.path("pod").asText());
    }

    /**
     * Lowers the memory of the check's pods to 384Mi and injects an agent, as other controllers' admission does. JSON patches:
     * an apply configuration may not set an atomic list (a command). Their values are plain maps (dyn where their values mix
     * types): a typed Object{} in a JSON patch's value panicked the 1.36 API server's conversion.
     */
    private static final String POLICY_YAML = """
            apiVersion: admissionregistration.k8s.io/v1
            kind: MutatingAdmissionPolicy
            metadata: {name: %s}
            spec:
              matchConstraints:
                resourceRules: [{apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}]
              matchConditions:
              - name: the-check-s-pods
                expression: "has(object.metadata.labels) && 'app' in object.metadata.labels && object.metadata.labels['app'] == 'admitted'"
              failurePolicy: Fail
              reinvocationPolicy: Never
              mutations:
              - patchType: JSONPatch
                jsonPatch:
                  expression: >
                    [
                      JSONPatch{op: "add", path: "/spec/initContainers", value: [{"name": dyn("injected-agent"), "image": dyn("%s"),
                        "imagePullPolicy": dyn("Never"), "command": dyn(["cp", "/jvm-tuning-agent.jar", "/injected/agent.jar"]),
                        "volumeMounts": dyn([{"name": "injected-agent", "mountPath": "/injected"}])}]},
                      has(object.spec.volumes)
                        ? JSONPatch{op: "add", path: "/spec/volumes/-", value: {"name": dyn("injected-agent"), "emptyDir": dyn({})}}
                        : JSONPatch{op: "add", path: "/spec/volumes", value: [{"name": dyn("injected-agent"), "emptyDir": dyn({})}]},
                      has(object.spec.containers[0].volumeMounts)
                        ? JSONPatch{op: "add", path: "/spec/containers/0/volumeMounts/-",
                            value: {"name": dyn("injected-agent"), "mountPath": dyn("/injected"), "readOnly": dyn(true)}}
                        : JSONPatch{op: "add", path: "/spec/containers/0/volumeMounts",
                            value: [{"name": dyn("injected-agent"), "mountPath": dyn("/injected"), "readOnly": dyn(true)}]},
                      JSONPatch{op: "add", path: "/spec/containers/0/resources/limits/memory", value: "384Mi"},
                      JSONPatch{op: "add", path: "/spec/containers/0/resources/requests/memory", value: "384Mi"},
                      has(object.spec.containers[0].env) && object.spec.containers[0].env.exists(e, e.name == "JAVA_TOOL_OPTIONS" && has(e.value))
                        ? JSONPatch{op: "replace", path: "/spec/containers/0/env/" + string(object.spec.containers[0].env.map(e, e.name).indexOf("JAVA_TOOL_OPTIONS")) + "/value",
                            value: object.spec.containers[0].env.filter(e, e.name == "JAVA_TOOL_OPTIONS")[0].value + " -javaagent:/injected/agent.jar"}
                        : has(object.spec.containers[0].env)
                          ? JSONPatch{op: "add", path: "/spec/containers/0/env/-", value: {"name": "JAVA_TOOL_OPTIONS", "value": "-javaagent:/injected/agent.jar"}}
                          : JSONPatch{op: "add", path: "/spec/containers/0/env", value: [{"name": "JAVA_TOOL_OPTIONS", "value": "-javaagent:/injected/agent.jar"}]}
                    ]
            """;
}
