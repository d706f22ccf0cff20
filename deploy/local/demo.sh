#!/usr/bin/env bash
# The main job, on real pods: a local cluster with a real node (up.sh), the images built without a
# daemon (images.sh), `helm install` of the chart, the operator running as a pod under the chart's
# ServiceAccount, a Spring Boot service as a real Deployment and the profile that tunes it with the
# agent injected. Waits until the profile is Ready with metrics read from the pods, then prints the
# profile and the flags as the running JVMs report them. Prints how long it took and the node
# stack's resident memory. Needs root (see up.sh).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
NAMESPACE="${NAMESPACE:-shop}"
EXAMPLE="${EXAMPLE:-$REPO_ROOT/deploy/local/demo/orders-api.yaml}"
started=$SECONDS


step "toolchain (built once, then cached)"
"$REPO_ROOT/deploy/local/install-tools.sh"

step "local cluster: control plane and a real node"
hold_node
"$REPO_ROOT/deploy/local/up.sh"
export KUBECONFIG="$KUBECONFIG_FILE"

step "images: operator, agent, workload (rebuilt only when their inputs change)"
"$REPO_ROOT/deploy/local/images.sh" jre operator agent workload

step "helm install jvm-tuning-operator (watching namespace $NAMESPACE)"
kubectl create namespace "$NAMESPACE" --dry-run=client -o yaml | kubectl apply -f -
# No kube-proxy runs on the local node, so the kubernetes Service's address leads nowhere: the
# operator is given the API server's node address instead (fabric8 reads these two variables).
cat >"$JTO_STATE/demo-values.yaml" <<VALUES
image: {repository: localhost/jvm-tuning-operator, tag: "$IMAGE_VERSION", pullPolicy: Never}
agent: {image: "$AGENT_IMAGE"}
watchNamespaces: [$NAMESPACE]
resyncPeriod: 30s
extraEnv:
- {name: KUBERNETES_SERVICE_HOST, value: "$NODE_IP"}
- {name: KUBERNETES_SERVICE_PORT, value: "$APISERVER_PORT"}
podAnnotations: {jvmtuning.dev/image-sha256: "$(cat "$JTO_CACHE/images/jvm-tuning-operator.tar.sha256")"}
VALUES
# What any upgrade needs: Helm installs the chart's CRD on the first install only, so a run over an older
# install applies the new one first; and a rebuilt operator keeps its image's tag, so the archive's
# checksum in the pod's annotations rolls the operator onto it.
kubectl apply --server-side --force-conflicts -f "$REPO_ROOT/crds/tuningprofiles.jvmtuning.dev-v1.yml" >/dev/null
helm upgrade --install jvm-tuning-operator "$REPO_ROOT/charts/jvm-tuning-operator" -n jvm-tuning-system --create-namespace \
  -f "$JTO_STATE/demo-values.yaml" --wait --timeout 180s
operator_pod="$(kubectl get pods -n jvm-tuning-system -l app.kubernetes.io/name=jvm-tuning-operator -o jsonpath='{.items[0].metadata.name}')"
echo "operator pod $operator_pod runs as $(kubectl get pod -n jvm-tuning-system "$operator_pod" -o jsonpath='ServiceAccount {.spec.serviceAccountName}, UID {.spec.securityContext.runAsUser}, on node {.spec.nodeName} at {.status.podIP}')"

step "example: ${EXAMPLE#"$REPO_ROOT"/} in namespace $NAMESPACE"
applied=$SECONDS
kubectl apply -n "$NAMESPACE" -f "$EXAMPLE"
profile="$(kubectl get -f "$EXAMPLE" -n "$NAMESPACE" -o jsonpath='{range .items[?(@.kind=="TuningProfile")]}{.metadata.name}{end}')"
deployment="$(kubectl get tp "$profile" -n "$NAMESPACE" -o jsonpath='{.spec.targetRef.name}')"
kubectl wait --for=condition=Ready --timeout=240s -n "$NAMESPACE" "tp/$profile"
kubectl rollout status -n "$NAMESPACE" "deployment/$deployment" --timeout=120s
echo "profile applied to all pods Ready with the new settings: $((SECONDS - applied)) s"

step "a little traffic to the pods, by their addresses (bounded: 200 requests)"
# Only the pods that stay: a rolled-out Deployment's old pods may still be on their way out.
pod_ips="$(kubectl get pods -n "$NAMESPACE" -l "app=$deployment" -o json |
  jq -r '.items[] | select(.metadata.deletionTimestamp == null and .status.phase == "Running") | .status.podIP')"
for i in $(seq 100); do
  for ip in $pod_ips; do curl -s -m 2 -o /dev/null "http://$ip:8080/work?sleepMinMs=20&cpuMs=2&dbMs=5" || true; done
done
wait_metrics() {
  [ "$(kubectl get tp "$profile" -n "$NAMESPACE" -o jsonpath='{.status.conditions[?(@.type=="MetricsAvailable")].status}')" = True ] &&
    [ -n "$(kubectl get tp "$profile" -n "$NAMESPACE" -o jsonpath='{.status.observed.cpuCores}')" ]
}
wait_for 120 "MetricsAvailable=True on tp/$profile" wait_metrics

step "kubectl get tp -n $NAMESPACE -o wide"
kubectl get tp -n "$NAMESPACE" -o wide

step "conditions of tp/$profile"
kubectl get tp "$profile" -n "$NAMESPACE" -o jsonpath='{range .status.conditions[*]}{.type}{"\t"}{.status}{"\t"}{.reason}{"\t"}{.message}{"\n"}{end}' | column -t -s $'\t'

step "figures the operator read from the pods"
kubectl get tp "$profile" -n "$NAMESPACE" -o json | jq -r '.status.observed | to_entries[] | "\(.key)\t\(.value)"' | column -t -s $'\t'

step "rendered settings of tp/$profile"
kubectl get tp "$profile" -n "$NAMESPACE" -o jsonpath='{range .status.settings[*]}{.name}{"\t"}{.value}{"\t"}{.rule}{"\n"}{end}' | column -t -s $'\t'

step "the flags as the running JVMs report them"
for pod in $(kubectl get pods -n "$NAMESPACE" -l "app=$deployment" -o json |
    jq -r '.items[] | select(.metadata.deletionTimestamp == null and .status.phase == "Running") | .metadata.name'); do
  echo "--- $pod ($(kubectl get pod -n "$NAMESPACE" "$pod" -o jsonpath='{.status.podIP}'))"
  # The JVM's own line at startup, then its flags read from the live process over the attach API.
  kubectl logs -n "$NAMESPACE" "$pod" -c app | grep -m1 'Picked up JAVA_TOOL_OPTIONS' || true
  kubectl exec -n "$NAMESPACE" "$pod" -c app -- env -u JAVA_TOOL_OPTIONS java -m jdk.jcmd/sun.tools.jcmd.JCmd 1 VM.flags | tr ' ' '\n' | grep -E '^-XX:[+-]?(MaxHeapSize|InitialHeapSize|MaxRAMPercentage|Use[A-Za-z0-9]*GC|MaxGCPauseMillis|ActiveProcessorCount|ExitOnOutOfMemoryError)(=|$)' | paste -sd' '
done

step "timings and memory"
echo "demo: $((SECONDS - started)) s"
rss=0
while read -r name pid; do
  kb="$(awk '/VmRSS/ {print $2}' "/proc/$pid/status" 2>/dev/null || echo 0)"
  rss=$((rss + ${kb:-0}))
done <"$JTO_STATE/pids"
echo "node stack resident memory (etcd, API server, controller manager, scheduler, containerd, kubelet): $((rss / 1024)) MiB"
cat <<MSG

The cluster keeps running. Use it with:  export KUBECONFIG=$KUBECONFIG_FILE
Operator log: kubectl logs -n jvm-tuning-system deploy/jvm-tuning-operator
Stop everything and undo the host changes with: deploy/local/down.sh
MSG
