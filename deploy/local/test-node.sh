#!/usr/bin/env bash
# The tests on the real node: snapshots the host (host-state.sh), runs the demo (cluster up, images,
# helm install, the operator and a Spring Boot service as real pods, profile Ready with metrics)
# and the end-to-end checks (e2e.sh), brings the cluster down, and fails when the host differs
# from the first snapshot. Every wait is bounded; down.sh runs whatever happens. Holds the host's node
# lock throughout, so a demo or another test run started meanwhile waits for it.
# Needs root (see up.sh).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
[ "$(id -u)" -eq 0 ] || { echo "the real-node tests need root (up.sh creates a bridge, cgroups and network namespaces)" >&2; exit 1; }
hold_node
# The demo leaves its cluster up, and a failed run may too: the host is compared before and after a
# cluster of the tests' own, so one already up is stopped first (demo.sh starts it again).
running="$(running_cluster)"
[ -z "$running" ] || stop_cluster "$running" "the tests compare the host before and after a cluster of their own (deploy/local/demo.sh starts it again)"
snapshots="$(mktemp -d)"
"$REPO_ROOT/deploy/local/host-state.sh" >"$snapshots/before"
export E2E_FAILURES="$snapshots/e2e-failures"

finish() {
  local status=$?
  trap - EXIT
  if [ "$status" -ne 0 ] && [ -d "$JTO_STATE/logs" ]; then
    echo "--- the real-node tests failed; last lines of each component's log:" >&2
    for log in "$JTO_STATE"/logs/*.log; do echo "--- $log" >&2; tail -n 15 "$log" >&2; done
    KUBECONFIG="$KUBECONFIG_FILE" kubectl get pods -A -o wide >&2 2>/dev/null || true
  fi
  "$REPO_ROOT/deploy/local/down.sh" || true
  "$REPO_ROOT/deploy/local/host-state.sh" >"$snapshots/after"
  if ! diff -u "$snapshots/before" "$snapshots/after" >&2; then
    echo "FAILED: down.sh left the host changed (diff above: - before up.sh, + after down.sh)" >&2
    status=1
  else
    echo "down.sh left the host as up.sh found it" >&2
  fi
  # Last, where a run's tail shows it: which end-to-end checks failed and how they ended.
  [ ! -s "$E2E_FAILURES" ] || { echo "--- end-to-end checks that failed:"; cat "$E2E_FAILURES"; } >&2
  rm -rf "$snapshots"
  exit "$status"
}
trap finish EXIT

# bounded SECONDS SCRIPT: runs a script within its bound, and says so when the bound stopped it (timeout's own exit
# is silent, and a stopped e2e.sh reports no check as failed).
bounded() { # SECONDS SCRIPT [ARGUMENT...]
  local status=0
  timeout "$1" "${@:2}" || status=$?
  [ "$status" -ne 124 ] || echo "--- $(basename "$2") did not finish within $1 s and was stopped" | tee -a "$E2E_FAILURES" >&2
  return "$status"
}
bounded 2400 "$REPO_ROOT/deploy/local/demo.sh"
# The other controllers checks 13 and 14 run beside the operator (metrics-server and the VPA): built from the Go module proxy on
# first use (about 10 minutes on 2 cores, cached afterwards), outside the checks' own bound.
bounded 1800 "$REPO_ROOT/deploy/local/images.sh" autoscalers
# The checks take about forty minutes on a 2-core machine.
bounded 3600 "$REPO_ROOT/deploy/local/e2e.sh"
