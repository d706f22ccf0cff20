#!/usr/bin/env bash
# Builds the operator if its sources changed and starts it against the local control plane, in the
# background; down.sh stops it with the rest. Log: $JTO_STATE/logs/operator.log.
# OPERATOR_KUBECONFIG: the identity it runs as (default: the admin kubeconfig);
# WATCH_NAMESPACES: comma-separated namespaces (default: all).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
app="$OPERATOR_APP/quarkus-run.jar"
log_file="$JTO_STATE/logs/operator.log"
if stale "$app" "${OPERATOR_SOURCES[@]}"; then
  maven -pl operator -am package -DskipTests
fi
if grep -q '^operator ' "$JTO_STATE/pids" 2>/dev/null; then
  log "operator already running"
  exit 0
fi
env KUBECONFIG="${OPERATOR_KUBECONFIG:-$KUBECONFIG_FILE}" \
  ${WATCH_NAMESPACES:+QUARKUS_OPERATOR_SDK_CONTROLLERS_TUNINGPROFILE_NAMESPACES=$WATCH_NAMESPACES} QUARKUS_HTTP_HOST=127.0.0.1 QUARKUS_HTTP_PORT="${OPERATOR_HTTP_PORT:-18080}" \
  nohup java -Xmx256m -jar "$app" >"$log_file" 2>&1 &
echo "operator $!" >>"$JTO_STATE/pids"
wait_for --pid "$!" 60 "the operator to start" grep -q "controller started" "$log_file" || die "the operator did not start; see $log_file"
log "operator running"
