#!/usr/bin/env bash
# Reconcile benchmark on the local control plane: N Deployments + N TuningProfiles exist before the
# operator starts; the clock runs from `java` until every profile is Applied. Four operators per N,
# each in its own namespace: the bare framework (status.observedGeneration only), the floor (the
# writes this operator's contract requires, made blindly: finalizer, ConfigMap, Deployment, status)
# and this operator's reconciler in the same plain JOSDK runtime, then the real Quarkus build. Prints seconds,
# reconciles/s, API requests per profile, the operator's CPU seconds and peak RSS (VmHWM), the CPU
# seconds kube-apiserver and etcd spent meanwhile (what the operator's writes cost the control plane), then the
# requests per profile by verb and resource. BENCH_ROUNDS=R runs every N's four R times, one after
# the other, for ranges on a noisy machine; BENCH_MODES="tuning quarkus" runs only those. Each run starts
# once the controller manager has caught up with the runs before it (BENCH_SETTLE, seconds).
# Usage: deploy/local/benchmark.sh [N ...]   (default: 100 1000)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
sizes=("$@"); [ ${#sizes[@]} -gt 0 ] || sizes=(100 1000)
# Every operator gets the heap the chart gives the operator by default (a 384Mi limit, -XX:MaxRAMPercentage=60): at
# 128 MiB this operator's informers filled it at 3000 profiles and the run measured the collector.
JVM_FLAGS=(${BENCH_JVM_FLAGS:--Xmx230m -XX:+UseSerialGC -XX:ActiveProcessorCount=2})
out="$REPO_ROOT/target/benchmark"
mkdir -p "$out"
rm -f "$out"/*.log "$out/results.txt"

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

# done_at NAMESPACE MODE COUNT PID: the epoch seconds at which COUNT profiles have their Applied
# condition (the baseline: its observedGeneration), read from a watch: polling LISTs of thousands of
# profiles would cost the API server more than the operators measured, and more for larger statuses.
# A watch that ends early is opened again (its first lines list every profile again). Fails after
# 600 s, or within a minute of the operator (PID) exiting.
done_at() {
  local done_column='.status.conditions[?(@.type=="Applied")].status'
  [ "$2" = baseline ] && done_column='.status.observedGeneration'
  local -A seen=()
  local count=0 deadline=$((SECONDS + 600)) watch watcher name state
  while [ "$count" -lt "$3" ] && [ "$SECONDS" -lt "$deadline" ] && kill -0 "$4" 2>/dev/null; do
    exec {watch}< <(exec timeout 60 kubectl get tp -n "$1" --watch --no-headers -o custom-columns="NAME:.metadata.name,DONE:$done_column")
    watcher=$!
    # bash reads a pipe line by line; awk may wait to fill a block first
    while [ "$count" -lt "$3" ] && read -r name state <&"$watch"; do
      if [ "$state" != "<none>" ] && [ -z "${seen[$name]:-}" ]; then
        seen[$name]=1
        count=$((count + 1))
      fi
    done
    kill "$watcher" 2>/dev/null || true
    exec {watch}<&-
  done
  [ "$count" -ge "$3" ] && date +%s.%N
}

# cpu_seconds PID: utime + stime of a whole process, in seconds (fields 14 and 15; the command name may hold spaces)
cpu_seconds() { awk -v hz="$(getconf CLK_TCK)" '{sub(/.*\) /, ""); printf "%.1f", ($12 + $13) / hz}' "/proc/$1/stat"; }
control_plane_cpu() { # kube-apiserver + etcd, in seconds
  echo "$(cpu_seconds "$(awk '$1 == "kube-apiserver" {print $2}' "$JTO_STATE/pids")") + $(cpu_seconds "$(awk '$1 == "etcd" {print $2}' "$JTO_STATE/pids")")" | bc
}

# settle: waits (at most BENCH_SETTLE seconds, default 600) until the controller manager has seen every
# Deployment's generation. It writes a ReplicaSet and status for each new Deployment and each changed
# template, so an earlier run's thousands would still load the API server while the next is timed.
settle() {
  local began=$SECONDS lagging
  while :; do
    lagging=$(kubectl get deployments -A -o jsonpath='{range .items[*]}{.metadata.generation} {.status.observedGeneration}{"\n"}{end}' |
      awk '$1 != $2' | wc -l)
    [ "$lagging" -eq 0 ] && break
    [ $((SECONDS - began)) -ge "${BENCH_SETTLE:-600}" ] && { log "controller manager still behind on $lagging Deployments; timing anyway"; break; }
    sleep 5
  done
  log "control plane settled in $((SECONDS - began)) s"
}

stamp=$(date +%H%M%S)
rounds=${BENCH_ROUNDS:-1}
printf '\n%-6s %-9s %8s %13s %14s %8s %9s %16s\n' N operator seconds reconciles/s requests/tp cpu-s peakRSS apiserver+etcd-s
for n in "${sizes[@]}"; do
  objects_file="$out/objects-$n.yaml"
  for round in $(seq 1 "$rounds"); do
    for mode in ${BENCH_MODES:-baseline floor tuning quarkus}; do
      ns="bench-$mode-$n-$stamp-$round"
      kubectl create namespace "$ns" >/dev/null
      objects "$ns" "$n" >"$objects_file"
      settle
      kubectl create -f "$objects_file" >/dev/null
      log="$out/$mode-$n-$round.log"
      start=$(date +%s.%N)
      control_plane_before=$(control_plane_cpu)
      if [ "$mode" = quarkus ]; then
        QUARKUS_OPERATOR_SDK_CONTROLLERS_TUNINGPROFILE_NAMESPACES="$ns" QUARKUS_HTTP_HOST=127.0.0.1 QUARKUS_HTTP_PORT=0 \
          java "${JVM_FLAGS[@]}" -jar "$OPERATOR_APP/quarkus-run.jar" >"$log" 2>&1 &
      else
        java "${JVM_FLAGS[@]}" -cp "$(lab_classpath bench)" dev.jvmtuning.bench.BenchmarkOperator "$mode" "$KUBECONFIG" "$ns" >"$log" 2>&1 &
      fi
      pid=$!
      if ! end=$(done_at "$ns" "$mode" "$n" "$pid"); then
        kill -0 "$pid" 2>/dev/null || die "$mode operator exited; see $log"
        kill "$pid"
        die "$mode: not all $n profiles done in 600 s"
      fi
      elapsed=$(echo "$end - $start" | bc)
      rss_kib=$(awk '/VmHWM/ {print $2}' "/proc/$pid/status")
      cpu=$(cpu_seconds "$pid")
      control_plane=$(echo "$(control_plane_cpu) - $control_plane_before" | bc)
      kill -TERM "$pid"; wait "$pid" 2>/dev/null || true
      total=$(awk '/^requests-total/ {print $2}' "$log")
      per_tp=$([ -n "$total" ] && echo "scale=2; $total / $n" | bc || echo "n/a")
      printf '%-6s %-9s %8.1f %13.1f %14s %8s %7dMi %16s\n' "$n" "$mode" "$elapsed" "$(echo "$n / $elapsed" | bc -l)" "$per_tp" "$cpu" \
        "$((rss_kib / 1024))" "$control_plane" | tee -a "$out/results.txt"
    done
  done
done

echo
echo "Requests per profile by verb and resource (the operator's own client; watches and LISTs are per run, not per profile):"
for log in "$out"/baseline-*.log "$out"/floor-*.log "$out"/tuning-*.log; do
  [ -e "$log" ] || continue
  n=$(basename "$log" .log | cut -d- -f2)
  printf '  %-20s' "$(basename "$log" .log)"
  awk -v n="$n" '/^requests [0-9]+ / && $3 !~ /watch/ && $4 != "(watch)" { $1 = ""; count = $2; $2 = ""; sub(/^ +/, ""); printf " %s %.2f;", $0, count / n }' "$log"
  echo
done
echo
echo "JVM flags: ${JVM_FLAGS[*]}; request counts by verb and resource: $out/*.log"
