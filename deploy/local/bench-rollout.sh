#!/usr/bin/env bash
# Times, on the real node after demo.sh, `kubectl apply` of the demo's profile until every pod of the
# Deployment is Ready and its running JVM reports the tuned flags; the profile is deleted (and the
# pods rolled back) between runs. Prints each time and the median.
# Usage: bench-rollout.sh [RUNS]   (default 10; each run rolls the pods twice, about 2 minutes)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
export KUBECONFIG="$KUBECONFIG_FILE"
NS="${NAMESPACE:-shop}"
MANIFEST="$REPO_ROOT/deploy/local/demo/orders-api.yaml"
runs="${1:-10}"

tuned_everywhere() {
  local pod
  for pod in $(kubectl get pods -n "$NS" -l app=orders-api -o json |
      jq -r '.items[] | select(.metadata.deletionTimestamp == null) | .metadata.name'); do
    kubectl exec -n "$NS" "$pod" -c app -- env -u JAVA_TOOL_OPTIONS java -m jdk.jcmd/sun.tools.jcmd.JCmd 1 VM.flags |
      grep -q -- '-XX:MaxGCPauseMillis=100' || return 1
  done
}

times=()
for run in $(seq "$runs"); do
  kubectl delete tp orders-api -n "$NS" --ignore-not-found --timeout=60s >/dev/null
  kubectl rollout status deployment/orders-api -n "$NS" --timeout=180s >/dev/null
  began="$(date +%s.%N)"
  kubectl apply -n "$NS" -f "$MANIFEST" >/dev/null
  kubectl wait --for=condition=Ready tp/orders-api -n "$NS" --timeout=240s >/dev/null
  kubectl rollout status deployment/orders-api -n "$NS" --timeout=180s >/dev/null
  ended="$(date +%s.%N)"
  tuned_everywhere || { echo "run $run: a pod's JVM does not report the tuned flags" >&2; exit 1; }
  times+=("$(echo "$ended - $began" | bc)")
  printf 'run %d: %.1f s from apply to all pods Ready with the tuned flags\n' "$run" "${times[-1]}"
done
printf '%s\n' "${times[@]}" | sort -n | awk '{t[NR] = $1} END {m = NR % 2 ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2; printf "median of %d: %.1f s (min %.1f, max %.1f)\n", NR, m, t[1], t[NR]}'
