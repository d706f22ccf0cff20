#!/usr/bin/env bash
# End-to-end checks on the real node, after demo.sh (its cluster, operator and orders-api profile).
# Each check reads what the kernel, the kubelet or the JVM itself reports, never only the pod spec:
#   1. the tuned flags as the running JVM reports them (attach API), in every new pod;
#   1b. an image's entrypoint overriding the planned heap, or blinding the JVM to its container: SettingsEffective=False,
#       from the JVMs' own readings, on JDK 17 and 21;
#   2. deleting the profile rolls the pods back to the user's own JVM options;
#   3. a flag no JVM knows: refused by the flag policy before any pod sees it; then settings the
#      application cannot start with: a real CrashLoopBackOff, rolled back to the user's template;
#   3c. a pod restarting while its CPU is boosted: the boost ended at the restart, the settings rolled back;
#   3d. an incident after the rollback window and a user's own crashing release: reported, the tuning kept; the fix runs tuned;
#   3e. a CPU limit cut with the boost on: the old pods, never boosted at their own limit, keep it;
#   3f. releases onto an older JDK whose JVMs refuse an option the operator rendered: that option dropped, the rest kept;
#   4. settings the pods do not fit in: a real OOM kill, rolled back to the user's template;
#   4b. an image's own -Xmx beyond the plan, its heap growing: an OOM kill put down to that heap (HEAP_NOT_PLANNED), no budget answer;
#   5. a CPU quota under load: real CFS throttling in the container's cgroup and the CPUThrottled condition;
#   5b. the operator pod's own /q/metrics carries the demo profile's series;
#   6. two operator replicas: the leader's pod deleted, the other takes the Lease and keeps reconciling;
#   7. three watched namespaces and three restarts: every profile back Ready with fresh metrics within 30 s;
#   8. mode Auto under real load: steps kept while they help, a step that made things worse reverted,
#      then held, with the threads read from the running JVM;
#   9. virtual threads blocked inside synchronized: VirtualThreadPinning with the frame on JDK 21, not on JDK 25;
#   10. ZGC on JDK 21 and 25: a soft maximum heap under the ceiling and no pinned initial heap, in the running JVMs;
#   11-14. beside other actors: admission (a LimitRange, a MutatingAdmissionPolicy), a GitOps re-apply loop, the real VPA
#      (recommender, updater, admission controller) and an HPA, both reading metrics-server (autoscalers.sh).
# Every wait is bounded; load is bounded in requests and time, to pod addresses only.
# The checks are moving into the systemtest module (JUnit, assertions in Java, tagged check-NUMBER): the ones there run
# first (java_checks, one Maven run), the ones still written below after them; each is reported the same way.
# Usage: e2e.sh [CHECK-NUMBER...]   (default: all, in order)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
export KUBECONFIG="$KUBECONFIG_FILE"
NS="${NAMESPACE:-shop}"
ONLY=" $* "
failures=0
ran=0

selected() { [ "$ONLY" = "  " ] || [[ "$ONLY" == *" $1 "* ]]; } # CHECK-NUMBER: asked for, or all are
# verdict NAME STATUS SECONDS OUTPUT: reports a check that ran and counts it. A failed check's verdict and last lines (of the
# file OUTPUT) also go to $E2E_FAILURES when it is set: test-node.sh prints them last, where a run's tail shows them.
verdict() {
  local line
  ran=$((ran + 1))
  if [ "$2" -eq 0 ]; then printf -- '--- PASS %s (%d s)\n' "$1" "$3"
  else
    line="$(printf -- '--- FAIL %s (%d s, exit %d)' "$1" "$3" "$2")"
    echo "$line"
    failures=$((failures + 1))
    [ -z "${E2E_FAILURES:-}" ] || { echo "$line; its last lines:"; tail -n 25 "$4"; } >>"$E2E_FAILURES"
  fi
}

# check NAME COMMAND...: runs one check of this script (unless others were asked for) and reports it.
# The check runs in a subshell of its own with `set -e` in force: run as an `if` condition, every
# failing step inside it (a `kubectl wait` that timed out) would be ignored and only its last
# command would count.
check() {
  local name="$1" began=$SECONDS status output; shift
  selected "${name%%.*}" || return 0
  printf '\n=== %s\n' "$name"
  output="$(mktemp)"
  set +e
  (set -e; "$@") 2>&1 | tee "$output"
  status=${PIPESTATUS[0]}
  set -e
  verdict "$name" "$status" $((SECONDS - began)) "$output"
  rm -f "$output"
}

# The checks of the systemtest module (JUnit, systemtest/src/test/java), each tagged check-NUMBER: the ones asked for run in
# one Maven run (its start-up costs about as much as a short check), in their numbers' order, each printing its lines as it
# goes. Each leaves its log and its result (PASS or FAIL, its seconds, its name) in $JAVA_RESULTS; a check asked for that
# left no result (the module did not compile, the run was stopped) failed.
JAVA_RESULTS="$REPO_ROOT/systemtest/target/checks"
java_checks() {
  local number tags=() status seconds name code
  for number in $(grep -rhoP '@Tag\("check-\K[^"]+' "$REPO_ROOT/systemtest/src/test/java" | sort -V); do
    if selected "$number"; then tags+=("check-$number"); fi
  done
  [ "${#tags[@]}" -gt 0 ] || return 0
  rm -rf "$JAVA_RESULTS"
  maven -o -pl systemtest test -Dsystemtest -Dgroups="$(IFS=,; echo "${tags[*]}")" ||
    echo "the systemtest module's run failed (its checks' verdicts below)"
  for number in "${tags[@]#check-}"; do
    if [ -f "$JAVA_RESULTS/$number.result" ]; then
      read -r status seconds < "$JAVA_RESULTS/$number.result"
      name="$(sed -n 2p "$JAVA_RESULTS/$number.result")"
      code=1
      if [ "$status" = PASS ]; then code=0; fi
      verdict "$name" "$code" "$seconds" "$JAVA_RESULTS/$number.log"
    else
      mkdir -p "$JAVA_RESULTS"
      echo "check $number gave no result: the Maven run above says why" > "$JAVA_RESULTS/$number.log"
      verdict "$number. (systemtest)" 1 0 "$JAVA_RESULTS/$number.log"
    fi
  done
}

# The demo's service where it is missing, and its profile, with an optional sed expression over the manifest: objects that
# exist are left as they are. Applied again, the Deployment would take back the JAVA_TOOL_OPTIONS the operator wrote (the
# manifest sets its own), which the operator answers once and, the second time within ten minutes, no more (check 12).
demo_in() { # NAMESPACE [SED]
  local out status=0
  out="$(sed "${2:-}" "$REPO_ROOT/deploy/local/demo/orders-api.yaml" | kubectl create -n "$1" -f - 2>&1)" || status=$?
  if [ "$status" -ne 0 ] && grep '^Error' <<<"$out" | grep -v -q AlreadyExists; then echo "$out" >&2; return 1; fi
}

# Room on the node's two CPUs and its memory: the workloads of the checks before are done (the demo's orders-api stays).
# A crash-looping release or two boosted pods left running slow every JVM that starts after them.
make_room() {
  kubectl delete deployment -n "$NS" refuser rebooter releaser cutter oomer xmxer throttled imager17 blind17 imager21 blind21 looper \
    limited admitted synced synced-ssa synced-recipe resized scaled downgraded repushed --ignore-not-found --wait=false >/dev/null
}

# Running pods that are not on their way out (a rollout leaves old pods Running while they stop).
pods_of() {
  kubectl get pods -n "$NS" -l "app=$1" -o json |
    jq -r '.items[] | select(.metadata.deletionTimestamp == null and .status.phase == "Running") | .metadata.name'
}
jvm_flags() { kubectl exec -n "$NS" "$1" -c app -- env -u JAVA_TOOL_OPTIONS java -m jdk.jcmd/sun.tools.jcmd.JCmd 1 VM.flags; }
condition() { kubectl get tp "$2" -n "$NS" -o jsonpath="{.status.conditions[?(@.type==\"$1\")].status}"; }
applied() { kubectl get tp "$1" -n "$NS" -o jsonpath="{.status.conditions[?(@.type==\"Applied\")].$2}"; } # PROFILE FIELD
condition_is() { [ "$(condition "$1" "$2")" = "$3" ]; } # TYPE PROFILE STATUS
# assert EXPECTED SEEN TEST...: fails the check when TEST fails, saying what was expected and what was seen; refute: when
# TEST succeeds. Under set -e a test inside an && list, or after !, fails nothing: each assertion stands alone in one of
# these, on what was read beforehand into a variable, so that a read that fails stops the check rather than passing the test.
assert() { "${@:3}" || { echo "assertion failed: expected $1, seen $2" >&2; return 1; }; }
refute() { ! "${@:3}" || { echo "assertion failed: expected $1, seen $2" >&2; return 1; }; }

# A Deployment of the lab workload: NAME, replicas, the container's extra YAML (indented 8).
workload() { workload_deployment "$1" "$2" "${3:-}" | kubectl apply -n "$NS" -f -; }

profile() { # NAME TARGET, then the spec's extra YAML (indented 2)
  kubectl apply -n "$NS" -f - <<YAML
apiVersion: jvmtuning.dev/v1alpha1
kind: TuningProfile
metadata: {name: $1}
spec:
  targetRef: {kind: Deployment, name: $2}
  runtime: SpringBootTomcat
  workload: {requestsPerSecond: 20, meanLatency: 50ms, cpuPerRequest: 4ms, maxQueueWait: 1s}
$3
YAML
}

profile_events() { # PROFILE: "REASON: MESSAGE" lines
  kubectl get events -n "$NS" --field-selector "involvedObject.name=$1,involvedObject.kind=TuningProfile" \
    -o jsonpath='{range .items[*]}{.reason}: {.message}{"\n"}{end}'
}
restarts_of() { kubectl get pod -n "$NS" "$1" -o jsonpath='{.status.containerStatuses[0].restartCount}' 2>/dev/null; }

tuned_flags_of() {
  kubectl get deployment "$1" -n "$NS" -o json | jq -r '.spec.template.spec.containers[0].env[]? | select(.name == "JAVA_TOOL_OPTIONS") | .value'
}
pod_ready() { [ "$(kubectl get pod -n "$NS" "$1" -o jsonpath='{.status.containerStatuses[0].ready}' 2>/dev/null)" = true ]; }

operator_pods() { kubectl get pods -n jvm-tuning-system -l app.kubernetes.io/name=jvm-tuning-operator -o json |
  jq -r '.items[] | select(.metadata.deletionTimestamp == null) | .metadata.name'; }
# The Lease's holder while it is one of the live operator pods, else nothing.
live_leader() {
  local holder
  holder="$(kubectl get lease jvm-tuning-operator -n jvm-tuning-system -o jsonpath='{.spec.holderIdentity}' 2>/dev/null || true)"
  [ -n "$holder" ] && operator_pods | grep -qx "$holder" && echo "$holder"
}

# A list of three watched namespaces, as a user installs it: every profile in every namespace is
# reconciled, and after each of three restarts of the operator every one is back to Ready with fresh
# metrics within 30 s; a profile created after the last restart is reconciled too.
NS_LIST=(jto-e2e-b jto-e2e-c)
observed_end() { kubectl get tp "$2" -n "$1" -o jsonpath='{.status.observed.end}'; }
reconciled() { [ -n "$(kubectl get tp "$2" -n "$1" -o jsonpath='{.status.observedGeneration}')" ]; }
ready() { [ "$(kubectl get tp "$2" -n "$1" -o jsonpath='{.status.conditions[?(@.type=="Ready")].status}')" = True ]; }
# fresh NAMESPACE PROFILE SINCE: Ready, and metrics read after SINCE (an RFC 3339 time).
fresh() { ready "$1" "$2" && [[ "$(observed_end "$1" "$2")" > "$3" ]]; }
demo_copy() { demo_in "$1" 's/replicas: 2/replicas: 1/'; } # NAMESPACE: the demo's service and profile, one replica
namespace_list_restarts() {
  local ns all=("$NS" "${NS_LIST[@]}") restart since began
  make_room
  # The chart grants its Role in each listed namespace: they exist before the upgrade, as helm requires.
  for ns in "${NS_LIST[@]}"; do kubectl create namespace "$ns" --dry-run=client -o yaml | kubectl apply -f - >/dev/null; done
  helm upgrade jvm-tuning-operator "$REPO_ROOT/charts/jvm-tuning-operator" -n jvm-tuning-system --reuse-values \
    --set "watchNamespaces={$(IFS=,; echo "${all[*]}")}" --wait --timeout 180s >/dev/null
  demo_in "$NS"
  for ns in "${NS_LIST[@]}"; do demo_copy "$ns"; done
  for ns in "${all[@]}"; do kubectl wait --for=condition=Ready tp/orders-api -n "$ns" --timeout=300s >/dev/null; done
  echo "Ready in ${all[*]}"
  for restart in 1 2 3; do
    since="$(date -u +%Y-%m-%dT%H:%M:%S.%3NZ)" began=$SECONDS
    kubectl delete pod -n jvm-tuning-system -l app.kubernetes.io/name=jvm-tuning-operator --wait=false >/dev/null
    wait_for 120 "a new operator pod holding the Lease" live_leader
    for ns in "${all[@]}"; do wait_for 30 "tp/orders-api in $ns Ready with metrics read after restart $restart" fresh "$ns" orders-api "$since"; done
    echo "restart $restart: every profile Ready with fresh metrics $((SECONDS - began)) s after the operator's pod was deleted"
  done
  kubectl apply -n "${NS_LIST[1]}" -f - >/dev/null <<YAML
apiVersion: jvmtuning.dev/v1alpha1
kind: TuningProfile
metadata: {name: late}
spec:
  targetRef: {kind: Deployment, name: orders-api}
  runtime: SpringBootTomcat
  mode: Recommend
YAML
  wait_for 30 "tp/late in ${NS_LIST[1]} reconciled" reconciled "${NS_LIST[1]}" late
}

# Mode Auto on a real pod under real load (closed-loop clients waiting on a slow dependency, as the
# lab's io-bound scenario): from 10 threads the loop steps while throughput follows (kept); once the
# dependency slows down it re-plans and steps, the dependency slows again within that step's windows,
# and the step is reverted and held. Each rollout gives the pod a new address: the clients read it
# from a file a watcher keeps current. At most 40 clients, for at most 12 minutes in all.
LOAD_DIR=""
current_pod_ip() { # APP: the newest Ready pod's address: a rollout's new pod takes the clients once it is Ready
  kubectl get pods -n "$NS" -l "app=$1" -o json | jq -r '[.items[] | select(.metadata.deletionTimestamp == null
    and any(.status.conditions[]?; .type == "Ready" and .status == "True"))] | sort_by(.metadata.creationTimestamp) | last | .status.podIP // empty'
}
start_load() { # APP QUERY CLIENTS: replaces the running clients; the query of /work is read from $LOAD_DIR/query each time
  stop_load
  LOAD_DIR="$(mktemp -d)"
  echo "$2" > "$LOAD_DIR/query"
  ( while [ -d "$LOAD_DIR" ]; do
      ip="$(current_pod_ip "$1" || true)"
      if [ -n "$ip" ]; then echo "$ip" > "$LOAD_DIR/ip.new" && mv "$LOAD_DIR/ip.new" "$LOAD_DIR/ip" || true; fi
      sleep 2
    done ) &
  local i end=$((SECONDS + 720))
  for i in $(seq "$3"); do
    ( while [ -d "$LOAD_DIR" ] && [ $SECONDS -lt $end ]; do
        ip="$(cat "$LOAD_DIR/ip" 2>/dev/null || true)" query="$(cat "$LOAD_DIR/query" 2>/dev/null || true)"
        if [ -z "$ip" ] || [ -z "$query" ]; then sleep 1; continue; fi
        url="http://$ip:8080/work?$query"
        # A deleted pod's address answers nothing: short timeouts and the address read every two requests
        # keep a rollout from stalling the clients into the new pod's windows.
        curl -s --connect-timeout 2 -m 8 -w '%{http_code}\n' -o /dev/null -o /dev/null "$url" "$url" >> "$LOAD_DIR/answers" || sleep 0.5
      done ) &
  done
}
stop_load() {
  [ -z "$LOAD_DIR" ] || rm -rf "$LOAD_DIR"
  LOAD_DIR=""
  local jobs; jobs="$(jobs -p)"
  [ -z "$jobs" ] || kill $jobs 2>/dev/null || true
}
answers() { # what the clients got since the last call: the figures behind the loop's, from the other side
  local file="$LOAD_DIR/answers" ok all
  ok="$(grep -c '^200$' "$file" 2>/dev/null || true)" all="$(grep -c . "$file" 2>/dev/null || true)"
  : > "$file"
  echo "the clients since the last count: ${ok:-0} answered, $(( ${all:-0} - ${ok:-0} )) failed or timed out"
}
auto_json() { kubectl get tp looper -n "$NS" -o json | jq -c '.status.auto // {}'; }
state_is() { [ "$(auto_json | jq -r '.state // ""')" = "$1" ]; }
history_has() { auto_json | jq -e --arg v "$1" '[.history[]? | select(.verdict == $v)] | length > 0' >/dev/null; }
pending_after() { auto_json | jq -e --argjson n "$1" '(.history // []) | length > $n and .[-1].verdict == "Pending"' >/dev/null; }
print_history() {
  auto_json | jq -r '.history[]? | "  iteration \(.iteration) \(.verdict): threads \(.from.threads // "default") -> \(.to.threads // "default"); before \(.before.requestsPerSecond // "-") req/s \(.before.meanLatencyMillis // "-") ms, after \(.after.requestsPerSecond // "-") req/s \(.after.meanLatencyMillis // "-") ms; \(.reason // "")"'
}
jvm_max_threads() { # what the running Tomcat says its pool may grow to
  local ip; ip="$(current_pod_ip looper)"
  curl -s -m 10 "http://$ip:8080/actuator/prometheus" | awk '/^tomcat_threads_config_max_threads/ {printf "%d\n", $2; exit}'
}
auto_loop_failed() { # what the loop had done when a wait gave up: its history, state and the operator's lines on it
  local status=$?
  set +e
  if [ "$status" -ne 0 ] && [ -n "$LOAD_DIR" ]; then
    echo "tp/looper when the check failed:"
    print_history
    auto_json | jq -r '"state \(.state // "-"), settings \(.settings), waiting for \(.waitingFor // "-")"'
    answers
    kubectl get tp looper -n "$NS" -o json | jq -r '.status.conditions[] | "\(.type)=\(.status) \(.reason): \(.message)"' | cut -c1-300
    kubectl get pods -n "$NS" -l app=looper -o json | jq -r '.items[] | "\(.metadata.name) \(.status.phase) \(.status.containerStatuses // [] | map("ready \(.ready), restarts \(.restartCount), state \(.state | keys[0]) \(.state[] | .reason // "")") | join("; "))"'
    kubectl logs -n jvm-tuning-system "$(live_leader)" --tail=2000 | grep -F 'looper' | tail -n 15 || true
  fi
  stop_load
}
auto_loop_on_real_pods() {
  trap auto_loop_failed EXIT
  make_room
  workload looper 1 "        resources: {requests: {cpu: 250m, memory: 512Mi}, limits: {cpu: '1', memory: 512Mi}}"
  kubectl rollout status deployment/looper -n "$NS" --timeout=180s
  start_load looper sleepMinMs=500 40
  kubectl apply -n "$NS" -f - <<YAML
apiVersion: jvmtuning.dev/v1alpha1
kind: TuningProfile
metadata: {name: looper}
spec:
  targetRef: {kind: Deployment, name: looper}
  runtime: SpringBootTomcat
  mode: Auto
  workload: {requestsPerSecond: 80}
  threads: {max: 10}
  metrics: {port: 8080, path: /actuator/prometheus, interval: 5s}
  auto: {minInterval: 0s, warmUp: 10s, observationWindows: 2, regressionTolerancePercent: 20, threads: {min: 5, max: 100}}
YAML
  # 40 clients each waiting 0.5 s need about 80 req/s: 10 threads serve 20, so the loop steps up and keeps.
  wait_for 360 "tp/looper: a step kept" history_has Kept
  wait_for 420 "tp/looper converged" state_is Converged
  print_history
  local kept threads_in_jvm steps
  kept="$(auto_json | jq -r '.settings.threads // empty')"
  threads_in_jvm="$(jvm_max_threads)"
  echo "converged on threads $kept; the running JVM's Tomcat max threads: $threads_in_jvm"
  answers
  assert "a thread count of the loop's own in status.auto.settings" "none" [ -n "$kept" ]
  # Steps kept while they help: from the 10 threads of the spec, the loop ends higher.
  assert "threads kept above the 10 the loop started from" "$kept" [ "$kept" -gt 10 ]
  assert "the running JVM's Tomcat max threads to be the $kept kept" "$threads_in_jvm" [ "$threads_in_jvm" = "$kept" ]
  steps="$(auto_json | jq '.history | length')"
  # The dependency slows to 1 s: a workload move, so the loop re-plans and steps ...
  echo sleepMinMs=1000 > "$LOAD_DIR/query"
  wait_for 240 "tp/looper: a step after the workload moved" pending_after "$steps"
  # ... and slows again to 3 s before that step's windows: the step looks worse and goes back.
  echo sleepMinMs=3000 > "$LOAD_DIR/query"
  wait_for 300 "tp/looper: the step reverted" history_has Reverted
  wait_for 240 "tp/looper holding" state_is Holding
  print_history
  answers
  auto_json | jq -r '"state \(.state), settings \(.settings), last good \(.lastGood); waiting for \(.waitingFor // "-")"'
  [ "$(auto_json | jq -c '.settings')" = "$(auto_json | jq -c '.lastGood')" ]
  auto_json | jq -e '[.history[] | select(.verdict == "Reverted")][-1].reason | test("latency")' >/dev/null
  kubectl rollout status deployment/looper -n "$NS" --timeout=180s
  threads_in_jvm="$(jvm_max_threads)"
  echo "after the revert the running JVM's Tomcat max threads: $threads_in_jvm"
  [ "$threads_in_jvm" = "$(auto_json | jq -r '.settings.threads')" ]
  local reasons
  reasons="$(kubectl get events -n "$NS" --field-selector involvedObject.name=looper,involvedObject.kind=TuningProfile -o jsonpath='{.items[*].reason}')"
  echo "Events: $reasons"
  for reason in AutoStep AutoKept AutoReverted; do grep -qw "$reason" <<<"$reasons"; done
}

# Closed-loop clients against one URL, bounded in number and time, in the background of the check's subshell.
clients() { # SECONDS CLIENTS URL
  local end=$((SECONDS + $1)) i
  for i in $(seq "$2"); do
    ( while [ $SECONDS -lt $end ]; do curl -s --connect-timeout 2 -m 5 -o /dev/null "$3" || sleep 0.5; done ) &
  done
}
pod_ip() { kubectl get pods -n "$NS" -l "app=$1" -o json | jq -r '[.items[] | select(.metadata.deletionTimestamp == null)] | first | .status.podIP'; }
threading_of() { kubectl get tp "$1" -n "$NS" -o jsonpath='{.status.threading.model}'; }

# Spring Boot serving on virtual threads (the container's SPRING_THREADS_VIRTUAL_ENABLED), on JRE 21 and on JRE 25,
# each request blocking 50 ms inside synchronized. On JDK 21 that pins the carrier: VirtualThreadPinning=True within
# two metrics intervals of the load, naming the frame; JDK 24 and later (JEP 491) unmount instead: False.
PINNING_INTERVAL=10
virtual_threads_pinning() {
  local java began message
  trap 'kill $(jobs -p) 2>/dev/null || true' EXIT
  for java in 21 25; do
    WORKLOAD_JAVA="$java" workload "pinner$java" 1 "        env: [{name: SPRING_THREADS_VIRTUAL_ENABLED, value: 'true'}]
        resources: {requests: {cpu: 10m, memory: 256Mi}, limits: {cpu: '1', memory: 640Mi}}"
    profile "pinner$java" "pinner$java" "  metrics: {injectAgent: true, interval: ${PINNING_INTERVAL}s}"
  done
  for java in 21 25; do
    kubectl wait --for=condition=RolloutComplete "tp/pinner$java" -n "$NS" --timeout=300s >/dev/null
    kubectl rollout status "deployment/pinner$java" -n "$NS" --timeout=300s >/dev/null
    echo "pinner$java: threading $(threading_of "pinner$java")"
    [ "$(threading_of "pinner$java")" = Virtual ]
  done
  began=$SECONDS
  for java in 21 25; do clients 180 8 "http://$(pod_ip "pinner$java"):8080/pinned?ms=50"; done
  wait_for $((2 * PINNING_INTERVAL + 20)) "tp/pinner21 VirtualThreadPinning=True" condition_is VirtualThreadPinning pinner21 True
  message="$(kubectl get tp pinner21 -n "$NS" -o jsonpath='{.status.conditions[?(@.type=="VirtualThreadPinning")].message}')"
  echo "JDK 21, $((SECONDS - began)) s into the load: VirtualThreadPinning=True: $message"
  grep -q 'dev.jvmtuning.lab.workload.PinningCall' <<<"$message"
  wait_for 60 "tp/pinner25 VirtualThreadPinning judged" condition_judged VirtualThreadPinning pinner25
  echo "JDK 25: VirtualThreadPinning=$(condition VirtualThreadPinning pinner25): $(kubectl get tp pinner25 -n "$NS" \
    -o jsonpath='{.status.conditions[?(@.type=="VirtualThreadPinning")].message}')"
  condition_is VirtualThreadPinning pinner25 False
  # The load's rest, and the JDK 25 figure stays under the threshold through it.
  sleep 30
  condition_is VirtualThreadPinning pinner25 False
}
condition_judged() { [[ "$(condition "$1" "$2")" =~ ^(True|False)$ ]]; } # TYPE PROFILE

size_flag() { grep -o -- "-XX:$1=[0-9]*" <<<"$2" | cut -d= -f2 || true; } # NAME FLAGS: its bytes in VM.flags, or nothing
# ZGC on JRE 21 and 25: the running JVM sizes its heap itself under the ceiling the budget allows, towards a soft
# maximum below it, with no initial heap pinned to the ceiling (R10a), and says its settings are in effect.
zgc_soft_heap() {
  local java pod flags max soft initial options
  for java in 21 25; do
    WORKLOAD_JAVA="$java" workload "zgc$java" 1 "        resources: {requests: {cpu: 10m, memory: 256Mi}, limits: {cpu: '1', memory: 768Mi}}"
    profile "zgc$java" "zgc$java" "  gc: {collector: ZGC}
  metrics: {injectAgent: true, interval: 10s}"
  done
  for java in 21 25; do
    kubectl wait --for=condition=RolloutComplete "tp/zgc$java" -n "$NS" --timeout=300s >/dev/null
    kubectl rollout status "deployment/zgc$java" -n "$NS" --timeout=300s >/dev/null
    wait_for 120 "tp/zgc$java SettingsEffective=True" condition_is SettingsEffective "zgc$java" True
    for pod in $(pods_of "zgc$java"); do
      flags="$(jvm_flags "$pod")"
      max="$(size_flag MaxHeapSize "$flags")" soft="$(size_flag SoftMaxHeapSize "$flags")" initial="$(size_flag InitialHeapSize "$flags")"
      echo "zgc$java $pod: $(tr ' ' '\n' <<<"$flags" | grep -E 'UseZGC|ZGenerational|HeapSize' | paste -sd' ')"
      grep -q -- '-XX:+UseZGC' <<<"$flags"
      assert "a MaxHeapSize reported by $pod" "none" [ -n "$max" ]
      assert "a SoftMaxHeapSize reported by $pod" "none" [ -n "$soft" ]
      # Left unset, the soft maximum is the maximum (the JVM's ergonomics): only one under it is the plan's.
      assert "$pod's SoftMaxHeapSize under its MaxHeapSize $max" "$soft" [ "$soft" -lt "$max" ]
      assert "$pod's InitialHeapSize under its MaxHeapSize $max" "${initial:-none}" [ "${initial:-0}" -lt "$max" ]
      options="$(kubectl get pod -n "$NS" "$pod" -o json | jq -r '.spec.containers[0].env[]? | select(.name == "JAVA_TOOL_OPTIONS") | .value')"
      refute "no -Xms in the JAVA_TOOL_OPTIONS of $pod" "$options" grep -q -- '-Xms' <<<"$options"
    done
  done
}

# Admission changes the pods (docs/how-to/other-controllers.md): the plan is for the pod as admitted, not for its template.
# A LimitRange gives a container without resources its default limits; a MutatingAdmissionPolicy (the API server's own,
# no webhook) gives a 1Gi template's pods 384Mi, as a VerticalPodAutoscaler's admission does, and appends a -javaagent to
# JAVA_TOOL_OPTIONS with an init container that brings the jar, as the OpenTelemetry operator does. Each JVM that runs
# fits its pod, read back from the JVM; status names what admission changed; the injected agent runs beside the tuned flags.
ADMISSION_POLICY=jto-e2e-lower-and-inject
admission_cleanup() {
  kubectl delete mutatingadmissionpolicybinding "$ADMISSION_POLICY" --ignore-not-found >/dev/null 2>&1 || true
  kubectl delete mutatingadmissionpolicy "$ADMISSION_POLICY" --ignore-not-found >/dev/null 2>&1 || true
  kubectl delete limitrange -n "$NS" jto-e2e-defaults --ignore-not-found >/dev/null 2>&1 || true
}
admitted_of() { kubectl get tp "$1" -n "$NS" -o json | jq -c '.status.admitted // {}'; } # PROFILE
newest_pod_of() { # PROFILE'S TARGET: the newest Running pod not on its way out
  kubectl get pods -n "$NS" -l "app=$1" -o json | jq -r '[.items[] | select(.metadata.deletionTimestamp == null and .status.phase == "Running")]
    | sort_by(.metadata.creationTimestamp) | last | .metadata.name // empty'
}
pod_memory_limit() { kubectl get pod -n "$NS" "$1" -o json | jq -r '.spec.containers[0].resources.limits.memory // empty' | numfmt --from=iec-i; }
settings_judged() { [[ "$(kubectl get tp "$1" -n "$NS" -o jsonpath='{.status.conditions[?(@.type=="SettingsEffective")].reason}')" =~ ^(OptionsInEffect|PartlyReported|SettingsNotEffective)$ ]]; }
settled_ready() { # PROFILE: Ready, with every pod of the tuned template Ready
  condition_is Ready "$1" True && [ "$(kubectl get deployment "$1" -n "$NS" -o jsonpath='{.status.updatedReplicas}/{.status.replicas}')" = 1/1 ]
}
heap_fits_pod() { heap_fits "$(newest_pod_of "$1")"; } # TARGET: its newest pod's
heap_fits() { # POD: its JVM's maximum heap under its memory limit, said and asserted
  local pod="$1" flags max limit
  flags="$(jvm_flags "$pod")" max="$(size_flag MaxHeapSize "$flags")" limit="$(pod_memory_limit "$pod")"
  echo "$pod: MaxHeapSize $((max / 1048576))Mi in a pod limited to $((limit / 1048576))Mi; restarts $(restarts_of "$pod")"
  assert "a MaxHeapSize reported by the JVM of $pod" "none" [ -n "$max" ]
  assert "the heap of $pod at most 3/4 of its pod's limit $limit" "$max" [ $((max * 4)) -le $((limit * 3)) ]
  assert "no restart of $pod" "$(restarts_of "$pod")" [ "$(restarts_of "$pod")" = 0 ]
}
planned_for_admitted_pods() {
  trap admission_cleanup EXIT
  make_room
  kubectl apply -n "$NS" -f - >/dev/null <<YAML
apiVersion: v1
kind: LimitRange
metadata: {name: jto-e2e-defaults}
spec:
  limits:
  - type: Container
    default: {memory: 512Mi, cpu: "1"}
    defaultRequest: {memory: 512Mi, cpu: 100m}
YAML
  workload limited 1
  kubectl rollout status deployment/limited -n "$NS" --timeout=180s >/dev/null
  profile limited limited ''
  wait_for 240 "tp/limited Ready on its tuned pod" settled_ready limited
  local options admitted pod env
  options="$(tuned_flags_of limited)"
  admitted="$(admitted_of limited)"
  echo "template without resources; rendered: $options; status.admitted: $admitted"
  assert "a heap and the CPU count of the LimitRange's 1 CPU rendered" "$options" grep -q -E -- '-XX:ActiveProcessorCount=1 .*-Xmx[0-9]+m' <<<"$options"
  assert "status.admitted naming the default limit" "$admitted" jq -e '.resources[] | select(.resource == "limits.memory" and .pod == "512Mi" and .template == null)' <<<"$admitted" >/dev/null
  heap_fits_pod limited

  kubectl apply -f - >/dev/null <<YAML
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicy
metadata: {name: $ADMISSION_POLICY}
spec:
  matchConstraints:
    resourceRules: [{apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}]
  matchConditions:
  - name: the-check-s-pods
    expression: "has(object.metadata.labels) && 'app' in object.metadata.labels && object.metadata.labels['app'] == 'admitted'"
  failurePolicy: Fail
  reinvocationPolicy: Never
  mutations:
  # JSON patches: an apply configuration may not set an atomic list (a command). Their values are plain maps (dyn where
  # their values mix types): a typed Object{} in a JSON patch's value panicked the 1.36 API server's conversion.
  - patchType: JSONPatch
    jsonPatch:
      expression: >
        [
          JSONPatch{op: "add", path: "/spec/initContainers", value: [{"name": dyn("injected-agent"), "image": dyn("$AGENT_IMAGE"),
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
---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicyBinding
metadata: {name: $ADMISSION_POLICY}
spec: {policyName: $ADMISSION_POLICY}
YAML
  # The API server reads a new policy within a second or so: a pod admitted before would be the template's.
  sleep 3
  workload admitted 1 "        resources: {requests: {cpu: 100m, memory: 1Gi}, limits: {cpu: '1', memory: 1Gi}}"
  kubectl rollout status deployment/admitted -n "$NS" --timeout=180s >/dev/null
  pod="$(newest_pod_of admitted)"
  echo "$pod admitted with limits.memory $(kubectl get pod -n "$NS" "$pod" -o jsonpath='{.spec.containers[0].resources.limits.memory}') (the template: 1Gi)"
  profile admitted admitted ''
  wait_for 240 "tp/admitted Ready on its tuned pod" settled_ready admitted
  # Without the operator's agent the runtime's metrics show some options only (PartlyReported): none may differ.
  wait_for 120 "tp/admitted SettingsEffective judged from the JVM" settings_judged admitted
  options="$(tuned_flags_of admitted)"
  admitted="$(admitted_of admitted)"
  echo "rendered: $options; status.admitted: $admitted"
  assert "status.admitted: 384Mi beside the template's 1Gi" "$admitted" jq -e '.resources[] | select(.resource == "limits.memory" and .pod == "384Mi" and .template == "1Gi")' <<<"$admitted" >/dev/null
  assert "status.admitted: the injected agent" "$admitted" jq -e '.addedJvmOptions == ["-javaagent:/injected/agent.jar"]' <<<"$admitted" >/dev/null
  refute "no agent of the injector's in the template" "$options" grep -q -- '-javaagent' <<<"$options"
  pod="$(newest_pod_of admitted)"
  env="$(kubectl get pod -n "$NS" "$pod" -o json | jq -r '.spec.containers[0].env[] | select(.name == "JAVA_TOOL_OPTIONS") | .value')"
  echo "$pod runs JAVA_TOOL_OPTIONS=$env"
  assert "the pod running the tuned flags and the injected agent" "$env" test "$env" = "$options -javaagent:/injected/agent.jar"
  local effective; effective="$(condition SettingsEffective admitted)"
  refute "the injected agent taken for no drift: SettingsEffective not False" "$effective" test "$effective" = False
  heap_fits_pod admitted
  profile_events admitted | grep '^PlannedForAdmittedPod' || { echo "no PlannedForAdmittedPod Event" >&2; return 1; }
}

# GitOps (docs/how-to/other-controllers.md): two Deployments re-applied from their manifest every 20 s for 5 minutes, as a
# GitOps controller's self-heal does, one by client-side `kubectl apply` (Argo CD's default), one by server-side apply under
# a manager of its own taking conflicts (Argo CD and Flux with server-side apply). Each manifest sets JAVA_TOOL_OPTIONS, which
# the operator writes too. The operator answers a take-back once, then stops: at most 2 tuned templates of its own in the
# loop, Applied=False TakenBack naming the manager, and no write of anyone's once it stopped. A third follows the docs'
# recipe for Flux (server-side apply as its kustomize-controller, the tuned variable left out of Git): no quarrel, the
# tuning kept, no write of anyone's; and the operator's field manager is the one the Argo CD recipe names.
GITOPS_DIR=""
gitops_cleanup() { [ -z "$GITOPS_DIR" ] || rm -rf "$GITOPS_DIR"; local jobs; jobs="$(jobs -p)"; [ -z "$jobs" ] || kill $jobs 2>/dev/null || true; }
tuned_generations() { # NAME SECONDS: the Deployment's generations seen running the operator's flags, one a line
  local end=$((SECONDS + $2))
  while [ $SECONDS -lt $end ]; do
    # A client-side apply leaves the operator's annotations (not in the manifest): its flags say whose template it is.
    kubectl get deployment "$1" -n "$NS" -o json | jq -r 'select(any(.spec.template.spec.containers[0].env[]?;
      .name == "JAVA_TOOL_OPTIONS" and (.value // "" | contains("-XX:ActiveProcessorCount")))) | .metadata.generation'
    sleep 1
  done | sort -un
}
reapply_every_20s() { # MANIFEST SECONDS APPLY-FLAGS...
  local manifest="$1" end=$((SECONDS + $2)); shift 2
  while [ $SECONDS -lt $end ]; do kubectl apply -n "$NS" "$@" -f "$manifest" >/dev/null; sleep 20; done
}
reapplied_from_git() {
  trap gitops_cleanup EXIT
  make_room
  GITOPS_DIR="$(mktemp -d)"
  local name flags
  for name in synced synced-ssa; do
    workload_deployment "$name" 1 "        env: [{name: JAVA_TOOL_OPTIONS, value: '-Dfile.encoding=UTF-8'}]
        resources: {requests: {cpu: 100m, memory: 512Mi}, limits: {cpu: '1', memory: 512Mi}}" > "$GITOPS_DIR/$name.yaml"
  done
  workload_deployment synced-recipe 1 "        resources: {requests: {cpu: 100m, memory: 512Mi}, limits: {cpu: '1', memory: 512Mi}}" \
    > "$GITOPS_DIR/synced-recipe.yaml"
  local flux=(--server-side --field-manager=kustomize-controller --force-conflicts)
  kubectl apply -n "$NS" -f "$GITOPS_DIR/synced.yaml" >/dev/null
  kubectl apply -n "$NS" --server-side --field-manager=gitops-sync --force-conflicts -f "$GITOPS_DIR/synced-ssa.yaml" >/dev/null
  kubectl apply -n "$NS" "${flux[@]}" -f "$GITOPS_DIR/synced-recipe.yaml" >/dev/null
  for name in synced synced-ssa synced-recipe; do
    kubectl rollout status deployment/"$name" -n "$NS" --timeout=180s >/dev/null
    profile "$name" "$name" ''
  done
  for name in synced synced-ssa synced-recipe; do wait_for 240 "tp/$name Ready" condition_is Ready "$name" True; done
  echo "tuned: $(tuned_flags_of synced)"
  local recipe_generation recipe_flags
  recipe_generation="$(kubectl get deployment synced-recipe -n "$NS" -o jsonpath='{.metadata.generation}')"
  recipe_flags="$(tuned_flags_of synced-recipe)"
  tuned_generations synced 300 > "$GITOPS_DIR/synced.tuned" &
  tuned_generations synced-ssa 300 > "$GITOPS_DIR/synced-ssa.tuned" &
  reapply_every_20s "$GITOPS_DIR/synced.yaml" 300 &
  reapply_every_20s "$GITOPS_DIR/synced-ssa.yaml" 300 --server-side --field-manager=gitops-sync --force-conflicts &
  reapply_every_20s "$GITOPS_DIR/synced-recipe.yaml" 300 "${flux[@]}" &
  wait
  local manager stopped_at now tuned owners
  echo "synced-recipe: $(applied synced-recipe reason): generation $recipe_generation before the loop, $(kubectl get deployment synced-recipe -n "$NS" -o jsonpath='{.metadata.generation}') after"
  assert "the recipe's Deployment still Applied" "$(applied synced-recipe reason)" test "$(applied synced-recipe reason)" = Applied
  assert "the recipe's Deployment written by no one in the loop" "$(kubectl get deployment synced-recipe -n "$NS" -o jsonpath='{.metadata.generation}')" \
    test "$(kubectl get deployment synced-recipe -n "$NS" -o jsonpath='{.metadata.generation}')" = "$recipe_generation"
  assert "the recipe's Deployment still tuned" "$(tuned_flags_of synced-recipe)" test "$(tuned_flags_of synced-recipe)" = "$recipe_flags"
  # Argo CD's recipe ignores the fields of the manager jvm-tuning-operator: it must be the one that owns the tuned variable.
  owners="$(kubectl get deployment synced-recipe -n "$NS" -o json --show-managed-fields | jq -r '[.metadata.managedFields[]
    | select(.fieldsV1 | tostring | contains("JAVA_TOOL_OPTIONS")) | .manager] | unique | join(" ")')"
  echo "managers of JAVA_TOOL_OPTIONS in synced-recipe: $owners"
  assert "JAVA_TOOL_OPTIONS owned by the manager jvm-tuning-operator alone" "$owners" test "$owners" = jvm-tuning-operator
  for name in synced synced-ssa; do
    manager="$(kubectl get tp "$name" -n "$NS" -o jsonpath='{.status.takenBack.manager}')"
    stopped_at="$(kubectl get tp "$name" -n "$NS" -o jsonpath='{.status.takenBack.deploymentGeneration}')"
    now="$(kubectl get deployment "$name" -n "$NS" -o jsonpath='{.metadata.generation}')"
    tuned="$(wc -l < "$GITOPS_DIR/$name.tuned")"
    echo "$name: $(applied "$name" reason): $(applied "$name" message)"
    echo "$name: the operator's flags in $tuned generations of the template in 5 minutes ($(paste -sd' ' "$GITOPS_DIR/$name.tuned")," \
      "the tuned one before the loop included); stopped at generation $stopped_at, now $now"
    assert "Applied=False TakenBack for $name" "$(applied "$name" reason)" test "$(applied "$name" reason)" = TakenBack
    assert "at most 2 tuned templates of the operator's in the loop (its first write and one answer)" "$tuned" [ "$tuned" -le 2 ]
    # Once stopped, each re-apply finds the template as Git has it: no write of anyone's, no pod started for the quarrel.
    assert "no write since the stop at generation $stopped_at" "$now" [ "$now" = "$stopped_at" ]
    assert "status.takenBack naming the other manager" "$manager" [ -n "$manager" ]
  done
  assert "the client-side apply's manager named" "$(kubectl get tp synced -n "$NS" -o jsonpath='{.status.takenBack.manager}')" \
    test "$(kubectl get tp synced -n "$NS" -o jsonpath='{.status.takenBack.manager}')" = kubectl-client-side-apply
  assert "the server-side apply's manager named" "$(kubectl get tp synced-ssa -n "$NS" -o jsonpath='{.status.takenBack.manager}')" \
    test "$(kubectl get tp synced-ssa -n "$NS" -o jsonpath='{.status.takenBack.manager}')" = gitops-sync
  profile_events synced | grep '^TakenBack' || { echo "no TakenBack Event" >&2; return 1; }
}

# The real Vertical Pod Autoscaler (docs/how-to/other-controllers.md): its recommender, updater and admission controller
# and metrics-server (autoscalers.sh), a VPA in mode InPlaceOrRecreate moving the memory of a Deployment the operator tunes,
# under load that allocates. Once the VPA recommends, the admission controller gives the pod of a user's restart the
# recommendation instead of the template's 1Gi; someone then resizes that pod in place to 1Gi (an incident's bump), and
# the updater takes it back to the recommendation in place, the container restarting for memory each time as the pod's
# resizePolicy asks. The heap is a share of the limit planned at the VPA's minAllowed: every JVM that runs fits the pod
# it runs in, as the JVM reports it; no OOM kill; the operator rolls nothing after its first rollout.
vpa_json() { kubectl get verticalpodautoscaler resized-vpa -n "$NS" -o json; }
vpa_recommends() { vpa_json | jq -e '.status.recommendation.containerRecommendations[0].target.memory != null' >/dev/null; }
pod_limit_applied() { kubectl get pod -n "$NS" "$1" -o jsonpath='{.status.containerStatuses[0].resources.limits.memory}' 2>/dev/null; }
limit_applied() { [ "$(pod_limit_applied "$1")" = "$2" ]; } # POD LIMIT
restarted_at() { # POD LIMIT RESTARTS: Ready again after its container's RESTARTS-th restart, at LIMIT as the kubelet applied it
  limit_applied "$1" "$2" && [ "$(restarts_of "$1")" -ge "$3" ] && pod_ready "$1"
}
admitted_pod_is() { [ "$(admitted_of "$1" | jq -r '.pod // empty')" = "$2" ]; } # PROFILE POD
oom_killed_pods() { # TARGET: its pods whose container was ever OOM-killed, as the kubelet last saw it
  kubectl get pods -n "$NS" -l "app=$1" -o json |
    jq -r '.items[] | select(any(.status.containerStatuses[]?; .lastState.terminated.reason == "OOMKilled"
      or .state.terminated.reason == "OOMKilled")) | .metadata.name'
}
jvm_fits_its_pod() { # POD SHARE: the JVM's maximum heap, as it reports it, at the share of the limit the kubelet applied
  local flags max limit expected
  flags="$(jvm_flags "$1")" max="$(size_flag MaxHeapSize "$flags")"
  limit="$(numfmt --from=iec-i "$(pod_limit_applied "$1")")"
  expected="$(awk -v s="$2" -v l="$limit" 'BEGIN { printf "%d", s / 100 * l }')"
  echo "$1 at $((limit / 1048576))Mi: MaxHeapSize $((max / 1048576))Mi, the share $2% of it $((expected / 1048576))Mi"
  assert "the heap of $1 at its share of the limit it runs at" "$max" [ $((max - expected)) -le 4194304 -a $((expected - max)) -le 4194304 ]
}
heap_follows_the_vpa() {
  trap stop_load EXIT
  make_room
  "$REPO_ROOT/deploy/local/autoscalers.sh" up
  # The operator reads VPAs where their CRD is served when it starts.
  kubectl rollout restart deployment/jvm-tuning-operator -n jvm-tuning-system >/dev/null
  kubectl rollout status deployment/jvm-tuning-operator -n jvm-tuning-system --timeout=180s >/dev/null
  workload resized 1 "        resizePolicy: [{resourceName: memory, restartPolicy: RestartContainer}]
        resources: {requests: {cpu: 100m, memory: 1Gi}, limits: {cpu: '1', memory: 1Gi}}"
  kubectl apply -n "$NS" -f - >/dev/null <<YAML
apiVersion: autoscaling.k8s.io/v1
kind: VerticalPodAutoscaler
metadata: {name: resized-vpa}
spec:
  targetRef: {apiVersion: apps/v1, kind: Deployment, name: resized}
  updatePolicy: {updateMode: InPlaceOrRecreate}
  resourcePolicy:
    containerPolicies: [{containerName: app, controlledResources: [memory], minAllowed: {memory: 512Mi}, maxAllowed: {memory: 1Gi}}]
YAML
  profile resized resized '  rollback: {window: 30s}'
  wait_for 240 "tp/resized Ready" settled_ready resized
  local options scaling share pod oomed
  options="$(tuned_flags_of resized)"
  scaling="$(kubectl get tp resized -n "$NS" -o json | jq -c '.status.verticalScaling // {}')"
  echo "rendered: $options; status.verticalScaling: $scaling"
  share="$(grep -o -- '-XX:MaxRAMPercentage=[0-9.]*' <<<"$options" | cut -d= -f2)"
  assert "the heap as a share of the limit" "$options" [ -n "$share" ]
  refute "no -Xmx" "$options" grep -q -E -- '-Xmx' <<<"$options"
  # The share is planned at the least memory the VPA may give, 512Mi: at any limit above it, heap and the rest fit.
  assert "status.verticalScaling naming the VPA, what it moves, and its floor at the VPA's minAllowed" "$scaling" \
    jq -e '.autoscaler == "resized-vpa" and .controls == ["memory"] and (.jvmFloor == "512Mi" or .jvmFloor == "511Mi")' <<<"$scaling" >/dev/null
  # A restart of the user's once the VPA recommends: its pod is admitted with the recommendation, not the template's 1Gi.
  wait_for 180 "the VPA's first recommendation" vpa_recommends
  kubectl rollout restart deployment/resized -n "$NS" >/dev/null
  kubectl rollout status deployment/resized -n "$NS" --timeout=180s >/dev/null
  wait_for 120 "tp/resized Ready after the restart" settled_ready resized
  pod="$(newest_pod_of resized)"
  local admitted_at
  admitted_at="$(pod_limit_applied "$pod")"
  echo "$pod admitted at $admitted_at: $(kubectl get pod -n "$NS" "$pod" -o jsonpath='{.metadata.annotations.vpaUpdates}')"
  assert "the restarted pod admitted by the VPA below the template's 1Gi" "$admitted_at" [ "$admitted_at" != 1Gi ]
  jvm_fits_its_pod "$pod" "$share"
  wait_for 60 "status.admitted naming $pod" admitted_pod_is resized "$pod"
  echo "status.admitted: $(admitted_of resized)"
  # 4 clients allocating 1 MiB a request, for at most 12 minutes: the heap grows as far as the JVM lets it.
  start_load resized 'allocKb=1024&cpuMs=2' 4
  # An incident's bump: the pod resized in place to the template's 1Gi, its container restarting. (The updater may take it
  # back before the JVM is Ready again.)
  kubectl patch pod "$pod" -n "$NS" --subresource resize \
    -p '{"spec":{"containers":[{"name":"app","resources":{"limits":{"memory":"1Gi"},"requests":{"memory":"1Gi"}}}]}}' >/dev/null
  wait_for 120 "the kubelet applying 1Gi to $pod" limit_applied "$pod" 1Gi
  # The updater takes it back to the recommendation, in place, once the pod is older than its threshold (1 minute here).
  wait_for 300 "the VPA's updater resizing $pod back to $admitted_at in place" restarted_at "$pod" "$admitted_at" 2
  echo "the VPA's recommendation: $(vpa_json | jq -c '.status.recommendation.containerRecommendations[0] | {target, lowerBound, upperBound}')"
  echo "$pod: limit $(pod_limit_applied "$pod"), restarts $(restarts_of "$pod"); updater's mark: $(kubectl get pod -n "$NS" "$pod" -o json | jq -c '.metadata.annotations | with_entries(select(.key | startswith("vpa")))')"
  jvm_fits_its_pod "$pod" "$share"
  answers
  stop_load
  oomed="$(oom_killed_pods resized)"
  assert "no OOM kill" "${oomed:-none}" [ -z "$oomed" ]
  assert "the operator's settings unchanged: no rollout of its own" "$(tuned_flags_of resized)" test "$(tuned_flags_of resized)" = "$options"
  wait_for 60 "tp/resized HeapOverLimit=False" condition_is HeapOverLimit resized False
  assert "Applied, not rolled back" "$(applied resized reason)" test "$(applied resized reason)" = Applied
  kubectl delete verticalpodautoscaler -n "$NS" resized-vpa --ignore-not-found >/dev/null
}

# A HorizontalPodAutoscaler (docs/how-to/other-controllers.md), the controller manager's own, reading memory utilisation
# from metrics-server (autoscalers.sh), beside a heap the plan starts at its maximum: ScaleDownBlocked=True names it; the
# pool is planned for its maxReplicas within the database's connections for the service; every JVM that runs fits its pod.
pool_size_of() { kubectl get tp "$1" -n "$NS" -o jsonpath='{.status.settings[?(@.name=="connectionPool.maxSize")].value}'; }
pool_is() { [ "$(pool_size_of "$1")" = "$2" ]; } # PROFILE SIZE
condition_absent() { [ -z "$(condition "$1" "$2")" ]; } # TYPE PROFILE
hpa_reads_metrics() { kubectl get hpa scaled-hpa -n "$NS" -o json | jq -e '.status.currentMetrics[0].resource.current.averageUtilization != null' >/dev/null; }
hpa_stance() {
  make_room
  "$REPO_ROOT/deploy/local/autoscalers.sh" up
  workload scaled 1 "        resources: {requests: {cpu: 100m, memory: 512Mi}, limits: {cpu: '1', memory: 512Mi}}"
  kubectl rollout status deployment/scaled -n "$NS" --timeout=180s >/dev/null
  kubectl apply -n "$NS" -f - >/dev/null <<YAML
apiVersion: jvmtuning.dev/v1alpha1
kind: TuningProfile
metadata: {name: scaled}
spec:
  targetRef: {kind: Deployment, name: scaled}
  runtime: SpringBootTomcat
  workload: {requestsPerSecond: 20, meanLatency: 1100ms, cpuPerRequest: 4ms, maxQueueWait: 1s, dbTimePerRequest: 1s}
  connectionPool: {databaseConnections: 60}
  gc: {collector: G1}
YAML
  wait_for 240 "tp/scaled Ready" settled_ready scaled
  local alone flags
  alone="$(pool_size_of scaled)"
  flags="$(tuned_flags_of scaled)"
  echo "alone: pool $alone; $flags"
  kubectl apply -n "$NS" -f - >/dev/null <<YAML
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: scaled-hpa}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: scaled}
  minReplicas: 1
  maxReplicas: 3
  metrics:
  - type: Resource
    resource: {name: memory, target: {type: Utilization, averageUtilization: 70}}
YAML
  wait_for 60 "tp/scaled ScaleDownBlocked=True" condition_is ScaleDownBlocked scaled True
  echo "ScaleDownBlocked=True: $(kubectl get tp scaled -n "$NS" -o jsonpath='{.status.conditions[?(@.type=="ScaleDownBlocked")].message}')"
  assert "a heap fixed at start (-Xms = -Xmx)" "$flags" grep -q -E -- '-Xms([0-9]+m) -Xmx\1' <<<"$flags"
  wait_for 60 "the pool planned for 3 replicas within 60 connections" pool_is scaled 20
  echo "with the autoscaler's 3 replicas: pool $(pool_size_of scaled) (alone $alone)"
  assert "a pool of 60 connections over 3 replicas" "$(pool_size_of scaled)" test "$(pool_size_of scaled)" = 20
  wait_for 120 "the autoscaler reading the pods' memory from the metrics API" hpa_reads_metrics
  echo "the autoscaler: $(kubectl get hpa scaled-hpa -n "$NS" -o json | jq -c '{currentMetrics: .status.currentMetrics, replicas: .status.currentReplicas, desired: .status.desiredReplicas}')"
  local pod
  for pod in $(pods_of scaled); do
    wait_for 120 "$pod Ready" pod_ready "$pod"
    heap_fits "$pod"
  done
  profile_events scaled | grep '^HeapFixedAtStart' || { echo "no HeapFixedAtStart Event" >&2; return 1; }
  kubectl delete hpa -n "$NS" scaled-hpa --ignore-not-found >/dev/null
  wait_for 60 "ScaleDownBlocked gone with the autoscaler" condition_absent ScaleDownBlocked scaled
}

java_checks
check "7. three watched namespaces: every profile back Ready with fresh metrics within 30 s of each of three restarts" namespace_list_restarts
check "8. mode Auto under real load: steps kept, a step that made things worse reverted and held" auto_loop_on_real_pods
check "9. virtual threads pinned by synchronized: VirtualThreadPinning=True with the frame on JDK 21, False on JDK 25" virtual_threads_pinning
check "10. ZGC on JDK 21 and 25: a soft maximum under the ceiling, no pinned initial heap, read from the JVMs" zgc_soft_heap
check "11. admission changes the pods (a LimitRange default; a mutating policy lowering the limit and injecting a -javaagent): planned for the pods as admitted" planned_for_admitted_pods
check "12. GitOps: manifests re-applied every 20 s (client-side, and server-side under another manager): answered once, then left alone, the manager named" reapplied_from_git
check "13. the real VPA (recommender, updater, admission controller) moving a tuned pod's memory under load: every JVM's heap at its share of the limit it runs at, no OOM kill, no rollout of the operator's" heap_follows_the_vpa
check "14. an HPA reading memory from metrics-server beside a heap fixed at start: ScaleDownBlocked names it; the pool planned for its maxReplicas within the database's connections" hpa_stance
for ns in "${NS_LIST[@]}"; do kubectl delete tp --all -n "$ns" --ignore-not-found --timeout=60s >/dev/null 2>&1 || true; done
# The operator goes back to the demo's one namespace before the others go: watching a namespace that no
# longer exists (its Role gone with it), a restarted operator could not start its informers.
if [[ "$ONLY" = "  " || "$ONLY" == *" 7 "* ]]; then
  helm upgrade jvm-tuning-operator "$REPO_ROOT/charts/jvm-tuning-operator" -n jvm-tuning-system --reuse-values \
    --set "watchNamespaces={$NS}" --wait --timeout 180s >/dev/null || echo "could not set the operator's namespaces back to $NS" >&2
fi
kubectl delete namespace "${NS_LIST[@]}" --ignore-not-found --wait=false >/dev/null
# The other controllers of checks 13 and 14 go, their webhook first: the demo's cluster runs without them.
if kubectl get deployment -n kube-system vpa-admission-controller >/dev/null 2>&1; then
  "$REPO_ROOT/deploy/local/autoscalers.sh" down || echo "could not take the autoscalers down (deploy/local/autoscalers.sh down)" >&2
fi
E2E_OBJECTS=(imager17 blind17 imager21 blind21 refuser rebooter releaser cutter oomer xmxer throttled looper pinner21 pinner25 zgc21 zgc25 limited admitted synced synced-ssa synced-recipe resized scaled downgraded repushed)
kubectl delete tp -n "$NS" "${E2E_OBJECTS[@]}" --ignore-not-found --wait=false >/dev/null
kubectl delete deployment -n "$NS" "${E2E_OBJECTS[@]}" --ignore-not-found --wait=false >/dev/null
printf '\n%d of %d end-to-end checks failed\n' "$failures" "$ran"
[ "$failures" -eq 0 ]
