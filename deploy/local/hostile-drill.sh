#!/usr/bin/env bash
# Hostile-endpoint drill, long version: 20 pods whose metrics endpoints drip a byte a second, send 16 MiB
# of tiny lines, hang after their headers, send garbage or redirect (4 of each), beside 3 healthy
# profiles, all scraped every 5 s by the real build in a JVM of its own with a fixed heap limit that
# exits on OutOfMemoryError. The API server is kube-api-test's (random ports, nothing of up.sh), the pods
# are fake and Ready on 127.77.x.y addresses with a real endpoint behind each. Prints heap, GC and CPU
# every minute and each healthy profile's longest time between scrapes; exits 1 if the operator died or
# a healthy profile went without fresh metrics (MetricsAvailable=True with a window, scraped in the last 20 s).
# Usage: deploy/local/hostile-drill.sh [MINUTES]   (default 10; DRILL_HEAP, default 128m)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
minutes="${1:-10}"
out="$REPO_ROOT/target/hostile-drill"
step "build: the operator and the drill's harness"
tools_build
step "drill: $minutes min"
tools_run dev.jvmtuning.operator.drills.HostileDrillMain "$minutes" "$OPERATOR_APP/quarkus-run.jar" "${DRILL_HEAP:-128m}" "$out"
