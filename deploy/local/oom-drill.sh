#!/usr/bin/env bash
# Memory forensics on the real node, after demo.sh (its cluster and operator): five causes of a kernel OOM kill,
# each a steady demand of the lab workload (LEAK, see lab/workload-app's MemoryDemand) in a container with a real
# memory limit. Each must be OOMKilled by the kernel and attributed to its part in status.lastOomKill and the Warning
# Event OOMKilled:
#   threads    platform threads with their whole stacks touched    THREAD_STACKS
#   direct     cleaner-less native buffers (Unsafe, as Netty's)     DIRECT_MEMORY
#   metaspace  classes kept by a class loader each (a loader leak)  METASPACE
#   malloc     Deflaters never ended (zlib's malloc)                NATIVE_OTHER
#   heap       the template's own -Xmx too close to the limit       LIMIT_BELOW_HEAP
# The first four say a budget was too small, which the operator answers with a new plan (R9b). The demand is the same
# before and after (a fixed size, reached over a ramp, then held: a leak without bound no budget answers), so the answer
# must then hold it: no OOM kill for DRILL_HOLD seconds and the resident set under 90% of the limit.
# The demand's size is the first plan's room plus a margin: a baseline pod under the same profile, with no demand, says
# how much of the limit the JVM leaves unused (its heap touched whole, -XX:+AlwaysPreTouch, so the figure is steady).
# The causes run side by side; every wait is bounded, and the drill's objects are deleted at the end.
# Usage: oom-drill.sh [CAUSE...]   (default: threads direct metaspace malloc heap)
# Environment: DRILL_HOLD (s, default 600), DRILL_RAMP (s the demand takes to reach its size, default 90),
#   DRILL_LIMIT (default 1Gi), DRILL_MARGIN (MiB beyond the room, default 48), DRILL_LEAK_MIB (skips the baseline),
#   DRILL_TIMEOUT (s for each wait, default 900), NAMESPACE (a namespace the operator watches, default shop).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
export KUBECONFIG="$KUBECONFIG_FILE"
NS="${NAMESPACE:-shop}"
HOLD="${DRILL_HOLD:-600}"
RAMP="${DRILL_RAMP:-90}"
LIMIT="${DRILL_LIMIT:-1Gi}"
MARGIN="${DRILL_MARGIN:-48}"
TIMEOUT="${DRILL_TIMEOUT:-900}"
HEAP_LIMIT_MIB=512
CAUSES=("$@")
[ "${#CAUSES[@]}" -gt 0 ] || CAUSES=(threads direct metaspace malloc heap)
declare -A EXPECTED=([threads]=THREAD_STACKS [direct]=DIRECT_MEMORY [metaspace]=METASPACE [malloc]=NATIVE_OTHER [heap]=LIMIT_BELOW_HEAP)
for cause in "${CAUSES[@]}"; do
  [ -n "${EXPECTED[$cause]:-}" ] || die "unknown cause $cause: one of ${!EXPECTED[*]}"
done
RESULTS="$(mktemp -d)"
began=$SECONDS

cleanup() {
  kubectl delete tp,deployment -n "$NS" -l jvmtuning.dev/drill=oom --ignore-not-found --wait=false >/dev/null 2>&1 || true
  rm -rf "$RESULTS"
}
trap cleanup EXIT

# await SECONDS WHAT COMMAND...: env.sh's wait_for at one try every 5 s: several causes wait side by side, and a kubectl twice
# a second for each would take the node's CPUs from the pods under test.
await() {
  local deadline=$((SECONDS + $1)) what="$2"; shift 2
  until "$@" >/dev/null 2>&1; do
    if [ "$SECONDS" -ge "$deadline" ]; then
      echo "timed out waiting for $what" >&2
      return 1
    fi
    sleep 5
  done
}
say() { printf '[%4d s] %-9s %s\n' $((SECONDS - began)) "$1" "$2"; }
mib() { # a quantity as status writes it (384Mi, 1Gi) in MiB
  case "$1" in *Gi) echo $(( ${1%Gi} * 1024 )) ;; *Mi) echo "${1%Mi}" ;; *) echo "cannot read $1 as MiB" >&2; return 1 ;; esac
}
tp_field() { kubectl get tp "$1" -n "$NS" -o jsonpath="$2" 2>/dev/null || true; }
template_hash() { kubectl get deployment "$1" -n "$NS" -o jsonpath='{.spec.template.metadata.annotations.jvmtuning\.dev/settings-hash}' 2>/dev/null || true; }
tuned() { [ -n "$(template_hash "$1")" ]; }
killed() { [ -n "$(tp_field "$1" '{.status.lastOomKill.cause}')" ]; }
# The Ready pod running settings HASH, not on its way out.
ready_pod() { # NAME HASH
  kubectl get pods -n "$NS" -l "app=$1" -o json | jq -r --arg hash "$2" '.items[] | select(.metadata.deletionTimestamp == null
    and .metadata.annotations["jvmtuning.dev/settings-hash"] == $hash
    and any(.status.conditions[]?; .type == "Ready" and .status == "True")) | .metadata.name' 2>/dev/null | head -n 1 || true
}
has_ready_pod() { [ -n "$(ready_pod "$1" "$2")" ]; }
demand_held() { kubectl logs -n "$NS" "$1" -c app 2>/dev/null | grep -q 'memory demand .* held at'; }
memory_of() { # NAME POD: "resident limit" in MiB, when status shows that pod
  local json; json="$(kubectl get tp "$1" -n "$NS" -o json | jq -c '.status.observed.memory // {}')"
  [ "$(jq -r '.pod // ""' <<<"$json")" = "$2" ] || return 1
  echo "$(mib "$(jq -r .resident <<<"$json")") $(mib "$(jq -r .limit <<<"$json")")"
}
resident_shown() { memory_of "$1" "$2" >/dev/null; }

# A Deployment of the lab workload, labelled as the drill's: NAME REPLICAS LIMIT, then the container's extra YAML
# (indented 8) and the pod's (indented 6).
workload() {
  workload_deployment "$1" "$2" "        resources: {requests: {cpu: 100m, memory: $3}, limits: {cpu: '1', memory: $3}}
$4" "      terminationGracePeriodSeconds: 5
$5" "jvmtuning.dev/drill: oom" | kubectl apply -n "$NS" -f - >/dev/null
}

# The profile of every budget cause: the heap touched whole at start, so the resident set says what the plan leaves
# unused, and native memory tracking, which tells the parts apart (Unsafe memory is seen only under its Other).
BUDGET_JVM_OPTIONS='["-XX:+AlwaysPreTouch", "-XX:NativeMemoryTracking=summary"]'
BUDGET_METRICS='{injectAgent: true, interval: 5s}'
profile() { # NAME JVM-OPTIONS METRICS
  kubectl apply -n "$NS" -f - >/dev/null <<YAML
apiVersion: jvmtuning.dev/v1alpha1
kind: TuningProfile
metadata: {name: $1, labels: {jvmtuning.dev/drill: oom}}
spec:
  targetRef: {kind: Deployment, name: $1}
  runtime: SpringBootTomcat
  mode: Apply
  workload: {requestsPerSecond: 20, meanLatency: 50ms, cpuPerRequest: 4ms, maxQueueWait: 1s}
  jvmOptions: $2
  metrics: $3
YAML
}

demand_env() { # KIND MIB
  printf '        env:\n        - {name: LEAK, value: "%s"}\n        - {name: LEAK_MIB, value: "%s"}\n        - {name: LEAK_RAMP_SECONDS, value: "%s"}' \
    "$1" "$2" "$RAMP"
}

# Tuned before any pod starts: no pod runs the Deployment's own template first.
start_tuned() { # NAME
  profile "$1" "$BUDGET_JVM_OPTIONS" "$BUDGET_METRICS" &&
    await 180 "deployment/$1 tuned by its profile" tuned "$1" &&
    kubectl scale deployment "$1" -n "$NS" --replicas=1 >/dev/null
}

# The room the first plan leaves: the limit less a Ready baseline pod's resident set, the larger of two readings a poll
# apart. Prints it in MiB. Every step is checked here: a caller's `||` turns `set -e` off inside.
baseline_room() {
  local hash pod first second resident limit
  workload oom-baseline 0 "$LIMIT" "" "" || return 1
  start_tuned oom-baseline || return 1
  hash="$(template_hash oom-baseline)"
  await "$TIMEOUT" "a Ready baseline pod" has_ready_pod oom-baseline "$hash" || return 1
  pod="$(ready_pod oom-baseline "$hash")"
  await "$TIMEOUT" "the baseline pod's resident set in status" resident_shown oom-baseline "$pod" || return 1
  sleep 20
  first="$(memory_of oom-baseline "$pod")" || return 1
  sleep 20
  second="$(memory_of oom-baseline "$pod")" || second="$first"
  resident=$(( ${first% *} > ${second% *} ? ${first% *} : ${second% *} )) limit="${first#* }"
  say baseline "pod $pod: resident ${resident}Mi of ${limit}Mi; $(tp_field oom-baseline '{.status.settings[?(@.name=="heap.size")].rationale}')" >&2
  kubectl delete deployment,tp oom-baseline -n "$NS" --wait=false >/dev/null
  echo $(( limit - resident ))
}

# One budget cause: killed and attributed under the first plan, then held under the answer. Writes its row.
budget_cause() { # CAUSE DEMAND-MIB
  local cause="$1" demand="$2" name="oom-$1" expected="${EXPECTED[$1]}" attributed="-" answer="-" verdict=FAIL why=""
  if ! { workload "$name" 0 "$LIMIT" "$(demand_env "$cause" "$demand")" "" && start_tuned "$name"; }; then
    row "$cause" "$expected" - - FAIL "the profile did not tune deployment/$name"
    return
  fi
  local first; first="$(template_hash "$name")"
  say "$cause" "first plan $first, demand ${demand}Mi over ${RAMP} s; waiting for the kill"
  if ! await "$TIMEOUT" "an OOM kill of $name in status" killed "$name"; then
    why="no OOM kill within ${TIMEOUT} s"
  else
    attributed="$(tp_field "$name" '{.status.lastOomKill.cause}')"
    say "$cause" "$(tp_field "$name" '{.status.lastOomKill.message}')"
    if [ "$attributed" != "$expected" ]; then
      why="attributed to $attributed, expected $expected"
    elif ! await 60 "the Warning Event OOMKilled naming cause $expected" event_names "$name" "$expected"; then
      why="no Warning Event OOMKilled naming cause $expected"
    else
      hold "$name" "$first" && verdict=PASS || why="$(cat "$RESULTS/$name.why")"
      answer="$(cat "$RESULTS/$name.answer" 2>/dev/null || echo -)"
    fi
  fi
  row "$cause" "$expected" "$attributed" "$answer" "$verdict" "$why"
}

event_names() { # NAME CAUSE
  kubectl get events -n "$NS" --field-selector "involvedObject.kind=TuningProfile,involvedObject.name=$1,reason=OOMKilled,type=Warning" \
    -o jsonpath='{range .items[*]}{.message}{"\n"}{end}' | grep -q "cause $2:"
}

# The answer rolled out, the same demand reached again, then DRILL_HOLD seconds without a kill and under 90% of the limit.
hold() { # NAME FIRST-HASH
  local name="$1" first="$2" answered pod restarts kill_at end peak=0 limit=0 reading resident
  if ! await "$TIMEOUT" "a new plan for $name" new_plan "$name" "$first"; then
    echo "no new plan after the kill" >"$RESULTS/$name.why"; return 1
  fi
  answered="$(template_hash "$name")"
  kubectl get tp "$name" -n "$NS" -o json | jq -r '[.status.settings[] | select(.rule == "R9b" or .name == "heap.size")
    | "\(.name)=\(.value)"] | join(" ")' >"$RESULTS/$name.answer"
  say "${name#oom-}" "answer $answered: $(cat "$RESULTS/$name.answer")"
  if ! await "$TIMEOUT" "a Ready pod of $name's answer" has_ready_pod "$name" "$answered"; then
    echo "the answer's pod never became Ready" >"$RESULTS/$name.why"; return 1
  fi
  pod="$(ready_pod "$name" "$answered")"
  if ! await $((RAMP + 300)) "$pod holding its demand" demand_held "$pod"; then
    echo "pod $pod did not reach its demand (killed again?)" >"$RESULTS/$name.why"; return 1
  fi
  restarts="$(restarts_of "$pod")"
  say "${name#oom-}" "pod $pod holds the demand; holding ${HOLD} s"
  end=$((SECONDS + HOLD))
  while :; do
    # A kill of the pod that ran the first plan, still restarting while the answer rolled out, is not one under the answer.
    if [ "$(restarts_of "$pod")" != "$restarts" ] || [ -n "$(last_oom_kill_of "$pod")" ] \
      || [ "$(tp_field "$name" '{.status.lastOomKill.settingsHash}')" = "$answered" ]; then
      echo "OOM-killed under the answer: $(tp_field "$name" '{.status.lastOomKill.message}')" >"$RESULTS/$name.why"; return 1
    fi
    if [ "$(template_hash "$name")" != "$answered" ]; then
      echo "the answer was replaced during the hold (by settings $(template_hash "$name"); last kill: $(tp_field "$name" \
        '{.status.lastOomKill.message}'))" >"$RESULTS/$name.why"; return 1
    fi
    if reading="$(memory_of "$name" "$pod")"; then
      resident="${reading% *}" limit="${reading#* }"
      [ "$resident" -le "$peak" ] || peak="$resident"
    fi
    [ "$SECONDS" -lt "$end" ] || break
    sleep 15
  done
  [ "$limit" -gt 0 ] || { echo "no resident set of $pod in status during the hold" >"$RESULTS/$name.why"; return 1; }
  echo "$(cat "$RESULTS/$name.answer"); peak RSS ${peak}Mi of ${limit}Mi ($((100 * peak / limit))%)" >"$RESULTS/$name.answer"
  if [ $((100 * peak)) -ge $((90 * limit)) ]; then
    echo "resident set ${peak}Mi reached 90% of the ${limit}Mi limit" >"$RESULTS/$name.why"; return 1
  fi
  say "${name#oom-}" "held ${HOLD} s: 0 OOM kills, peak RSS ${peak}Mi of ${limit}Mi"
}
new_plan() { local now; now="$(template_hash "$1")"; [ -n "$now" ] && [ "$now" != "$2" ]; }
restarts_of() { kubectl get pod "$1" -n "$NS" -o jsonpath='{.status.containerStatuses[?(@.name=="app")].restartCount}' 2>/dev/null || echo "(pod gone)"; }
last_oom_kill_of() { kubectl get pod "$1" -n "$NS" -o jsonpath='{.status.containerStatuses[?(@.name=="app")].lastState.terminated.reason}' 2>/dev/null | grep -x OOMKilled || true; }

# The heap the template sizes itself, within 24 MiB of the limit: the operator keeps a user's heap and finds the plan cannot
# fit (Infeasible), so the pods run their own template, with the agent they carry themselves, which reports MaxHeapSize.
heap_cause() {
  local name=oom-heap expected="${EXPECTED[heap]}" attributed="-" answer="-" verdict=FAIL why="" xmx=$((HEAP_LIMIT_MIB - 24))
  profile "$name" '[]' '{injectAgent: false, port: 9404, path: /metrics, interval: 5s}'
  workload "$name" 1 "${HEAP_LIMIT_MIB}Mi" "$(demand_env heap $((xmx - 32)))
        - {name: JAVA_TOOL_OPTIONS, value: \"-Xmx${xmx}m -javaagent:/agent/jvm-tuning-agent.jar=port=9404,host=0.0.0.0\"}
        volumeMounts: [{name: agent, mountPath: /agent, readOnly: true}]" "      initContainers:
      - name: agent
        image: $AGENT_IMAGE
        imagePullPolicy: Never
        command: [cp, /jvm-tuning-agent.jar, /agent/jvm-tuning-agent.jar]
        volumeMounts: [{name: agent, mountPath: /agent}]
        securityContext: {allowPrivilegeEscalation: false, capabilities: {drop: [ALL]}}
      volumes: [{name: agent, emptyDir: {}}]"
  say heap "-Xmx${xmx}m in a ${HEAP_LIMIT_MIB}Mi limit, live heap growing to $((xmx - 32))Mi; waiting for the kill"
  if ! await "$TIMEOUT" "an OOM kill of $name in status" killed "$name"; then
    why="no OOM kill within ${TIMEOUT} s"
  else
    attributed="$(tp_field "$name" '{.status.lastOomKill.cause}')"
    say heap "$(tp_field "$name" '{.status.lastOomKill.message}')"
    answer="$(tp_field "$name" '{.status.conditions[?(@.type=="Applied")].reason}'): not re-planned, the heap is the template's"
    if [ "$attributed" != "$expected" ]; then
      why="attributed to $attributed, expected $expected"
    elif ! await 60 "the Warning Event OOMKilled naming cause $expected" event_names "$name" "$expected"; then
      why="no Warning Event OOMKilled naming cause $expected"
    else
      verdict=PASS
    fi
  fi
  row heap "$expected" "$attributed" "$answer" "$verdict" "$why"
}

row() { # CAUSE EXPECTED ATTRIBUTED ANSWER VERDICT WHY
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$@" >"$RESULTS/row.$1"
}

step "the workload image (rebuilt only when the lab app changed)"
"$REPO_ROOT/deploy/local/images.sh" workload
kubectl get deployment -n jvm-tuning-system jvm-tuning-operator >/dev/null || die "no operator in jvm-tuning-system: run demo.sh first"
kubectl delete tp,deployment -n "$NS" -l jvmtuning.dev/drill=oom --ignore-not-found --wait=true --timeout=120s >/dev/null ||
  log "an earlier run's objects are still being deleted"

budget_causes=()
for cause in "${CAUSES[@]}"; do [ "$cause" = heap ] || budget_causes+=("$cause"); done
pids=()
if [[ " ${CAUSES[*]} " == *" heap "* ]]; then heap_cause & pids+=($!); fi
if [ "${#budget_causes[@]}" -gt 0 ]; then
  if [ -n "${DRILL_LEAK_MIB:-}" ]; then
    demand="$DRILL_LEAK_MIB"
  else
    step "baseline: the room the first plan leaves in a $LIMIT limit"
    room="$(baseline_room)" || die "no baseline: the room the first plan leaves is unknown (set DRILL_LEAK_MIB to skip it)"
    demand=$((room + MARGIN))
    say baseline "room ${room}Mi: each demand is ${demand}Mi"
  fi
  step "budget causes: ${budget_causes[*]}, side by side"
  for cause in "${budget_causes[@]}"; do budget_cause "$cause" "$demand" & pids+=($!); done
fi
for pid in "${pids[@]}"; do wait "$pid" || true; done

failures=0
printf '\n%-10s %-17s %-17s %-6s %s\n' CAUSE EXPECTED ATTRIBUTED RESULT "ANSWER / WHY"
for cause in "${CAUSES[@]}"; do
  if [ -f "$RESULTS/row.$cause" ]; then
    IFS=$'\t' read -r _ expected attributed answer verdict why <"$RESULTS/row.$cause"
  else
    expected="${EXPECTED[$cause]}" attributed="-" answer="-" verdict=FAIL why="the drill of this cause ended without a result"
  fi
  printf '%-10s %-17s %-17s %-6s %s\n' "$cause" "$expected" "$attributed" "$verdict" "${why:-$answer}"
  [ "$verdict" = PASS ] || failures=$((failures + 1))
done
printf '\n%d of %d causes attributed and answered in %d s\n' $(( ${#CAUSES[@]} - failures )) "${#CAUSES[@]}" $((SECONDS - began))
[ "$failures" -eq 0 ]
