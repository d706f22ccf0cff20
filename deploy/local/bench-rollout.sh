#!/usr/bin/env bash
# Times, on the real node after demo.sh, `kubectl apply` of the demo's profile until every pod of the
# Deployment is Ready and its running JVM reports the tuned flags, in two variants side by side:
#   plain  the demo's manifest as it is;
#   boost  the same profile with spec.startupBoost {cpu: "2", warmUp: 30s}: each new pod starts at 2 CPUs
#          instead of its limit of 1 (the timing ends at Ready; the boost's end is not waited for).
# Each run times both, in an order alternating run by run (plain boost, then boost plain); the profile is
# deleted (and the pods rolled back) before each timing. Prints each time, per variant the median with a
# bootstrap 95% interval of the median, and the ratio of medians boost/plain with its own.
# Usage: bench-rollout.sh [RUNS]               (default 10; each run rolls the pods four times, about 4 minutes)
#        bench-rollout.sh --summarize FILE     (the figures again, from the times file of an earlier run)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
export KUBECONFIG="$KUBECONFIG_FILE"
NS="${NAMESPACE:-shop}"
MANIFEST="$REPO_ROOT/deploy/local/demo/orders-api.yaml"

summary() { python3 "$REPO_ROOT/deploy/local/resampling.py" "$1" boost/plain; }

if [ "${1:-}" = --summarize ]; then
  [ -f "${2:-}" ] || die "usage: $0 --summarize FILE"
  summary "$2"
  exit 0
fi
runs="${1:-10}"

# manifest VARIANT: the demo's manifest, for the boost variant with the boost added to the TuningProfile's spec.
manifest() {
  if [ "$1" = plain ]; then cat "$MANIFEST"; return; fi
  awk '/^kind: / {kind = $2} {print} kind == "TuningProfile" && /^spec:$/ {print "  startupBoost: {cpu: \"2\", warmUp: 30s}"}' "$MANIFEST"
}
[ "$(manifest boost | grep -c 'startupBoost:')" = 1 ] || die "no spec of a TuningProfile in $MANIFEST to add the boost to"

tuned_everywhere() {
  local pod
  for pod in $(kubectl get pods -n "$NS" -l app=orders-api -o json |
      jq -r '.items[] | select(.metadata.deletionTimestamp == null) | .metadata.name'); do
    kubectl exec -n "$NS" "$pod" -c app -- env -u JAVA_TOOL_OPTIONS java -m jdk.jcmd/sun.tools.jcmd.JCmd 1 VM.flags |
      grep -q -- '-XX:MaxGCPauseMillis=100' || return 1
  done
}

# The profile's StartupBoost condition: reasons other than these say no pod was boosted (see the how-to's table).
boosted() {
  local reason
  reason="$(kubectl get tp orders-api -n "$NS" -o jsonpath='{.status.conditions[?(@.type=="StartupBoost")].reason}')"
  case "$reason" in
    Boosting|NotBoosting) ;;
    *) echo "the boost did not happen: StartupBoost $reason, $(kubectl get tp orders-api -n "$NS" \
         -o jsonpath='{.status.conditions[?(@.type=="StartupBoost")].message}')" >&2; return 1 ;;
  esac
}

times="$(mktemp /tmp/bench-rollout.XXXXXX)"
echo "times into $times"

# timed RUN VARIANT: apply of the variant's manifest to every pod Ready with the tuned flags, its seconds into the
# times file and on a line of their own.
timed() {
  local began ended seconds
  kubectl delete tp orders-api -n "$NS" --ignore-not-found --timeout=60s >/dev/null
  kubectl rollout status deployment/orders-api -n "$NS" --timeout=180s >/dev/null
  began="$(date +%s.%N)"
  manifest "$2" | kubectl apply -n "$NS" -f - >/dev/null
  kubectl wait --for=condition=Ready tp/orders-api -n "$NS" --timeout=240s >/dev/null
  kubectl rollout status deployment/orders-api -n "$NS" --timeout=180s >/dev/null
  ended="$(date +%s.%N)"
  tuned_everywhere || die "run $1, $2: a pod's JVM does not report the tuned flags"
  [ "$2" = plain ] || boosted || die "run $1, $2: no pod was boosted"
  seconds="$(echo "$ended - $began" | bc)"
  echo "$2 $seconds" >> "$times"
  printf 'run %d %-5s %5.1f s from apply to all pods Ready with the tuned flags\n' "$1" "$2" "$seconds"
}

for run in $(seq "$runs"); do
  # Alternating which goes first, so neither always follows the other's rollback.
  if [ $((run % 2)) = 1 ]; then order=(plain boost); else order=(boost plain); fi
  for variant in "${order[@]}"; do timed "$run" "$variant"; done
done
# The demo's profile as it ships, whichever variant ran last.
manifest plain | kubectl apply -n "$NS" -f - >/dev/null
summary "$times"
