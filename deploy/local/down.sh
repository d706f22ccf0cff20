#!/usr/bin/env bash
# Stops the local control plane started by up.sh and removes its state; leaves no process behind.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
[ -f "$JTO_STATE/pids" ] || exit 0
# Controllers first, the store last, so nothing logs errors against a vanished etcd.
tac "$JTO_STATE/pids" | while read -r name pid; do
  kill "$pid" 2>/dev/null || continue
  for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -9 "$pid" 2>/dev/null || true
  echo "stopped $name" >&2
done
rm -rf "$JTO_STATE"
