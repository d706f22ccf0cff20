#!/usr/bin/env bash
# Plays the kubelet for a local control plane that has none: every pod of the namespace that is
# not yet Ready gets a status saying it runs and is Ready, with a loopback pod IP. The
# Deployment controller then counts those pods as available, as it would on a real node.
# Usage: mark-pods-ready.sh NAMESPACE [--watch SECONDS]
# Best effort by design: a pod that vanishes mid-rollout must not stop the loop, so no `set -e`.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
export KUBECONFIG="${KUBECONFIG:-$KUBECONFIG_FILE}"
ns="$1"; watch_seconds="${3:-0}"
deadline=$((SECONDS + watch_seconds))
while :; do
  now="$(date -u +%Y-%m-%dT%H:%M:%SZ)"
  kubectl get pods -n "$ns" -o jsonpath='{range .items[*]}{.metadata.name} {.status.phase}{"\n"}{end}' |
    while read -r pod phase; do
      [ -n "$pod" ] && [ "$phase" != "Running" ] || continue
      # A rollout deletes old pods at any moment: a pod gone between list and patch is skipped.
      containers="$(kubectl get pod -n "$ns" "$pod" -o jsonpath='{range .spec.containers[*]}{.name} {.image}{"\n"}{end}' 2>/dev/null |
        awk -v t="$now" 'BEGIN{ORS=","} {printf "{\"name\":\"%s\",\"image\":\"%s\",\"imageID\":\"\",\"ready\":true,\"started\":true,\"restartCount\":0,\"state\":{\"running\":{\"startedAt\":\"%s\"}}}", $1, $2, t}' | sed 's/,$//')"
      kubectl patch pod -n "$ns" "$pod" --subresource=status --type=merge -p "{\"status\":{\"phase\":\"Running\",\"podIP\":\"127.0.0.1\",\"podIPs\":[{\"ip\":\"127.0.0.1\"}],\"startTime\":\"$now\",\"conditions\":[{\"type\":\"Ready\",\"status\":\"True\",\"lastTransitionTime\":\"$now\"},{\"type\":\"ContainersReady\",\"status\":\"True\",\"lastTransitionTime\":\"$now\"},{\"type\":\"PodScheduled\",\"status\":\"True\",\"lastTransitionTime\":\"$now\"}],\"containerStatuses\":[$containers]}}" >/dev/null 2>&1
    done
  [ "$SECONDS" -lt "$deadline" ] || break
  sleep 1
done
