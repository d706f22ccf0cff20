#!/usr/bin/env bash
# Measures spec.startupBoost on the real node after demo.sh: three one-replica Deployments of the lab workload
# (Spring Boot, Tomcat), each with limits.cpu 500m (request 100m: Burstable, so a boost's request stays and always
# fits the node) and a TuningProfile in mode Apply:
#   none   no boost: the operator pins -XX:ActiveProcessorCount=1 from the 500m limit;
#   naive  a boost the JVM is not told about: this script raises the pod's CPU limit to BOOST_CPU through pods/resize
#          as soon as the pod is on the node, and lowers it to 500m BOOST_WARMUP seconds after Ready. A JVM sizes its
#          GC and JIT threads and the pools the operator plans from the CPUs it sees when it starts, and whether the
#          resize lands before the JVM reads its quota is a race; so the container carries the outcome the boost aims
#          for, JAVA_TOOL_OPTIONS=-XX:ActiveProcessorCount=<BOOST_CPU>: the JVM sized for the boosted CPUs every time,
#          which the operator keeps as the user's own and plans the threads from;
#   boost  spec.startupBoost {cpu: BOOST_CPU, warmUp: BOOST_WARMUP}: raised and lowered by the operator, the JVM pinned
#          to the 500m limit's one CPU.
# 1. Start-up: BOOST_ROUNDS rounds, the variants in an order rotated each round; each start is a scale 0 -> 1 with
#    nothing else of the benchmark starting or boosted, timed from the pod's creationTimestamp to its Ready
#    condition's lastTransitionTime (the API server's clock, whole seconds; the readiness probe runs every 2 s).
#    Prints each time, per variant the median with a bootstrap 95% interval, and the ratio of medians boost/none.
# 2. After every boost has ended (the pods' applied CPU limit back to 500m), the same open-loop load against each
#    pod's address: BOOST_LOAD_RATE requests a second, each burning BOOST_LOAD_CPU_MS of CPU and allocating
#    BOOST_LOAD_ALLOC_KB of garbage (lab workload /work, the app holding BOOST_LIVE_SET_MB of live heap; garbage makes
#    the collector's threads, as many as the CPUs the JVM was sized for, run beside the requests), with curl from this
#    host. Each pod first takes one slice of it unmeasured (round 0: its JIT compiles the request path, its heap takes
#    its shape), then BOOST_LOAD_SECONDS in all cut into BOOST_LOAD_SLICES slices a variant, run interleaved: in each
#    round every variant gets one slice, in an order rotated each round, so whatever else the machine runs meanwhile
#    falls on every variant alike. A slice records the container's throttled periods and CPU time (cgroup cpu.stat,
#    and cpuacct.usage on v1, before and after) and its requests' latencies, tagged with its round.
#    Prints per variant, pooled over the measured rounds, the throttled periods of all periods, the latency p50 and
#    p99 and the CPU a request; then for boost/none, naive/none and boost/naive the ratios of those three, each with a
#    paired bootstrap 95% interval (the rounds resampled, the same rounds for both variants; a fixed seed, so
#    --summarize gives the same figures again). The verdicts, on throttling and p99:
#      at most 5% worse (than none): yes when both point estimates are at most 1.05; a yes whose intervals reach above
#        1.05 says so: the run could not tell more than 5% from noise;
#      better than naive: yes when both boost/naive point estimates are below 1 and both intervals' upper ends too
#        (measurably better); otherwise not shown.
# Every wait is bounded; the load is bounded in requests and time, to pod addresses only. The benchmark's objects
# carry the label bench=startup-boost and are deleted at the end, however it ends.
# Usage: bench-boost.sh                 (about 30 minutes with the defaults on 2 cores: 20 of them the load)
#        bench-boost.sh --summarize DIR (the figures again, from the files of an earlier run)
# Knobs: BOOST_ROUNDS (3), BOOST_LOAD_SECONDS (360 a variant, a whole multiple of the slices), BOOST_LOAD_SLICES (12),
#        BOOST_LOAD_RATE (10), BOOST_LOAD_CPU_MS (25), BOOST_LOAD_ALLOC_KB (8192), BOOST_LIVE_SET_MB (64),
#        BOOST_CPU (4: on a 2-core node no faster to start than 2, and a JVM sized for it picks G1 with 4 GC threads),
#        BOOST_WARMUP (30, seconds),
#        BOOST_RESULTS (a new directory under /tmp: the times, and per variant VARIANT.throttled with lines
#        "ROUND PERIODS THROTTLED CPU-MICROSECONDS" and VARIANT.latency with lines "ROUND HTTP-CODE SECONDS"; kept).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
export KUBECONFIG="$KUBECONFIG_FILE"
NS="${NAMESPACE:-shop}"
ROUNDS="${BOOST_ROUNDS:-3}"
LOAD_SECONDS="${BOOST_LOAD_SECONDS:-360}"
SLICES="${BOOST_LOAD_SLICES:-12}"
LOAD_RATE="${BOOST_LOAD_RATE:-10}"
LOAD_CPU_MS="${BOOST_LOAD_CPU_MS:-25}"
LOAD_ALLOC_KB="${BOOST_LOAD_ALLOC_KB:-8192}"
LIVE_SET_MB="${BOOST_LIVE_SET_MB:-64}"
BOOST_CPU="${BOOST_CPU:-4}"
WARMUP="${BOOST_WARMUP:-30}"
LIMIT=500m
LABEL="bench=startup-boost" # the selector; the objects' metadata says bench: startup-boost
VARIANTS=(none naive boost)

deployment_of() { echo "bench-boost-$1"; }

# startup_summary FILE: the lines "VARIANT SECONDS" summarised per variant: median, a bootstrap 95% interval of the
# median, and the ratio of medians boost/none with its own.
startup_summary() { python3 "$REPO_ROOT/deploy/local/resampling.py" "$1" "boost/none<=0.65"; }

# load_summary DIR: per variant, pooled over the rounds, the throttled periods (DIR/VARIANT.throttled: "ROUND PERIODS
# THROTTLED" deltas) and the latencies of DIR/VARIANT.latency ("ROUND HTTP-CODE SECONDS" a request); then the ratios
# of throttled-period fractions and of p99s for each pair, with paired bootstrap intervals, and the verdicts.
load_summary() {
  PYTHONPATH="$REPO_ROOT/deploy/local" python3 - "$1" "${VARIANTS[@]}" <<'PY'
import math, os, sys
from resampling import DRAWS, interval_of, seeded
directory, variants = sys.argv[1], sys.argv[2:]
def rank(xs, q):
    return xs[max(0, math.ceil(q * len(xs)) - 1)]
# Per variant and measured round (round 0 is each pod's warm-up): periods, throttled periods, CPU microseconds (None
# in runs from before it was read), the answered requests' milliseconds and the count of requests sent.
periods, throttled, used, latencies, sent = {}, {}, {}, {}, {}
for variant in variants:
    path = os.path.join(directory, variant + ".latency")
    if not os.path.exists(path):
        continue
    periods[variant], throttled[variant], used[variant], latencies[variant], sent[variant] = {}, {}, {}, {}, {}
    for line in open(os.path.join(directory, variant + ".throttled")):
        r, p, t, *u = line.split()
        if r == "0":
            continue
        periods[variant][r], throttled[variant][r] = int(p), int(t)
        used[variant][r] = int(u[0]) if u else None
    for line in open(path):
        r, code, seconds = line.split()
        if r == "0":
            continue
        sent[variant][r] = sent[variant].get(r, 0) + 1
        if code == "200":
            latencies[variant].setdefault(r, []).append(float(seconds) * 1000)
# A ratio over zero: equal when both are zero, else unbounded.
def ratio(a, b):
    return a / b if b else (1.0 if a == 0 else math.inf)
# Of no periods (no CPU used) none was throttled.
def fraction(throttled, periods):
    return throttled / periods if periods else 0.0
FIGURES = ("throttled fraction", "p99", "CPU per request")
# Pooled over the given rounds (repeats count again): the figures above, each None when unknown (p99: nothing answered;
# CPU: not read, or nothing sent).
def pooled(variant, rounds):
    ok = sorted(x for r in rounds for x in latencies[variant].get(r, []))
    share = fraction(sum(throttled[variant][r] for r in rounds), sum(periods[variant][r] for r in rounds))
    cpu = [used[variant][r] for r in rounds]
    requests = sum(sent[variant].get(r, 0) for r in rounds)
    per_request = sum(cpu) / 1000 / requests if None not in cpu and requests else None
    return share, (rank(ok, 0.99) if ok else None), per_request
for variant in periods:
    ok = sorted(x for xs in latencies[variant].values() for x in xs)
    t, p = sum(throttled[variant].values()), sum(periods[variant].values())
    asked = sum(sent[variant].values())
    if not ok:
        print(f"{variant:6} no request answered (of {asked})")
        continue
    cpu = pooled(variant, list(periods[variant]))[2]
    print(f"{variant:6} throttled {t} of {p} periods ({fraction(t, p):.3f}); latency p50 {rank(ok, 0.5):.0f} ms, "
          f"p99 {rank(ok, 0.99):.0f} ms; " + ("" if cpu is None else f"CPU {cpu:.1f} ms a request; ")
          + f"{len(ok)} of {asked} answered 200, {len(periods[variant])} rounds")
answered = [v for v in periods if latencies[v]]
# Rounds are the unit of resampling: every variant ran once in each, so one draw of rounds serves every pair.
rounds = sorted(set.intersection(*(set(periods[v]) for v in answered))) if answered else []
pairs = [(a, b) for a, b in (("boost", "none"), ("naive", "none"), ("boost", "naive")) if a in answered and b in answered]
if not pairs or not rounds:
    sys.exit(0)
# A figure of nothing answered is taken as unbounded: such a draw counts against the variant that answered nothing. A
# figure not read at all (CPU in older runs) gives no ratio.
def ratio_of(x, y, known):
    return None if not known else math.inf if x is None else 0.0 if y is None else ratio(x, y)
def ratios(rounds):
    figures = {v: pooled(v, rounds) for v in answered}
    return {(a, b): tuple(ratio_of(x, y, i < 2 or (x is not None and y is not None))
                          for i, (x, y) in enumerate(zip(figures[a], figures[b]))) for a, b in pairs}
point = ratios(rounds)
rng = seeded()
draws = [ratios(rng.choices(rounds, k=len(rounds))) for _ in range(DRAWS)]
for a, b in pairs:
    known = [i for i, x in enumerate(point[(a, b)]) if x is not None]
    bounds = {i: interval_of(d[(a, b)][i] for d in draws) for i in known}
    line = f"{a}/{b}: " + ", ".join(f"{FIGURES[i]} {point[(a, b)][i]:.2f} ({bounds[i][0]:.2f}-{bounds[i][1]:.2f})" for i in known)
    line += f", 95% intervals, {len(rounds)} rounds"
    # The verdicts are on what the issue of a boost is about: throttling and the slowest answers.
    (throttled_ratio, p99_ratio) = point[(a, b)][:2]
    (t_low, t_high), (p_low, p_high) = bounds[0], bounds[1]
    if b == "none":
        worse = throttled_ratio > 1.05 or p99_ratio > 1.05
        line += f"; at most 5% worse: {'no' if worse else 'yes' if max(t_high, p_high) <= 1.05 else 'yes, but the intervals reach above 1.05'}"
    else:
        better = throttled_ratio < 1 and p99_ratio < 1 and t_high < 1 and p_high < 1
        line += f"; better than {b}: {'yes' if better else 'not shown'}"
    print(line)
PY
}

if [ "${1:-}" = --summarize ]; then
  [ -d "${2:-}" ] || die "usage: $0 --summarize DIR"
  startup_summary "$2/startup"
  load_summary "$2"
  exit 0
fi
[ $# -eq 0 ] || die "usage: $0   (knobs in its header), or $0 --summarize DIR"

[ "$SLICES" -ge 1 ] && [ $((LOAD_SECONDS % SLICES)) -eq 0 ] ||
  die "BOOST_LOAD_SECONDS ($LOAD_SECONDS) must be a whole multiple of BOOST_LOAD_SLICES ($SLICES)"
SLICE_SECONDS=$((LOAD_SECONDS / SLICES))
RESULTS="${BOOST_RESULTS:-$(mktemp -d /tmp/bench-boost.XXXXXX)}"
mkdir -p "$RESULTS"
: > "$RESULTS/startup"

cleanup() {
  local jobs; jobs="$(jobs -p)"
  [ -z "$jobs" ] || kill $jobs 2>/dev/null || true
  # The profiles first: deleting one restores its Deployment, which then goes too.
  kubectl delete tp -n "$NS" -l "$LABEL" --ignore-not-found --timeout=60s >/dev/null || true
  kubectl delete deployment -n "$NS" -l "$LABEL" --ignore-not-found --wait=false >/dev/null || true
}
trap cleanup EXIT

# ---- Reading the pods ----

# The variant's pod that is not on its way out, if any.
pod_of() {
  kubectl get pods -n "$NS" -l "app=$(deployment_of "$1")" -o json |
    jq -r '[.items[] | select(.metadata.deletionTimestamp == null)] | first | .metadata.name // empty'
}
on_node() { [ -n "$(kubectl get pod -n "$NS" "$1" -o jsonpath='{.spec.nodeName}')" ]; }
ready() { [ "$(kubectl get pod -n "$NS" "$1" -o jsonpath='{.status.conditions[?(@.type=="Ready")].status}')" = True ]; }
# The CPU limit the kubelet applied, not the one asked for.
applied_cpu() { kubectl get pod -n "$NS" "$1" -o jsonpath='{.status.containerStatuses[0].resources.limits.cpu}'; }
at_own_limit() { [ "$(applied_cpu "$1")" = "$LIMIT" ]; }
no_pods() { [ -z "$(pod_of "$1")" ]; }
# Seconds from the pod's creation to Ready, both the API server's times.
startup_seconds() {
  kubectl get pod -n "$NS" "$1" -o json | jq -r '(.status.conditions[] | select(.type == "Ready") | .lastTransitionTime | fromdate)
    - (.metadata.creationTimestamp | fromdate)'
}
ready_epoch() { kubectl get pod -n "$NS" "$1" -o jsonpath='{.status.conditions[?(@.type=="Ready")].lastTransitionTime}' | jq -Rr 'fromdate'; }
active_processors() {
  kubectl exec -n "$NS" "$1" -c app -- env -u JAVA_TOOL_OPTIONS java -m jdk.jcmd/sun.tools.jcmd.JCmd 1 VM.flags |
    grep -o -- '-XX:ActiveProcessorCount=[0-9]*' || echo "no -XX:ActiveProcessorCount (the JVM reads its quota)"
}
# "PERIODS THROTTLED CPU-MICROSECONDS" from the container's cgroup: v1 (cpu.stat and cpuacct.usage in ns) and v2 alike.
cpu_stat() {
  kubectl exec -n "$NS" "$1" -c app -- sh -c 'if [ -f /sys/fs/cgroup/cpu.stat ]; then cat /sys/fs/cgroup/cpu.stat;
      else cat /sys/fs/cgroup/cpu/cpu.stat; echo "usage_ns $(cat /sys/fs/cgroup/cpuacct/cpuacct.usage)"; fi' |
    awk '$1 == "nr_periods" {p = $2} $1 == "nr_throttled" {t = $2} $1 == "usage_usec" {u = $2} $1 == "usage_ns" {u = int($2 / 1000)}
      END {print p, t, u}'
}

# resize POD CPU: the naive boost's in-place change of the container's CPU limit, as any client could make it.
resize() {
  kubectl patch pod -n "$NS" "$1" --subresource resize --type strategic \
    -p "{\"spec\":{\"containers\":[{\"name\":\"app\",\"resources\":{\"limits\":{\"cpu\":\"$2\"}}}]}}" >/dev/null
}

# ---- The variants ----

setup() { # VARIANT CONTAINER-ENV-ENTRIES PROFILE-EXTRA
  workload_deployment "$(deployment_of "$1")" 1 \
    "        resources: {requests: {cpu: 100m, memory: 512Mi}, limits: {cpu: $LIMIT, memory: 512Mi}}
        env: [{name: LAB_LIVE_SET_MB, value: \"$LIVE_SET_MB\"}$2]" "" "bench: startup-boost" | kubectl apply -n "$NS" -f - >/dev/null
  kubectl apply -n "$NS" -f - >/dev/null <<YAML
apiVersion: jvmtuning.dev/v1alpha1
kind: TuningProfile
metadata: {name: $(deployment_of "$1"), labels: {bench: startup-boost}}
spec:
  targetRef: {kind: Deployment, name: $(deployment_of "$1")}
  runtime: SpringBootTomcat
  mode: Apply
  workload: {requestsPerSecond: 20, meanLatency: 50ms, cpuPerRequest: 4ms, maxQueueWait: 1s}
$3
YAML
}

# start VARIANT: scales the variant from none to one pod, boosts it the naive way if that is the variant, and prints
# the pod's name once it is Ready.
start() {
  local deployment pod
  deployment="$(deployment_of "$1")"
  kubectl scale deployment "$deployment" -n "$NS" --replicas=1 >/dev/null
  # Run in $(...), where `set -e` is off: each step stops it itself.
  wait_for 60 "a pod of $deployment" pod_of "$1" || return
  pod="$(pod_of "$1")"
  if [ "$1" = naive ]; then
    wait_for 60 "$pod on the node" on_node "$pod" || return
    wait_for 30 "$pod resized to $BOOST_CPU CPU" resize "$pod" "$BOOST_CPU" || return
  fi
  wait_for 300 "$pod Ready" ready "$pod" || return
  echo "$pod"
}

# settle VARIANT POD, right after the pod turned Ready: checks that a boosted variant still runs boosted, and waits
# for the boost to end: the script's own for naive, the operator's for boost.
settle() {
  [ "$1" = none ] || [ "$(applied_cpu "$2")" != "$LIMIT" ] || die "$2 ($1) was Ready at $LIMIT CPU: it was not boosted"
  case "$1" in
    naive)
      local left=$(( $(ready_epoch "$2") + WARMUP - $(date +%s) ))
      [ "$left" -le 0 ] || sleep "$left"
      wait_for 30 "$2 resized back to $LIMIT" resize "$2" "$LIMIT" ;;
    boost) ;;
    *) return 0 ;;
  esac
  wait_for $((WARMUP + 90)) "$2 back at $LIMIT CPU" at_own_limit "$2"
}

stop() {
  kubectl scale deployment "$(deployment_of "$1")" -n "$NS" --replicas=0 >/dev/null
  wait_for 120 "the pod of $(deployment_of "$1") gone" no_pods "$1"
}

# load ROUND VARIANT POD: one slice of the fixed-rate load against the pod's address, SLICE_SECONDS long; each
# request's code and seconds, and the slice's throttled periods, appended to the variant's files tagged with ROUND.
load() {
  local ip before after periods throttled used periods_after throttled_after used_after
  local i due now total=$((SLICE_SECONDS * LOAD_RATE)) began
  ip="$(kubectl get pod -n "$NS" "$3" -o jsonpath='{.status.podIP}')"
  before="$(cpu_stat "$3")"
  began="$(date +%s%N)"
  for ((i = 0; i < total; i++)); do
    # Open loop: the i-th request leaves at its own time, whatever the earlier ones are waiting for.
    due=$((began + i * 1000000000 / LOAD_RATE)) now="$(date +%s%N)"
    [ "$due" -le "$now" ] || sleep "$(printf '%d.%09d' $(((due - now) / 1000000000)) $(((due - now) % 1000000000)))"
    curl -s -m 10 -o /dev/null -w "$1 %{http_code} %{time_total}\n" "http://$ip:8080/work?cpuMs=$LOAD_CPU_MS&allocKb=$LOAD_ALLOC_KB" >> "$RESULTS/$2.latency" &
  done
  wait
  after="$(cpu_stat "$3")"
  read -r periods throttled used <<<"$before"
  read -r periods_after throttled_after used_after <<<"$after"
  echo "$1 $((periods_after - periods)) $((throttled_after - throttled)) $((used_after - used))" >> "$RESULTS/$2.throttled"
}

# ---- The run ----
began=$SECONDS
step "Three Deployments at limits.cpu $LIMIT, their profiles Applied (results in $RESULTS)"
kubectl get crd tuningprofiles.jvmtuning.dev >/dev/null || die "no TuningProfile CRD: run deploy/local/demo.sh first"
setup none "" ""
setup naive ", {name: JAVA_TOOL_OPTIONS, value: \"-XX:ActiveProcessorCount=$BOOST_CPU\"}" ""
setup boost "" "  startupBoost: {cpu: \"$BOOST_CPU\", warmUp: ${WARMUP}s}"
for variant in "${VARIANTS[@]}"; do
  kubectl wait --for=condition=RolloutComplete "tp/$(deployment_of "$variant")" -n "$NS" --timeout=300s >/dev/null
  kubectl rollout status "deployment/$(deployment_of "$variant")" -n "$NS" --timeout=300s >/dev/null
done
for variant in "${VARIANTS[@]}"; do
  echo "$variant: $(active_processors "$(pod_of "$variant")")"
  stop "$variant"
done

step "Start-up, $ROUNDS rounds: pod creation to Ready, the variants one at a time"
for round in $(seq "$ROUNDS"); do
  for i in 0 1 2; do
    variant="${VARIANTS[$(((round + i) % 3))]}"
    pod="$(start "$variant")"
    seconds="$(startup_seconds "$pod")"
    echo "$variant $seconds" >> "$RESULTS/startup"
    printf 'round %d %-6s %3d s   (%s)\n' "$round" "$variant" "$seconds" "$pod"
    settle "$variant" "$pod"
    stop "$variant"
  done
done
startup_summary "$RESULTS/startup"

# slice ROUND VARIANT: one slice of the load against the variant's pod, at its own CPU limit, and what it throttled.
slice() {
  local pod="${pods[$2]}"
  at_own_limit "$pod" || die "$pod runs at $(applied_cpu "$pod") CPU, not $LIMIT"
  load "$1" "$2" "$pod"
  printf 'round %d %-6s %s\n' "$1" "$2" "$(tail -n 1 "$RESULTS/$2.throttled" | awk '{print $3 " of " $2 " periods throttled"}')"
}

step "After the boosts: ${LOAD_RATE} requests/s of ${LOAD_CPU_MS} ms CPU and ${LOAD_ALLOC_KB} KiB of garbage, a warm-up (round 0) and ${SLICES} rounds of ${SLICE_SECONDS} s against each pod"
# Started one at a time as in the rounds, each boost ended before the next starts.
declare -A pods
for variant in "${VARIANTS[@]}"; do
  pods[$variant]="$(start "$variant")"
  settle "$variant" "${pods[$variant]}"
  : > "$RESULTS/$variant.latency"
  : > "$RESULTS/$variant.throttled"
  slice 0 "$variant"
done
# Interleaved slices, the order rotated each round: what else the machine runs meanwhile falls on every variant alike,
# and the rounds pair the variants for the intervals.
for round in $(seq "$SLICES"); do
  for i in 0 1 2; do
    slice "$round" "${VARIANTS[$(((round + i) % 3))]}"
  done
done
load_summary "$RESULTS"
printf '\n%d s in all; times and latencies in %s\n' $((SECONDS - began)) "$RESULTS"
