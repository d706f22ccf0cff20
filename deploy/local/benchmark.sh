#!/usr/bin/env bash
# Reconcile benchmark on the local control plane: N Deployments + N TuningProfiles exist before the
# operator starts; the clock runs from `java` until every profile is Applied. Three operators per N,
# each in its own namespace: the bare framework (status.observedGeneration only) and this operator's
# reconciler in the same plain JOSDK runtime, then the real Quarkus build. Prints seconds,
# reconciles/s, API requests per profile and peak RSS (VmHWM).
# Usage: deploy/local/benchmark.sh [N ...]   (default: 100 1000)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
sizes=("$@"); [ ${#sizes[@]} -gt 0 ] || sizes=(100 1000)
JVM_FLAGS=(${BENCH_JVM_FLAGS:--Xmx128m -XX:+UseSerialGC -XX:ActiveProcessorCount=2})
out="$REPO_ROOT/target/benchmark"
mkdir -p "$out"

step "toolchain, build (the benchmark and the operator), local control plane"
"$REPO_ROOT/deploy/local/install-tools.sh"
lab_build bench
"$REPO_ROOT/deploy/local/up.sh"
export KUBECONFIG="$KUBECONFIG_FILE"
kubectl apply --server-side -f "$REPO_ROOT/crds/tuningprofiles.jvmtuning.dev-v1.yml" >/dev/null
kubectl wait --for=condition=Established --timeout=60s crd/tuningprofiles.jvmtuning.dev >/dev/null

objects() { # namespace, count: Deployments with no replicas (the controllers stay quiet) and their profiles
  for i in $(seq 1 "$2"); do
    cat <<YAML
apiVersion: apps/v1
kind: Deployment
metadata: {name: svc-$i, namespace: $1}
spec:
  replicas: 0
  selector: {matchLabels: {app: svc-$i}}
  template:
    metadata: {labels: {app: svc-$i}}
    spec:
      containers:
      - name: app
        image: example/svc:1
        resources: {limits: {cpu: "2", memory: 2Gi}, requests: {cpu: "1", memory: 2Gi}}
---
apiVersion: jvmtuning.dev/v1alpha1
kind: TuningProfile
metadata: {name: svc-$i, namespace: $1}
spec:
  targetRef: {name: svc-$i}
  runtime: SpringBootTomcat
  workload: {requestsPerSecond: $((50 + i % 400)), meanLatency: 200ms, cpuPerRequest: 5ms, dbTimePerRequest: 20ms}
  threads: {}
  connectionPool: {}
---
YAML
  done
}

all_done() { # namespace, mode, count: every profile has its Applied condition (the baseline: its observedGeneration)
  local path='{.status.conditions[?(@.type=="Applied")].status}'
  [ "$2" = baseline ] && path='{.status.observedGeneration}'
  [ "$(kubectl get tp -n "$1" -o jsonpath="{range .items[*]}$path{\"\\n\"}{end}" | grep -c .)" -ge "$3" ]
}

printf '\n%-6s %-9s %8s %13s %14s %10s\n' N operator seconds reconciles/s requests/tp peakRSS
for n in "${sizes[@]}"; do
  for mode in baseline tuning quarkus; do
    ns="bench-$mode-$n"
    kubectl create namespace "$ns" >/dev/null
    objects "$ns" "$n" >"$out/objects-$n.yaml"
    kubectl create -f "$out/objects-$n.yaml" >/dev/null
    log="$out/$mode-$n.log"
    start=$(date +%s.%N)
    if [ "$mode" = quarkus ]; then
      QUARKUS_OPERATOR_SDK_CONTROLLERS_TUNINGPROFILE_NAMESPACES="$ns" QUARKUS_HTTP_HOST=127.0.0.1 QUARKUS_HTTP_PORT=0 \
        java "${JVM_FLAGS[@]}" -jar "$REPO_ROOT/target/quarkus-app/quarkus-run.jar" >"$log" 2>&1 &
    else
      java "${JVM_FLAGS[@]}" -cp "$(lab_classpath bench)" dev.jvmtuning.bench.BenchmarkOperator "$mode" "$KUBECONFIG" "$ns" >"$log" 2>&1 &
    fi
    pid=$!
    if ! wait_for --pid "$pid" 600 "every profile of $ns done" all_done "$ns" "$mode" "$n"; then
      kill -0 "$pid" 2>/dev/null || die "$mode operator exited; see $log"
      kill "$pid"
      die "$mode: not all $n profiles done in 600 s"
    fi
    elapsed=$(echo "$(date +%s.%N) - $start" | bc)
    rss_kib=$(awk '/VmHWM/ {print $2}' "/proc/$pid/status")
    kill -TERM "$pid"; wait "$pid" 2>/dev/null || true
    total=$(awk '/^requests-total/ {print $2}' "$log")
    per_tp=$([ -n "$total" ] && echo "scale=1; $total / $n" | bc || echo "n/a")
    printf '%-6s %-9s %8.1f %13.1f %14s %8dMi\n' "$n" "$mode" "$elapsed" "$(echo "$n / $elapsed" | bc -l)" "$per_tp" "$((rss_kib / 1024))"
  done
done
echo
echo "JVM flags: ${JVM_FLAGS[*]}; request counts by verb and resource: $out/*.log"
