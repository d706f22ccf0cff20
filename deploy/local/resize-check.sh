#!/usr/bin/env bash
# Which in-place resizes (pods/resize) of a running JVM's container the local node applies, and how, on this host's
# cgroups. After demo.sh. Two pods of the lab workload (Guaranteed: requests equal limits, 500m and 384Mi; the JVM's heap
# fixed and touched, -Xms128m -Xmx128m -XX:+AlwaysPreTouch, so the container's memory in use is known to be above 128Mi),
# one whose resizePolicy lets memory change without a restart (NotRequired), one that restarts the container for it
# (RestartContainer); CPU is NotRequired in both. Each case asks for a resize and then waits up to RESIZE_WAIT seconds
# (60) for the kubelet to apply it, reporting: whether the API server took the request, whether and how soon the pod's
# status showed the new limit, the container's restarts meanwhile, the limit its cgroup holds as read from inside, and
# the pod's resize conditions (PodResizePending, PodResizeInProgress) with their reasons.
# Every wait is bounded; the pods carry nothing but the workload's idle JVM and are deleted at the end, however it ends.
# Usage: deploy/local/resize-check.sh   (about 5 minutes on 2 cores)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
export KUBECONFIG="$KUBECONFIG_FILE"
NS=resize-check
WAIT=${RESIZE_WAIT:-60}
kubectl get nodes >/dev/null 2>&1 || die "no local cluster: run deploy/local/demo.sh first"
trap 'kubectl delete namespace "$NS" --wait=false >/dev/null 2>&1 || true' EXIT
kubectl delete namespace "$NS" --ignore-not-found --wait=true --timeout=120s >/dev/null
kubectl create namespace "$NS" >/dev/null

pod() { # name, memory restart policy
  kubectl apply -n "$NS" -f - >/dev/null <<YAML
apiVersion: v1
kind: Pod
metadata: {name: $1}
spec:
  containers:
  - name: app
    image: localhost/jvm-tuning-workload:$(workload_tag 17)
    env: [{name: JAVA_TOOL_OPTIONS, value: "-Xms128m -Xmx128m -XX:+AlwaysPreTouch -XX:+UseSerialGC"}]
    readinessProbe: {httpGet: {path: /actuator/health, port: 8080}, periodSeconds: 2}
    resizePolicy: [{resourceName: cpu, restartPolicy: NotRequired}, {resourceName: memory, restartPolicy: $2}]
    resources: {requests: {cpu: 500m, memory: 384Mi}, limits: {cpu: 500m, memory: 384Mi}}
YAML
}

# cgroup_limits POD: the container's memory and CPU limits as its cgroup holds them (v2, else v1).
cgroup_limits() {
  kubectl exec -n "$NS" "$1" -c app -- sh -c 'if [ -f /sys/fs/cgroup/memory.max ]; then echo "memory $(cat /sys/fs/cgroup/memory.max) cpu $(cat /sys/fs/cgroup/cpu.max)";
      else echo "memory $(cat /sys/fs/cgroup/memory/memory.limit_in_bytes) cpu $(cat /sys/fs/cgroup/cpu/cpu.cfs_quota_us)/$(cat /sys/fs/cgroup/cpu/cpu.cfs_period_us)"; fi' 2>&1 | tr -d '\r'
}
restarts() { kubectl get pod -n "$NS" "$1" -o jsonpath='{.status.containerStatuses[0].restartCount}'; }
applied() { kubectl get pod -n "$NS" "$1" -o jsonpath="{.status.containerStatuses[0].resources.limits.$2}"; }
resize_conditions() {
  kubectl get pod -n "$NS" "$1" -o json | jq -r '[.status.conditions[]? | select(.type | startswith("PodResize")) | "\(.type) \(.reason // "") \(.message // "")"] | join("; ")'
}
in_use() { # the container's memory in use, as its cgroup counts it
  kubectl exec -n "$NS" "$1" -c app -- sh -c 'if [ -f /sys/fs/cgroup/memory.current ]; then cat /sys/fs/cgroup/memory.current; else cat /sys/fs/cgroup/memory/memory.usage_in_bytes; fi' 2>/dev/null | tr -d '\r'
}

# check CASE POD RESOURCE VALUE: asks for RESOURCE (memory or cpu) = VALUE as request and limit, then reports.
check() {
  local case=$1 pod=$2 resource=$3 value=$4 before answer began waited=-1
  before=$(restarts "$pod")
  log "$case: $pod $resource -> $value (in use before: $(( $(in_use "$pod") / 1048576 ))Mi)"
  began=$SECONDS
  if ! answer=$(kubectl patch pod -n "$NS" "$pod" --subresource resize --type strategic \
      -p "{\"spec\":{\"containers\":[{\"name\":\"app\",\"resources\":{\"requests\":{\"$resource\":\"$value\"},\"limits\":{\"$resource\":\"$value\"}}}]}}" 2>&1); then
    printf '%-34s %-8s %-10s %s\n' "$case" refused - "${answer//$'\n'/ }" | tee -a "$out"
    return
  fi
  while [ $((SECONDS - began)) -lt "$WAIT" ]; do
    if [ "$(applied "$pod" "$resource")" = "$value" ] && [ -z "$(resize_conditions "$pod")" ]; then
      waited=$((SECONDS - began))
      break
    fi
    sleep 2
  done
  kubectl wait -n "$NS" --for=condition=Ready "pod/$pod" --timeout="${WAIT}s" >/dev/null 2>&1 || true
  printf '%-34s %-8s %-10s restarts +%s; status limit %s; cgroup: %s; %s\n' "$case" taken \
    "$([ "$waited" -ge 0 ] && echo "in ${waited}s" || echo "not in ${WAIT}s")" "$(( $(restarts "$pod") - before ))" \
    "$(applied "$pod" "$resource")" "$(cgroup_limits "$pod")" "$(resize_conditions "$pod")" | tee -a "$out"
}

out="$REPO_ROOT/target/resize-check.txt"
mkdir -p "$(dirname "$out")"
: >"$out"
pod in-place NotRequired
pod restarts RestartContainer
kubectl wait -n "$NS" --for=condition=Ready pod/in-place pod/restarts --timeout=180s >/dev/null
echo "node $(kubectl get nodes -o jsonpath='{.items[0].status.nodeInfo.kubeletVersion}'), cgroup $( [ -f /sys/fs/cgroup/cgroup.controllers ] && echo v2 || echo v1)" | tee -a "$out"
check "cpu up (control)" in-place cpu 700m
check "cpu down (control)" in-place cpu 500m
check "memory up, NotRequired" in-place memory 512Mi
check "memory down above use, NotRequired" in-place memory 320Mi
check "memory down below use, NotRequired" in-place memory 96Mi
check "memory up, RestartContainer" restarts memory 512Mi
check "memory down, RestartContainer" restarts memory 320Mi
echo "figures: $out"
